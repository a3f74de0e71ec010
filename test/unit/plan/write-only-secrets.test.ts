// A secret inside a field the service reads only when the object is made (a device's first SSH users) is
// not a change the object can take: the planner names it as not compared and warns, with the kind's
// advice, instead of replacing the object for it.

import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { KIND_CATALOG, KIND_HANDLERS } from "../../../src/kinds/index.js";
import { makePlan, type Refreshed } from "../../../src/plan/diff.js";
import type { ResourceState, StateFile } from "../../../src/state/index.js";

const DEVICE_ID = "0a0a0a0a-0000-4000-8000-0000000000d1";
const SECONDARY_ID = "0a0a0a0a-0000-4000-8000-0000000000d2";
const hashOf = (value: unknown) => `hash:${JSON.stringify(value)}`;
const testHash = Object.assign(hashOf, { matches: (recorded: string | undefined, value: unknown) => recorded === hashOf(value) });
const SECRETS = { ONE: "first-Pass1", TWO: "second-Pass2" };

const users = (...names: string[]) => `[${names.map((n, i) => `{ sshUsername: ${n}, sshPassword: "\${secret.${i === 0 ? "ONE" : "TWO"}}" }`).join(", ")}]`;

const config = (primary: string, secondary: string, extra = "") => `netform: 1
devices:
  edge:
    deviceTypeCode: C8000V
    metroCode: DC
    version: 17.11.01a
    licenseMode: SUB
    deviceManagementType: PROVIDER-CONFIGURED
    core: 2
    accountNumber: "270848"
    notifications: [netops@example.com]
    sshUsers: ${primary}
    secondary:
      metroCode: SV
      notifications: [netops@example.com]
      sshUsers: ${secondary}
${extra}`;

/** One device of the pair as the service returns it. */
const device = (uuid: string, fields: Record<string, unknown>) => ({
  uuid,
  notifications: ["netops@example.com"],
  accountNumber: "270848",
  additionalBandwidth: 15,
  version: "17.11.01a",
  deviceTypeCode: "C8000V",
  licenseType: "SUB",
  deviceManagementType: "PROVIDER-CONFIGURED",
  core: { core: 2 },
  termLength: "1",
  connectivity: "INTERNET-ACCESS",
  status: "PROVISIONED",
  ...fields,
});
const pair = {
  ...device(DEVICE_ID, { name: "edge", metroCode: "DC", redundancyType: "PRIMARY", redundantUuid: SECONDARY_ID }),
  secondary: device(SECONDARY_ID, { name: "edge-secondary", metroCode: "SV", redundancyType: "SECONDARY", redundantUuid: DEVICE_ID }),
};

/** The pair as the state records it after it was ordered with netops on both devices. */
function made(): ResourceState {
  const sent = [{ sshUsername: "netops", sshPassword: SECRETS.ONE }];
  return {
    kind: "devices",
    id: DEVICE_ID,
    attributes: pair,
    sensitiveHashes: { sshUsers: hashOf(sent), "secondary.sshUsers": hashOf(sent) },
    writeOnlyHashes: { sshUsers: hashOf(sent), "secondary.sshUsers": hashOf(sent) },
    dependencies: [],
  };
}

function plan(text: string) {
  const { config: built, diagnostics } = buildConfiguration([{ file: "netform.yaml", text }], { kinds: KIND_CATALOG, env: SECRETS });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const state: StateFile = { version: 1, lineage: "3f0c7c9e-lineage", serial: 3, generator: "netform", resources: { "devices.edge": made() }, outputs: {} };
  const refreshed = new Map<string, Refreshed>([["devices.edge", { status: "present", id: DEVICE_ID, body: pair }]]);
  return makePlan({ mode: "normal", config: built, state, refreshed, imports: new Map(), kinds: KIND_HANDLERS, hash: testHash, configHash: "sha256:test", requestCount: 0 });
}

describe("a device's sshUsers", () => {
  it("as ordered: nothing to do, and named as not compared", () => {
    const { plan: p, diagnostics } = plan(config(users("netops"), users("netops")));
    expect(p.changes.find((c) => c.address === "devices.edge")).toMatchObject({ action: "no-op", changes: [], notCompared: ["sshUsers", "secondary.sshUsers"] });
    expect(diagnostics).toEqual([]);
  });

  it("with a user added or a password changed: no replacement and no re-ordered secondary, a warning that points to the sshUsers kind", () => {
    const { plan: p, diagnostics } = plan(config(users("netops", "audit"), `[{ sshUsername: netops, sshPassword: "\${secret.TWO}" }]`));
    expect(p.changes.find((c) => c.address === "devices.edge")).toMatchObject({ action: "no-op", changes: [] });
    const warnings = diagnostics.filter((d) => d.code === "plan.write-only-changed");
    expect(warnings.map((w) => [w.severity, w.path])).toEqual([
      ["warning", "secondary.sshUsers"],
      ["warning", "sshUsers"],
    ]);
    for (const w of warnings) expect(w.hint).toContain("SSH users are sshUsers resources");
    expect(JSON.stringify([p, diagnostics])).not.toContain(SECRETS.TWO);
  });

  it("left as ordered while an sshUsers resource adds a user: the user is created, the device left alone", () => {
    const user = `sshUsers:\n  audit:\n    password: \${secret.TWO}\n    deviceUuids: ["\${devices.edge.uuid}", "\${devices.edge.redundantUuid}"]\n`;
    const { plan: p, diagnostics } = plan(config(users("netops"), users("netops"), user));
    expect(p.changes.map((c) => [c.address, c.action])).toEqual([
      ["devices.edge", "no-op"],
      ["sshUsers.audit", "create"],
    ]);
    expect(p.changes.find((c) => c.address === "sshUsers.audit")!.after).toMatchObject({ username: "audit", deviceUuids: [DEVICE_ID, SECONDARY_ID] });
    expect(diagnostics).toEqual([]);
  });
});
