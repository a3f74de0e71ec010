// Crash safety end to end: an apply killed with SIGKILL while resources are provisioning, and creates an
// earlier run left pending, are finished by the next apply with exactly one object per declared resource.
// The state file is read over and over while the killed apply runs: it must be valid JSON every time.

import { KIND_CATALOG } from "../../src/kinds/index.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfiguration, type Address } from "../../src/config/index.js";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace, type Workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, PROJECT, dcConnectionYaml } from "./service.js";

// Connections take 55 simulated seconds: about 1.4 s here, a wide window to kill the apply in.
const t = useSimulator({ speed: 40 });


const TOPOLOGY = `${CONFIG_HEADER}routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
connections:
${dcConnectionYaml("alpha", 1101, 1102)}${dcConnectionYaml("beta", 1111, 1112)}routingProtocols:
  alpha-direct:
    connection: \${connections.alpha.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.10.1/30 }
  alpha-bgp:
    connection: \${connections.alpha.uuid}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.10.2, enabled: true }
  beta-direct:
    connection: \${connections.beta.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.11.1/30 }
routeFilterAttachments:
  alpha-in:
    connection: \${connections.alpha.uuid}
    routeFilter: \${routeFilters.customer-in.uuid}
    direction: INBOUND
`;

const DECLARED: Record<string, number> = { routeFilters: 1, connections: 2, routingProtocols: 3, routeFilterAttachments: 1 };

/** States in which an object no longer counts as existing, per kind. */
const ENDED: Record<string, readonly string[]> = {
  connections: ["DEPROVISIONING", "DEPROVISIONED", "CANCELLED"],
  routingProtocols: ["DEPROVISIONING", "DEPROVISIONED"],
  routeFilters: ["DEPROVISIONING", "DEPROVISIONED"],
  routeFilterAttachments: ["DETACHING", "DETACHED"],
};

type Obj = Record<string, unknown>;

async function objects(kind: string): Promise<Obj[]> {
  return (await t.call("GET", `/__sim/objects?kind=${kind}`)).body.data;
}

const stateOf = (o: Obj): string => String(o.state ?? o.attachmentStatus ?? "");

async function live(kind: string): Promise<Obj[]> {
  return (await objects(kind)).filter((o) => !ENDED[kind]!.includes(stateOf(o)));
}

/** The live objects of every declared kind, counted. */
async function liveCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const kind of Object.keys(DECLARED)) out[kind] = (await live(kind)).length;
  return out;
}

const tick = () => new Promise((r) => setTimeout(r, 2));

/** A second apply after a killed one: the dead run left its lock, which is taken over because its process is gone. */
async function applyAfterCrash(ws: Workspace, env: Record<string, string>) {
  const result = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
  expect(result.stderr).not.toContain("locked by");
  return result;
}

