// Ownership and convergence end to end: faults in the window after the service acted and before netform saw
// its answer (a gateway's 502, a reset connection), server errors, rate limits and a lost state file all end
// in the configuration applied, with nothing made twice and nothing adopted that this configuration did not
// make.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type Workspace } from "./cli.js";
import { CONFIG_HEADER, PROJECT, dcConnectionYaml, idOf, objects, out, type Obj } from "./service.js";

const t = useSimulator({ speed: 40 });

const FILTER = `routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
    description: ours
`;

const ATTACHED = `${CONFIG_HEADER}${FILTER}connections:
${dcConnectionYaml("alpha", 1401, 1402)}routeFilterAttachments:
  alpha-in:
    connection: \${connections.alpha.uuid}
    routeFilter: \${routeFilters.customer-in.uuid}
    direction: INBOUND
`;

const NO_STACK = /\n\s+at /;

const stateOf = (o: Obj): string => String(o.state ?? o.attachmentStatus ?? "");
const live = async (kind: string): Promise<Obj[]> => (await objects(t, kind)).filter((o) => !/DEPROVISION|DETACH|DELETED|CANCELLED/.test(stateOf(o)));

async function faults(body: unknown): Promise<void> {
  expect((await t.call("POST", "/__sim/faults", { body })).status).toBe(200);
}

async function expectConverged(ws: Workspace, env: Record<string, string>): Promise<void> {
  const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
  expect(clean.code, out(clean)).toBe(0);
  expect(clean.stdout).toContain("No changes.");
}

describe("a mutating call the service carried out, whose answer was lost", () => {
  for (const answer of [502, "reset"] as const) {
    it(`an attach answered ${answer === 502 ? "502" : "with a reset connection"} is observed as attached, not sent again and refused`, async () => {
      const ws = workspace(ATTACHED);
      const env = simEnv(t.url);
      await faults({ afterActed: { answer, count: 1, methods: ["PUT"], path: "/fabric/v4/connections/*/routeFilters/*" } });

      const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
      expect(applied.code, out(applied)).toBe(0);
      expect(applied.stderr).not.toMatch(NO_STACK);
      expect((await t.call("GET", "/__sim/faults")).body.afterActed.count, "the fault hit the attach").toBe(0);
      const attachment = ws.state().resources["routeFilterAttachments.alpha-in"]!;
      expect(attachment.pending).toBeUndefined();
      expect(attachment.id).toBe(idOf(ws, "routeFilters.customer-in"));
      await expectConverged(ws, env);
    });
  }

  it("an update answered 502 and a delete whose connection was reset are observed, and converge", async () => {
    const ws = workspace(`${CONFIG_HEADER}${FILTER}`);
    const env = simEnv(t.url);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
    const id = idOf(ws, "routeFilters.customer-in");

    ws.write(`${CONFIG_HEADER}${FILTER.replace("ours", "still ours")}`);
    await faults({ afterActed: { answer: 502, count: 1, methods: ["PATCH"] } });
    const updated = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(updated.code, out(updated)).toBe(0);
    expect((await t.call("GET", "/__sim/faults")).body.afterActed.count).toBe(0);
    expect((await t.call("GET", "/__sim/requests")).body.filter((r: Obj) => r.method === "PATCH")).toHaveLength(1);
    await expectConverged(ws, env);

    await faults({ afterActed: { answer: "reset", count: 1, methods: ["DELETE"] } });
    const destroyed = await netform(["destroy", "--auto-approve"], { cwd: ws.dir, env });
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect((await t.call("GET", "/__sim/faults")).body.afterActed.count).toBe(0);
    expect(ws.state().resources).toEqual({});
    expect((await live("routeFilters")).map((f) => f.uuid)).not.toContain(id);
  });
});

