// Refactoring without replacement, through the command line: `moved:` and `removed:` blocks and
// `netform state mv` change only the state, and the service keeps every object as it was.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, idOf, out, runner } from "./service.js";

const t = useSimulator({ speed: 500 });

/** Route filters by address name; `name=display` keeps the display name a renamed filter had, so that only its address changes. */
const filters = (...names: string[]) =>
  `${CONFIG_HEADER}routeFilters:\n${names
    .map((n) => {
      const [address, display] = n.split("=");
      return `  ${address}:\n    type: BGP_IPv4_PREFIX_FILTER\n${display ? `    name: ${display}\n` : ""}`;
    })
    .join("")}`;

/** The requests that change something on the service, since the log was last read. */
async function mutationsSince(count: number): Promise<string[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as { method: string; path: string }[];
  return changesSent(log.slice(count))
    .map((r) => `${r.method} ${r.path}`);
}

const logLength = async (): Promise<number> => ((await t.call("GET", "/__sim/requests")).body as unknown[]).length;

describe("moved blocks", () => {
  it("plan shows the move, apply records it under the new address without one call that changes the service", async () => {
    const ws = workspace(filters("old-name"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const id = idOf(ws, "routeFilters.old-name");

    ws.write(`${filters("new-name=old-name")}moved:\n  - from: routeFilters.old-name\n    to: routeFilters.new-name\n`);
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain("# routeFilters.old-name has moved to routeFilters.new-name");
    expect(plan.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy, 1 to move.");
    const json = JSON.parse((await run("plan", "--format", "json")).stdout) as { resourceChanges: { address: string; previousAddress?: string; actions: string[] }[] };
    expect(json.resourceChanges).toEqual([expect.objectContaining({ address: "routeFilters.new-name", previousAddress: "routeFilters.old-name", actions: ["no-op"] })]);

    const before = await logLength();
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(await mutationsSince(before)).toEqual([]);
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.new-name"]);
    expect(idOf(ws, "routeFilters.new-name")).toBe(id);
    // The block stays, as old blocks do: with nothing left at its `from`, it does nothing.
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("follows a chain of moves, and refuses a cycle, a change of kind and a from still declared, at their lines", async () => {
    const ws = workspace(filters("a"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    ws.write(`${filters("c=a")}moved:\n  - { from: routeFilters.a, to: routeFilters.b }\n  - { from: routeFilters.b, to: routeFilters.c }\n`);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.c"]);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(`${filters("c")}moved:\n  - { from: routeFilters.x, to: routeFilters.y }\n  - { from: routeFilters.y, to: routeFilters.x }\n  - { from: routeFilters.c, to: connections.c }\n  - { from: routeFilters.z, to: routeFilters.c }\n  - { from: routeFilters.c, to: routeFilters.d }\n`);
    const invalid = await run("validate");
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("netform.yaml:9:5  moved  moved blocks form a cycle: routeFilters.x -> routeFilters.y -> routeFilters.x");
    expect(invalid.stdout).toMatch(/netform\.yaml:11:\d+ {2}moved\[2\]\.to {2}routeFilters\.c is one of routeFilters and cannot become one of connections/);
    expect(invalid.stdout).toContain("routeFilters.c is moved to routeFilters.d but is still declared");
  });
});

describe("removed blocks", () => {
  it("destroy: false forgets the object and the service keeps it", async () => {
    const ws = workspace(filters("keep", "leave"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const id = idOf(ws, "routeFilters.leave");

    ws.write(`${filters("keep")}removed:\n  - from: routeFilters.leave\n    destroy: false\n`);
    const plan = await run("plan");
    expect(plan.stdout).toContain("# routeFilters.leave will be removed from the state, not destroyed");
    expect(plan.stdout).toContain("0 to destroy, 1 to forget.");

    const before = await logLength();
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    expect(await mutationsSince(before)).toEqual([]);
    expect(Object.keys(ws.state().resources)).toEqual(["routeFilters.keep"]);
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.state).toBe("PROVISIONED");
  });

  it("destroy: true deletes it; a removed block without destroy, or naming a declared resource, is an error", async () => {
    const ws = workspace(filters("gone"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const id = idOf(ws, "routeFilters.gone");

    ws.write(`${filters("kept")}removed:\n  - from: routeFilters.gone\n  - { from: routeFilters.kept, destroy: false }\n`);
    const invalid = await run("validate");
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("routeFilters.gone does not say whether to destroy the object");
    expect(invalid.stdout).toContain("write destroy: false to forget it");
    expect(invalid.stdout).toContain("routeFilters.kept is removed but is still declared");

    ws.write(`${CONFIG_HEADER}removed:\n  - { from: routeFilters.gone, destroy: true }\n`);
    const plan = await run("plan");
    expect(plan.stdout).toContain("# routeFilters.gone will be destroyed");
    expect(plan.stdout).toContain("a removed block with destroy: true deletes it");
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    expect(ws.state().resources).toEqual({});
    expect((await t.call("GET", `/fabric/v4/routeFilters/${id}`)).body.state).toBe("DEPROVISIONED");
  });
});

describe("state mv", () => {
  it("moves a record to a new address, and refuses a taken address, another kind and an unknown source", async () => {
    const ws = workspace(filters("a", "b"));
    const run = runner(t, ws);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const id = idOf(ws, "routeFilters.a");

    const taken = await run("state", "mv", "routeFilters.a", "routeFilters.b");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("the state already has routeFilters.b");
    const kind = await run("state", "mv", "routeFilters.a", "connections.a");
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain("routeFilters.a is one of routeFilters, and connections.a would make it one of connections");
    const unknown = await run("state", "mv", "routeFilters.zzz", "routeFilters.c");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("the state has no routeFilters.zzz");
    const malformed = await run("state", "mv", "routeFilters.a", "nothing");
    expect(malformed.stderr).toContain("nothing is not a resource address");

    const moved = await run("state", "mv", "routeFilters.a", "routeFilters.c");
    expect(moved.code, out(moved)).toBe(0);
    expect(moved.stdout).toContain(`Moved routeFilters.a to routeFilters.c (${id}). The object itself was not touched.`);
    expect(Object.keys(ws.state().resources).sort()).toEqual(["routeFilters.b", "routeFilters.c"]);
    ws.write(filters("b", "c=a"));
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });
});

describe("outputs", () => {
  const config = `${filters("a")}variables:
  token: { type: string, sensitive: true }
outputs:
  filter-uuid:
    value: \${routeFilters.a.uuid}
    description: the filter the next job attaches
  filter-name: \${routeFilters.a.name}
  label: "filter \${routeFilters.a.name} of \${routeFilters.a.type}"
  port: 179
  empty: \${routeFilters.a.description}
  token: { value: "\${var.token}", sensitive: true }
`;

  it("plans, records and prints outputs; a sensitive one only when named, and never in a plan, a log or the state", async () => {
    const ws = workspace(config);
    const run = runner(t, ws, { NETFORM_VAR_token: "s3cr3t-token" });
    const plan = await run("plan", "--out", "plan.bin");
    expect(plan.code, out(plan)).toBe(0);
    expect(plan.stdout).toContain("Changes to Outputs:");
    expect(plan.stdout).toContain("+ filter-uuid = (known after apply)");
    expect(plan.stdout).toContain("+ port        = 179");
    expect(plan.stdout).toContain("+ token       = (sensitive)");
    const json = JSON.parse((await run("show", "plan.bin", "--format", "json")).stdout) as { outputChanges: unknown[] };
    expect(json.outputChanges).toContainEqual({ name: "filter-uuid", actions: ["create"], before: null, after: null, afterUnknown: true, sensitive: false });
    expect(json.outputChanges).toContainEqual({ name: "token", actions: ["create"], before: null, after: null, afterUnknown: false, sensitive: true });

    const applied = await run("apply", "plan.bin");
    expect(applied.code, out(applied)).toBe(0);
    const id = idOf(ws, "routeFilters.a");
    for (const text of [plan.stdout, applied.stdout, applied.stderr, ws.stateText(), readFileSync(join(ws.dir, "plan.bin"), "latin1")]) expect(text).not.toContain("s3cr3t-token");

    const all = await run("output");
    expect(all.stdout).toBe(`empty = null\nfilter-name = "a"\nfilter-uuid = "${id}"\nlabel = "filter a of BGP_IPv4_PREFIX_FILTER"\nport = 179\ntoken = <sensitive>\n`);
    expect((await run("output", "filter-uuid")).stdout).toBe(`${id}\n`);
    expect((await run("output", "port")).stdout).toBe("179\n");
    expect((await run("output", "token")).stdout).toBe("s3cr3t-token\n");
    expect((await run("output", "filter-uuid", "--json")).stdout).toBe(`"${id}"\n`);
    expect(JSON.parse((await run("output", "--json")).stdout)).toEqual({
      empty: { sensitive: false, value: null },
      "filter-name": { sensitive: false, value: "a" },
      "filter-uuid": { sensitive: false, value: id, description: "the filter the next job attaches" },
      label: { sensitive: false, value: "filter a of BGP_IPv4_PREFIX_FILTER" },
      port: { sensitive: false, value: 179 },
      token: { sensitive: true, value: "s3cr3t-token" },
    });
    const unknown = await run("output", "filter-id");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("the state has no output filter-id");
    expect(unknown.stderr).toContain("the outputs are: empty, filter-name, filter-uuid, label, port, token");
    // Another secret in the environment is not the value applied: it is refused, not printed.
    const other = await runner(t, ws, { NETFORM_VAR_token: "another" })("output", "token");
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("output token is sensitive");
    expect(other.stdout).toBe("");

    // An attribute the service leaves out is an empty output, not one unknown at every plan.
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
    ws.write(config.replace("  port: 179\n", ""));
    const removed = await run("plan", "--detailed-exitcode");
    expect(removed.code).toBe(2);
    expect(removed.stdout).toContain("  - port = 179 -> null");
  });

  it("refuses an output that shows a secret without sensitive: true, at its line", async () => {
    const ws = workspace(`${config}  leak: \${var.token}\n  noisy: { value: "\${var.token}", sensitive: false }\n`);
    const result = await runner(t, ws, { NETFORM_VAR_token: "s3cr3t-token" })("validate");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/netform\.yaml:19:9 {2}outputs\.leak {2}output leak shows a secret or a sensitive variable/);
    expect(result.stdout).toContain("write it in full: leak: { value: ..., sensitive: true }");
    expect(result.stdout).toContain("add sensitive: true to this output");
  });
});
