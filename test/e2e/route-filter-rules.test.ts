// Route filter rules end to end through the command line against the simulator, beyond the lifecycle
// table's row (lifecycle.test.ts: create, a prefix changed in place, another filter, deleted with the
// filter): a filter's rules created in one bulk request, a clean re-plan refreshed with one list per filter,
// one rule deleted alone, drift made in the portal, an import, the resolution of a bulk create cut short,
// a filter's rules in place before it is attached, and a prefix of the wrong family refused before any call.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, PORTS, idOf, objects, out, portConnectionYaml, runner, type Obj } from "./service.js";

const t = useSimulator({ speed: 500 });

interface Rule {
  filter: "customer-in" | "partner-in";
  prefix: string;
  prefixMatch?: "exact" | "orlonger";
  extra?: string;
}

const config = (rules: Record<string, Rule>) => `${CONFIG_HEADER}routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
  partner-in:
    type: BGP_IPv4_PREFIX_FILTER
routeFilterRules:${
  Object.keys(rules).length === 0
    ? " {}"
    : Object.entries(rules)
        .map(
          ([name, r]) => `
  ${name}:
    routeFilter: \${routeFilters.${r.filter}.uuid}
    prefix: ${r.prefix}${r.prefixMatch ? `\n    prefixMatch: ${r.prefixMatch}` : ""}${r.extra ?? ""}`,
        )
        .join("")
}
`;

const RULES: Record<string, Rule> = {
  "office-a": { filter: "customer-in", prefix: "10.1.0.0/16" },
  "office-b": { filter: "customer-in", prefix: "10.2.0.0/16", prefixMatch: "exact" },
  "office-c": { filter: "customer-in", prefix: "10.3.0.0/16" },
};

interface Logged {
  method: string;
  path: string;
  status: number;
}

async function requestsDuring(work: () => Promise<unknown>): Promise<Logged[]> {
  await t.call("DELETE", "/__sim/requests");
  await work();
  return ((await t.call("GET", "/__sim/requests")).body as Logged[]).filter((r) => !r.path.startsWith("/__sim") && !r.path.startsWith("/oauth2/"));
}

const rulePath = (filter: string, rule: string) => `/fabric/v4/routeFilters/${filter}/routeFilterRules/${rule}`;

