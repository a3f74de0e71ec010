// The pull-request comment of plans of 10, 100 and 1,000 resources, made by a generator: the summary
// (counts, duration, cost total, risks) before anything collapsed, addresses in natural order, a reason
// for every row, long tables collapsed, the topology bounded, and the whole under GitHub's comment limit,
// saying where the rest is. Golden files: UPDATE_GOLDEN=1 rewrites them.

import { describe, expect, it } from "vitest";
import { planTopology } from "../../../src/plan/topology.js";
import type { Plan, ResourceChange } from "../../../src/plan/types.js";
import { UNKNOWN_TEXT } from "../../../src/plan/types.js";
import { renderPlanMarkdown } from "../../../src/views/plan-markdown.js";
import { renderTopologyMermaid } from "../../../src/views/topology.js";
import { expectGolden } from "./golden.js";
import { change, plan, risks } from "./plans.js";

const GITHUB_LIMIT = 65_536;

const connectionBody = (i: number, port: string, bandwidth: number, router: string) => ({
  name: `r${i}`,
  type: "IP_VC",
  bandwidth,
  aSide: { accessPoint: { type: "COLO", port: { uuid: port }, linkProtocol: { type: "DOT1Q", vlanTag: 1000 + i } } },
  zSide: { accessPoint: { type: "CLOUD_ROUTER", router: { uuid: router } } },
});

/**
 * A network of `n` resources: a tenth ports (unchanged), a twentieth cloud routers (new), the rest
 * connections r0, r1, ... from a port to a router: most created, every 7th resized, every 13th destroyed;
 * a fifth of the connections priced, one of them at a bandwidth the service does not price.
 */
export function networkPlan(n: number): Plan {
  const portCount = Math.max(2, Math.floor(n / 10));
  const routerCount = Math.max(1, Math.floor(n / 20));
  const ports = Array.from({ length: portCount }, (_, i) => change(`ports.p${i}`, "no-op", { id: `port-uuid-${i}`, before: { name: `p${i}` }, after: { name: `p${i}` } }));
  const routers = Array.from({ length: routerCount }, (_, i) => change(`cloudRouters.fcr${i}`, "create", { after: { name: `fcr${i}`, location: { metroCode: "DC" } }, unknown: ["uuid"] }));
  const connections: ResourceChange[] = [];
  for (let i = 0; i < n - portCount - routerCount; i++) {
    const port = `port-uuid-${i % portCount}`;
    const router = `cloudRouters.fcr${i % routerCount}`;
    const deps = [`ports.p${i % portCount}`, router];
    if (i % 13 === 12) connections.push(change(`connections.r${i}`, "delete", { id: `conn-${i}`, before: connectionBody(i, port, 50, `router-uuid-${i}`), dependencies: deps }));
    else if (i % 7 === 6) connections.push(change(`connections.r${i}`, "update", { id: `conn-${i}`, before: connectionBody(i, port, 50, `router-uuid-${i}`), after: connectionBody(i, port, 200, `router-uuid-${i}`), changes: [{ path: "bandwidth", before: 50, after: 200 }], dependencies: deps }));
    else connections.push(change(`connections.r${i}`, "create", { after: connectionBody(i, port, 100, UNKNOWN_TEXT), unknown: ["uuid", "zSide.accessPoint.router.uuid"], dependencies: deps }));
  }
  const priced = connections.filter((_, i) => i % 5 === 0);
  const resources = priced.map((rc) => ({
    address: rc.address,
    kind: rc.kind,
    action: rc.action as "create" | "update" | "delete",
    product: "IP_VC 100 Mbps, DC",
    ...(rc.action === "create" ? {} : { before: [{ currency: "USD", monthly: 300 }] }),
    ...(rc.action === "delete" || rc.address === priced[1]?.address ? {} : { after: [{ currency: "USD", monthly: 400 }] }),
  }));
  const unknownAddress = priced[1]?.address;
  const counted = resources.filter((r) => r.address !== unknownAddress);
  const before = counted.reduce((s, r) => s + (r.before?.[0]?.monthly ?? 0), 0);
  const after = counted.reduce((s, r) => s + (r.after?.[0]?.monthly ?? 0), 0);
  // Ports first in the list, as a planner that walks dependencies first gives them: the views sort.
  const changes = [...ports, ...routers, ...connections.reverse()];
  return plan(changes, "normal", {
    cost: {
      totals: [{ currency: "USD", monthlyBefore: before, monthlyAfter: after, delta: after - before }],
      resources,
      unknown: unknownAddress ? [{ address: unknownAddress, side: "after", why: "the service's price search quotes 50, 200 Mbps, not 100" }] : [],
      requests: 2,
    },
    estimatedDuration: { seconds: 1260, chain: ["cloudRouters.fcr0", "connections.r0"] },
    risks: [risks[0]!],
  });
}

