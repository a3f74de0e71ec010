// Interrupts end to end: SIGINT, SIGTERM and SIGHUP (a closed terminal) sent to the built command line
// while it refreshes, while it waits for a transition, twice in a row, and at the approval prompt. Each run
// must exit with the signal's code (130, 143, 129) or, at the prompt, decline (exit 1), leave neither lock nor temporary file,
// leave a state that is valid JSON recording what was created, and let the next apply converge with
// exactly one object per address.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { CLI, netform, simEnv, workspace, type CliResult, type Workspace } from "./cli.js";
import { changesSent, CONFIG_HEADER, dcConnectionYaml, type Obj, objects, out } from "./service.js";

// Connections take 55 simulated seconds: about 1.4 s here, time enough to interrupt a wait.
const t = useSimulator({ speed: 40 });

const filterYaml = (name: string) => `  ${name}:\n    type: BGP_IPv4_PREFIX_FILTER\n`;
const filters = (...names: string[]) => `${CONFIG_HEADER}routeFilters:\n${names.map(filterYaml).join("")}`;

const CONNECTED = `${CONFIG_HEADER}connections:
${dcConnectionYaml("alpha", 1301, 1302)}routingProtocols:
  alpha-direct:
    connection: \${connections.alpha.uuid}
    type: DIRECT
    directIpv4: { equinixIfaceIp: 192.168.30.1/30 }
`;

/** States in which an object no longer counts as existing. */
const ENDED = ["DEPROVISIONING", "DEPROVISIONED", "CANCELLED"];

async function live(kind: string): Promise<Obj[]> {
  return (await objects(t, kind)).filter((o) => !ENDED.includes(String(o.state)));
}

interface Launched {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Resolves once `stream` has shown `text`; fails if the process ended first. */
  shows(stream: "stdout" | "stderr", text: string): Promise<void>;
}

/** Starts netform with standard input left open (the prompt tests write to it or end it). */
function launch(ws: Workspace, args: string[], extraEnv: Record<string, string> = {}): Launched {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ws.dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...simEnv(t.url, extraEnv) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const seen = { stdout: "", stderr: "" };
  let exited = false;
  child.stdout!.on("data", (d: Buffer) => (seen.stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (seen.stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code) => {
      exited = true;
      resolve({ code, ...seen });
    }),
  );
  return {
    child,
    done,
    shows: async (stream, text) => {
      await t.eventually(async () => {
        if (seen[stream].includes(text)) return true;
        if (exited) throw new Error(`netform exited before its ${stream} showed "${text}":\n${seen.stdout}\n${seen.stderr}`);
        return undefined;
      }, `${stream} to show "${text}"`);
    },
  };
}

type State = ReturnType<Workspace["state"]>;

/** Resolves with the state once `ready` holds for it (the file is replaced atomically: every read parses). */
function stateWhen(ws: Workspace, ready: (state: State) => boolean, what: string): Promise<State> {
  return t.eventually(async () => {
    if (!existsSync(ws.statePath)) return undefined;
    const state = ws.state();
    return ready(state) ? state : undefined;
  }, what);
}

/** What every interrupted run must leave: its exit code, no stack trace, no lock, no temporary file, a valid state. */
function expectStoppedCleanly(ws: Workspace, result: CliResult, code: number): void {
  expect(result.code, out(result)).toBe(code);
  expect(result.stderr).not.toMatch(/\n\s+at |Internal error|Unhandled|EPIPE/);
  expect(existsSync(`${ws.statePath}.lock`), "the lock is released").toBe(false);
  expect(readdirSync(ws.dir).filter((f) => f.endsWith(".tmp")), "no temporary file is left").toEqual([]);
  if (existsSync(ws.statePath)) expect(() => JSON.parse(readFileSync(ws.statePath, "utf8")) as unknown).not.toThrow();
}

/** The mutating requests the service answered since the log was cleared (searches are POSTs that read). */
async function mutations(): Promise<Obj[]> {
  const log = (await t.call("GET", "/__sim/requests")).body as Obj[];
  return changesSent(log);
}

