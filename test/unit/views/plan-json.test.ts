// The plan document: golden JSON of the shared scenarios, the published JSON Schema (current, and
// accepting every document), Terraform-like actions, and masking that does not trust the engine.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { planActions, planDocument, planDocumentSchema, planDocumentText, planJsonSchemaText } from "../../../src/views/plan-json.js";
import { expectGolden } from "./golden.js";
import { change, createConnection, large, plan, planScenarios, secrets, updateFilter } from "./plans.js";

const repo = join(import.meta.dirname, "../../..");
const committed = readFileSync(join(repo, "schemas/plan.schema.json"), "utf8");

describe("planDocument", () => {
  for (const [name, p] of Object.entries(planScenarios)) {
    it(name, () => {
      expectGolden(`plan-json-${name}`, planDocumentText(p));
    });
  }

  it("spells actions as Terraform does", () => {
    const cases: [Parameters<typeof planActions>[0], string[]][] = [
      [{ action: "create", changes: [] }, ["create"]],
      [{ action: "update", changes: [] }, ["update"]],
      [{ action: "replace", changes: [] }, ["delete", "create"]],
      [{ action: "replace", changes: [], createBeforeDestroy: true }, ["create", "delete"]],
      [{ action: "delete", changes: [] }, ["delete"]],
      [{ action: "import", changes: [] }, ["import"]],
      [{ action: "import", changes: [{ path: "a", before: 1, after: 2 }] }, ["import", "update"]],
      [{ action: "no-op", changes: [] }, ["no-op"]],
    ];
    for (const [rc, actions] of cases) expect(planActions(rc)).toEqual(actions);
  });

  it("never carries a secret, even one the plan holds in clear", () => {
    const text = planDocumentText(plan(secrets));
    expect(text).not.toContain("hunter2");
    const doc = planDocument(plan(secrets));
    const vpn = doc.resourceChanges[0]!;
    expect(vpn.after).toMatchObject({ authentication: { preSharedKey: "(sensitive)" }, tunnels: [{ key: "(sensitive)" }], token: "(sensitive)", peerSharedKey: "(sensitive)" });
    expect(vpn.sensitivePaths).toContain("peerSharedKey");
    const rp = doc.resourceChanges[1]!;
    expect(rp.changes.map((c) => c.sensitive)).toEqual([true, true, true, false]);
    expect(rp.changes[3]!.after).toEqual({ enabled: true, md5: "(sensitive)" });
  });

  it("marks values unknown until apply", () => {
    const doc = planDocument(plan([createConnection, updateFilter]));
    expect(doc.resourceChanges[0]!.afterUnknown).toEqual(["uuid", "zSide.accessPoint.profile.uuid"]);
    expect(doc.resourceChanges[0]!.before).toBeNull();
    const revision = doc.resourceChanges[1]!.changes.find((c) => c.path === "revision");
    expect(revision).toEqual({ path: "revision", before: 3, after: null, unknown: true, sensitive: false, forcesReplacement: false });
  });

  it("keeps no-ops, the plan's order, and the identity fields", () => {
    const doc = planDocument(planScenarios.mixed!);
    expect(doc.resourceChanges.map((r) => r.address)).toEqual(planScenarios.mixed!.changes.map((c) => c.address));
    expect(doc.resourceChanges.find((r) => r.address === "routeFilters.same")?.actions).toEqual(["no-op"]);
    expect(doc.resourceChanges.find((r) => r.address === "devices.f")).toMatchObject({ actions: ["import"], importId: "9e8d7c6b-5a4f-4321-8fed-cba987654321" });
    expect(doc.resourceChanges.find((r) => r.address === "routingProtocols.b")?.awaiting).toBe("create");
    expect(JSON.parse(planDocumentText(planScenarios.mixed!))).toEqual(doc);
  });
});

describe("schemas/plan.schema.json", () => {
  it("is current (regenerate from planJsonSchemaText() in src/views/plan-json.ts)", () => {
    expect(committed).toBe(planJsonSchemaText());
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(JSON.parse(committed) as object);

  for (const [name, p] of Object.entries({ ...planScenarios, large: plan(large) })) {
    it(`accepts the ${name} document, as the zod schema does`, () => {
      const doc: unknown = JSON.parse(planDocumentText(p));
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      expect(planDocumentSchema.safeParse(doc).success).toBe(true);
    });
  }

  it("refuses what is not a plan document", () => {
    const doc = JSON.parse(planDocumentText(planScenarios.mixed!)) as { resourceChanges: { actions: string[] }[]; formatVersion: number };
    expect(validate(doc)).toBe(true);
    expect(validate({ ...doc, formatVersion: 2 })).toBe(false);
    const bad = structuredClone(doc);
    bad.resourceChanges[0]!.actions = ["create", "update"];
    expect(validate(bad)).toBe(false);
    const { resourceChanges: _dropped, ...missing } = doc;
    expect(validate(missing)).toBe(false);
  });

  it("holds only JSON: what JSON cannot represent becomes null", () => {
    const doc = planDocument(plan([change("connections.odd", "create", { after: { n: Number.NaN, list: [undefined, 1] } })]));
    expect(doc.resourceChanges[0]!.after).toEqual({ n: null, list: [null, 1] });
    expect(validate(doc)).toBe(true);
  });
});