describe("the pull-request comment of a large plan", () => {
  for (const n of [10, 100, 1000]) {
    it(`at ${n} resources: summary first, tables collapsed, natural order, under the limit`, () => {
      const md = renderPlanMarkdown(networkPlan(n));
      expectGolden(`plan-md-review-${n}`, md);
      expect(md.length).toBeLessThan(GITHUB_LIMIT);
      const firstDetails = md.indexOf("<details>");
      for (const text of ["### netform plan:", "**Estimated duration:**", "**Cost total: unknown**", "> [!WARNING]"]) {
        const at = md.indexOf(text);
        expect(at, text).toBeGreaterThanOrEqual(0);
        expect(at, text).toBeLessThan(firstDetails);
      }
      // r2 before r10, in the table as in the warning.
      if (n >= 100) expect(md.indexOf("`connections.r2`")).toBeLessThan(md.indexOf("`connections.r10`"));
      // Every row says why, creates too.
      const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Action") && !l.startsWith("| resource"));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows.filter((r) => r.includes("connections."))) expect(row.split("|").length === 6 ? row.split("|")[3]!.trim() : row, row).not.toBe("");
      expect(md).toContain("| create | `connections.r0` | new: not in the state |");
    });

    it(`at ${n} resources: the whole topology`, () => {
      const text = renderTopologyMermaid(planTopology(networkPlan(n)));
      expectGolden(`topology-${n}`, text);
      expect(text.startsWith("%% netform topology")).toBe(true);
    });
  }

  it("at 1,000 resources says how much it left out and where the rest is", () => {
    const md = renderPlanMarkdown(networkPlan(1000));
    expect(md).toMatch(/… and \d+ more changes not listed; the full plan is in the run log, or run `netform plan`\./);
    expect(md).toMatch(/\d+ more nodes and \d+ more connections are not drawn here/);
    expect(md).toContain("<details><summary>All 900 changes</summary>");
  });

  it("at 10 resources keeps the table open", () => {
    const md = renderPlanMarkdown(networkPlan(10));
    expect(md).not.toContain("<summary>All ");
    expect(md.indexOf("| Action | Address | Reason |")).toBeLessThan(md.indexOf("<details>"));
  });
});

describe("the topology diagram", () => {
  it("escapes labels and keeps node ids Mermaid-safe whatever the names and keys", () => {
    const body = { name: 'a "quoted" <b>#1</b> `x`\nnext', bandwidth: 50, aSide: { accessPoint: { type: "COLO", port: { uuid: "port-1" }, linkProtocol: { type: "QINQ", vlanSTag: 300, vlanCTag: 1001 } } }, zSide: { serviceToken: { uuid: "tok-1" } } };
    const p = plan([change("ports.edge", "no-op", { id: "port-1" }), change('connections.weird["a b/c"]', "create", { after: body, dependencies: ["ports.edge"] })]);
    const text = renderTopologyMermaid(planTopology(p));
    expect(text).toContain('  n1>"tok-1 (service token)"]:::unchanged');
    expect(text).toContain('==>|"+ a #quot;quoted#quot; #lt;b#gt;#35;1#lt;/b#gt; #39;x#39; next, 50 Mbps, VLAN 300.1001"|');
    for (const line of text.split("\n").filter((l) => /^ {2}n\d/.test(l))) expect(line).toMatch(/^ {2}n\d+(\S*"[^"\n]*"\S*:::\w+| (==>|-->|-\.->)\|"[^"\n]*"\| n\d+)$/);
  });

  it("draws what changes first when bounded, and counts what it left out", () => {
    const topology = planTopology(networkPlan(1000));
    const md = renderPlanMarkdown(networkPlan(1000));
    const drawn = md.slice(md.indexOf("```mermaid\nflowchart LR"), md.indexOf("```", md.indexOf("```mermaid\nflowchart LR") + 10));
    const nodes = drawn.split("\n").filter((l) => /:::\w+$/.test(l));
    expect(nodes.length).toBeLessThanOrEqual(60);
    expect(nodes.length).toBeGreaterThan(0);
    // The new router and changed connections are drawn, the unchanged ports only as their endpoints.
    expect(nodes.some((l) => l.endsWith(":::added"))).toBe(true);
    expect(drawn.split("\n").filter((l) => l.includes("-->|")).length).toBe(0);
    expect(topology.nodes.length).toBeGreaterThan(60);
  });
});
