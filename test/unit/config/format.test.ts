// fmt's canonical form: keys in the order of the schema, two-space indentation, comments kept where they
// were written, the same configuration after as before, and nothing changed the second time.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration, formatConfiguration, isConfigurationText } from "../../../src/config/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { LOOKUP_CATALOG } from "../../../src/lookups/index.js";

const repo = join(import.meta.dirname, "../../..");
const format = (text: string): string => {
  const result = formatConfiguration("netform.yaml", text, KIND_CATALOG);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.text;
};

const UNORDERED = `# the file's heading
connections:
  dc:
    notifications: [ { type: ALL, emails: [ noc@example.com ] } ]
    bandwidth: 100   # Mbps
    type: EVPL_VC
    dependsOn: [routeFilters.f]
    aSide:
        accessPoint:
            linkProtocol: { vlanTag: 1001, type: DOT1Q }
            type: COLO
            port: {uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee}
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
routeFilters:
  f:                # inbound prefixes
    type: BGP_IPv4_PREFIX_FILTER
provider:
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
  endpoint: embedded
netform: 1
extras: kept last
`;

describe("fmt", () => {
  it("orders sections, resources' fields and nested fields as the schema does, and keeps every comment", () => {
    expect(format(UNORDERED)).toBe(`# the file's heading
netform: 1
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
routeFilters:
  f: # inbound prefixes
    type: BGP_IPv4_PREFIX_FILTER
connections:
  dc:
    type: EVPL_VC
    bandwidth: 100 # Mbps
    aSide:
      accessPoint:
        type: COLO
        port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }
        linkProtocol: { type: DOT1Q, vlanTag: 1001 }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
    dependsOn: [routeFilters.f]
extras: kept last
`);
  });

  it("leaves a canonical text as it is", () => {
    const once = format(UNORDERED);
    expect(format(once)).toBe(once);
  });

  it("keeps quoting, long lines and the blank lines between sections", () => {
    const text = `netform: 1\n\nvariables:\n  note: { default: "${"x".repeat(120)}" }\n\nprovider:\n  endpoint: 'embedded'\n`;
    expect(format(text)).toBe(text);
  });

  const examples = readdirSync(join(repo, "examples"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => readdirSync(join(repo, "examples", e.name)).filter((f) => /\.ya?ml$/.test(f) && isConfigurationText(readFileSync(join(repo, "examples", e.name, f), "utf8"), KIND_CATALOG)).map((f) => join("examples", e.name, f)));

  it.each(examples)("formats %s to a fixed point that reads as the same configuration", (file) => {
    const text = readFileSync(join(repo, file), "utf8");
    const once = format(text);
    expect(format(once)).toBe(once);
    const read = (t: string) => buildConfiguration([{ file: join(repo, file), text: t }], { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: {}, missing: "unknown", baseDir: repo });
    const [before, after] = [read(text), read(once)];
    expect([...after.config.resources.keys()].sort()).toEqual([...before.config.resources.keys()].sort());
    for (const [address, resource] of before.config.resources) expect(after.config.resources.get(address)?.spec).toEqual(resource.spec);
    // Every comment is still there, whichever section now comes first.
    const comments = (t: string) => (t.match(/#.*/g) ?? []).map((c) => c.replace(/\s+/g, " ")).sort();
    expect(comments(once)).toEqual(comments(text));
  });

  it("refuses a file it cannot parse, at the place of the mistake", () => {
    const result = formatConfiguration("netform.yaml", "netform: 1\nconnections:\n  dc: { type: EVPL_VC\n", KIND_CATALOG);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostics[0]).toMatchObject({ severity: "error", file: "netform.yaml", line: expect.any(Number), column: expect.any(Number) });
  });

  it("tells netform's files from other YAML", () => {
    expect(isConfigurationText("netform: 1\nconnections: {}\n", KIND_CATALOG)).toBe(true);
    expect(isConfigurationText("connections:\n  dc: {}\n", KIND_CATALOG)).toBe(true);
    expect(isConfigurationText("stages: [test]\njobs: {}\n", KIND_CATALOG)).toBe(false);
    expect(isConfigurationText("", KIND_CATALOG)).toBe(false);
  });
});
