// A reader that stops reading (`netform schema | head -1`) is not an error: the built command line, its
// standard output closed by the reader, ends without a stack trace or an EPIPE message, and leaves
// neither lock nor temporary file. An apply whose reader went away keeps applying (see
// views/output.ts for why): the state records everything, and the service holds it.

import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, start, workspace, type CliResult, type Workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, objects, out } from "./service.js";

const t = useSimulator({ speed: 200 });

const CONFIG = `${CONFIG_HEADER}routeFilters:
  edge-in:
    type: BGP_IPv4_PREFIX_FILTER
connections:
${dcConnectionYaml("alpha", 1401, 1402)}`;

/** Runs netform with its standard output closed by the reader as soon as the first chunk arrives. */
async function readOnlyFirstChunk(ws: Workspace, args: string[]): Promise<{ result: CliResult; first: string }> {
  const { child, done } = start(args, { cwd: ws.dir, env: simEnv(t.url) });
  const first = new Promise<string>((resolve) =>
    child.stdout!.once("data", (d: Buffer) => {
      child.stdout!.destroy();
      resolve(d.toString());
    }),
  );
  return { result: await done, first: await first };
}

/** Runs netform with its standard output closed before it writes anything (`netform schema | true`). */
function readNothing(ws: Workspace, args: string[]): Promise<CliResult> {
  const { child, done } = start(args, { cwd: ws.dir, env: simEnv(t.url) });
  child.stdout!.destroy();
  return done;
}

function expectQuietEnd(ws: Workspace, result: CliResult): void {
  expect(result.code, out(result)).toBe(0);
  expect(result.stderr).toBe("");
  expect(existsSync(`${ws.statePath}.lock`), "the lock is released").toBe(false);
  expect(readdirSync(ws.dir).filter((f) => f.endsWith(".tmp")), "no temporary file is left").toEqual([]);
}

describe("a closed pipe", () => {
  it("ends `netform schema` quietly", async () => {
    // The schema is one write: a reader gone before it is the case where that write fails.
    const ws = workspace();
    expectQuietEnd(ws, await readNothing(ws, ["schema"]));
  });

  it("ends `netform plan` quietly, and releases the lock", async () => {
    const ws = workspace(CONFIG);
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) })).code).toBe(0);
    // The refresh reads the service before the plan is printed: the plan is written to a closed pipe.
    const { result, first } = await readOnlyFirstChunk(ws, ["plan"]);
    expect(first).toContain("Refreshing state...");
    expectQuietEnd(ws, result);
  });

  it("lets `netform apply --auto-approve` finish the work silently", async () => {
    const ws = workspace(CONFIG);
    const { result, first } = await readOnlyFirstChunk(ws, ["apply", "--auto-approve"]);
    expect(first).toContain("Refreshing state...");
    expectQuietEnd(ws, result);
    const state = ws.state();
    expect(Object.keys(state.resources).sort()).toEqual(["connections.alpha", "routeFilters.edge-in"]);
    for (const recorded of Object.values(state.resources)) expect(recorded.pending).toBeUndefined();
    expect((await objects(t, "connections")).map((c) => c.state)).toEqual(["PROVISIONED"]);
    const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: simEnv(t.url) });
    expect(clean.code, out(clean)).toBe(0);
  });

  it("ends `netform apply --format json` quietly too", async () => {
    const ws = workspace(CONFIG);
    const { result, first } = await readOnlyFirstChunk(ws, ["apply", "--auto-approve", "--format", "json"]);
    expect(JSON.parse(first.split("\n")[0]!)).toMatchObject({ type: "refresh_start" });
    expectQuietEnd(ws, result);
    expect(Object.keys(ws.state().resources)).toHaveLength(2);
  });
});
