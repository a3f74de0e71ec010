// Terraform's JSON formats, for the tools built for them: the plan representation of `terraform show -json`
// (format_version 1.2) from `plan --format terraform-json` and `show --format terraform-json PLANFILE`, and
// the diagnostics of `terraform validate -json` (format_version 1.0). Each is checked against a JSON Schema
// of the documented format written here (developer.hashicorp.com/terraform/internals/json-format), with
// replace actions, secrets masked as Terraform masks them, values unknown until apply, a data source, and
// ranges. The OPA/conftest policy of docs/policy.md is evaluated here over the same document (its rules'
// conditions, in TypeScript: the test has no OPA to run Rego with).

import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, out, PORTS, runner } from "./service.js";

const t = useSimulator({ speed: 500 });

const sensitiveMarks = { anyOf: [{ type: "boolean" }, { type: "object" }, { type: "array" }] };
const pos = { type: "object", required: ["line", "column", "byte"], additionalProperties: false, properties: { line: { type: "integer", minimum: 1 }, column: { type: "integer", minimum: 1 }, byte: { type: "integer", minimum: 0 } } };
const change = {
  type: "object",
  required: ["actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive"],
  properties: {
    actions: {
      anyOf: [
        { const: ["no-op"] },
        { const: ["create"] },
        { const: ["read"] },
        { const: ["update"] },
        { const: ["delete", "create"] },
        { const: ["create", "delete"] },
        { const: ["delete"] },
        { const: ["forget"] },
      ],
    },
    before: {},
    after: {},
    after_unknown: sensitiveMarks,
    before_sensitive: sensitiveMarks,
    after_sensitive: sensitiveMarks,
    replace_paths: { type: "array", items: { type: "array", items: { type: ["string", "integer"] } } },
    importing: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
  },
};
const resourceValues = {
  type: "object",
  required: ["address", "mode", "type", "name", "provider_name", "schema_version", "values", "sensitive_values"],
  properties: {
    address: { type: "string" },
    mode: { enum: ["managed", "data"] },
    type: { type: "string" },
    name: { type: "string" },
    index: { type: ["string", "integer"] },
    provider_name: { type: "string" },
    schema_version: { type: "integer" },
    values: { type: "object" },
    sensitive_values: { type: "object" },
  },
};
const valuesRepresentation = { type: "object", required: ["root_module"], properties: { outputs: { type: "object", additionalProperties: { type: "object", required: ["sensitive"] } }, root_module: { type: "object", required: ["resources"], properties: { resources: { type: "array", items: resourceValues } } } } };
const resourceChange = {
  type: "object",
  required: ["address", "mode", "type", "name", "provider_name", "change"],
  properties: {
    address: { type: "string" },
    previous_address: { type: "string" },
    mode: { enum: ["managed", "data"] },
    type: { type: "string" },
    name: { type: "string" },
    index: { type: ["string", "integer"] },
    provider_name: { type: "string" },
    action_reason: { enum: ["replace_because_tainted", "replace_because_cannot_update", "replace_by_request", "replace_by_triggers", "delete_because_no_resource_config", "delete_because_no_module", "delete_because_wrong_repetition", "delete_because_count_index", "delete_because_each_key", "read_because_config_unknown", "read_because_dependency_pending"] },
    change,
  },
};
/** The JSON plan representation, as documented. */
const PLAN_SCHEMA = {
  type: "object",
  required: ["format_version", "terraform_version", "planned_values", "resource_changes", "configuration", "timestamp", "applyable", "complete", "errored"],
  properties: {
    format_version: { type: "string", pattern: "^1\\.\\d+$" },
    terraform_version: { type: "string" },
    planned_values: valuesRepresentation,
    resource_drift: { type: "array", items: resourceChange },
    resource_changes: { type: "array", items: resourceChange },
    output_changes: { type: "object", additionalProperties: change },
    prior_state: { type: "object", required: ["format_version", "values"], properties: { values: valuesRepresentation } },
    configuration: { type: "object", required: ["root_module"], properties: { provider_config: { type: "object" }, root_module: { type: "object" } } },
    relevant_attributes: { type: "array" },
    checks: { type: "array" },
    timestamp: { type: "string", format: "date-time" },
    applyable: { type: "boolean" },
    complete: { type: "boolean" },
    errored: { type: "boolean" },
  },
};
/** `terraform validate -json`, as documented. */
const VALIDATE_SCHEMA = {
  type: "object",
  required: ["format_version", "valid", "error_count", "warning_count", "diagnostics"],
  additionalProperties: false,
  properties: {
    format_version: { const: "1.0" },
    valid: { type: "boolean" },
    error_count: { type: "integer" },
    warning_count: { type: "integer" },
    diagnostics: {
      type: "array",
      items: {
        type: "object",
        required: ["severity", "summary"],
        properties: {
          severity: { enum: ["error", "warning"] },
          summary: { type: "string" },
          detail: { type: "string" },
          address: { type: "string" },
          range: { type: "object", required: ["filename", "start", "end"], additionalProperties: false, properties: { filename: { type: "string" }, start: pos, end: pos } },
        },
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
const validPlan = ajv.compile(PLAN_SCHEMA);
const validDiagnostics = ajv.compile(VALIDATE_SCHEMA);

interface Change {
  address: string;
  mode: string;
  type: string;
  name: string;
  action_reason?: string;
  change: { actions: string[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null; after_unknown: Record<string, unknown>; before_sensitive: unknown; after_sensitive: Record<string, unknown>; replace_paths?: unknown[] };
}

/**
 * The rules of the policy in docs/policy.md, as its Rego says them: no connection is deleted (replaced
 * included), and no connection is planned above 1000 Mbps.
 */
function policyDenials(plan: { resource_changes: Change[] }, maxBandwidth = 1000): string[] {
  const denials: string[] = [];
  for (const rc of plan.resource_changes) {
    if (rc.mode !== "managed" || rc.type !== "connections") continue;
    if (rc.change.actions.includes("delete")) denials.push(`${rc.address}: deleting a connection needs a reviewed exception`);
    const bandwidth = rc.change.after?.bandwidth;
    if (typeof bandwidth === "number" && bandwidth > maxBandwidth) denials.push(`${rc.address}: bandwidth ${bandwidth} Mbps is above ${maxBandwidth}`);
  }
  return denials;
}

const config = (bandwidth: number, extra = "") => `${CONFIG_HEADER}lookups:
  primary:
    kind: port
    where: { name: 216504-DC1-CX-PRI-01 }
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.NOTE}
connections:
${dcConnectionYaml("dc", 1731, 1731, bandwidth)}${extra}outputs:
  edge-uuid: \${routeFilters.edge.uuid}
`;

describe("Terraform's JSON formats", () => {
  it("plan --format terraform-json: the documented representation, replaces, secrets, unknowns, data sources; show of the saved plan says the same; the policy's rules read it", { timeout: 120_000 }, async () => {
    const ws = workspace(config(100));
    const run = runner(t, ws, { NOTE: "secret words" });
    const applied = await run("apply", "-auto-approve");
    expect(applied.code, out(applied)).toBe(0);

    ws.write(
      config(
        2000,
        `${dcConnectionYaml("dc2", 1732, 1732, 100)}routingProtocols:
  direct:
    connection: \${connections.dc2.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.100.1/30 }
`,
      ),
    );
    const planned = await run("plan", "--format", "terraform-json", "-replace=routeFilters.edge", "-out=tf.plan");
    expect(planned.code, out(planned)).toBe(0);
    const plan = JSON.parse(planned.stdout) as { resource_changes: Change[]; format_version: string; output_changes: Record<string, unknown>; planned_values: { root_module: { resources: { address: string; values: Record<string, unknown> }[] } } };
    expect(validPlan(plan), ajv.errorsText(validPlan.errors)).toBe(true);
    expect(plan.format_version).toBe("1.2");
    expect(planned.stdout).not.toContain("secret words");
    const byAddress = new Map(plan.resource_changes.map((rc) => [rc.address, rc]));

    // A replace, and why; the secret out of before and after, marked where it was.
    const edge = byAddress.get("routeFilters.edge")!;
    expect(edge).toMatchObject({ mode: "managed", type: "routeFilters", name: "edge", action_reason: "replace_by_request" });
    expect(edge.change.actions).toEqual(["delete", "create"]);
    expect(edge.change.after?.description).toBeNull();
    expect(edge.change.after_sensitive).toEqual({ description: true });
    expect(edge.change.before_sensitive).toMatchObject({ description: true });

    // A value known only after apply: left out of after, true in after_unknown.
    const direct = byAddress.get("routingProtocols.direct")!;
    expect(direct.change.actions).toEqual(["create"]);
    expect(direct.change.before).toBeNull();
    expect(direct.change.after).not.toHaveProperty("connection");
    expect(direct.change.after_unknown).toMatchObject({ connection: true });

    // An update in place.
    const dc = byAddress.get("connections.dc")!;
    expect(dc.change.actions).toEqual(["update"]);
    expect(dc.change.after?.bandwidth).toBe(2000);

    // The lookup: a data source, read.
    expect(byAddress.get("lookups.primary")).toMatchObject({ mode: "data", type: "port", name: "primary", change: { actions: ["read"], after: { uuid: PORTS.dcPrimary } } });
    expect(plan.output_changes).toHaveProperty("edge-uuid");
    expect(plan.planned_values.root_module.resources.map((r) => r.address)).toEqual(expect.arrayContaining(["routeFilters.edge", "connections.dc", "routingProtocols.direct", "lookups.primary"]));

    // The same document from the saved plan, as terraform show -json PLANFILE gives it.
    const shown = await run("show", "-no-color", "--format=terraform-json", "tf.plan");
    expect(shown.code, out(shown)).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(plan);

    // docs/policy.md's rules: the bandwidth above 1000 is denied; nothing is deleted yet.
    expect(policyDenials(plan)).toEqual(["connections.dc: bandwidth 2000 Mbps is above 1000"]);
    ws.write(`${CONFIG_HEADER}routeFilters:\n  edge:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: \${secret.NOTE}\n`);
    const deleting = await run("plan", "--format", "terraform-json");
    expect(deleting.code, out(deleting)).toBe(0);
    const deletion = JSON.parse(deleting.stdout) as { resource_changes: Change[] };
    expect(validPlan(deletion), ajv.errorsText(validPlan.errors)).toBe(true);
    expect(deletion.resource_changes.find((rc) => rc.address === "connections.dc")).toMatchObject({ action_reason: "delete_because_no_resource_config", change: { actions: ["delete"], after: null, after_sensitive: false } });
    expect(policyDenials(deletion)).toEqual(["connections.dc: deleting a connection needs a reviewed exception"]);
  });

  it("show --format terraform-json without a plan file says to give one", async () => {
    const shown = await runner(t, workspace(CONFIG_HEADER))("show", "--format", "terraform-json");
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("show --format terraform-json shows a saved plan, and none was given");
  });

  it("validate --format terraform-json: Terraform's diagnostics, each with its range", async () => {
    // A comment with a letter of two bytes before the errors: the byte offsets count bytes, not characters.
    const text = `${CONFIG_HEADER}# réseau\nrouteFilters:\n  edge:\n    type: BGP_IPv4_PREFIX_FILTR\n    descripton: x\n`;
    const ws = workspace(text);
    const result = await runner(t, ws)("validate", "--format=terraform-json");
    expect(result.code, out(result)).toBe(1);
    const document = JSON.parse(result.stdout) as { valid: boolean; error_count: number; diagnostics: { severity: string; summary: string; detail: string; range: { filename: string; start: { line: number; column: number; byte: number } } }[] };
    expect(validDiagnostics(document), ajv.errorsText(validDiagnostics.errors)).toBe(true);
    expect(document).toMatchObject({ valid: false, error_count: 2 });
    const byteOf = (word: string) => Buffer.byteLength(text.slice(0, text.indexOf(word)), "utf8");
    const type = document.diagnostics.find((d) => d.detail.startsWith("routeFilters.edge: type"));
    const at = { line: 8, column: 11, byte: byteOf("BGP_IPv4_PREFIX_FILTR") };
    expect(type?.range).toEqual({ filename: "netform.yaml", start: at, end: at });
    expect(type?.severity).toBe("error");
    const misspelt = document.diagnostics.find((d) => d.summary.includes("descripton"));
    expect(misspelt?.detail).toContain('did you mean "description"?');
    expect(misspelt?.range.start).toEqual({ line: 9, column: 5, byte: byteOf("descripton") });
  });
});