describe("route filter rules end to end", () => {
  it("creates a filter's rules in one request, refreshes them with one list, and deletes one rule alone", { timeout: 120_000 }, async () => {
    const ws = workspace(config(RULES));
    const run = runner(t, ws);

    let created!: Awaited<ReturnType<typeof run>>;
    const createRequests = await requestsDuring(async () => (created = await run("apply", "--auto-approve")));
    expect(created.code, out(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("+ routeFilterRules.office-a");
    expect(created.stdout).toContain("Apply complete! Resources: 5 added, 0 changed, 0 replaced, 0 destroyed.");
    const customer = idOf(ws, "routeFilters.customer-in");
    // The three rules of one filter are one request.
    const ruleCreates = createRequests.filter((r) => r.method === "POST" && r.path.includes("/routeFilterRules"));
    expect(ruleCreates.map((r) => `${r.path} ${r.status}`)).toEqual([`/fabric/v4/routeFilters/${customer}/routeFilterRules/bulk 202`]);
    const officeB = idOf(ws, "routeFilterRules.office-b");
    expect(ws.state().resources["routeFilterRules.office-b"]).toMatchObject({ parent: customer, attributes: { prefix: "10.2.0.0/16", prefixMatch: "exact", state: "PROVISIONED" } });
    expect((await t.call("GET", rulePath(customer, officeB))).body).toMatchObject({ name: "office-b", prefix: "10.2.0.0/16", prefixMatch: "exact", state: "PROVISIONED", type: "BGP_IPv4_PREFIX_FILTER_RULE" });
    expect((await t.call("GET", `/fabric/v4/routeFilters/${customer}`)).body.rulesCount).toBe(3);

    let clean!: Awaited<ReturnType<typeof run>>;
    const refreshRequests = await requestsDuring(async () => (clean = await run("plan", "--detailed-exitcode")));
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");
    // One search for the two filters, one list for the three rules.
    expect(refreshRequests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["GET /fabric/v4/routeFilters/" + customer + "/routeFilterRules", "POST /fabric/v4/routeFilters/search"]);

    // Removing a rule deletes it alone, its filter and the other rules left as they were.
    ws.write(config({ "office-a": RULES["office-a"]!, "office-c": RULES["office-c"]! }));
    let one!: Awaited<ReturnType<typeof run>>;
    const deleteRequests = await requestsDuring(async () => (one = await run("apply", "--auto-approve")));
    expect(one.code, out(one)).toBe(0);
    expect(one.stdout).toContain("0 added, 0 changed, 0 replaced, 1 destroyed");
    expect(deleteRequests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([rulePath(customer, officeB)]);
    expect((await t.call("GET", rulePath(customer, officeB))).body.state).toBe("DEPROVISIONED");
    expect((await t.call("GET", `/fabric/v4/routeFilters/${customer}`)).body).toMatchObject({ state: "PROVISIONED", rulesCount: 2 });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("finds a rule edited in the portal, names who did it, and puts it back", { timeout: 120_000 }, async () => {
    const ws = workspace(config({ "office-a": RULES["office-a"]! }));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const rule = idOf(ws, "routeFilterRules.office-a");
    await t.call("PATCH", `/__sim/objects/${rule}`, { body: { prefixMatch: "exact", description: "narrowed by the NOC" } });

    const drift = await run("drift", "--format", "json");
    expect(drift.code, out(drift)).toBe(2);
    const entries = JSON.parse(drift.stdout).entries;
    expect(entries).toEqual([
      expect.objectContaining({
        address: "routeFilterRules.office-a",
        status: "changed",
        changedBy: "portal-user",
        fields: expect.arrayContaining([{ path: "prefixMatch", before: "orlonger", after: "exact" }]),
      }),
    ]);
    const back = await run("apply", "--auto-approve");
    expect(back.code, out(back)).toBe(0);
    expect(back.stdout).toContain("0 added, 1 changed, 0 replaced, 0 destroyed");
    expect((await t.call("GET", rulePath(idOf(ws, "routeFilters.customer-in"), rule))).body).toMatchObject({ prefixMatch: "orlonger", description: "" });
    expect((await run("drift")).code).toBe(0);
  });

  it("imports a rule made outside netform under its filter, then plans clean", { timeout: 120_000 }, async () => {
    const ws = workspace(config({}));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const customer = idOf(ws, "routeFilters.customer-in");
    const made = await t.call("POST", `/fabric/v4/routeFilters/${customer}/routeFilterRules`, { body: { name: "legacy", prefix: "192.0.2.0/24", prefixMatch: "exact" } });
    await t.waitFor(rulePath(customer, made.body.uuid), "/state", "PROVISIONED");

    ws.write(config({ legacy: { filter: "customer-in", prefix: "192.0.2.0/24", prefixMatch: "exact" } }));
    const imported = await run("import", "routeFilterRules.legacy", made.body.uuid);
    expect(imported.code, out(imported)).toBe(0);
    expect(imported.stdout).toContain(`Imported routeFilterRules.legacy (${String(made.body.uuid)})`);
    expect(ws.state().resources["routeFilterRules.legacy"]).toMatchObject({ id: made.body.uuid, parent: customer });
    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);

    // Through the import key, with a difference to apply after adopting it.
    const other = await t.call("POST", `/fabric/v4/routeFilters/${customer}/routeFilterRules`, { body: { name: "older", prefix: "198.51.100.0/24" } });
    await t.waitFor(rulePath(customer, other.body.uuid), "/state", "PROVISIONED");
    ws.write(
      config({
        legacy: { filter: "customer-in", prefix: "192.0.2.0/24", prefixMatch: "exact" },
        older: { filter: "customer-in", prefix: "198.51.100.0/24", extra: `\n    description: adopted\n    import: ${String(other.body.uuid)}` },
      }),
    );
    const adopted = await run("apply", "--auto-approve");
    expect(adopted.code, out(adopted)).toBe(0);
    expect(idOf(ws, "routeFilterRules.older")).toBe(other.body.uuid);
    expect((await t.call("GET", rulePath(customer, other.body.uuid))).body.description).toBe("adopted");
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("resolves a bulk create cut short address by address: adopts the rules it made, creates the others once", { timeout: 120_000 }, async () => {
    const ws = workspace(config({}));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const customer = idOf(ws, "routeFilters.customer-in");
    // The bulk request reached the service for two of the three rules before netform died: the state
    // holds the pending record each address wrote before the request, with the spec to look up.
    const startedAt = new Date().toISOString();
    const made = await t.call("POST", `/fabric/v4/routeFilters/${customer}/routeFilterRules/bulk`, {
      body: { data: [{ name: "office-a", prefix: "10.1.0.0/16" }, { name: "office-b", prefix: "10.2.0.0/16", prefixMatch: "exact" }] },
    });
    expect(made.status).toBe(202);
    const state = JSON.parse(ws.stateText()) as { resources: Record<string, unknown> };
    for (const [name, rule] of Object.entries(RULES)) {
      const lookup = { routeFilter: customer, prefix: rule.prefix, ...(rule.prefixMatch ? { prefixMatch: rule.prefixMatch } : {}), name };
      state.resources[`routeFilterRules.${name}`] = { kind: "routeFilterRules", attributes: {}, sensitiveHashes: {}, dependencies: ["routeFilters.customer-in"], pending: { operation: "create", startedAt, lookup } };
    }
    ws.write(`${JSON.stringify(state, null, 2)}\n`, "netform.state.json");
    ws.write(config(RULES));

    const planned = await run("plan");
    expect(planned.code, out(planned)).toBe(0);
    expect(planned.stdout).toContain("+ routeFilterRules.office-c");
    expect(planned.stdout).not.toContain("+ routeFilterRules.office-a");
    let applied!: Awaited<ReturnType<typeof run>>;
    const requests = await requestsDuring(async () => (applied = await run("apply", "--auto-approve")));
    expect(applied.code, out(applied)).toBe(0);
    expect(requests.filter((r) => r.method === "POST" && !r.path.endsWith("/search")).map((r) => r.path)).toEqual([`/fabric/v4/routeFilters/${customer}/routeFilterRules`]);
    const onService = (await objects(t, "routeFilterRules")).filter((r: Obj) => r.state !== "DEPROVISIONED");
    expect(onService.map((r) => r.prefix).sort()).toEqual(["10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"]);
    const recorded = ws.state().resources;
    expect(recorded["routeFilterRules.office-a"]?.id).toBe(made.body.data[0].uuid);
    expect(recorded["routeFilterRules.office-b"]?.id).toBe(made.body.data[1].uuid);
    for (const name of Object.keys(RULES)) expect(recorded[`routeFilterRules.${name}`]?.pending).toBeUndefined();
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("creates a filter's rules before attaching the filter to a connection, and detaches it before the filter goes", { timeout: 120_000 }, async () => {
    const attached = `${config(RULES)}connections:
${portConnectionYaml("filtered", { aPort: PORTS.nyPrimary, vlanA: 2811, zPort: PORTS.nySecondary, vlanZ: 2812 })}routeFilterAttachments:
  customer-on-filtered:
    connection: \${connections.filtered.uuid}
    routeFilter: \${routeFilters.customer-in.uuid}
    direction: INBOUND
`;
    const ws = workspace(attached);
    const run = runner(t, ws);
    // An ordering of the service's, which no reference states: the attachment waits for each of its filter's rules.
    const graph = await run("graph");
    for (const rule of Object.keys(RULES)) expect(graph.stdout).toContain(`"routeFilterAttachments.customer-on-filtered" -> "routeFilterRules.${rule}"`);
    let applied!: Awaited<ReturnType<typeof run>>;
    const created = await requestsDuring(async () => (applied = await run("apply", "--auto-approve")));
    expect(applied.code, out(applied)).toBe(0);
    const customer = idOf(ws, "routeFilters.customer-in");
    const mutating = created.filter((r) => r.method !== "GET" && !r.path.endsWith("/search")).map((r) => `${r.method} ${r.path}`);
    const rulesCreated = mutating.findIndex((r) => r.startsWith(`POST /fabric/v4/routeFilters/${customer}/routeFilterRules`));
    const attachedAt = mutating.findIndex((r) => /^PUT \/fabric\/v4\/connections\/[^/]+\/routeFilters\//.test(r) || /^POST \/fabric\/v4\/connections\/[^/]+\/routeFilters/.test(r));
    expect(rulesCreated, mutating.join("\n")).toBeGreaterThanOrEqual(0);
    expect(attachedAt, mutating.join("\n")).toBeGreaterThan(rulesCreated);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    let destroyed!: Awaited<ReturnType<typeof run>>;
    const deleted = await requestsDuring(async () => (destroyed = await run("destroy", "--auto-approve")));
    expect(destroyed.code, out(destroyed)).toBe(0);
    const deletes = deleted.filter((r) => r.method === "DELETE").map((r) => r.path);
    expect(deletes.findIndex((p) => p.includes("/routeFilters/") && p.startsWith("/fabric/v4/connections/"))).toBeLessThan(deletes.indexOf(`/fabric/v4/routeFilters/${customer}`));
    expect(deletes.filter((p) => p.includes("/routeFilterRules/"))).toEqual([]);
  });

  it("refuses a prefix of the other family than its filter before any call, naming the line", async () => {
    const ws = workspace(config({ v6: { filter: "customer-in", prefix: "2001:db8::/32" } }));
    const run = runner(t, ws);
    const refused = await run("plan");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/netform\.yaml:\d+:\d+\s+routeFilterRules\.v6\.prefix\s+2001:db8::\/32 is an IPv6 prefix, but routeFilters\.customer-in is a BGP_IPv4_PREFIX_FILTER/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await objects(t, "routeFilters")).toEqual([]);
  });
});
