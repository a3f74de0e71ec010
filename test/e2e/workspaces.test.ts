// Workspaces as a team runs environments with them: one configuration, dev and prod, each with its names
// (${workspace}) and VLANs (a variable file each), applied, listed, drifted and destroyed independently
// on the local backend, on a real PostgreSQL and on an HTTP state server, all started by the test. Also
// what must fail clearly: a workspace that does not exist, --state with a workspace, a saved plan applied
// in another workspace, a backend block whose inputs are missing, and the deletes a team must not make.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HTTP_PASSWORD, HTTP_USER } from "../support/http-state-server.js";
import { useHttpStateStore } from "../support/http-state-store.js";
import { usePostgres } from "../support/postgres.js";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace, type CliResult, type Workspace } from "./cli.js";
import { CONFIG_HEADER, objects, out, PORTS, portConnectionYaml } from "./service.js";

const t = useSimulator({ speed: 500 });
const db = usePostgres();
const http = useHttpStateStore();

let tests = 0;

/** Some thirty runs of the command line each, one after another. */
const ENVIRONMENTS_TIMEOUT = 180_000;

/** The configuration: the same for every environment, told apart by ${workspace} and a variable file. */
function configuration(backend: string): string {
  const uplink = portConnectionYaml("uplink", { aPort: PORTS.dcPrimary, vlanA: '"${var.vlan}"', zPort: PORTS.dcSecondary, vlanZ: '"${var.vlan}"' }).replace("    type: EVPL_VC\n", "    type: EVPL_VC\n    name: uplink-${workspace}\n");
  return `${CONFIG_HEADER}${backend}variables:
  vlan: { type: number }
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    name: edge-\${workspace}
    description: "edge of \${workspace}, VLAN \${var.vlan}"
connections:
${uplink}`;
}

interface Setup {
  ws: Workspace;
  run: (args: string[], extra?: Record<string, string>) => Promise<CliResult>;
}

function setup(backend: string, env: Record<string, string> = {}): Setup {
  const ws = workspace(configuration(backend));
  ws.write("vlan: 1101\n", "dev.vars.yaml");
  ws.write("vlan: 1201\n", "prod.vars.yaml");
  const run = (args: string[], extra: Record<string, string> = {}) => netform(args, { cwd: ws.dir, env: simEnv(t.url, { ...env, ...extra }) });
  return { ws, run };
}

async function ok(result: Promise<CliResult>): Promise<CliResult> {
  const done = await result;
  expect(done.code, out(done)).toBe(0);
  return done;
}

type Recorded = { resources: Record<string, { id: string; attributes: Record<string, unknown> }> };
const pulled = async ({ run }: Setup, ws: string): Promise<Recorded> => JSON.parse((await ok(run(["state", "pull", "--workspace", ws]))).stdout) as Recorded;

/** What the service holds of the environments (not the default workspace's), by name: each connection's VLAN, each filter's description. */
async function onTheService(): Promise<Record<string, unknown>> {
  const held: Record<string, unknown> = {};
  const ours = (o: Record<string, unknown>) => /^(uplink|edge)-(dev|prod|qa)$/.test(String(o.name)) && o.state !== "DEPROVISIONED";
  for (const c of (await objects(t, "connections")).filter(ours)) held[String(c.name)] = (c.aSide as { accessPoint: { linkProtocol: { vlanTag: number } } }).accessPoint.linkProtocol.vlanTag;
  for (const f of (await objects(t, "routeFilters")).filter(ours)) held[String(f.name)] = f.description;
  return held;
}

/**
 * dev and prod of one configuration: made, applied (dev with --workspace, prod with NETFORM_WORKSPACE),
 * listed, drifted and destroyed each on its own, then deleted. `lists`: whether the backend can list its
 * workspaces (the HTTP protocol cannot).
 */
