// Connection shapes the service accepts, each through the whole lifecycle on the simulator: validate,
// plan, apply, a clean re-plan and destroy; and a near miss the service refuses, with its located error.

import { describe, expect, it } from "vitest";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator, type TestSim } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, PROFILE, PROJECT, objects, out, runner } from "./service.js";

const t = useSimulator({ speed: 500 });

const QINQ_PORT_DC = "c791f8cb-0000-4000-8000-000000000003";
const SANDBOX = "9d8e7f60-1b2c-4d3e-8f4a-5b6c7d8e9f02";
const NOTIFY = "    notifications: [{ type: ALL, emails: [noc@example.com] }]\n";
const TO_PROFILE = `    zSide: { accessPoint: { type: SP, profile: { uuid: ${PROFILE} }, location: { metroCode: DC } } }\n`;

/** An untagged (dedicated) port in DC, which the seeded world does not have. */
function untaggedPort(sim: TestSim): string {
  const uuid = sim.sim.world.uuid();
  sim.sim.world.create("ports", { uuid, name: "dc-dedicated", type: "XF_PORT", state: "ACTIVE", bandwidth: 10_000, location: { metroCode: "DC" }, encapsulation: { type: "UNTAGGED" } }, { uuid, projectId: PROJECT });
  return uuid;
}

interface Shape {
  name: string;
  /** The connections, as YAML under `connections:`; the world may be prepared first. */
  yaml(sim: TestSim): string;
  env?: Record<string, string>;
}

const SHAPES: Shape[] = [
  {
    name: "QINQ with only the outer tag on a port",
    yaml: () => `  qinq:
    type: EVPL_VC
    bandwidth: 50
    project: { projectId: ${SANDBOX} }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${QINQ_PORT_DC} }, linkProtocol: { type: QINQ, vlanSTag: 1001 } } }
${TO_PROFILE}${NOTIFY}`,
  },
  {
    name: "a location on a COLO access point",
    yaml: () => `  located:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, location: { metroCode: DC }, linkProtocol: { type: DOT1Q, vlanTag: 1101 } } }
${TO_PROFILE}${NOTIFY}`,
  },
  {
    name: "a virtual device without an interface",
    yaml: (sim) => `  from-device:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: VD, virtualDevice: { uuid: ${seedDevice(sim)} } } }
${TO_PROFILE}${NOTIFY}`,
  },
  {
    name: "a primary without a group and a secondary naming the primary's group",
    yaml: () => `  primary:
    type: EVPL_VC
    bandwidth: 50
    redundancy: { priority: PRIMARY }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1201 } } }
${TO_PROFILE}${NOTIFY}  secondary:
    type: EVPL_VC
    bandwidth: 50
    redundancy: { priority: SECONDARY, group: "\${connections.primary.redundancy.group}" }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcSecondary} }, linkProtocol: { type: DOT1Q, vlanTag: 1201 } } }
${TO_PROFILE}${NOTIFY}`,
  },
  {
    name: "EPL_VC between untagged ports, without link protocols",
    yaml: (sim) => `  epl:
    type: EPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: ${untaggedPort(sim)} } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: ${untaggedPort(sim)} } } }
${NOTIFY}`,
  },
  {
    name: "IPWAN_VC from a cloud router to a network",
    yaml: () => `  wan:
    type: IPWAN_VC
    bandwidth: 50
    aSide: { accessPoint: { type: CLOUD_ROUTER, router: { uuid: ${SEEDED_ENDPOINTS.router.uuid} } } }
    zSide: { accessPoint: { type: NETWORK, network: { uuid: "\${networks.wan.uuid}" } } }
${NOTIFY}networks:
  wan:
    type: IPWAN
    scope: GLOBAL
${NOTIFY}`,
  },
  {
    name: "additionalInfo with the provider's keys from secrets",
    env: { AWS_SECRET_KEY: "s3cr3t-value" },
    yaml: () => `  to-cloud:
    type: EVPL_VC
    bandwidth: 50
    additionalInfo: [{ key: accessKey, value: AKIA-EXAMPLE }, { key: secretKey, value: "\${secret.AWS_SECRET_KEY}" }]
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1301 } } }
${TO_PROFILE}${NOTIFY}`,
  },
];

