// The loaded configuration as the engine sees it: examples, defaults, variables, secrets, references and
// the dependency graph, and the second validation pass with resolved values.

import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { LOOKUP_CATALOG } from "../../../src/lookups/index.js";
import { inspect } from "node:util";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildConfiguration,
  isSensitive,
  loadConfiguration,
  Reference,
  Sensitive,
  Template,
  validateSpec,
  type LoadOptions,
} from "../../../src/config/index.js";
import { hasErrors } from "../../../src/diag/index.js";
import { diagnosticsDocument } from "../../../src/views/diagnostics.js";

const repo = join(import.meta.dirname, "../../..");
const load = (text: string, options: Partial<LoadOptions> = {}) => buildConfiguration([{ file: join(repo, "netform.yaml"), text }], { kinds: KIND_CATALOG, env: {}, baseDir: repo, ...options });
const errors = (r: ReturnType<typeof load>) => r.diagnostics.filter((d) => d.severity === "error");

const CONNECTION = `
connections:
  dc:
    type: EVPL_VC
    bandwidth: \${var.bandwidth}
    aSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }, linkProtocol: { type: DOT1Q, vlanTag: 1001 } } }
    zSide: { accessPoint: { type: COLO, port: { uuid: c791f8cb-0000-4000-8000-000000000002 }, linkProtocol: { type: DOT1Q, vlanTag: 1002 } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;

/** The DIRECT instance a BGP instance on connections.dc needs, as entries under `routingProtocols:`. */
const DIRECT = `  direct:
    connection: \${connections.dc.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.100.1/30 }
`;

describe("examples", () => {
  const secrets = { BRANCH_A_PSK: "psk-value", BRANCH_A_BGP_PASSWORD: "bgpPass1" };
  // Every example that is a configuration (examples/ci holds pipelines, not a configuration).
  for (const example of readdirSync(join(repo, "examples")).filter((e) => existsSync(join(repo, "examples", e, "netform.yaml")))) {
    it(`examples/${example} validates without its secrets and loads with them`, () => {
      const validate = loadConfiguration(join(repo, "examples", example), { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: {}, missing: "unknown" });
      expect(errors(validate)).toEqual([]);
      const first = loadConfiguration(join(repo, "examples", example), { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: secrets });
      // A forEach over a list lookup has its instances once the lookup is read: given what it found, as a run does.
      const found = new Map([...first.config.forEachLookups.values()].map((address) => [address, { count: 1, items: [{ name: "found-1", uuid: "c791f8cb-0000-4000-8000-000000000004" }] }]));
      const plan = found.size > 0 ? loadConfiguration(join(repo, "examples", example), { kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG, env: secrets, lookupValues: found }) : first;
      expect(plan.diagnostics).toEqual([]);
      expect(plan.config.resources.size).toBeGreaterThan(0);
    });
  }
});

describe("loadConfiguration", () => {
  it("applies the provider's defaults and the display name", () => {
    const r = load(`netform: 1\nprovider: { endpoint: embedded, projectId: p-1, timeouts: { devices: 1h30m } }\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}`);
    expect(r.diagnostics).toEqual([]);
    const c = r.config.resources.get("connections.dc");
    expect(c?.spec.name).toBe("dc");
    expect(c?.spec.project).toEqual({ projectId: "p-1" });
    expect(c?.spec.bandwidth).toBe(100);
    expect(c?.defaulted.has("name")).toBe(true);
    expect(r.config.provider.timeouts.devices).toBe(90 * 60_000);
    expect(r.config.provider.timeouts.connections).toBe(15 * 60_000);
    expect(r.config.provider.parallelism).toBe(10);
    expect(r.config.provider.endpoint).toBe("embedded");
  });

  it("lets NETFORM_ENDPOINT override provider.endpoint", () => {
    const r = load(`netform: 1\nprovider: { endpoint: embedded }\n`, { env: { NETFORM_ENDPOINT: "https://api.example.net" } });
    expect(r.config.provider.endpoint).toBe("https://api.example.net");
  });

  it("takes variables from --var, then --var-file, then the environment, then the default, typed", () => {
    const text = `netform: 1\nvariables: { bandwidth: { type: number, default: 50 } }\n${CONNECTION}`;
    const bw = (o: Partial<LoadOptions>) => load(text, o).config.resources.get("connections.dc")?.spec.bandwidth;
    expect(bw({})).toBe(50);
    expect(bw({ env: { NETFORM_VAR_bandwidth: "200" } })).toBe(200);
    expect(bw({ env: { NETFORM_VAR_bandwidth: "200" }, vars: { bandwidth: "500" } })).toBe(500);
    expect(bw({ varFiles: [join(repo, "test/fixtures/config/variable-type/vars/bandwidth.yaml")], env: { NETFORM_VAR_bandwidth: "200" } })).toBe(1000);
    expect(bw({ varFiles: [join(repo, "test/fixtures/config/variable-type/vars/bandwidth.yaml")], vars: { bandwidth: "10" } })).toBe(10);
  });

  it("keeps secrets wrapped so that printing or serialising never shows them", () => {
    const r = load(
      `netform: 1\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}\nroutingProtocols:\n  bgp:\n    connection: \${connections.dc.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: 192.168.100.2 }\n    bgpAuthKey: \${secret.KEY}\n${DIRECT}`,
      { env: { KEY: "hunter2-secret" } },
    );
    expect(errors(r)).toEqual([]);
    const rp = r.config.resources.get("routingProtocols.bgp");
    const key = rp?.spec.bgpAuthKey;
    expect(isSensitive(key)).toBe(true);
    expect((key as Sensitive).reveal()).toBe("hunter2-secret");
    expect(String(key)).toBe("(sensitive)");
    expect(`${key as Sensitive}`).toBe("(sensitive)");
    expect(JSON.stringify(rp?.spec)).not.toContain("hunter2");
    expect(inspect(rp, { depth: 10 })).not.toContain("hunter2");
    expect(rp?.secrets.covers("bgpAuthKey")).toBe(true);
  });

  it("wraps a secret field written as a literal, with a warning", () => {
    const r = load(`netform: 1\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}\nroutingProtocols:\n  bgp:\n    connection: \${connections.dc.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpAuthKey: literal-key\n`);
    expect(isSensitive(r.config.resources.get("routingProtocols.bgp")?.spec.bgpAuthKey)).toBe(true);
    expect(r.diagnostics.some((d) => d.code === "sensitive.literal" && d.severity === "warning")).toBe(true);
  });

  it("turns references into Reference values with dependency edges", () => {
    const r = load(
      `netform: 1\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}\nrouteFilters: { f: { type: BGP_IPv4_PREFIX_FILTER, project: { projectId: p }, description: "for \${connections.dc.name}" } }\nrouteFilterAttachments:\n  a: { connection: "\${connections.dc.uuid}", routeFilter: "\${routeFilters.f.uuid}", direction: INBOUND, dependsOn: [routeFilters.f] }\n`,
    );
    expect(r.diagnostics).toEqual([]);
    const a = r.config.resources.get("routeFilterAttachments.a");
    const ref = a?.spec.connection as Reference;
    expect(ref).toBeInstanceOf(Reference);
    expect(ref.address).toBe("connections.dc");
    expect(ref.attribute).toBe("uuid");
    expect(ref.path).toEqual(["connection"]);
    expect(a?.dependencies).toEqual(["connections.dc", "routeFilters.f"]);
    expect(r.config.edges).toContainEqual({ from: "routeFilterAttachments.a", to: "routeFilters.f", via: "dependsOn", path: "dependsOn[0]" });
    const description = r.config.resources.get("routeFilters.f")?.spec.description as Template;
    expect(description).toBeInstanceOf(Template);
    expect(description.render(() => "dc-name")).toBe("for dc-name");
  });

  it("orders an attachment after the rules of its policy, and only of its own policy", () => {
    const r = load(
      `netform: 1\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}
