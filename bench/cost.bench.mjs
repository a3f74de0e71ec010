// Benchmark: the cost of cost (issue 19). The plan of the engine benchmark's 200 resources (40 port-to-port
// connections with their routing protocols, route filters and attachments), made on an empty state by the
// built command line against a simulator started in this process, with prices and with --no-cost.
//
// (1) price requests per distinct product: each distinct product is asked for once, several in one price
//     search where the search takes a list; goal at most 1.
// (2) the requests pricing adds to the plan: the price searches, and the one port search that gives the
//     connections' metros.
// (3) the plan's wall time with prices against without (median of alternating runs).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startSimulator } from "../dist/simulator/index.js";
import { topology } from "./topology.mjs";
import { runCli } from "./cli.mjs";

const RUNS = 5;


const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const isPrice = (r) => r.path.startsWith("/fabric/v4/prices") || r.path.startsWith("/ne/v1/prices");
const apiRequests = (log) => log.filter((r) => !r.path.startsWith("/__sim") && !r.path.startsWith("/oauth2/"));

export default async function bench() {
  const sim = await startSimulator({ port: 0, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-cost-"));
  try {
    const { yaml, count } = topology(200);
    writeFileSync(join(dir, "netform.yaml"), yaml);
    const env = { NETFORM_ENDPOINT: sim.url, NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", NO_COLOR: "1" };
    const control = async (method, path) => (await fetch(`${sim.url}${path}`, { method })).json();

    /** One plan: its wall time, the API requests it made, and its JSON document. */
    const plan = async (...flags) => {
      await control("DELETE", "/__sim/requests");
      const started = performance.now();
      const result = await runCli(["plan", "--format", "json", ...flags], dir, env);
      const seconds = (performance.now() - started) / 1000;
      if (result.code !== 0) throw new Error(`plan ${flags.join(" ")} failed (exit ${result.code}):\n${result.stderr.slice(-2000)}`);
      return { seconds, requests: apiRequests(await control("GET", "/__sim/requests")), doc: JSON.parse(result.stdout) };
    };

    const priced = [];
    const unpriced = [];
    for (let i = 0; i < RUNS; i++) {
      priced.push(await plan());
      unpriced.push(await plan("--no-cost"));
    }
    const { doc, requests } = priced[0];
    if (doc.resourceChanges.length !== count) throw new Error(`the plan has ${doc.resourceChanges.length} changes, the configuration ${count} resources`);
    if (doc.cost.unknown.length > 0) throw new Error(`unknown prices: ${JSON.stringify(doc.cost.unknown)}`);
    const products = new Set(doc.cost.resources.map((r) => r.product)).size;
    const priceRequests = requests.filter(isPrice).length;
    const added = requests.length - unpriced[0].requests.length;
    const withCost = median(priced.map((p) => p.seconds));
    const withoutCost = median(unpriced.map((p) => p.seconds));
    if (unpriced.some((p) => p.requests.some(isPrice))) throw new Error("plan --no-cost asked for prices");

    return [
      { name: `cost: price requests per distinct product (${doc.cost.resources.length} priced of ${count} resources, ${products} products)`, value: priceRequests / products, unit: "req/product", goal: "<= 1" },
      { name: "cost: requests pricing adds to the plan (price searches + port metros)", value: added, unit: "requests" },
      { name: "cost: plan wall time with prices / without (median)", value: withCost / withoutCost, unit: "x" },
      { name: "cost: plan wall time with prices (median)", value: Number(withCost.toFixed(3)), unit: "s" },
      { name: "cost: plan wall time with --no-cost (median)", value: Number(withoutCost.toFixed(3)), unit: "s" },
      { name: "cost: plan total", value: doc.cost.totals.map((t) => `${t.currency} ${t.delta}`).join(", "), unit: "/ month" },
    ];
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
