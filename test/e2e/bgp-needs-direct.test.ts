// The service refuses a BGP routing protocol on a connection without a PROVISIONED DIRECT one. On a
// connection netform does not manage (its uuid written as is), only the service knows whether the DIRECT
// instance exists: plan asks once, reports the BGP instance at its place in the file, and nothing is sent.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, idOf, out, runner, portConnectionYaml } from "./service.js";

const t = useSimulator({ speed: 1000 });

const connectionOnly = `${CONFIG_HEADER}connections:
${portConnectionYaml("existing", { aPort: PORTS.nyPrimary, vlanA: 2401, zPort: PORTS.nySecondary, vlanZ: 2402 })}`;

const direct = `routingProtocols:
  existing-direct:
    connection: \${connections.existing.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.60.1/30 }
`;

const bgpOn = (connection: string) => `${CONFIG_HEADER}routingProtocols:
  bgp:
    connection: ${connection}
    type: BGP
    customerAsn: 65010
    bgpIpv4: { customerPeerIp: 192.168.60.2 }
`;

interface Logged {
  method: string;
  path: string;
}

const requests = async (): Promise<Logged[]> => (await t.call("GET", "/__sim/requests")).body as Logged[];

describe("a BGP routing protocol on a connection netform does not manage", () => {
  it("is refused at plan time while the connection has no DIRECT instance, and applies once it has", { timeout: 120_000 }, async () => {
    // Another team's connection, made elsewhere.
    const owner = workspace(connectionOnly);
    const ownerRun = runner(t, owner);
    const made = await ownerRun("apply", "--auto-approve");
    expect(made.code, out(made)).toBe(0);
    const connection = idOf(owner, "connections.existing");

    const ws = workspace(bgpOn(connection));
    const run = runner(t, ws);
    const validated = await run("validate");
    expect(validated.code, out(validated)).toBe(0);

    await t.call("DELETE", "/__sim/requests");
    const refused = await run("apply", "--auto-approve");
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain(`netform.yaml:7:17  routingProtocols.bgp.connection  connection ${connection} has no DIRECT routing protocol, and the service refuses routingProtocols.bgp (BGP) without one`);
    expect(refused.stderr).toContain("hint: declare a DIRECT instance on the same connection");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const log = await requests();
    expect(log.filter((r) => r.method === "GET" && r.path.startsWith(`/fabric/v4/connections/${connection}/routingProtocols`))).toHaveLength(1);
    expect(log.filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2") && !r.path.endsWith("/search"))).toEqual([]);

    // The owner adds the DIRECT instance: the same configuration now applies.
    owner.write(`${connectionOnly}${direct}`);
    const withDirect = await ownerRun("apply", "--auto-approve");
    expect(withDirect.code, out(withDirect)).toBe(0);

    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed.");
    const bgp = idOf(ws, "routingProtocols.bgp");
    expect((await t.call("GET", `/fabric/v4/connections/${connection}/routingProtocols/${bgp}`)).body).toMatchObject({ type: "BGP", state: "PROVISIONED" });
  });
});
