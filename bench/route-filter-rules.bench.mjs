// Benchmark: a route filter with 500 rules, the size of a prefix list users keep for years, applied,
// re-planned and destroyed by the built command line (a child process, as users run it) against a
// simulator started in this process.
//
// (1) API requests the apply makes per rule: the rules of one filter go in one bulk request, and their
//     waits are polled with one list per filter, so the figure is far below one.
// (2) Refresh requests per managed resource for a plan with nothing to change: one search for the filter,
//     one list (five pages of 100) for its rules.
// (3) Plan time with 500 rules over plan time with the filter alone: what 500 rules add to a plan's
//     fixed costs (starting Node, loading, refreshing, rendering).
// Also printed: the absolute figures, and the requests a destroy makes (the rules go with their filter).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startSimulator } from "../dist/simulator/index.js";
import { runCli } from "./cli.mjs";

const RULES = 500;
/** Transitions are not what is measured here: fast, so the apply waits little. */
const SPEED = 200;
const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
/** Plans timed for each configuration; the median is reported. */
const PLAN_RUNS = 3;

function configuration(rules) {
  const lines = [];
  for (let i = 0; i < rules; i++) {
    lines.push(`  p${i}:\n    routeFilter: \${routeFilters.customer-in.uuid}\n    prefix: 10.${Math.floor(i / 250)}.${i % 250}.0/24\n${i % 3 === 0 ? "    prefixMatch: exact\n" : ""}`);
  }
  return `netform: 1\nprovider:\n  endpoint: embedded\n  projectId: ${PROJECT}\nrouteFilters:\n  customer-in:\n    type: BGP_IPv4_PREFIX_FILTER\nrouteFilterRules:${rules === 0 ? " {}\n" : `\n${lines.join("")}`}`;
}


const apiRequests = (log) => log.filter((r) => !r.path.startsWith("/__sim") && !r.path.startsWith("/oauth2/"));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Applies `yaml` in a fresh directory, then times `plan --detailed-exitcode` (which must find nothing to do). */
async function applyAndTimePlans(sim, yaml, env, control) {
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-rules-"));
  writeFileSync(join(dir, "netform.yaml"), yaml);
  await control("DELETE", "/__sim/requests");
  const applied = await runCli(["apply", "--auto-approve"], dir, env);
  if (applied.code !== 0) throw new Error(`apply failed (exit ${applied.code}):\n${applied.stderr}\n${applied.stdout.slice(-3000)}`);
  const applyLog = apiRequests(await control("GET", "/__sim/requests"));
  const seconds = [];
  let refreshLog = [];
  for (let i = 0; i < PLAN_RUNS; i++) {
    await control("DELETE", "/__sim/requests");
    const started = performance.now();
    const planned = await runCli(["plan", "--detailed-exitcode"], dir, env);
    seconds.push((performance.now() - started) / 1000);
    if (planned.code !== 0) throw new Error(`the plan after apply is not clean (exit ${planned.code}):\n${planned.stderr.slice(-2000)}\n${planned.stdout.slice(-3000)}`);
    refreshLog = apiRequests(await control("GET", "/__sim/requests"));
  }
  return { dir, applyLog, refreshLog, planSeconds: median(seconds) };
}

export default async function bench() {
  const sim = await startSimulator({ port: 0, speed: SPEED, seed: 42 });
  const dirs = [];
  try {
    const env = { NETFORM_ENDPOINT: sim.url, NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", NETFORM_POLL_INTERVAL_MS: "20", NO_COLOR: "1" };
    const control = async (method, path) => (await fetch(`${sim.url}${path}`, { method })).json();

    const alone = await applyAndTimePlans(sim, configuration(0), env, control);
    dirs.push(alone.dir);
    const full = await applyAndTimePlans(sim, configuration(RULES), env, control);
    dirs.push(full.dir);
    const managed = RULES + 1;
    const ruleCreates = full.applyLog.filter((r) => r.method === "POST" && r.path.includes("/routeFilterRules"));

    await control("DELETE", "/__sim/requests");
    const destroyed = await runCli(["destroy", "--auto-approve"], full.dir, env);
    if (destroyed.code !== 0) throw new Error(`destroy failed (exit ${destroyed.code}):\n${destroyed.stderr}\n${destroyed.stdout.slice(-3000)}`);
    const destroyLog = apiRequests(await control("GET", "/__sim/requests"));

    return [
      { name: `route filter rules: apply requests per rule (${RULES} rules, one filter)`, value: full.applyLog.length / RULES, unit: "req/rule", goal: "< 0.1" },
      { name: "route filter rules: apply requests (all / rule creates / status polls)", value: `${full.applyLog.length}/${ruleCreates.length}/${full.applyLog.filter((r) => r.method === "GET").length}`, unit: "requests" },
      { name: "route filter rules: refresh requests per managed resource (no-change plan)", value: full.refreshLog.length / managed, unit: "req/resource", goal: "< 0.02" },
      { name: "route filter rules: refresh requests (no-change plan)", value: full.refreshLog.length, unit: "requests" },
      { name: `route filter rules: plan time with ${RULES} rules / with the filter alone`, value: full.planSeconds / alone.planSeconds, unit: "x", goal: "< 2" },
      { name: `route filter rules: plan time with ${RULES} rules (median of ${PLAN_RUNS})`, value: Number(full.planSeconds.toFixed(2)), unit: "s" },
      { name: "route filter rules: plan time with the filter alone", value: Number(alone.planSeconds.toFixed(2)), unit: "s" },
      { name: "route filter rules: destroy requests (DELETEs / all)", value: `${destroyLog.filter((r) => r.method === "DELETE").length}/${destroyLog.length}`, unit: "requests" },
    ];
  } finally {
    await sim.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
