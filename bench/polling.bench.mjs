// Benchmark: what polling costs. The 200-resource topology (40 connections, a DIRECT and a BGP routing
// protocol on each, 40 route filters, each attached to its connection) is applied by the built command
// line against a simulator started in this process, twice: as it answers, and with 100 ms added to every
// answer (the simulator's `latencyMs`), where polls and creates compete for the client's request slots.
//
// For each run: API requests per resource (the goal is a create plus amortised polls, at most 2), the
// requests by kind and method, and the apply's wall time over the critical path (the longest dependency
// chain, each object weighed by its transition as the simulator's cloud events record it).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startSimulator } from "../dist/simulator/index.js";
import { runCli } from "./cli.mjs";


const SPEED = 5;
const CONNECTIONS = 40;
const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const PORT_PAIRS = [
  ["c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee", "c791f8cb-0000-4000-8000-000000000002"],
  ["c791f8cb-0000-4000-8000-000000000004", "c791f8cb-0000-4000-8000-000000000005"],
  ["c791f8cb-0000-4000-8000-000000000007", "c791f8cb-0000-4000-8000-000000000008"],
];

function configuration() {
  const blocks = { routeFilters: [], connections: [], routingProtocols: [], routeFilterAttachments: [] };
  for (let i = 0; i < CONNECTIONS; i++) {
    const [a, z] = PORT_PAIRS[i % PORT_PAIRS.length];
    const n = `c${i}`;
    const net = `10.${Math.floor(i / 60)}.${(i * 4) % 240}`;
    const side = (port, vlan) => `      accessPoint:\n        type: COLO\n        port: { uuid: ${port} }\n        linkProtocol: { type: DOT1Q, vlanTag: ${vlan} }\n`;
    blocks.routeFilters.push(`  rf-${n}:\n    type: BGP_IPv4_PREFIX_FILTER\n`);
    blocks.connections.push(`  ${n}:\n    type: EVPL_VC\n    bandwidth: 50\n    aSide:\n${side(a, 100 + i)}    zSide:\n${side(z, 1100 + i)}    notifications: [{ type: ALL, emails: [noc@example.com] }]\n`);
    blocks.routingProtocols.push(`  ${n}-direct:\n    connection: \${connections.${n}.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: ${net}.1/30 }\n`);
    blocks.routingProtocols.push(`  ${n}-bgp:\n    connection: \${connections.${n}.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: ${net}.2, enabled: true }\n`);
    blocks.routeFilterAttachments.push(`  ${n}-in:\n    connection: \${connections.${n}.uuid}\n    routeFilter: \${routeFilters.rf-${n}.uuid}\n    direction: INBOUND\n`);
  }
  const body = Object.entries(blocks).map(([kind, lines]) => `${kind}:\n${lines.join("")}`).join("");
  return { yaml: `netform: 1\nprovider:\n  endpoint: embedded\n  projectId: ${PROJECT}\n${body}`, count: Object.values(blocks).reduce((n, lines) => n + lines.length, 0) };
}


const SUBJECTS = {
  connections: (r) => `/fabric/v4/connections/${r.id}`,
  routeFilters: (r) => `/fabric/v4/routeFilters/${r.id}`,
  routingProtocols: (r) => `/fabric/v4/connections/${r.parent}/routingProtocols/${r.id}`,
  routeFilterAttachments: (r) => `/fabric/v4/connections/${r.parent}/routeFilters/${r.id}`,
};

/** The longest dependency chain, each object weighed by its transition (first to final state event), in ms. */
function criticalPathMs(resources, events) {
  const spans = new Map();
  for (const e of events) {
    if (e.state === undefined) continue;
    const span = spans.get(e.subject) ?? { start: Infinity, end: -Infinity };
    spans.set(e.subject, { start: Math.min(span.start, e.time), end: Math.max(span.end, e.time) });
  }
  const memo = new Map();
  const longest = (address) => {
    if (!memo.has(address)) {
      const r = resources[address];
      const span = spans.get(SUBJECTS[r.kind](r));
      if (!span) throw new Error(`no cloud events for ${address}`);
      memo.set(address, span.end - span.start + Math.max(0, ...(r.dependencies ?? []).map(longest)));
    }
    return memo.get(address);
  };
  return Math.max(...Object.keys(resources).map(longest));
}

/** A request's path with its identifiers left out: "/fabric/v4/connections/{id}/routingProtocols". */
const pathTemplate = (path) => path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "{id}");

async function applyOnce(latencyMs) {
  // A simulator per run: the second run's connections would clash with the first's on the same ports.
  const sim = await startSimulator({ port: 0, speed: SPEED, seed: 42, ...(latencyMs ? { faults: { latencyMs } } : {}) });
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-polling-"));
  const control = async (method, path) => (await fetch(`${sim.url}${path}`, { method })).json();
  try {
    const { yaml, count } = configuration();
    writeFileSync(join(dir, "netform.yaml"), yaml);
    const env = { NETFORM_ENDPOINT: sim.url, NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", NETFORM_POLL_INTERVAL_MS: String(Math.max(5, 1000 / SPEED)), NO_COLOR: "1" };
    await control("DELETE", "/__sim/requests");
    const started = performance.now();
    const applied = await runCli(["apply", "--auto-approve"], dir, env);
    const seconds = (performance.now() - started) / 1000;
    if (applied.code !== 0) throw new Error(`apply failed (exit ${applied.code}):\n${applied.stderr}\n${applied.stdout.slice(-3000)}`);
    const requests = (await control("GET", "/__sim/requests")).filter((r) => !r.path.startsWith("/__sim") && !r.path.startsWith("/oauth2/"));
    const state = JSON.parse(readFileSync(join(dir, "netform.state.json"), "utf8"));
    const events = (await control("GET", "/__sim/objects?kind=cloudEvents")).data;
    const byKindAndMethod = new Map();
    for (const r of requests) {
      const key = `${r.method} ${pathTemplate(r.path)}`;
      byKindAndMethod.set(key, (byKindAndMethod.get(key) ?? 0) + 1);
    }
    return { count, requests: requests.length, byKindAndMethod, ratio: seconds / (criticalPathMs(state.resources, events) / 1000), seconds };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function bench() {
  const figures = [];
  for (const latencyMs of [0, 100]) {
    const run = await applyOnce(latencyMs);
    const label = latencyMs ? `, ${latencyMs} ms per answer` : "";
    figures.push({ name: `polling: apply ${run.count} resources, requests per resource${label}`, value: run.requests / run.count, unit: "req/resource", goal: "<= 2" });
    figures.push({ name: `polling: apply / critical path (speed ${SPEED}${label})`, value: run.ratio, unit: "x", goal: "<= 1.05" });
    for (const [key, n] of [...run.byKindAndMethod].sort()) figures.push({ name: `polling:   ${key}${label}`, value: n / run.count, unit: "req/resource" });
  }
  return figures;
}
