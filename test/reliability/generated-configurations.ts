// A generator of configurations, valid and broken, for the reliability test that runs them through
// `validate` and `plan`. Every section of the language appears: variables, lookups, forEach, references
// into instances, outputs (sensitive ones too), moved, removed, conditions and the backend block, with
// a state that records old addresses so that moved and removed blocks have something to act on. A
// fixed seed makes every run the same 1,000 configurations, so a failure names a case that can be run
// again.

export interface GeneratedCase {
  index: number;
  yaml: string;
  /** A state to put beside the configuration, or none. */
  state?: object;
  /** What was broken on purpose, for the failure message (empty for a case meant to be valid). */
  broken: string[];
}

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const FILTER_TYPES = ["BGP_IPv4_PREFIX_FILTER", "BGP_IPv6_PREFIX_FILTER", "BGP_IPv4_PREFIX_FITLER", "OTHER"];
const PREFIX_MATCHES = ["exact", "orlonger"];
const METROS = ["DC", "SV", "DC", "SV", "ZZ"];
const PRIORITIES = ["PRIMARY", "SECONDARY"];
const BACKENDS = ["none", "none", "none", "local", "local", "local-env", "http-env", "bogus"];

class Picker {
  constructor(private readonly next: () => number) {}
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  one<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
}

/** Line-level damage a careless edit does: a deleted character, a swapped indent, a stray colon, a cut file. */
function damage(yaml: string, pick: Picker, broken: string[]): string {
  const lines = yaml.split("\n");
  const at = pick.int(1, lines.length - 1);
  const line = lines[at]!;
  switch (pick.int(0, 4)) {
    case 0:
      broken.push(`deleted a character on line ${at + 1}`);
      lines[at] = line.length > 1 ? line.slice(0, pick.int(0, line.length - 1)) + line.slice(pick.int(0, line.length - 1) + 1) : line;
      break;
    case 1:
      broken.push(`indented line ${at + 1} by one more space`);
      lines[at] = ` ${line}`;
      break;
    case 2:
      broken.push(`a stray colon on line ${at + 1}`);
      lines[at] = `${line}: :`;
      break;
    case 3:
      broken.push(`cut the file at line ${at + 1}`);
      lines.length = at;
      break;
    default:
      broken.push(`a tab on line ${at + 1}`);
      lines[at] = `\t${line.trimStart()}`;
  }
  return lines.join("\n");
}