/** The next apply finishes the work: exit 0, every address recorded once with an id and nothing pending, and a clean plan. */
async function expectConverges(ws: Workspace): Promise<void> {
  const env = simEnv(t.url);
  const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
  expect(applied.code, out(applied)).toBe(0);
  expect(applied.stdout).toContain("Apply complete!");
  for (const [address, recorded] of Object.entries(ws.state().resources)) {
    expect(recorded.id, `${address} has an id`).toEqual(expect.any(String));
    expect(recorded.pending, `${address} has nothing pending`).toBeUndefined();
  }
  const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
  expect(clean.stdout).toContain("No changes.");
  expect(clean.code).toBe(0);
}

const NOTICE = { SIGINT: "Interrupt received: stopping safely", SIGTERM: "Termination requested: stopping safely", SIGHUP: "Terminal closed (hangup): stopping safely" } as const;
const EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s", (signal) => {
  it("during refresh: stops before any change, keeps the state as it was, and the next apply converges", async () => {
    const ws = workspace(filters("edge-in"));
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) })).code).toBe(0);
    const before = ws.stateText();
    ws.write(filters("edge-in", "edge-out"));
    // Every request of the service now takes a while: the interrupt lands while the refresh reads.
    t.sim.faults.configure({ latencyMs: 500 });
    await t.call("DELETE", "/__sim/requests");

    const apply = launch(ws, ["apply", "--auto-approve"]);
    await apply.shows("stdout", "Refreshing state...");
    apply.child.kill(signal);
    const result = await apply.done;

    expectStoppedCleanly(ws, result, EXIT[signal]);
    expect(result.stderr).toContain(NOTICE[signal]);
    expect(result.stdout).not.toContain("Creating...");
    expect(await mutations()).toEqual([]);
    expect(ws.stateText()).toBe(before);

    t.sim.faults.configure({});
    await expectConverges(ws);
    expect((await live("routeFilters")).map((f) => f.name).sort()).toEqual(["edge-in", "edge-out"]);
  });

  it("while waiting for a transition: records the created object, starts nothing more, and the next apply finishes the work", async () => {
    const ws = workspace(CONNECTED);
    await t.call("DELETE", "/__sim/requests");
    const apply = launch(ws, ["apply", "--auto-approve"]);
    // The create was answered and recorded: the apply now waits for the connection to be provisioned.
    await stateWhen(ws, (s) => s.resources["connections.alpha"]?.id !== undefined, "the connection's id in the state");
    apply.child.kill(signal);
    const result = await apply.done;

    expectStoppedCleanly(ws, result, EXIT[signal]);
    expect(result.stderr).toContain(NOTICE[signal]);
    expect(result.stdout).toMatch(/connections\.alpha: Interrupted after \d+s \[id=[0-9a-f-]+\]/);
    expect(result.stdout).toContain("Apply interrupted: 2 steps not finished.");
    expect(result.stdout).not.toContain("routingProtocols.alpha-direct: Creating...");
    const state = ws.state();
    expect(Object.keys(state.resources)).toEqual(["connections.alpha"]);
    const [connection] = await live("connections");
    expect(state.resources["connections.alpha"]).toMatchObject({ id: connection!.uuid, pending: { operation: "create" } });
    expect((await mutations()).map((r) => `${String(r.method)} ${String(r.path)}`)).toEqual(["POST /fabric/v4/connections"]);

    await expectConverges(ws);
    expect((await live("connections")).map((c) => c.uuid)).toEqual([connection!.uuid]);
    expect(await live("routingProtocols")).toHaveLength(1);
    expect((await mutations()).filter((r) => r.path === "/fabric/v4/connections")).toHaveLength(1);
  });
});

