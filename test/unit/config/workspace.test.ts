// ${workspace} in a configuration: the name of the workspace it is read for, in names, descriptions,
// forEach keys and outputs; refused in the backend block, which locates every workspace's state; and a
// backend whose inputs have no value flagged, so that no command reads a state other than the one meant.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration, type LoadOptions } from "../../../src/config/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";

const repo = join(import.meta.dirname, "../../..");
const load = (text: string, options: Partial<LoadOptions> = {}) => buildConfiguration([{ file: join(repo, "netform.yaml"), text: `netform: 1\nprovider: { projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01 }\n${text}` }], { kinds: KIND_CATALOG, env: {}, baseDir: repo, ...options });

const FILTER = `variables:
  vlan: { type: number, default: 100 }
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    name: edge-\${workspace}
    description: "\${workspace} on VLAN \${var.vlan}"
`;

describe("${workspace}", () => {
  it("is the workspace's name, and default without one", () => {
    const dev = load(FILTER, { workspace: "dev" });
    expect(dev.diagnostics).toEqual([]);
    expect(dev.config.resources.get("routeFilters.edge")?.spec).toMatchObject({ name: "edge-dev", description: "dev on VLAN 100" });
    expect(load(FILTER).config.resources.get("routeFilters.edge")?.spec).toMatchObject({ name: "edge-default" });
  });

  it("keys instances of a forEach", () => {
    const { config, diagnostics } = load(`routeFilters:\n  edge:\n    forEach: ["\${workspace}-a", "\${workspace}-b"]\n    type: BGP_IPv4_PREFIX_FILTER\n`, { workspace: "prod" });
    expect(diagnostics).toEqual([]);
    expect([...config.resources.keys()]).toEqual(['routeFilters.edge["prod-a"]', 'routeFilters.edge["prod-b"]']);
  });

  it("takes no attribute, and is refused in the backend block at the place it is written", () => {
    const attribute = load(`routeFilters:\n  edge:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: \${workspace.name}\n`);
    expect(attribute.diagnostics).toEqual([expect.objectContaining({ severity: "error", line: 6, code: "expression.syntax", message: expect.stringContaining("written ${workspace}") })]);
    const backend = load(`backend:\n  local: { path: "states/\${workspace}.json" }\n`, { workspace: "dev" });
    expect(backend.config.backend).toBeUndefined();
    expect(backend.diagnostics).toEqual([
      expect.objectContaining({ severity: "error", line: 4, address: "backend", path: "local.path", code: "workspace.not-allowed", hint: expect.stringContaining("{workspace}") }),
    ]);
  });
});

describe("a backend whose inputs have no value", () => {
  it("is a warning where values may be missing (validate), placed at the field, so that no state is guessed", () => {
    const { diagnostics } = load(`variables:\n  env: { type: string }\nbackend:\n  local: { path: "states/\${var.env}.json" }\n`, { missing: "unknown" });
    expect(diagnostics).toContainEqual(expect.objectContaining({ severity: "warning", code: "backend.unset", line: 6, path: "local.path", message: "states/${var.env}.json has no value here, so the state's place is not known" }));
  });

  // Each way an input may be unset: said once, at the field, naming what to set; never the schema's "expected string, received undefined".
  it.each([
    { missing: "unknown" as const, severity: "warning", code: "backend.unset", hint: "export PG_URL=..." },
    { missing: "error" as const, severity: "error", code: "env.unset", hint: "export PG_URL=..." },
  ])("an unset ${env.X} in the backend block ($missing) names the variable to set, once", ({ missing, severity, code, hint }) => {
    const { diagnostics } = load(`backend:\n  postgres:\n    url: \${env.PG_URL}\n    name: prod\n`, { missing });
    expect(diagnostics).toEqual([expect.objectContaining({ severity, code, line: 5, path: "postgres.url", hint: expect.stringContaining(hint) })]);
    expect(JSON.stringify(diagnostics)).not.toContain("received undefined");
  });

  it("names the variable to set for an unset ${var.X}", () => {
    const { diagnostics } = load(`variables:\n  db: { type: string }\nbackend:\n  postgres: { url: "\${var.db}", name: prod }\n`, { missing: "unknown" });
    expect(diagnostics.filter((d) => d.address === "backend")).toEqual([expect.objectContaining({ severity: "warning", code: "backend.unset", path: "postgres.url", hint: expect.stringContaining("--var db=VALUE") })]);
  });

  it("is the inputs' own error where values are required", () => {
    const { diagnostics } = load(`variables:\n  env: { type: string }\nbackend:\n  local: { path: "states/\${var.env}.json" }\n`);
    expect(diagnostics.map((d) => d.code)).toEqual(["variables.unset"]);
  });
});
