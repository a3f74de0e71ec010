// Benchmark: the engine at scale against the simulator. The topology mix of a large estate (port-to-port
// connections, a DIRECT and a BGP routing protocol on each, a route filter per connection and its
// attachment: 5 resources per connection) is applied by the built command line (a child process, as
// users run it) against a simulator started in this process, for N = 200, 1,000, 3,000 and 10,000
// resources (NETFORM_BENCH_SIZES=200 for a quick check), at speed 5 and speed 1, and at speed 5 with
// latency added to each answer.
//
// Per size: (1) apply wall time / critical path: the critical path is the longest dependency chain of the
// applied objects, each weighed by its actual transition time as the simulator's cloud events record it
// (its first state event to its final one); a perfect engine starts every object the moment its
// dependencies are done and notices at once when it is done: ratio 1. (2) netform's own CPU time and
// peak RSS, reported by the child itself (bench/probe.mjs), and CPU per resource, which should stay flat
// as N grows. (3) file bytes netform wrote during the apply (the state, its journal, the lock) per
// resource: linear in N means flat per resource. (4) API requests per resource, by kind and method, for
// the apply and for a plan with nothing to change, and that plan's wall time. (5) The wall time of a drift
// check with nothing drifted and of a plan that changes every connection: the scheduled job and the
// everyday change of a large estate, each of which once copied the whole state for every resource.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { root, runCli } from "./cli.mjs";
import { startSimulator } from "../dist/simulator/index.js";
import { topology } from "./topology.mjs";

const PROBE = join(root, "bench/probe.mjs");

/**
 * Connections take 55 simulated seconds, DIRECT 20, BGP 45, filters 5, attachments 8: at speed 5 the
 * critical path is about 24 s, at speed 1 about 120 s. The costs that do not shrink with them (starting
 * Node, loading and planning) are printed separately ("from the command's start to the first transition").
 */
const SPEEDS = [5, 1];
const LATENCY_MS = 100;
const SIZES = (process.env.NETFORM_BENCH_SIZES ?? "200,1000,3000,10000").split(",").map((n) => Number(n.trim()));
/** Room for every request of the largest apply and its plan (about 2.3 per resource) in the simulator's log. */
const REQUEST_LOG_SIZE = 5 * Math.max(...SIZES);

/** The cloud-event subject of an object recorded in the state. */
function subjectOf(r) {
  switch (r.kind) {
    case "connections":
      return `/fabric/v4/connections/${r.id}`;
    case "routeFilters":
      return `/fabric/v4/routeFilters/${r.id}`;
    case "routingProtocols":
      return `/fabric/v4/connections/${r.parent}/routingProtocols/${r.id}`;
    case "routeFilterAttachments":
      return `/fabric/v4/connections/${r.parent}/routeFilters/${r.id}`;
    default:
      throw new Error(`unexpected kind ${r.kind}`);
  }
}

/** Each object's transition: its first and its final state event (ms). */
function transitions(events, resources) {
  const bySubject = new Map();
  for (const e of events) {
    if (e.state === undefined) continue;
    const span = bySubject.get(e.subject) ?? { start: Infinity, end: -Infinity };
    span.start = Math.min(span.start, e.time);
    span.end = Math.max(span.end, e.time);
    bySubject.set(e.subject, span);
  }
  const out = new Map();
  for (const [address, r] of Object.entries(resources)) {
    const span = bySubject.get(subjectOf(r));
    if (!span) throw new Error(`no cloud events for ${address} (${subjectOf(r)})`);
    out.set(address, span);
  }
  return out;
}

/** The longest chain of dependencies, each object weighed by its transition time; with the lag lost between links. */
function criticalPath(resources, spans) {
  const memo = new Map();
  const longest = (address) => {
    if (memo.has(address)) return memo.get(address);
    const span = spans.get(address);
    let best = { total: 0, chain: [] };
    for (const d of resources[address].dependencies ?? []) {
      const candidate = longest(d);
      if (candidate.total > best.total) best = candidate;
    }
    const result = { total: best.total + (span.end - span.start), chain: [...best.chain, address] };
    memo.set(address, result);
    return result;
  };
  let best = { total: 0, chain: [] };
  for (const address of Object.keys(resources)) {
    const c = longest(address);
    if (c.total > best.total) best = c;
  }
  // The time between a link finishing and the next one starting: the engine noticing, and its create call.
  let lag = 0;
  for (let i = 1; i < best.chain.length; i++) lag += spans.get(best.chain[i]).start - spans.get(best.chain[i - 1]).end;
  return { ...best, lag };
}

const apiRequests = (log) => log.filter((r) => !r.path.startsWith("/__sim"));