describe("a create whose outcome is unknown adopts only what it could have made", () => {
  /** The state an apply writes just before its create call: a pending record with the spec to look up. */
  function pendingFilterState(ws: Workspace, startedAt: string): void {
    const state = {
      version: 1,
      lineage: "6a0c2a43-3f4e-4c4f-9d0e-6a1b9d2c7e11",
      serial: 2,
      generator: "netform",
      resources: {
        "routeFilters.customer-in": {
          kind: "routeFilters",
          attributes: {},
          sensitiveHashes: {},
          dependencies: [],
          pending: { operation: "create", startedAt, lookup: { type: "BGP_IPv4_PREFIX_FILTER", name: "customer-in", description: "ours", project: { projectId: PROJECT } } },
        },
      },
      outputs: {},
    };
    writeFileSync(ws.statePath, `${JSON.stringify(state, null, 2)}\n`);
  }

  async function strangersFilter(changeLog: Obj): Promise<string> {
    const made = await t.call("POST", "/fabric/v4/routeFilters", { body: { type: "BGP_IPv4_PREFIX_FILTER", name: "customer-in", description: "theirs", project: { projectId: PROJECT } } });
    expect(made.status).toBeLessThan(300);
    const id = made.body.uuid as string;
    expect((await t.call("PATCH", `/__sim/objects/${id}`, { body: { changeLog } })).status).toBe(200);
    return id;
  }

  const cases: Array<{ name: string; changeLog: (startedAt: Date) => Obj; why: RegExp }> = [
    { name: "made before the create began", changeLog: (startedAt) => ({ createdDateTime: new Date(startedAt.getTime() - 3_600_000).toISOString() }), why: /was created at .*, before this create began/ },
    { name: "made by another user", changeLog: () => ({ createdBy: "someone-else" }), why: /was created by someone-else, not by demo-user/ },
  ];
  for (const c of cases) {
    it(`a route filter with the same name ${c.name} is named, not adopted, overwritten or destroyed`, async () => {
      const ws = workspace(`${CONFIG_HEADER}${FILTER}`);
      const env = simEnv(t.url);
      const startedAt = new Date();
      pendingFilterState(ws, startedAt.toISOString());
      const theirs = await strangersFilter(c.changeLog(startedAt));

      const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
      expect(applied.code, out(applied)).toBe(1);
      expect(applied.stderr).not.toMatch(NO_STACK);
      expect(applied.stderr).toContain(`route filter "customer-in" (${theirs}), is not adopted`);
      expect(applied.stderr).toMatch(c.why);
      expect(applied.stderr).toContain(`netform import routeFilters.customer-in ${theirs}`);
      const filter = (await live("routeFilters")).find((f) => f.uuid === theirs)!;
      expect(filter.description).toBe("theirs");
      expect(ws.state().resources["routeFilters.customer-in"]!.id).toBeUndefined();

      const destroyed = await netform(["destroy", "--auto-approve"], { cwd: ws.dir, env });
      expect(destroyed.code, out(destroyed)).toBe(0);
      expect((await live("routeFilters")).map((f) => f.uuid)).toContain(theirs);
    });
  }
});

describe("server errors and rate limits", () => {
  it("reads answered 500 are retried, and a token endpoint answering 500 is the service's fault, not the credentials'", async () => {
    const ws = workspace(`${CONFIG_HEADER}${FILTER}`);
    const env = simEnv(t.url);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);

    await faults({ errorRate: 0.4, errorStatuses: [500], seed: 3 });
    await expectConverged(ws, env);

    await faults({ errorRate: 1, errorStatuses: [500] });
    const failed = await netform(["plan"], { cwd: ws.dir, env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("the service's token endpoint failed (HTTP 500)");
    expect(failed.stderr).not.toContain("refused the client credentials");
  });

  it("a Retry-After of a day is capped, and the wait is shown as text and as a JSON event", async () => {
    const ws = workspace(`${CONFIG_HEADER}${FILTER}`);
    const env = simEnv(t.url, { NETFORM_MAX_RETRY_AFTER_S: "0.01" });
    await faults({ rateLimit: { every: 3, retryAfterS: 86_400 } });

    const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain("rate limited; retrying in 1 s");

    // The provider's setting, when the environment does not say.
    ws.write(`${CONFIG_HEADER}  maxRetryAfter: 1s\n${FILTER.replace("ours", "changed")}`);
    const json = await netform(["apply", "--auto-approve", "--format", "json"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(json.code, out(json)).toBe(0);
    const events = json.stdout.trim().split("\n").map((line) => JSON.parse(line) as Obj);
    expect(events).toContainEqual(expect.objectContaining({ type: "rate_limited", retryInMs: 1000, message: "rate limited; retrying in 1 s" }));
  });
});

describe("a saved plan applied again converges", () => {
  it("a plan made on an empty state, applied again after the state file was lost, makes nothing twice", async () => {
    const ws = workspace(ATTACHED);
    const env = simEnv(t.url);
    const planFile = join(ws.dir, "plan.bin");
    expect((await netform(["plan", "--out", planFile], { cwd: ws.dir, env })).code).toBe(0);
    expect((await netform(["apply", planFile], { cwd: ws.dir, env })).code).toBe(0);
    const before = { filters: await live("routeFilters"), connections: await live("connections") };

    rmSync(ws.statePath);
    const again = await netform(["apply", planFile], { cwd: ws.dir, env });
    expect(again.code, out(again)).toBe(0);
    expect((await live("routeFilters")).map((f) => f.uuid)).toEqual(before.filters.map((f) => f.uuid));
    expect((await live("connections")).map((c) => c.uuid)).toEqual(before.connections.map((c) => c.uuid));
    expect(idOf(ws, "connections.alpha")).toBe(before.connections[0]!.uuid);
    await expectConverged(ws, env);
  });
});
