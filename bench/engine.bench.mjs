// Benchmark: the engine against the simulator. A topology of 200 resources (40 port-to-port connections,
// a DIRECT and a BGP routing protocol on each, 40 route filters, each attached to its connection) is
// applied by the built command line (a child process, as users run it) against a simulator started in
// this process, at a speed where each transition takes a few seconds of real time.
//
// (1) apply wall time / critical path: the critical path is the longest dependency chain of the applied
//     objects, each weighed by its actual transition time as the simulator's cloud events record it (its
//     first state event to its final one). A perfect engine starts every object the moment its
//     dependencies are done and notices at once when it is done: ratio 1.
// (2) refresh requests per managed resource for a plan with nothing to change.
// Also printed: the absolute times, the API requests the apply made, and the time lost between a
// dependency finishing and its dependent being started, summed along the critical path (what polling
// costs).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../dist/simulator/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(root, "dist/cli/main.js");

/** Connections take 55 simulated seconds (2.75 s here), DIRECT 20 (1 s), BGP 45 (2.25 s), filters 5, attachments 8. */
// The service's transitions take minutes; the costs that do not shrink with them (starting Node, loading
// and planning 200 resources, rendering the plan) take about a second on a slow machine. At speed 5 the
// critical path is about 24 s, so the ratio measures the engine's scheduling and polling rather than
// start-up, which is printed separately ("from the command's start to the first transition").
const SPEED = 5;
const CONNECTIONS = 40;
const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
/** Port pairs within a metro (DC, SV, NY primary and secondary DOT1Q ports of the production project). */
const PORT_PAIRS = [
  ["c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee", "c791f8cb-0000-4000-8000-000000000002"],
  ["c791f8cb-0000-4000-8000-000000000004", "c791f8cb-0000-4000-8000-000000000005"],
  ["c791f8cb-0000-4000-8000-000000000007", "c791f8cb-0000-4000-8000-000000000008"],
];

export function topology() {
  const filters = [];
  const connections = [];
  const protocols = [];
  const attachments = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const [a, z] = PORT_PAIRS[i % PORT_PAIRS.length];
    const n = `c${i}`;
    filters.push(`  rf-${n}:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: filter of ${n}\n`);
    connections.push(
      `  ${n}:\n    type: EVPL_VC\n    bandwidth: 50\n    aSide:\n      accessPoint:\n        type: COLO\n        port: { uuid: ${a} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${100 + i} }\n    zSide:\n      accessPoint:\n        type: COLO\n        port: { uuid: ${z} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${1100 + i} }\n    notifications: [{ type: ALL, emails: [noc@example.com] }]\n`,
    );
    const net = `10.${Math.floor(i / 60)}.${(i * 4) % 240}`;
    protocols.push(`  ${n}-direct:\n    connection: \${connections.${n}.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: ${net}.1/30 }\n`);
    protocols.push(`  ${n}-bgp:\n    connection: \${connections.${n}.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: ${net}.2, enabled: true }\n`);
    attachments.push(`  ${n}-in:\n    connection: \${connections.${n}.uuid}\n    routeFilter: \${routeFilters.rf-${n}.uuid}\n    direction: INBOUND\n`);
  }
  const yaml = `netform: 1\nprovider:\n  endpoint: embedded\n  projectId: ${PROJECT}\nrouteFilters:\n${filters.join("")}connections:\n${connections.join("")}routingProtocols:\n${protocols.join("")}routeFilterAttachments:\n${attachments.join("")}`;
  return { yaml, count: filters.length + connections.length + protocols.length + attachments.length };
}

function runCli(args, cwd, env) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolveRun({ code, stdout, stderr }));
  });
}

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