routeFilters: { f: { type: BGP_IPv4_PREFIX_FILTER, project: { projectId: p } }, g: { type: BGP_IPv4_PREFIX_FILTER, project: { projectId: p } } }
routeFilterRules:
  f-1: { routeFilter: "\${routeFilters.f.uuid}", prefix: 10.1.0.0/16 }
  f-2: { routeFilter: "\${routeFilters.f.uuid}", prefix: 10.2.0.0/16 }
  g-1: { routeFilter: "\${routeFilters.g.uuid}", prefix: 10.3.0.0/16 }
routeFilterAttachments:
  a: { connection: "\${connections.dc.uuid}", routeFilter: "\${routeFilters.f.uuid}", direction: INBOUND }
routeAggregations: { s: { type: BGP_IPv4_PREFIX_AGGREGATION, project: { projectId: p } } }
routeAggregationRules:
  s-1: { routeAggregation: "\${routeAggregations.s.uuid}", prefix: 10.0.0.0/8 }
routeAggregationAttachments:
  b: { connection: "\${connections.dc.uuid}", routeAggregation: "\${routeAggregations.s.uuid}" }
`,
    );
    expect(errors(r)).toEqual([]);
    const ordering = r.config.edges.filter((e) => e.via === "ordering");
    expect(ordering).toEqual(
      expect.arrayContaining([
        { from: "routeFilterAttachments.a", to: "routeFilterRules.f-1", via: "ordering", path: "" },
        { from: "routeFilterAttachments.a", to: "routeFilterRules.f-2", via: "ordering", path: "" },
        { from: "routeAggregationAttachments.b", to: "routeAggregationRules.s-1", via: "ordering", path: "" },
      ]),
    );
    expect(ordering).toHaveLength(3);
  });

  it("reports a cycle through references once, naming every address", () => {
    const r = load(
      `netform: 1\nrouteFilters:\n  a: { type: BGP_IPv4_PREFIX_FILTER, project: { projectId: p }, description: "\${routeFilters.b.uuid}" }\n  b: { type: BGP_IPv4_PREFIX_FILTER, project: { projectId: p }, description: "\${routeFilters.a.uuid}" }\n`,
    );
    const cycles = r.diagnostics.filter((d) => d.code === "reference.cycle");
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.message).toBe("dependency cycle: routeFilters.a -> routeFilters.b -> routeFilters.a");
  });

  it("checks referenced values in a second pass once they are known", () => {
    const r = load(`netform: 1\nvariables: { bandwidth: { default: 100 } }\n${CONNECTION}\nroutingProtocols:\n  bgp:\n    connection: \${connections.dc.uuid}\n    type: BGP\n    customerAsn: \${connections.dc.bandwidth}\n    bgpIpv4: { customerPeerIp: 192.168.100.2 }\n${DIRECT}`);
    expect(errors(r)).toEqual([]);
    const rp = r.config.resources.get("routingProtocols.bgp");
    if (!rp) throw new Error("missing");
    const resolved = { ...rp.spec, connection: "3fa85f64-5717-4562-b3fc-2c963f66afa6", customerAsn: 23456 };
    const second = validateSpec(KIND_CATALOG.get(rp.kind)!, resolved, { address: rp.address, positions: rp.positions });
    expect(second.map((d) => [d.path, d.message, d.line])).toEqual([["customerAsn", "ASN 23456 is reserved and not allowed", 16]]);
  });

  it("reports all problems at once and renders the JSON document", () => {
    const r = load(`netform: 1\nrouteFilters:\n  a: { type: X, project: { projectId: p }, nmae: y }\n  b: { type: BGP_IPv4_PREFIX_FILTER }\n`);
    expect(hasErrors(r.diagnostics)).toBe(true);
    const doc = diagnosticsDocument(r.diagnostics);
    expect(doc.valid).toBe(false);
    expect(doc.errorCount).toBe(3);
    expect(doc.diagnostics[0]).toEqual({ severity: "error", code: "schema.invalid-value", address: "routeFilters.a", path: "type", file: "netform.yaml", line: 3, column: 14, message: "must be one of BGP_IPv4_PREFIX_FILTER, BGP_IPv6_PREFIX_FILTER" });
  });

  it("merges a directory and reports an address declared twice with both places", () => {
    const r = loadConfiguration(join(repo, "test/fixtures/config/duplicate-address"), { kinds: KIND_CATALOG, env: {}, baseDir: repo });
    expect(r.diagnostics.map((d) => d.message)).toEqual(["connections.dc is declared twice: test/fixtures/config/duplicate-address/a.yaml:7:3 and test/fixtures/config/duplicate-address/b.yaml:2:3"]);
  });

  it("names both places of a provider block or a variable declared in two files", () => {
    const r = buildConfiguration(
      [
        { file: join(repo, "a.yaml"), text: "netform: 1\nprovider: { endpoint: embedded }\nvariables:\n  bandwidth: { default: 100 }\n" },
        { file: join(repo, "b.yaml"), text: "provider: { endpoint: embedded }\nvariables:\n  bandwidth: { default: 200 }\n" },
      ],
      { kinds: KIND_CATALOG, env: {}, baseDir: repo },
    );
    expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`)).toEqual([
      "b.yaml:1:1 provider is declared twice: a.yaml:2:1 and b.yaml:1:1",
      "b.yaml:3:3 variables.bandwidth is declared twice: a.yaml:4:3 and b.yaml:3:3",
    ]);
  });

  it("reports a missing configuration without a stack", () => {
    const r = loadConfiguration(join(repo, "does-not-exist"), { kinds: KIND_CATALOG, env: {} });
    expect(r.diagnostics[0]?.code).toBe("config.unreadable");
  });
});

describe("the positions of the top-level blocks", () => {
  // Each block's positions are found among the paths of its own section only: resources named like a block,
  // and a variable whose name holds a dot, change nothing of where the blocks' values are.
  const text = `netform: 1
routeFilters:
  provider: { type: BGP_IPv4_PREFIX_FILTER }
  variables: { type: BGP_IPv4_PREFIX_FILTER }
provider:
  endpoint: embedded
  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01
  parallelism: many
variables:
  region:
    type: string
    default: am
  a.b: { type: string }
  count: { type: number, default: none }
`;

  it("places the provider's and the variables' diagnostics and declarations where they are written", () => {
    const { config, diagnostics } = load(text);
    const at = (d: { file?: string; line?: number; column?: number }) => `${d.line ?? "-"}:${d.column ?? "-"}`;
    expect(diagnostics.map((d) => `${at(d)} ${d.code} ${d.path ?? ""}`).sort()).toEqual(["13:3 variables.name variables.a.b", "14:35 variables.type variables.count", "8:16 schema.invalid-type parallelism"].sort());
    const region = config.variables.get("region")?.declaration;
    expect(region && at(region.position)).toBe("10:3");
    expect(region?.defaultPosition && at(region.defaultPosition)).toBe("12:14");
  });
});
