// An interrupted destroy end to end: a connection left deprovisioning by a killed destroy is waited for and
// created anew, with the routing protocol that depends on it, rather than planned as unchanged.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, objects, out, type Obj } from "./service.js";

// Slow enough (3 s) for the next plan and apply to find the connection still deprovisioning.
const t = useSimulator({ speed: 10 });

const live = async (kind: string): Promise<Obj[]> => (await objects(t, kind)).filter((o) => !/DEPROVISION|CANCELLED/.test(String(o.state)));

describe("after an interrupted destroy", () => {
  // A connection takes 5.5 s to provision here, twice, and 3 s to deprovision.
  const TIMEOUT = 60_000;
  it("after a destroy killed while a connection deprovisions, apply waits for it and creates it anew with its dependents", { timeout: TIMEOUT }, async () => {
    const yaml = `${CONFIG_HEADER}connections:\n${dcConnectionYaml("alpha", 1411, 1412)}routingProtocols:
  alpha-direct:
    connection: \${connections.alpha.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.40.1/30 }
`;
    const ws = workspace(yaml);
    const env = simEnv(t.url);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);

    const { child, done } = start(["destroy", "--auto-approve"], { cwd: ws.dir, env });
    let exited = false;
    void done.then(() => (exited = true));
    let killed = false;
    while (!exited && !killed) {
      if ((await objects(t, "connections")).some((c) => c.state === "DEPROVISIONING")) {
        child.kill("SIGKILL");
        killed = true;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await done;
    expect(killed, "the destroy was killed while the connection deprovisioned").toBe(true);

    const planned = await netform(["plan"], { cwd: ws.dir, env });
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toMatch(/\+ connections\.alpha/);
    expect(planned.stdout).toContain("an earlier delete is still running");
    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(applied.code, out(applied)).toBe(0);
    expect(await live("connections")).toHaveLength(1);
    expect(await live("routingProtocols")).toHaveLength(1);
    const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(clean.code, out(clean)).toBe(0);
  });
});
