// Shared by the journal's crash tests (the quick one in the e2e suite, the many-seeds one in
// test/reliability): an apply is killed with SIGKILL at a point drawn from a seed, anywhere among its
// exchanges with the service (a create, a poll, between two journal records), and then the state as
// replayed from the journal, and the apply that follows, are checked against what the service holds.

import { existsSync } from "node:fs";
import { expect } from "vitest";
import type { Exchange, RunningSimulator } from "../../src/simulator/index.js";
import { netform, simEnv, start, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml, isChangeSent, out, type Obj } from "./service.js";

const CONNECTIONS = 3;

/** Per connection: a DIRECT and a BGP session, a route filter and its attachment (the benchmark's mix). */
export const TOPOLOGY = (() => {
  const filters: string[] = [];
  const connections: string[] = [];
  const protocols: string[] = [];
  const attachments: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    filters.push(`  rf-c${i}:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    connections.push(dcConnectionYaml(`c${i}`, 1700 + i, 1750 + i));
    protocols.push(`  c${i}-direct:\n    connection: \${connections.c${i}.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: 192.168.7${i}.1/30 }\n`);
    protocols.push(`  c${i}-bgp:\n    connection: \${connections.c${i}.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: 192.168.7${i}.2, enabled: true }\n`);
    attachments.push(`  c${i}-in:\n    connection: \${connections.c${i}.uuid}\n    routeFilter: \${routeFilters.rf-c${i}.uuid}\n    direction: INBOUND\n`);
  }
  return `${CONFIG_HEADER}routeFilters:\n${filters.join("")}connections:\n${connections.join("")}routingProtocols:\n${protocols.join("")}routeFilterAttachments:\n${attachments.join("")}`;
})();

export const DECLARED: Record<string, number> = { routeFilters: CONNECTIONS, connections: CONNECTIONS, routingProtocols: 2 * CONNECTIONS, routeFilterAttachments: CONNECTIONS };
const ENDED = /DEPROVISION|DETACH|DELETED|CANCELLED/;

/**
 * Where the seed kills an apply: at its k-th change (isChange) or, every other seed, at the exchange that
 * follows it (a poll, usually). A run's number of polls and tokens varies with timing (and with the
 * machine's load), its changes do not: counted by changes, every point falls inside every run. k lies
 * within the first three quarters of a clean apply's changes. A small deterministic generator, so that a
 * failure can be run again.
 */
function pointFor(seed: number, changes: number): { change: number; after: boolean } {
  let x = (seed * 2654435761) >>> 0 || 1;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  x >>>= 0;
  return { change: 1 + (Math.floor(x / 2) % Math.max(1, Math.floor((changes * 3) / 4))), after: x % 2 === 1 };
}

const isApi = (e: Exchange) => !e.path.startsWith("/__sim");
/**
 * A change (isChangeSent): not a read, a search (polls are searches too) or a token, whose numbers vary
 * with timing. An exchange carries no query string, so a dry run counts too: a plan makes as many each time.
 */
const isChange = (e: Exchange) => isApi(e) && isChangeSent(e);

interface StateJson {
  serial: number;
  resources: Record<string, { kind: string; id?: string; pending?: { operation: string } }>;
}

export interface KillHarness {
  sim: RunningSimulator;
  /** Set to see each exchange before its answer leaves the simulator. */
  observe(handler: ((exchange: Exchange) => void) | undefined): void;
}

async function everything(sim: RunningSimulator, kind: string): Promise<Obj[]> {
  return ((await (await fetch(`${sim.url}/__sim/objects?kind=${kind}`)).json()) as { data: Obj[] }).data;
}

/** How many changes (isChange) an uninterrupted apply of the topology makes: the range kill points are drawn from. */
export async function changesOfCleanApply(h: KillHarness): Promise<number> {
  h.sim.reset();
  const ws = workspace(TOPOLOGY);
  let count = 0;
  h.observe((e) => void (isChange(e) && count++));
  const applied = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env: simEnv(h.sim.url) });
  h.observe(undefined);
  expect(applied.code, out(applied)).toBe(0);
  return count;
}

/**
 * Kills an apply at the seed's point, then checks: the state replayed from the journal records every
 * object the service made at most once (an object whose create answer was lost is a pending create),
 * the next apply finishes with exactly one object per declared resource and nothing made twice, folds
 * the journal away, and a plan after it is clean. Returns whether the kill landed before the apply ended.
 */
export async function killAndResume(h: KillHarness, seed: number, changes: number): Promise<boolean> {
  h.sim.reset();
  const ws = workspace(TOPOLOGY);
  const env = simEnv(h.sim.url);
  const point = pointFor(seed, changes);
  let seen = 0;
  let armed = false;
  const { child, done } = start(["apply", "--auto-approve"], { cwd: ws.dir, env });
  h.observe((e) => {
    if (!isApi(e)) return;
    if (armed) {
      armed = false;
      child.kill("SIGKILL");
    } else if (isChange(e) && ++seen === point.change) {
      if (point.after) armed = true;
      else child.kill("SIGKILL");
    }
  });
  const first = await done;
  h.observe(undefined);
  const killed = first.code === null;

  const pulled = await netform(["state", "pull"], { cwd: ws.dir, env });
  const journalPath = `${ws.statePath}.journal`;
  const journalLeft = existsSync(journalPath);
  if (existsSync(ws.statePath)) {
    expect(pulled.code, `seed ${seed}: ${out(pulled)}`).toBe(0);
    const replayed = JSON.parse(pulled.stdout) as StateJson;
    expect(Object.keys(replayed.resources).length).toBeGreaterThanOrEqual(Object.keys(ws.state().resources).length);
    expect(existsSync(journalPath), "reading the state leaves the journal to the next run that holds the lock").toBe(journalLeft);
    for (const kind of Object.keys(DECLARED)) {
      const recorded = Object.values(replayed.resources).filter((r) => r.kind === kind);
      const ids = recorded.flatMap((r) => (r.id ? [r.id] : []));
      expect(new Set(ids).size, `seed ${seed}: ${kind} ids recorded once each`).toBe(ids.length);
      if (kind === "routeFilterAttachments") continue; // identified by its filter and connection, not a uuid of its own
      const made = (await everything(h.sim, kind)).map((o) => String(o.uuid));
      const unrecorded = made.filter((id) => !ids.includes(id));
      const lostAnswers = recorded.filter((r) => !r.id && r.pending?.operation === "create").length;
      expect(unrecorded.length, `seed ${seed}: every ${kind} the service made is recorded, or a pending create that can find it`).toBeLessThanOrEqual(lostAnswers);
    }
  }

  const resumed = await netform(["apply", "--auto-approve"], { cwd: ws.dir, env });
  expect(resumed.code, `seed ${seed} (killed ${point.after ? "after" : "at"} change ${point.change} of ${changes}): ${out(resumed)}`).toBe(0);
  expect(existsSync(journalPath), "the apply folded the journal into the state").toBe(false);
  const state = ws.state();
  expect(Object.keys(state.resources)).toHaveLength(Object.values(DECLARED).reduce((a, b) => a + b, 0));
  for (const kind of Object.keys(DECLARED)) {
    const made = await everything(h.sim, kind);
    expect(made.filter((o) => ENDED.test(String(o.state ?? o.attachmentStatus ?? ""))), `seed ${seed}: no ${kind} ended`).toEqual([]);
    expect(made, `seed ${seed}: each ${kind} made once`).toHaveLength(DECLARED[kind]!);
    if (kind === "routeFilterAttachments") continue;
    const recorded = Object.values(state.resources).filter((r) => r.kind === kind).map((r) => r.id);
    expect(recorded.sort()).toEqual(made.map((o) => String(o.uuid)).sort());
  }
  for (const [address, r] of Object.entries(state.resources)) expect(r.pending, `${address} settled`).toBeUndefined();
  const clean = await netform(["plan", "--detailed-exitcode"], { cwd: ws.dir, env });
  expect(clean.code, out(clean)).toBe(0);
  return killed;
}