export default async function bench() {
  const sim = await startSimulator({ port: 0, speed: SPEED, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-engine-"));
  try {
    const { yaml, count } = topology();
    writeFileSync(join(dir, "netform.yaml"), yaml);
    // The embedded simulator's own polling rule (1 s on the real service, divided by the speed).
    const env = { NETFORM_ENDPOINT: sim.url, NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", NETFORM_POLL_INTERVAL_MS: String(Math.max(5, 1000 / SPEED)), NO_COLOR: "1" };
    const control = async (method, path) => (await fetch(`${sim.url}${path}`, { method })).json();

    await control("DELETE", "/__sim/requests");
    const startedAt = Date.now();
    const started = performance.now();
    const applied = await runCli(["apply", "--auto-approve"], dir, env);
    const applySeconds = (performance.now() - started) / 1000;
    const endedAt = Date.now();
    if (applied.code !== 0) throw new Error(`apply failed (exit ${applied.code}):\n${applied.stderr}\n${applied.stdout.slice(-3000)}`);
    const applyRequests = apiRequests(await control("GET", "/__sim/requests"));

    const stateText = readFileSync(join(dir, "netform.state.json"), "utf8");
    const stateBytes = Buffer.byteLength(stateText);
    const state = JSON.parse(stateText);
    const managed = Object.keys(state.resources).length;
    if (managed !== count) throw new Error(`the state holds ${managed} resources, the configuration ${count}`);
    const events = (await control("GET", "/__sim/objects?kind=cloudEvents")).data;
    const spans = transitions(events, state.resources);
    const path = criticalPath(state.resources, spans);
    const pathSeconds = path.total / 1000;
    const firstStart = Math.min(...[...spans.values()].map((s) => s.start));
    const lastEnd = Math.max(...[...spans.values()].map((s) => s.end));
    const startsOf = (kind) => Object.entries(state.resources).filter(([, r]) => r.kind === kind).map(([a]) => spans.get(a).start);
    const connectionStarts = startsOf("connections");
    const chainStart = spans.get(path.chain[0]).start;

    await control("DELETE", "/__sim/requests");
    const planned = await runCli(["plan", "--detailed-exitcode", "--debug"], dir, env);
    if (planned.code !== 0) throw new Error(`the plan after apply is not clean (exit ${planned.code}):\n${planned.stderr.slice(-2000)}\n${planned.stdout.slice(-3000)}`);
    const planLog = apiRequests(await control("GET", "/__sim/requests"));
    const refreshRequests = planLog.filter((r) => !r.path.startsWith("/oauth2/")).length;
    const reported = Number(/refresh made (\d+) API requests/.exec(planned.stderr)?.[1] ?? NaN);

    return [
      { name: `engine: apply ${count} resources / critical path (speed ${SPEED})`, value: applySeconds / pathSeconds, unit: "x", goal: "< 1.15" },
      { name: "engine: apply wall time", value: Number(applySeconds.toFixed(2)), unit: "s" },
      { name: `engine: critical path (${path.chain.length} transitions: ${path.chain.join(" > ")})`, value: Number(pathSeconds.toFixed(2)), unit: "s" },
      { name: "engine: time lost between links of the critical path", value: Number((path.lag / 1000).toFixed(2)), unit: "s" },
      { name: "engine: first transition start to last transition end", value: Number(((lastEnd - firstStart) / 1000).toFixed(2)), unit: "s" },
      { name: "engine: from the command's start to the first transition", value: Number(((firstStart - startedAt) / 1000).toFixed(2)), unit: "s" },
      { name: "engine: connection creates spread (first to last POST)", value: Number(((Math.max(...connectionStarts) - Math.min(...connectionStarts)) / 1000).toFixed(2)), unit: "s" },
      { name: "engine: critical chain's start after the first transition", value: Number(((chainStart - firstStart) / 1000).toFixed(2)), unit: "s" },
      { name: "engine: lag beyond the critical path (last end - first start - critical path)", value: Number(((lastEnd - firstStart - path.total) / 1000).toFixed(2)), unit: "s" },
      { name: "engine: from the last transition's end to the command's exit", value: Number(((endedAt - lastEnd) / 1000).toFixed(2)), unit: "s" },
      { name: `engine: state file writes during the apply (final size ${Math.round(stateBytes / 1024)} KiB)`, value: state.serial, unit: "writes" },
      { name: "engine: API requests made by the apply", value: applyRequests.length, unit: "requests" },
      { name: "engine: apply requests that were status polls (GET)", value: applyRequests.filter((r) => r.method === "GET").length, unit: "requests" },
      { name: "engine: refresh requests per managed resource (no-change plan)", value: refreshRequests / managed, unit: "req/resource", goal: "< 0.6" },
      { name: "engine: refresh requests (simulator log / netform --debug count)", value: `${refreshRequests}/${reported}`, unit: "requests" },
    ];
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