function generate(index: number, pick: Picker): GeneratedCase {
  const broken: string[] = [];
  const out: string[] = ["netform: 1"];
  const filterNames: string[] = [];
  const forEachFilters = new Map<string, string[]>();
  const ruleNames: string[] = [];
  const connectionNames: string[] = [];

  // provider
  out.push("provider:", "  endpoint: embedded", `  projectId: ${pick.chance(0.03) ? (broken.push("projectId not a uuid"), "not-a-uuid") : PROJECT}`);
  if (pick.chance(0.3)) out.push(`  parallelism: ${pick.chance(0.05) ? (broken.push("parallelism 0"), 0) : pick.int(1, 20)}`);
  if (pick.chance(0.2)) out.push(`  timeouts: { routeFilters: ${pick.chance(0.1) ? (broken.push("timeout not a duration"), "soon") : pick.one(["5m", "30s", "1h"])} }`);

  // variables
  const vars: string[] = [];
  if (pick.chance(0.6)) {
    out.push("variables:");
    out.push(`  bandwidth: { type: number, default: ${pick.one([50, 100, 200, 1000, 7])} }`);
    vars.push("bandwidth");
    if (pick.chance(0.5)) {
      out.push("  prefixes:", "    type: map", "    default:");
      for (let i = 0; i < pick.int(1, 4); i++) out.push(`      p${i}: { prefix: 10.${i}.0.0/16 }`);
      vars.push("prefixes");
    }
    if (pick.chance(0.3)) {
      out.push("  unset: { type: string }");
      vars.push("unset");
    }
    if (pick.chance(0.2)) {
      out.push("  token: { type: string, sensitive: true, default: s3cret-value }");
      vars.push("token");
    }
  }

  // lookups
  const lookups: string[] = [];
  if (pick.chance(0.5)) {
    out.push("lookups:");
    for (let i = 0; i < pick.int(1, 3); i++) {
      const name = `port-${i}`;
      lookups.push(name);
      const kind = pick.chance(0.05) ? (broken.push("lookup kind misspelt"), "prot") : "port";
      out.push(`  ${name}: { kind: ${kind}, where: { metroCode: ${pick.one(METROS)}, priority: ${pick.one(PRIORITIES)} } }`);
    }
    if (pick.chance(0.3)) {
      lookups.push("metro");
      out.push(`  metro: { kind: metro, where: { code: ${pick.one(METROS)} } }`);
    }
  }

  // route filters, some with forEach
  if (pick.chance(0.9)) {
    out.push("routeFilters:");
    for (let i = 0; i < pick.int(1, 5); i++) {
      const name = `f${i}`;
      filterNames.push(name);
      out.push(`  ${name}:`);
      if (pick.chance(0.3)) {
        const keys = Array.from({ length: pick.int(0, 4) }, (_, k) => `k${k}`);
        forEachFilters.set(name, keys);
        out.push(`    forEach: [${keys.join(", ")}]`);
        out.push(`    name: ${name}-\${each.key}`);
      }
      out.push(`    type: ${pick.chance(0.05) ? (broken.push(`filter type of ${name}`), pick.one(FILTER_TYPES)) : "BGP_IPv4_PREFIX_FILTER"}`);
      if (pick.chance(0.5)) out.push(`    description: "filter ${i}${vars.includes("bandwidth") && pick.chance(0.3) ? " for ${var.bandwidth} Mbps" : ""}"`);
      if (pick.chance(0.1) && filterNames.length > 1) out.push(`    dependsOn: [routeFilters.${filterNames[0]}]`);
      if (pick.chance(0.03)) {
        broken.push(`dependsOn a missing resource from ${name}`);
        out.push("    dependsOn: [routeFilters.nowhere]");
      }
      if (pick.chance(0.2)) {
        out.push("    preconditions:");
        const condition = pick.chance(0.1)
          ? (broken.push(`condition of ${name} does not parse`), "${self.type} == == 1")
          : pick.one(['${self.type} == "BGP_IPv4_PREFIX_FILTER"', "length(${self.type}) > 3", vars.includes("bandwidth") ? "${var.bandwidth} >= 50" : "true"]);
        out.push(`      - condition: ${JSON.stringify(condition)}`, "        message: the filter must hold");
      }
      if (pick.chance(0.02)) {
        broken.push(`unknown field on ${name}`);
        out.push("    colour: blue");
      }
    }
  }

  // route filter rules, referring to plain filters and to forEach instances
  if (filterNames.length > 0 && pick.chance(0.6)) {
    out.push("routeFilterRules:");
    for (let i = 0; i < pick.int(1, 4); i++) {
      const name = `r${i}`;
      ruleNames.push(name);
      const filter = pick.one(filterNames);
      const keys = forEachFilters.get(filter);
      let target = `routeFilters.${filter}`;
      if (keys) {
        if (keys.length > 0 && pick.chance(0.9)) target = `routeFilters.${filter}["${pick.one(keys)}"]`;
        else broken.push(`rule ${name} refers to a forEach resource without a key`);
      }
      out.push(`  ${name}:`, `    routeFilter: \${${target}.uuid}`);
      const octet = pick.chance(0.04) ? (broken.push(`prefix of ${name} out of range`), 300) : pick.int(0, 255);
      const prefixMatch = pick.chance(0.03) ? (broken.push(`prefixMatch of ${name}`), "shorter") : pick.one(PREFIX_MATCHES);
      out.push(`    prefix: 10.${octet}.0.0/16`, `    prefixMatch: ${prefixMatch}`);
    }
  }

  // connections between looked-up ports
  const ports = lookups.filter((l) => l.startsWith("port-"));
  if (ports.length >= 1 && pick.chance(0.5)) {
    out.push("connections:");
    for (let i = 0; i < pick.int(1, 2); i++) {
      const name = `c${i}`;
      connectionNames.push(name);
      const bandwidth = vars.includes("bandwidth") && pick.chance(0.5) ? "${var.bandwidth}" : String(pick.one([50, 100, 500, 3]));
      const vlan = pick.chance(0.05) ? (broken.push(`vlan of ${name} out of range`), 5000) : pick.int(2, 4000);
      out.push(`  ${name}:`, "    type: EVPL_VC", `    bandwidth: ${bandwidth}`, "    aSide:", "      accessPoint:", "        type: COLO");
      out.push(`        port: { uuid: "\${lookups.${pick.one(ports)}.uuid}" }`, `        linkProtocol: { type: DOT1Q, vlanTag: ${vlan} }`);
      out.push("    zSide:", "      accessPoint:", "        type: COLO");
      out.push(`        port: { uuid: "\${lookups.${pick.one(ports)}.uuid}" }`, `        linkProtocol: { type: DOT1Q, vlanTag: ${vlan + 1} }`);
      if (pick.chance(0.97)) out.push("    notifications: [{ type: ALL, emails: [noc@example.com] }]");
      else broken.push(`no notifications on ${name}`);
    }
    if (filterNames.length > 0 && pick.chance(0.5)) {
      const filter = filterNames.find((f) => !forEachFilters.has(f));
      if (filter) {
        out.push("routeFilterAttachments:", "  attach:", `    connection: \${connections.${connectionNames[0]}.uuid}`, `    routeFilter: \${routeFilters.${filter}.uuid}`);
        out.push(`    direction: ${pick.chance(0.05) ? (broken.push("attachment direction"), "SIDEWAYS") : pick.one(["INBOUND", "OUTBOUND"])}`);
      }
    }
  }

  // outputs
  if (pick.chance(0.5)) {
    out.push("outputs:");
    const keys = filterNames.length > 0 ? forEachFilters.get(filterNames[0]!) : undefined;
    if (filterNames.length > 0 && (!keys || keys.length > 0)) out.push(`  first-filter: \${routeFilters.${filterNames[0]}${keys ? `["${keys[0]}"]` : ""}.uuid}`);
    if (vars.includes("token")) {
      const sensitive = pick.chance(0.8);
      if (!sensitive) broken.push("sensitive output not marked");
      out.push("  the-token:", "    value: ${var.token}", `    sensitive: ${sensitive}`);
    }
    if (lookups.length > 0) out.push(`  found: "looked up \${lookups.${pick.one(lookups)}.${pick.chance(0.1) ? "no.such.path" : pick.one(["uuid", "name"])}}"`);
    if (pick.chance(0.1)) {
      broken.push("output names an undeclared variable");
      out.push("  missing: ${var.nothing}");
    }
  }

  // moved and removed, acting on what the state records under old names
  const recorded: Record<string, object> = {};
  const record = (address: string, name: string) => {
    recorded[address] = { kind: "routeFilters", id: `00000000-0000-4000-8000-${String(index).padStart(6, "0")}${String(Object.keys(recorded).length).padStart(6, "0")}`, attributes: { name, type: "BGP_IPv4_PREFIX_FILTER", state: "PROVISIONED" } };
  };
  if (filterNames.length > 0 && pick.chance(0.4)) {
    out.push("moved:");
    for (let i = 0; i < pick.int(1, 3); i++) {
      const to = pick.one(filterNames);
      const keys = forEachFilters.get(to);
      const toAddress = keys ? (keys.length > 0 ? `routeFilters.${to}["${pick.one(keys)}"]` : `routeFilters.${to}`) : `routeFilters.${to}`;
      const from = pick.chance(0.05) ? (broken.push("moved from a declared address"), toAddress) : `routeFilters.old${i}`;
      if (pick.chance(0.7)) record(from, `old${i}`);
      out.push(`  - from: ${from}`, `    to: ${pick.chance(0.03) ? (broken.push("moved to another kind"), "connections.elsewhere") : toAddress}`);
    }
  }
  if (pick.chance(0.3)) {
    out.push("removed:");
    const from = pick.chance(0.05) && filterNames.length > 0 ? (broken.push("removed a declared address"), `routeFilters.${filterNames[0]}`) : "routeFilters.gone";
    record("routeFilters.gone", "gone");
    out.push(`  - from: ${from}`, `    destroy: ${pick.chance(0.1) ? (broken.push("removed.destroy not a boolean"), "maybe") : pick.one(["true", "false"])}`);
  }

  // backend
  switch (pick.one(BACKENDS)) {
    case "local":
      out.push("backend:", "  local: { path: states/generated.json }");
      break;
    case "local-env":
      broken.push("backend path from an unset environment variable");
      out.push("backend:", '  local: { path: "${env.NETFORM_GENERATED_UNSET_PATH}" }');
      break;
    case "http-env":
      broken.push("http backend address from an unset environment variable");
      out.push("backend:", '  http: { address: "${env.NETFORM_GENERATED_UNSET_ADDRESS}" }');
      break;
    case "bogus":
      broken.push("unknown backend");
      out.push("backend:", "  s3: { bucket: states }");
      break;
  }

  let yaml = `${out.join("\n")}\n`;
  if (pick.chance(0.1)) yaml = damage(yaml, pick, broken);
  const state = Object.keys(recorded).length > 0 ? { version: 1, lineage: `generated-${index}`, serial: 1, generator: "netform", resources: recorded, outputs: {} } : undefined;
  return { index, yaml, ...(state ? { state } : {}), broken };
}

/** `count` configurations from `seed`: the same ones on every run. */
export function generatedConfigurations(seed: number, count: number): GeneratedCase[] {
  const pick = new Picker(random(seed));
  return Array.from({ length: count }, (_, index) => generate(index, pick));
}