describe("crash safety", () => {
  it("an apply killed mid-way is finished by the next one with exactly one object per declared resource", async () => {
    const ws = workspace(TOPOLOGY);
    const env = simEnv(t.url);
    const { child, done } = start(["apply", "--auto-approve"], { cwd: ws.dir, env });
    let exited = false;
    void done.then(() => (exited = true));

    // Read the state file as fast as possible while the apply runs; every read must parse.
    let reads = 0;
    const torn: string[] = [];
    let killedAt: Obj | undefined;
    let lastPoll = 0;
    while (!exited) {
      const text = existsSync(ws.statePath) ? readFileSync(ws.statePath, "utf8") : undefined;
      if (text !== undefined) {
        reads++;
        try {
          JSON.parse(text);
        } catch {
          torn.push(text);
        }
      }
      if (!killedAt && Date.now() - lastPoll > 20) {
        lastPoll = Date.now();
        const provisioning = (await objects("connections")).find((c) => c.state !== "PROVISIONED");
        if (provisioning) {
          killedAt = provisioning;
          child.kill("SIGKILL");
        }
      }
      await tick();
    }
    const killed = await done;
    expect(killedAt, "a connection was seen provisioning before the apply finished").toBeDefined();
    expect(killed.code).toBeNull(); // killed by the signal, not finished
    expect(torn).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    // The kill left work unfinished: the state (valid as read) lacks addresses or holds a pending record.
    const interrupted = ws.state();
    const unfinished = Object.keys(interrupted.resources).length < 7 || Object.values(interrupted.resources).some((r) => r.pending !== undefined);
    expect(unfinished).toBe(true);

    const resumed = await applyAfterCrash(ws, env);
    expect(resumed.stderr).not.toMatch(/\n\s+at /);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Apply complete!");

    expect(await liveCounts()).toEqual(DECLARED);
    const state = ws.state();
    const addresses = Object.keys(state.resources).sort();
    expect(addresses).toEqual([
      "connections.alpha",
      "connections.beta",
      "routeFilterAttachments.alpha-in",
      "routeFilters.customer-in",
      "routingProtocols.alpha-bgp",
      "routingProtocols.alpha-direct",
      "routingProtocols.beta-direct",
    ]);
    for (const [address, recorded] of Object.entries(state.resources)) {
      expect(recorded.pending, `${address} has no pending record`).toBeUndefined();
      expect(recorded.id, `${address} has an id`).toEqual(expect.any(String));
    }
    // Every recorded id is one of the live objects: nothing recorded points at a duplicate or a dead one.
    const liveIds = new Set<string>();
    for (const kind of Object.keys(DECLARED)) for (const o of await live(kind)) liveIds.add(String(o.uuid ?? o.id));
    for (const [address, recorded] of Object.entries(state.resources)) {
      if (recorded.kind === "routeFilterAttachments") continue; // an attachment is identified by its filter and connection
      expect(liveIds.has(recorded.id!), `${address} records a live object`).toBe(true);
    }
    for (const c of await live("connections")) expect(c.state).toBe("PROVISIONED");
    for (const p of await live("routingProtocols")) expect(p.state).toBe("PROVISIONED");

    const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
    expect(clean.stdout).toContain("No changes.");
    expect(clean.code).toBe(0);
  });

  describe("a create left pending with no id", () => {
    const ONE = `${CONFIG_HEADER}connections:\n${dcConnectionYaml("alpha", 1201, 1202)}`;

    /** The state an apply writes just before its create call: a pending record with the spec to look up. */
    function writePendingState(ws: Workspace): void {
      const { config, diagnostics } = loadConfiguration(ws.dir, { kinds: KIND_CATALOG, env: {} });
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const spec = config.resources.get("connections.alpha" as Address)!.spec;
      const state = {
        version: 1,
        lineage: "5f0c2a43-3f4e-4c4f-9d0e-6a1b9d2c7e10",
        serial: 3,
        generator: "netform",
        resources: {
          "connections.alpha": {
            kind: "connections",
            attributes: {},
            sensitiveHashes: {},
            dependencies: [],
            pending: { operation: "create", startedAt: new Date().toISOString(), lookup: spec },
          },
        },
        outputs: {},
      };
      writeFileSync(ws.statePath, `${JSON.stringify(state, null, 2)}\n`);
    }

    it("is adopted when its object exists on the service, and nothing is created twice", async () => {
      const ws = workspace(ONE);
      const env = simEnv(t.url);
      writePendingState(ws);
      await t.call("DELETE", "/__sim/requests");
      // The create reached the service before the crash: the object exists, under the spec's name.
      const made = await t.call("POST", "/fabric/v4/connections", {
        body: {
          type: "EVPL_VC",
          name: "alpha",
          bandwidth: 50,
          aSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcPrimary }, linkProtocol: { type: "DOT1Q", vlanTag: 1201 } } },
          zSide: { accessPoint: { type: "COLO", port: { uuid: PORTS.dcSecondary }, linkProtocol: { type: "DOT1Q", vlanTag: 1202 } } },
          notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
          order: {},
          project: { projectId: PROJECT },
        },
      });
      expect(made.status).toBeLessThan(300);
      const id = made.body.uuid as string;

      const planned = await netform(["plan"], { cwd: ws.dir, env });
      expect(planned.code).toBe(0);
      expect(planned.stdout).not.toMatch(/\+ connections\.alpha/);

      const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
      expect(applied.stderr).toBe("");
      expect(applied.code).toBe(0);
      expect(applied.stdout).not.toContain("Creating...");
      const connections = await live("connections");
      expect(connections.map((c) => c.uuid)).toEqual([id]);
      expect(connections[0]!.state).toBe("PROVISIONED");
      const recorded = ws.state().resources["connections.alpha"]!;
      expect(recorded.id).toBe(id);
      expect(recorded.pending).toBeUndefined();
      expect((await t.call("GET", "/__sim/requests")).body.filter((r: Obj) => r.method === "POST" && r.path === "/fabric/v4/connections")).toHaveLength(1);

      const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
      expect(clean.stdout).toContain("No changes.");
      expect(clean.code).toBe(0);
    });

    it("is created once when its object does not exist on the service", async () => {
      const ws = workspace(ONE);
      const env = simEnv(t.url);
      writePendingState(ws);

      const planned = await netform(["plan"], { cwd: ws.dir, env });
      expect(planned.code).toBe(0);
      expect(planned.stdout).toContain("+ connections.alpha");
      expect(planned.stdout).toContain("did not reach the service");

      const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
      expect(applied.stderr).toBe("");
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain("1 added, 0 changed, 0 replaced, 0 destroyed");
      const connections = await live("connections");
      expect(connections).toHaveLength(1);
      expect(connections[0]!.state).toBe("PROVISIONED");
      const recorded = ws.state().resources["connections.alpha"]!;
      expect(recorded.id).toBe(connections[0]!.uuid);
      expect(recorded.pending).toBeUndefined();

      const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
      expect(clean.stdout).toContain("No changes.");
      expect(clean.code).toBe(0);
    });
  });
});