async function twoEnvironments(s: Setup, lists: boolean): Promise<void> {
  const { run } = s;
  const prod = { NETFORM_WORKSPACE: "prod" };
  await ok(run(["workspace", "new", "dev"]));
  const made = await ok(run(["workspace", "new", "prod"]));
  expect(made.stdout).toContain("Switched to workspace prod");

  const devPlan = await run(["plan", "--workspace", "dev", "--var-file", "dev.vars.yaml", "--detailed-exitcode"]);
  expect(devPlan.code, out(devPlan)).toBe(2);
  expect(devPlan.stdout).toContain("netform will perform the following actions in workspace dev:");
  expect(devPlan.stdout).toMatch(/name +=\s"uplink-dev"/);
  await ok(run(["apply", "--auto-approve", "--workspace", "dev", "--var-file", "dev.vars.yaml"]));
  const comment = await ok(run(["plan", "--format", "markdown", "--var-file", "prod.vars.yaml"], prod));
  expect(comment.stdout.split("\n")[0]).toBe("### netform plan (workspace prod): 2 to add, 0 to change, 0 to replace, 0 to destroy");
  await ok(run(["apply", "--auto-approve", "--var-file", "prod.vars.yaml"], prod));
  expect(await onTheService()).toEqual({ "uplink-dev": 1101, "uplink-prod": 1201, "edge-dev": "edge of dev, VLAN 1101", "edge-prod": "edge of prod, VLAN 1201" });
  const clean = await ok(run(["plan", "--workspace", "dev", "--var-file", "dev.vars.yaml", "--detailed-exitcode"]));
  expect(clean.stdout).toContain("No changes in workspace dev.");
  const document = JSON.parse((await ok(run(["plan", "--format", "json", "--var-file", "prod.vars.yaml"], prod))).stdout) as { workspace?: string };
  expect(document.workspace).toBe("prod");

  // Listed: the workspaces, and what each one's state records.
  if (lists) expect((await ok(run(["workspace", "list"]))).stdout).toBe("  default\n  dev\n* prod\n");
  for (const ws of ["dev", "prod"]) expect((await ok(run(["state", "list", "--workspace", ws]))).stdout).toBe("connections.uplink\nrouteFilters.edge\n");
  const devState = await pulled(s, "dev");
  const prodState = await pulled(s, "prod");
  expect(devState.resources["connections.uplink"]!.id).not.toBe(prodState.resources["connections.uplink"]!.id);
  expect((await ok(run(["state", "show", "routeFilters.edge"], prod))).stdout).toContain('"name": "edge-prod"');

  // Drifted: an edit in the portal to prod's filter is prod's drift, and only prod's.
  await t.call("PATCH", `/__sim/objects/${prodState.resources["routeFilters.edge"]!.id}`, { body: { description: "edited in the portal" } });
  const drifted = await run(["drift", "--format", "json", "--var-file", "prod.vars.yaml"], prod);
  expect(drifted.code, out(drifted)).toBe(2);
  expect(JSON.parse(drifted.stdout)).toMatchObject({ workspace: "prod", entries: [{ address: "routeFilters.edge", status: "changed" }] });
  const calm = await ok(run(["drift", "--workspace", "dev", "--var-file", "dev.vars.yaml"]));
  expect(calm.stdout).toContain("No drift in workspace dev.\n");

  // Destroyed: dev alone, then prod; a workspace is deleted only once it is neither selected nor managing anything.
  await ok(run(["destroy", "--auto-approve", "--workspace", "dev", "--var-file", "dev.vars.yaml"]));
  expect(await onTheService()).toEqual({ "uplink-prod": 1201, "edge-prod": "edited in the portal" });
  expect((await ok(run(["state", "list", "--workspace", "prod"]))).stdout).toBe("connections.uplink\nrouteFilters.edge\n");
  await ok(run(["workspace", "delete", "dev"]));
  const selected = await run(["workspace", "delete", "prod"]);
  expect(selected.code).toBe(1);
  expect(selected.stderr).toContain("workspace prod is the selected one");
  await ok(run(["workspace", "select", "default"]));
  const managing = await run(["workspace", "delete", "prod"]);
  expect(managing.code).toBe(1);
  expect(managing.stderr).toContain("workspace prod still manages 2 objects (connections.uplink, routeFilters.edge)");
  await ok(run(["destroy", "--auto-approve", "--var-file", "prod.vars.yaml"], prod));
  expect(await onTheService()).toEqual({});
  await ok(run(["workspace", "delete", "prod"]));
  if (lists) expect((await ok(run(["workspace", "list"]))).stdout).toBe("* default\n");
  const gone = await run(["state", "list", "--workspace", "dev"]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain("workspace dev (given with --workspace) does not exist");
}

describe("workspaces on the local backend", () => {
  it("run dev and prod from one configuration, each in its own state file beside the default one", async () => {
    const s = setup("");
    const { ws, run } = s;
    await ok(run(["workspace", "new", "dev"]));
    expect(existsSync(join(ws.dir, "netform.state.d", "dev", "netform.state.json"))).toBe(true);
    expect(readFileSync(join(ws.dir, ".netform", "workspace"), "utf8")).toBe("dev\n");
    await ok(run(["workspace", "select", "default"]));
    await ok(run(["workspace", "delete", "dev"]));
    expect(existsSync(join(ws.dir, "netform.state.d"))).toBe(false);

    await twoEnvironments(s, true);
    expect(existsSync(ws.statePath)).toBe(false);
    expect(existsSync(join(ws.dir, "netform.state.d"))).toBe(false);
  }, ENVIRONMENTS_TIMEOUT);

  it("fails clearly, and creates nothing, for a workspace that does not exist, --state with a workspace, and a saved plan of another workspace", async () => {
    const { ws, run } = setup("");
    const commands = [
      ["plan", "--var", "vlan=1301"],
      ["apply", "--auto-approve", "--var", "vlan=1301"],
      ["destroy", "--auto-approve", "--var", "vlan=1301"],
      ["drift", "--var", "vlan=1301"],
      ["state", "list"],
      ["state", "show", "routeFilters.edge"],
      ["state", "mv", "routeFilters.edge", "routeFilters.edge2"],
      ["state", "rm", "routeFilters.edge"],
      ["state", "pull"],
      ["state", "history"],
      ["state", "rekey"],
      ["show"],
      ["output"],
      ["cost", "--var", "vlan=1301"],
      ["force-unlock", "some-id"],
      ["import", "routeFilters.edge", "0e7e4b2c-0000-4000-8000-000000000001", "--var", "vlan=1301"],
    ];
    for (const args of commands) {
      const missing = await run([...args, "--workspace", "qa"]);
      expect(missing.code, args.join(" ")).toBe(1);
      expect(missing.stderr, args.join(" ")).toContain(`workspace qa (given with --workspace) does not exist: there is no state at ${join(ws.dir, "netform.state.d", "qa", "netform.state.json")}`);
      expect(missing.stderr).toContain("netform workspace new qa");
    }
    const selected = await run(["state", "list"], { NETFORM_WORKSPACE: "qa" });
    expect(selected.stderr).toContain("workspace qa (selected by NETFORM_WORKSPACE) does not exist");
    expect((await run(["workspace", "select", "qa"])).stderr).toContain("netform workspace select --or-create qa");
    expect(existsSync(join(ws.dir, "netform.state.d"))).toBe(false);
    expect(existsSync(join(ws.dir, ".netform", "workspace"))).toBe(false);

    const made = await ok(run(["workspace", "select", "--or-create", "qa"]));
    expect(made.stdout).toBe("Created workspace qa, with an empty state.\nSwitched to workspace qa.\n");
    const both = await run(["plan", "--state", "other.json", "--var", "vlan=1301"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("--state names one state file, and workspace qa (selected with netform workspace select");

    await ok(run(["plan", "--var", "vlan=1301", "--out", "qa.plan"]));
    await ok(run(["workspace", "select", "default"]));
    const elsewhere = await run(["apply", "qa.plan"]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("the saved plan was made in workspace qa, and this run is in workspace default");
    expect(await onTheService()).toEqual({});
    await ok(run(["apply", "--workspace", "qa", "qa.plan"]));
    expect(await onTheService()).toEqual({ "uplink-qa": 1301, "edge-qa": "edge of qa, VLAN 1301" });

    // Deleted with --force while it still manages objects: the service keeps them, and says which were forgotten.
    const recorded = await pulled({ ws, run }, "qa");
    const forced = await ok(run(["workspace", "delete", "qa", "--force"]));
    expect(forced.stderr).toContain("Its state recorded 2 objects, which the service keeps and netform no longer manages: connections.uplink, routeFilters.edge");
    expect(existsSync(join(ws.dir, "netform.state.d"))).toBe(false);
    expect(await onTheService()).toEqual({ "uplink-qa": 1301, "edge-qa": "edge of qa, VLAN 1301" });
    // Adopted again by a new qa workspace, and destroyed from there.
    await ok(run(["workspace", "new", "qa"]));
    for (const address of ["connections.uplink", "routeFilters.edge"]) await ok(run(["import", address, recorded.resources[address]!.id, "--var", "vlan=1301"]));
    await ok(run(["destroy", "--auto-approve", "--var", "vlan=1301"]));
    expect(await onTheService()).toEqual({});
    await ok(run(["workspace", "select", "default"]));
    await ok(run(["workspace", "delete", "qa"]));

    const defaults = await run(["workspace", "delete", "default"]);
    expect(defaults.stderr).toContain("the default workspace cannot be deleted");
    expect((await run(["workspace", "new", "QA"])).stderr).toContain('"QA" is not a workspace name');
  }, ENVIRONMENTS_TIMEOUT);

  it("finds the state with the variables its backend block uses, and refuses to guess without them", async () => {
    const { run, ws } = setup("backend:\n  local: { path: \"states/${var.stack}.json\" }\n");
    ws.write("netform: 1\nvariables:\n  stack: { type: string }\n", "stack.yaml");
    await ok(run(["workspace", "new", "dev", "--var", "stack=net"]));
    expect(existsSync(join(ws.dir, "states", "netform.state.d", "dev", "net.json"))).toBe(true);
    await ok(run(["apply", "--auto-approve", "--workspace", "dev", "--var", "stack=net", "--var-file", "dev.vars.yaml"]));
    expect((await ok(run(["state", "list", "--workspace", "dev", "--var", "stack=net"]))).stdout).toBe("connections.uplink\nrouteFilters.edge\n");
    for (const args of [["state", "list", "--workspace", "dev"], ["workspace", "list"], ["output"]]) {
      const unknown = await run(args);
      expect(unknown.code, args.join(" ")).toBe(1);
      expect(unknown.stderr, args.join(" ")).toContain("backend.local.path: states/${var.stack}.json has no value here, so the state's place is not known");
    }
    await ok(run(["destroy", "--auto-approve", "--workspace", "dev", "--var", "stack=net", "--var-file", "dev.vars.yaml"]));
  });
});

describe("workspaces on the postgres backend", () => {
  it("run dev and prod beside the state that was there before, which stays the default workspace's", async () => {
    const name = `app-${++tests}`;
    const s = setup(`backend:\n  postgres: { url: "\${env.NETFORM_PG_URL}", schema: netform, name: ${name} }\n`, { NETFORM_PG_URL: db.url });
    // The state a team had before workspaces: the default workspace's, in its row as it was.
    await ok(s.run(["apply", "--auto-approve", "--var", "vlan=1001", "--target", "routeFilters.edge"]));
    const row = async (key: string) => (await db.query<{ serial: number; lineage: string }>("SELECT serial, lineage FROM netform.states WHERE name = $1", [key]))[0];
    const before = await row(name);

    await ok(s.run(["workspace", "new", "dev"]));
    expect(await row(`${name}/dev`)).toMatchObject({ serial: 1 });
    await ok(s.run(["workspace", "select", "default"]));
    await ok(s.run(["workspace", "delete", "dev"]));
    expect(await row(`${name}/dev`)).toBeUndefined();

    await twoEnvironments(s, true);
    expect(await db.query("SELECT name FROM netform.states WHERE name LIKE $1", [`${name}/%`])).toEqual([]);
    expect(await db.query("SELECT name FROM netform.state_history WHERE name LIKE $1", [`${name}/%`])).toEqual([]);
    expect(await row(name)).toEqual(before);
    expect((await ok(s.run(["state", "list"]))).stdout).toBe("routeFilters.edge\n");
    await ok(s.run(["destroy", "--auto-approve", "--var", "vlan=1001"]));
  }, ENVIRONMENTS_TIMEOUT);
});

describe("workspaces on the http backend", () => {
  it("run dev and prod at the addresses {workspace} makes, and say the protocol cannot list them", async () => {
    const base = `/states/${++tests}`;
    const s = setup(`backend:\n  http: { address: "\${env.STATE_URL}/{workspace}" }\n`, { STATE_URL: `${http.url}${base}`, NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD });
    const listed = await s.run(["workspace", "list"]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain("the http backend cannot list workspaces: the HTTP state protocol reads and writes one address at a time");
    await ok(s.run(["workspace", "new", "dev"]));
    expect([...http.states.keys()]).toContain(`${base}/dev`);
    expect(http.locks.size).toBe(0);
    await ok(s.run(["workspace", "select", "default"]));
    await ok(s.run(["workspace", "delete", "dev"]));
    expect(http.states.has(`${base}/dev`)).toBe(false);

    await twoEnvironments(s, false);
    expect([...http.states.keys()].filter((k) => k.startsWith(base))).toEqual([]);
    expect(http.locks.size).toBe(0);
  }, ENVIRONMENTS_TIMEOUT);

  it("keeps one state, the default workspace's, at an address without {workspace}, and says so", async () => {
    const s = setup(`backend:\n  http: { address: "\${env.STATE_URL}" }\n`, { STATE_URL: `${http.url}/single/${++tests}`, NETFORM_HTTP_USERNAME: HTTP_USER, NETFORM_HTTP_PASSWORD: HTTP_PASSWORD });
    expect((await ok(s.run(["workspace", "list"]))).stdout).toBe("* default\n");
    const refused = await s.run(["workspace", "new", "dev"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("has no {workspace}: it keeps one state, the default workspace's, and workspace dev is selected");
    expect([...http.states.keys()].some((k) => k.startsWith("/single/"))).toBe(false);
  });
});