describe("connection shapes end to end", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: validates, plans, applies, re-plans clean and destroys`, { timeout: 120_000 }, async () => {
      const ws = workspace(`${CONFIG_HEADER}connections:\n${shape.yaml(t)}`);
      const run = runner(t, ws, shape.env);
      const validated = await run("validate");
      expect(validated.code, out(validated)).toBe(0);
      const planned = await run("plan", "--detailed-exitcode");
      expect(planned.code, out(planned)).toBe(2);
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      const addresses = Object.keys(ws.state().resources);
      expect(applied.stdout).toContain(`${addresses.length} added`);
      const connections = addresses.filter((a) => a.startsWith("connections."));
      expect((await objects(t, "connections")).filter((c) => c.state === "PROVISIONED")).toHaveLength(connections.length);
      const replanned = await run("plan", "--detailed-exitcode");
      expect(replanned.code, out(replanned)).toBe(0);
      for (const secret of Object.values(shape.env ?? {})) {
        expect(ws.stateText()).not.toContain(secret);
        expect(`${planned.stdout}${applied.stdout}`).not.toContain(secret);
      }
      const destroyed = await run("destroy", "--auto-approve");
      expect(destroyed.code, out(destroyed)).toBe(0);
      expect(ws.state().resources).toEqual({});
    });
  }

  it("a COLO location other than the port's metro is refused at plan by the service's dry run, located at the connection's field", { timeout: 120_000 }, async () => {
    const ws = workspace(`${CONFIG_HEADER}connections:
  misplaced:
    type: EVPL_VC
    bandwidth: 50
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, location: { metroCode: SV }, linkProtocol: { type: DOT1Q, vlanTag: 1401 } } }
${TO_PROFILE}${NOTIFY}`);
    const run = runner(t, ws);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(1);
    expect(applied.stderr).toMatch(/^netform\.yaml:9:\d+ {2}connections\.misplaced\.aSide\.accessPoint\.location\.metroCode {2}the service refuses this connection \(EQ-\d+\): port \S+ is in DC, not SV/m);
    expect(await objects(t, "connections")).toEqual([]);
  });
});

// The incumbent's redundant cloud pair names both connections alike. Under 503s a create's outcome is
// unknown and the engine looks the object up: it must never take the primary's connection for the secondary.
describe("a same-named redundant pair under injected 503s", () => {
  const pair = `${CONFIG_HEADER}connections:
  primary:
    type: EVPL_VC
    name: ConnectionName
    bandwidth: 50
    redundancy: { priority: PRIMARY }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1501 } } }
${TO_PROFILE}${NOTIFY}  secondary:
    type: EVPL_VC
    name: ConnectionName
    bandwidth: 50
    redundancy: { priority: SECONDARY, group: "\${connections.primary.redundancy.group}" }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORTS.dcPrimary} }, linkProtocol: { type: DOT1Q, vlanTag: 1502 } } }
${TO_PROFILE}${NOTIFY}`;

  for (let seed = 1; seed <= 10; seed++) {
    it(`seed ${seed}: exactly one object per address`, { timeout: 120_000 }, async () => {
      const ws = workspace(pair);
      const run = runner(t, ws);
      await t.call("POST", "/__sim/faults", { body: { errorRate: 0.2, errorStatuses: [503], seed } });
      await run("apply", "--auto-approve");
      await t.call("POST", "/__sim/faults", { body: {} });
      const converged = await run("apply", "--auto-approve");
      expect(converged.code, out(converged)).toBe(0);
      const ids = Object.values(ws.state().resources).map((r) => r.id);
      expect(new Set(ids).size, ws.stateText()).toBe(2);
      const live = (await objects(t, "connections")).filter((c) => c.state !== "DEPROVISIONED" && c.state !== "DEPROVISIONING");
      expect(live.map((c) => c.uuid).sort()).toEqual([...ids].sort());
      expect(live.map((c) => (c.redundancy as { priority: string }).priority).sort()).toEqual(["PRIMARY", "SECONDARY"]);
    });
  }
});