describe("a second SIGINT", () => {
  it("exits at once while a create is in flight, releases the lock, and the next apply creates nothing twice", async () => {
    const ws = workspace(filters("first"));
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) })).code).toBe(0);
    const first = ws.state().resources["routeFilters.first"]!.id!;
    ws.write(filters("first", "second"));
    // The service takes a second to answer: the first interrupt has to wait for the create's answer.
    t.sim.faults.configure({ latencyMs: 1000 });
    await t.call("DELETE", "/__sim/requests");

    const apply = launch(ws, ["apply", "--auto-approve"]);
    // Recorded without an id: the create is announced, its answer not yet in.
    await stateWhen(ws, (s) => s.resources["routeFilters.second"] !== undefined && s.resources["routeFilters.second"].id === undefined, "the pending create in the state");
    apply.child.kill("SIGINT");
    await apply.shows("stderr", NOTICE.SIGINT);
    apply.child.kill("SIGINT");
    const result = await apply.done;

    expectStoppedCleanly(ws, result, 130);
    expect(result.stderr).toContain("Stopped at once.");
    expect(result.stdout).not.toContain("Apply complete!");
    // The answer never came: the pending record, with what to look the object up by, is what the next run needs.
    const recorded = ws.state().resources["routeFilters.second"]!;
    expect(recorded.id).toBeUndefined();
    expect(recorded.pending).toMatchObject({ operation: "create", lookup: { name: "second" } });

    // A request sent after the create's, through the same delay, returns after the service has handled it.
    await t.call("GET", `/fabric/v4/routeFilters/${first}`);
    t.sim.faults.configure({});
    await expectConverges(ws);
    expect((await live("routeFilters")).map((f) => f.name).sort()).toEqual(["first", "second"]);
    expect((await mutations()).filter((r) => r.method === "POST" && r.path === "/fabric/v4/routeFilters")).toHaveLength(1);
    expect(ws.state().resources["routeFilters.second"]!.id).toBe((await live("routeFilters")).find((f) => f.name === "second")!.uuid);
  });
});

describe("the approval prompt", () => {
  // Without a terminal the prompt is only shown when asked for: Node cannot open a pseudo-terminal.
  const PROMPT_ENV = { NETFORM_ASK_ON_STDIN: "1" };

  async function atPrompt(ws: Workspace, command: "apply" | "destroy"): Promise<Launched> {
    const launched = launch(ws, [command], PROMPT_ENV);
    await launched.shows("stdout", "Enter a value:");
    return launched;
  }

  it("applies on 'yes'", async () => {
    const ws = workspace(filters("edge-in"));
    const apply = await atPrompt(ws, "apply");
    apply.child.stdin!.end("yes\n");
    const result = await apply.done;
    expectStoppedCleanly(ws, result, 0);
    expect(result.stdout).toContain("Apply complete!");
    expect(await live("routeFilters")).toHaveLength(1);
  });

  it.each([
    ["Ctrl-C", (child: ChildProcess) => child.kill("SIGINT")],
    ["the end of input (Ctrl-D)", (child: ChildProcess) => child.stdin!.end()],
    ["any answer but 'yes'", (child: ChildProcess) => child.stdin!.end("no\n")],
  ])("cancels on %s: exit 1, nothing changed, no lock", async (_what, answer) => {
    const ws = workspace(filters("edge-in"));
    await t.call("DELETE", "/__sim/requests");
    const apply = await atPrompt(ws, "apply");
    answer(apply.child);
    const result = await apply.done;
    expectStoppedCleanly(ws, result, 1);
    expect(result.stderr).toBe("Apply cancelled.\n");
    expect(await mutations()).toEqual([]);
  });

  it("says 'Destroy cancelled.' for a destroy", async () => {
    const ws = workspace(filters("edge-in"));
    expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(t.url) })).code).toBe(0);
    const destroy = await atPrompt(ws, "destroy");
    destroy.child.kill("SIGINT");
    const result = await destroy.done;
    expectStoppedCleanly(ws, result, 1);
    expect(result.stderr).toBe("Destroy cancelled.\n");
    expect(await live("routeFilters")).toHaveLength(1);
  });

  it.each(["SIGTERM", "SIGHUP"] as const)("stops on %s: its exit code, nothing changed, no lock", async (signal) => {
    const ws = workspace(filters("edge-in"));
    await t.call("DELETE", "/__sim/requests");
    const apply = await atPrompt(ws, "apply");
    apply.child.kill(signal);
    const result = await apply.done;
    expectStoppedCleanly(ws, result, EXIT[signal]);
    expect(result.stderr).toContain(NOTICE[signal]);
    expect(await mutations()).toEqual([]);
  });
});
