// Terraform's JSON plan representation of a netform plan: golden documents of the shared scenarios, the
// mapping of addresses and actions, and secrets that never show however the plan carries them.

import { describe, expect, it } from "vitest";
import { splitAddress, terraformPlanDocument, terraformPlanText } from "../../../src/views/plan-terraform-json.js";
import { expectGolden } from "./golden.js";
import { change, importOnly, importWithChanges, plan, planScenarios, SECRET, secrets } from "./plans.js";

const META = { version: "0.1.0", timestamp: "2026-01-02T03:04:05.000Z" };

interface Doc {
  resource_changes: { address: string; mode: string; type: string; name: string; index?: string; action_reason?: string; change: { actions: string[]; before: unknown; after: unknown; after_unknown: unknown; before_sensitive: unknown; after_sensitive: unknown; replace_paths?: unknown; importing?: unknown } }[];
  resource_drift: unknown[];
  applyable: boolean;
}
const doc = (p: Parameters<typeof terraformPlanDocument>[0]) => terraformPlanDocument(p, META) as unknown as Doc;

describe("terraformPlanDocument", () => {
  for (const name of ["mixed", "secrets", "for-each", "outputs", "refactoring", "replaces", "no-changes"]) {
    it(`golden: ${name}`, () => {
      expectGolden(`plan-terraform-json-${name}`, terraformPlanText(planScenarios[name]!, META));
    });
  }

  it.each([
    ["connections.dc", { type: "connections", name: "dc" }],
    ['connections.vlan["1003"]', { type: "connections", name: "vlan", index: "1003" }],
    ['routeFilters.edge["a \\"quoted\\" key"]', { type: "routeFilters", name: "edge", index: 'a "quoted" key' }],
  ])("splits %s into type, name and index", (address, expected) => {
    expect(splitAddress(address)).toEqual(expected);
  });

  it.each([
    ["create", change("connections.a", "create", { after: { name: "a" } }), ["create"], undefined],
    ["update", change("connections.a", "update", { id: "1", changes: [{ path: "name", before: "a", after: "b" }] }), ["update"], undefined],
    ["replace, forced by a field", change("connections.a", "replace", { id: "1", reasonCode: "force-new-field", changes: [{ path: "aSide.accessPoint.port.uuid", before: "p", after: "q", forcesReplacement: true }] }), ["delete", "create"], "replace_because_cannot_update"],
    ["replace, new object first", change("connections.a", "replace", { id: "1", reasonCode: "replace-requested", createBeforeDestroy: true }), ["create", "delete"], "replace_by_request"],
    ["delete, no longer configured", change("connections.a", "delete", { id: "1", reasonCode: "no-longer-configured", before: { name: "a" } }), ["delete"], "delete_because_no_resource_config"],
    ["forget (removed, destroy: false)", change("vpns.a", "forget", { id: "1" }), ["forget"], undefined],
    ["import without changes", importOnly, ["no-op"], undefined],
    ["import with changes", importWithChanges, ["update"], undefined],
    ["no-op", change("connections.a", "no-op", { id: "1" }), ["no-op"], undefined],
  ])("maps %s", (_, rc, actions, reason) => {
    const [mapped] = doc(plan([rc])).resource_changes;
    expect(mapped?.change.actions).toEqual(actions);
    expect(mapped?.action_reason).toBe(reason);
  });

  it("gives the paths that force a replace, and the id an import adopts", () => {
    const forced = doc(plan([change("connections.a", "replace", { id: "1", changes: [{ path: "aSide.accessPoint.port.uuid", before: "p", after: "q", forcesReplacement: true }] })]));
    expect(forced.resource_changes[0]?.change.replace_paths).toEqual([["aSide", "accessPoint", "port", "uuid"]]);
    expect(doc(plan([importOnly])).resource_changes[0]?.change.importing).toEqual({ id: importOnly.importId });
  });

  it("never carries a secret: null in before and after, true at its path in *_sensitive", () => {
    expect(terraformPlanText(plan(secrets), META)).not.toContain(SECRET);
    const [vpn, , deleted] = doc(plan(secrets)).resource_changes;
    expect(vpn?.change.after).toMatchObject({ authentication: { preSharedKey: null, method: "PSK" }, token: null, peerSharedKey: null });
    expect(vpn?.change.after_sensitive).toMatchObject({ authentication: { preSharedKey: true }, tunnels: [{ key: true }], token: true, peerSharedKey: true });
    expect(vpn?.change.after_unknown).toEqual({ uuid: true });
    expect(vpn?.change.before_sensitive).toBe(false);
    expect(deleted?.change).toMatchObject({ after: null, after_sensitive: false, after_unknown: false });
  });

  it("says whether there is anything to apply", () => {
    expect(doc(planScenarios["no-changes"]!).applyable).toBe(false);
    expect(doc(planScenarios.mixed!).applyable).toBe(true);
  });
});