/** What a request is about, for the requests-by-kind figures: the kind and the method (a search as SEARCH). */
function requestKind({ method, path }) {
  if (path.startsWith("/oauth2/")) return "token POST";
  const verb = path.endsWith("/search") ? "SEARCH" : method;
  if (/^\/fabric\/v4\/connections\/[^/]+\/routingProtocols/.test(path)) return `routingProtocols ${verb}`;
  if (/^\/fabric\/v4\/connections\/[^/]+\/routeFilters/.test(path)) return `routeFilterAttachments ${verb}`;
  const kind = /^\/fabric\/v4\/([^/]+)/.exec(path)?.[1] ?? path;
  return `${kind} ${verb}`;
}

function byKind(log) {
  const counts = new Map();
  for (const r of log) counts.set(requestKind(r), (counts.get(requestKind(r)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}

/** One apply of `resources` resources on a fresh simulator, and a no-change plan after it. */
async function applyOnce(resources, speed, latencyMs) {
  // The simulator's own request log, not an exchange listener: a listener is handed each answer's body, a
  // copy of every response that would slow the simulator down beside the netform it measures.
  const sim = await startSimulator({ port: 0, speed, seed: 42, requestLogSize: REQUEST_LOG_SIZE, ...(latencyMs ? { faults: { latencyMs } } : {}) });
  const log = sim.requests;
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-engine-"));
  try {
    const { yaml, count } = topology(resources);
    writeFileSync(join(dir, "netform.yaml"), yaml);
    const probe = join(dir, "probe.json");
    // The embedded simulator's own polling rule (1 s on the real service, divided by the speed).
    const env = { NETFORM_ENDPOINT: sim.url, NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", NETFORM_POLL_INTERVAL_MS: String(Math.max(5, 1000 / speed)), NETFORM_BENCH_PROBE: probe, NO_COLOR: "1" };
    const control = async (method, path) => (await fetch(`${sim.url}${path}`, { method })).json();

    const startedAt = Date.now();
    const started = performance.now();
    const applied = await runCliProbed(["apply", "--auto-approve"], dir, env);
    const applySeconds = (performance.now() - started) / 1000;
    const endedAt = Date.now();
    if (applied.code !== 0) throw new Error(`apply of ${count} failed (exit ${applied.code}):\n${applied.stderr}\n${applied.stdout.slice(-3000)}`);
    const usage = JSON.parse(readFileSync(probe, "utf8"));
    const applyLog = apiRequests(log.splice(0));

    const state = JSON.parse(readFileSync(join(dir, "netform.state.json"), "utf8"));
    const managed = Object.keys(state.resources).length;
    if (managed !== count) throw new Error(`the state holds ${managed} resources, the configuration ${count}`);
    const events = (await control("GET", "/__sim/objects?kind=cloudEvents")).data;
    const spans = transitions(events, state.resources);
    const path = criticalPath(state.resources, spans);
    const firstStart = Math.min(...[...spans.values()].map((s) => s.start));

    let refresh;
    let planSeconds;
    let planUsage;
    let driftSeconds;
    let updatePlanSeconds;
    if (!latencyMs && speed === SPEEDS[0]) {
      // Nothing to change: a clean plan.
      planSeconds = await timedCli(["plan", "--detailed-exitcode"], dir, env, 0, runCliProbed);
      planUsage = JSON.parse(readFileSync(probe, "utf8"));
      refresh = apiRequests(log.splice(0)).filter((r) => !r.path.startsWith("/oauth2/"));
      driftSeconds = await timedCli(["drift"], dir, env, 0);
      // Every connection changes: a plan that asks the service's dry run of each update.
      writeFileSync(join(dir, "netform.yaml"), yaml.replaceAll("noc@example.com", "noc-2@example.com"));
      updatePlanSeconds = await timedCli(["plan", "--detailed-exitcode"], dir, env, 2);
      log.splice(0);
    }
    return { count, applySeconds, pathSeconds: path.total / 1000, startSeconds: (firstStart - startedAt) / 1000, usage, applyLog, refresh, planSeconds, planUsage, driftSeconds, updatePlanSeconds, connections: Object.values(state.resources).filter((r) => r.kind === "connections").length, serial: state.serial, endedAt };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fixed = (n, digits = 2) => Number(n.toFixed(digits));

/** The apply's goal against the critical path: the real service's pace (speed 1) leaves less room for netform's own time than speed 5. */
function applyGoal(n, speed) {
  if (speed === 1) return "<= 1.1";
  return n >= 1000 && n < 10_000 ? "<= 1.05" : "<= 1.15";
}

export default async function bench() {
  const rows = [];
  const table = [];
  for (const size of SIZES) {
    const runs = {};
    for (const speed of SPEEDS) runs[speed] = await applyOnce(size, speed, 0);
    const slow = await applyOnce(size, SPEEDS[0], LATENCY_MS);
    const main = runs[SPEEDS[0]];
    const n = main.count;
    const at = `N=${n}`;
    for (const speed of SPEEDS) {
      const r = runs[speed];
      rows.push({ name: `scale ${at}: apply / critical path, speed ${speed} (${fixed(r.applySeconds, 1)} s / ${fixed(r.pathSeconds, 1)} s)`, value: r.applySeconds / r.pathSeconds, unit: "x", goal: applyGoal(n, speed) });
    }
    rows.push({ name: `scale ${at}: apply / critical path, speed ${SPEEDS[0]}, +${LATENCY_MS} ms per answer`, value: slow.applySeconds / slow.pathSeconds, unit: "x" });
    rows.push({ name: `scale ${at}: from the command's start to the first transition`, value: fixed(main.startSeconds), unit: "s" });
    rows.push({ name: `scale ${at}: netform CPU time (user+sys), speed ${SPEEDS[0]}`, value: fixed(main.usage.cpuMs / 1000), unit: "s" });
    rows.push({ name: `scale ${at}: netform CPU per resource`, value: fixed(main.usage.cpuMs / n), unit: "ms", goal: "flat from 200 to 10,000" });
    rows.push({ name: `scale ${at}: netform peak RSS (apply)`, value: fixed(main.usage.maxRssKiB / 1024, 0), unit: "MiB", goal: "<= 512" });
    rows.push({ name: `scale ${at}: plan with nothing to change, wall time`, value: fixed(main.planSeconds), unit: "s", goal: n >= 10_000 ? "<= 10" : undefined });
    rows.push({ name: `scale ${at}: netform peak RSS (plan)`, value: fixed(main.planUsage.maxRssKiB / 1024, 0), unit: "MiB", goal: "<= 512" });
    rows.push({ name: `scale ${at}: drift with nothing drifted, wall time`, value: fixed(main.driftSeconds), unit: "s", goal: "linear in N" });
    rows.push({ name: `scale ${at}: plan changing every connection (${main.connections} dry runs), wall time`, value: fixed(main.updatePlanSeconds), unit: "s", goal: "linear in N" });
    rows.push({ name: `scale ${at}: file bytes written by the apply per resource (state serial ${main.serial})`, value: fixed(main.usage.fileBytes / n, 0), unit: "B", goal: "flat from 200 to 10,000 (linear in N)" });
    rows.push({ name: `scale ${at}: API requests per resource (apply)`, value: main.applyLog.length / n, unit: "req", goal: "<= 2" });
    for (const [kind, count] of byKind(main.applyLog)) rows.push({ name: `scale ${at}:   apply ${kind}`, value: count / n, unit: "req/resource" });
    rows.push({ name: `scale ${at}: no-change refresh requests per resource`, value: main.refresh.length / n, unit: "req", goal: "<= 0.41" });
    for (const [kind, count] of byKind(main.refresh)) rows.push({ name: `scale ${at}:   refresh ${kind}`, value: count / n, unit: "req/resource" });
    table.push(
      `| ${n} | ${fixed(runs[SPEEDS[0]].applySeconds / runs[SPEEDS[0]].pathSeconds)}x | ${fixed(runs[SPEEDS[1]].applySeconds / runs[SPEEDS[1]].pathSeconds)}x | ${fixed(slow.applySeconds / slow.pathSeconds)}x | ${fixed(main.usage.cpuMs / 1000, 1)} s (${fixed(main.usage.cpuMs / n)} ms/resource) | ${fixed(main.usage.maxRssKiB / 1024, 0)} MiB | ${fixed(main.usage.fileBytes / n, 0)} B | ${fixed(main.applyLog.length / n)} | ${fixed(main.refresh.length / n)} | ${fixed(main.planSeconds, 1)} s |`,
    );
  }
  console.log(
    [
      `| resources | speed ${SPEEDS[0]} | speed ${SPEEDS[1]} | speed ${SPEEDS[0]} +${LATENCY_MS} ms | netform CPU | peak RSS | state bytes/resource | requests/resource | refresh requests/resource | no-change plan |`,
      "|---|---|---|---|---|---|---|---|---|---|",
      ...table,
    ].join("\n"),
  );
  return rows;
}

/** The wall time of a command that must end with `code`. */
async function timedCli(args, cwd, env, code, run = runCli) {
  const started = performance.now();
  const ran = await run(args, cwd, env);
  if (ran.code !== code) throw new Error(`netform ${args.join(" ")} exited ${ran.code}, not ${code}:\n${ran.stderr.slice(-2000)}\n${ran.stdout.slice(-3000)}`);
  return (performance.now() - started) / 1000;
}

/** The command line with the probe loaded first, so that it reports netform's own CPU, memory and writes. */
const runCliProbed = (args, cwd, env) => runCli(args, cwd, env, ["--import", PROBE]);
