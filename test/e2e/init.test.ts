// `netform init`, as pipelines ported from Terraform run it first: it checks the configuration, reaches
// the backend and makes what it needs (or names what a DBA must make), signs in to the service and resolves
// the lookups, says what it found, and exits 0 or 1; run again, it finds the same and changes nothing.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePostgres } from "../support/postgres.js";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { CONFIG_HEADER, out, PORTS, runner } from "./service.js";

const t = useSimulator({ speed: 500 });
const db = usePostgres();

const LOCAL = `${CONFIG_HEADER}backend:
  local: { path: states/prod.json }
lookups:
  primary:
    kind: port
    where: { name: 216504-DC1-CX-PRI-01 }
routeFilters:
  edge:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.NOTE}
`;

describe("netform init", () => {
  it("makes the local state's folder, signs in, resolves the lookups and says so; again, the same; with Terraform's flags too", async () => {
    const ws = workspace(LOCAL);
    // Without the secrets a plan needs: they are checked at plan time.
    const run = runner(t, ws);
    const first = await run("init");
    expect(first.code, out(first)).toBe(0);
    expect(existsSync(join(ws.dir, "states"))).toBe(true);
    expect(first.stdout).toContain("Configuration: valid, 1 resource, 1 lookup, 0 outputs in 1 file");
    expect(first.stdout).toContain("Workspace:     default");
    expect(first.stdout).toContain(`Backend:       local, ${join(ws.dir, "states/prod.json")} (no state yet: the first apply makes it)`);
    expect(first.stdout).toMatch(/Service: +http:\/\/127\.0\.0\.1:\d+, reached, signed in with client credentials/);
    expect(first.stdout).toContain(`lookups.primary (port): found 216504-DC1-CX-PRI-01 (${PORTS.dcPrimary})`);
    expect(first.stdout).toContain("netform has been successfully initialized!");
    // Nothing written: no state, no key, nothing on the service.
    expect(readdirSync(join(ws.dir, "states"))).toEqual([]);

    const again = await run("init", "-input=false", "-reconfigure", "-upgrade", "-no-color", "-lock=false", "-lock-timeout=5m");
    expect(again.code, out(again)).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(readdirSync(join(ws.dir, "states"))).toEqual([]);
  });

  it("-backend=false leaves the backend alone", async () => {
    const ws = workspace(LOCAL);
    const result = await runner(t, ws)("init", "-backend=false");
    expect(result.code, out(result)).toBe(0);
    expect(result.stdout).toContain("Backend:       not checked (--backend=false)");
    expect(existsSync(join(ws.dir, "states"))).toBe(false);
  });

  it.each([
    ["an invalid configuration, located", `${CONFIG_HEADER}routeFilters:\n  edge:\n    type: BGP_IPv4_PREFIX_FILTR\n`, {}, /netform\.yaml:7:11 .*routeFilters\.edge\.type/],
    ["a lookup that finds nothing, at the lookup", `${CONFIG_HEADER}lookups:\n  gone:\n    kind: port\n    where: { name: 216504-XX1-CX-PRI-01 }\n`, {}, /netform\.yaml:8:5 .*lookups\.gone matches no port/],
    ["credentials the service refuses", CONFIG_HEADER, { NETFORM_CLIENT_SECRET: "wrong" }, /the service refused the client credentials \(HTTP 4\d\d\)/],
    ["an endpoint that is not a URL", CONFIG_HEADER, { NETFORM_ENDPOINT: "nowhere" }, /provider.endpoint "nowhere" is neither a URL nor "embedded"/],
    ["an unset ${env.X} in the backend block, named once", `${CONFIG_HEADER}backend:\n  postgres: { url: "\${env.STATE_DB}", name: prod }\n`, {}, /netform\.yaml:6:\d+ +backend\.postgres\.url +\$\{env\.STATE_DB\} has no value here[^\n]*\n +hint: set the environment variable: export STATE_DB=\.\.\./],
  ])("exits 1 on %s", async (_, config, extra, expected) => {
    const result = await runner(t, workspace(config), extra)("init");
    expect(result.code, out(result)).toBe(1);
    expect(result.stderr).toMatch(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.match(/STATE_DB/g)?.length ?? 0).toBeLessThanOrEqual(2);
    expect(result.stderr).not.toContain("received undefined");
  });

  it("makes the postgres tables where it may, and names what a DBA must make where it may not", async () => {
    const pgConfig = (schema: string, extra = "") => `${CONFIG_HEADER}backend:\n  postgres: { url: "\${env.NETFORM_PG_URL}", schema: ${schema}, name: prod${extra} }\n`;
    const env = simEnv(t.url, { NETFORM_PG_URL: db.url });
    const refused = await netform(["init"], { cwd: workspace(pgConfig("dba_made", ", createTables: false")).dir, env });
    expect(refused.code, out(refused)).toBe(1);
    expect(refused.stderr).toContain("the postgres backend has no table dba_made.");
    expect(refused.stderr).toContain("netform state ddl");
    expect(await db.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = 'dba_made'")).toEqual([]);

    const ws = workspace(pgConfig("made_by_init"));
    for (const _ of [1, 2]) {
      const made = await netform(["init"], { cwd: ws.dir, env });
      expect(made.code, out(made)).toBe(0);
      expect(made.stdout).toMatch(/Backend: +postgres, .*\(no state yet: the first apply makes it\)/);
    }
    expect((await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'made_by_init'")).length).toBeGreaterThan(0);
  });
});
