// `netform demo`: starts the embedded simulator and walks a short scripted tour of it through the API
// client, showing each object's asynchronous transitions. (Once the engine exists, the demo becomes
// validate, plan and apply of examples/quickstart.)

import type { Command } from "commander";
import { ApiClient } from "../api/index.js";
import { NetformError } from "../diag/index.js";
import { PROJECTS, startSimulator } from "../simulator/index.js";
import { DemoView } from "../views/demo.js";
import { run } from "./program.js";

type Body = Record<string, unknown>;

/** Seeded DOT1Q ports of the production project (see the simulator's seed). */
const DC_PORT = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const SV_PORT = "c791f8cb-0000-4000-8000-000000000004";

const read = (doc: unknown, pointer: string): unknown =>
  pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((cur, k) => (cur !== null && typeof cur === "object" ? (cur as Body)[k] : undefined), doc);

/** Polls `path` until `pointer` reads one of `done`; returns the states seen, in order. */
async function waitForState(api: ApiClient, path: string, pointer: string, done: string[]): Promise<{ states: string[]; seconds: number }> {
  const started = Date.now();
  const states: string[] = [];
  let delay = 50;
  for (;;) {
    const state = String(read(await api.call("GET", path), pointer));
    if (states[states.length - 1] !== state) states.push(state);
    if (done.includes(state)) return { states, seconds: (Date.now() - started) / 1000 };
    if (/FAILED/.test(state)) throw new NetformError({ code: "demo.failed", message: `${path} went to ${state}` });
    if (Date.now() - started > 120_000) throw new NetformError({ code: "demo.timeout", message: `${path} is still ${state} after two minutes` });
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 1.5, 500);
  }
}

/** The states an object went through: the one the create call answered with, then those polled. */
const journey = (initial: unknown, polled: string[]): string[] => [String(initial), ...polled.filter((s) => s !== initial)];

async function tour(api: ApiClient, view: DemoView): Promise<void> {
  view.begin("Authenticate as demo-client with OAuth2 client credentials, and list the metros where it has ports");
  const metros = await api.call<{ data: Array<{ code: string; name: string; region: string }> }>("GET", "/fabric/v4/metros", { query: { presence: "MY_PORTS", limit: 20 } });
  view.detail(metros.data.map((m) => `${m.code} ${m.name} (${m.region})`).join(", "));

  view.begin('Create the route filter "customer-in"');
  const filter = await api.call<Body>("POST", "/fabric/v4/routeFilters", {
    body: { type: "BGP_IPv4_PREFIX_FILTER", name: "customer-in", description: "Prefixes accepted from the customer", project: { projectId: PROJECTS.production.projectId } },
  });
  const filterPath = `/fabric/v4/routeFilters/${String(filter.uuid)}`;
  let seen = await waitForState(api, filterPath, "/state", ["PROVISIONED"]);
  view.transitions(journey(filter.state, seen.states), seen.seconds);

  view.begin('Create the connection "dc-to-sv": port in Washington, D.C. to port in Silicon Valley, 100 Mbps');
  const connection = await api.call<Body>("POST", "/fabric/v4/connections", {
    body: {
      type: "EVPL_VC",
      name: "dc-to-sv",
      bandwidth: 100,
      order: { purchaseOrderNumber: "PO-DEMO-1" },
      aSide: { accessPoint: { type: "COLO", port: { uuid: DC_PORT }, linkProtocol: { type: "DOT1Q", vlanTag: 1001 } } },
      zSide: { accessPoint: { type: "COLO", port: { uuid: SV_PORT }, linkProtocol: { type: "DOT1Q", vlanTag: 1001 } } },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      project: { projectId: PROJECTS.production.projectId },
    },
  });
  const connectionPath = `/fabric/v4/connections/${String(connection.uuid)}`;
  seen = await waitForState(api, connectionPath, "/state", ["PROVISIONED"]);
  view.transitions(journey(connection.state, seen.states), seen.seconds);

  view.begin("Add routing: DIRECT 192.168.100.1/30, then BGP with customer ASN 65010 (BGP needs DIRECT first)");
  const direct = await api.call<Body>("POST", `${connectionPath}/routingProtocols`, {
    body: { type: "DIRECT", name: "dc-to-sv-direct", directIpv4: { equinixIfaceIp: "192.168.100.1/30" } },
  });
  seen = await waitForState(api, `${connectionPath}/routingProtocols/${String(direct.uuid)}`, "/state", ["PROVISIONED"]);
  view.transitions(journey(direct.state, seen.states), seen.seconds);
  const bgp = await api.call<Body>("POST", `${connectionPath}/routingProtocols`, {
    body: { type: "BGP", name: "dc-to-sv-bgp", customerAsn: 65010, bgpIpv4: { customerPeerIp: "192.168.100.2", enabled: true } },
  });
  seen = await waitForState(api, `${connectionPath}/routingProtocols/${String(bgp.uuid)}`, "/state", ["PROVISIONED"]);
  view.transitions(journey(bgp.state, seen.states), seen.seconds);

  view.begin('Attach "customer-in" to the connection, inbound');
  const attachment = await api.call<Body>("PUT", `${connectionPath}/routeFilters/${String(filter.uuid)}`, { body: { direction: "INBOUND" } });
  seen = await waitForState(api, `${connectionPath}/routeFilters/${String(filter.uuid)}`, "/attachmentStatus", ["ATTACHED"]);
  view.transitions(journey(attachment.attachmentStatus, seen.states), seen.seconds);

  view.begin("Someone renames the connection in the portal (the control API's out-of-band change)");
  await api.unauthenticated("PATCH", `/__sim/objects/${String(connection.uuid)}`, { body: { name: "renamed-in-portal" } });
  const changed = await api.call<Body>("GET", connectionPath);
  view.detail(`name is now "${String(changed.name)}", changeLog.updatedBy = ${String(read(changed, "/changeLog/updatedBy"))}: drift that netform will detect`);

  view.begin("Read the connection's history from the cloud events");
  const events = await api.call<{ data: Array<{ type: string; data?: { resource?: { state?: string } } }> }>("POST", "/fabric/v4/cloudevents/search", {
    body: { filter: { and: [{ property: "/subject", operator: "IN", values: [`/fabric/v4/connections/${String(connection.uuid)}*`] }] }, pagination: { offset: 0, limit: 50 } },
  });
  for (const e of events.data) view.detail(`${e.type}${e.data?.resource?.state ? `  ${e.data.resource.state}` : ""}`);

  view.begin("Clean up in reverse order: detach, BGP, DIRECT, connection, route filter");
  await api.call("DELETE", `${connectionPath}/routeFilters/${String(filter.uuid)}`);
  await waitForGone(api, `${connectionPath}/routeFilters/${String(filter.uuid)}`, "/attachmentStatus", "DETACHED");
  await api.call("DELETE", `${connectionPath}/routingProtocols/${String(bgp.uuid)}`);
  await waitForGone(api, `${connectionPath}/routingProtocols/${String(bgp.uuid)}`, "/state", "DEPROVISIONED");
  await api.call("DELETE", `${connectionPath}/routingProtocols/${String(direct.uuid)}`);
  await waitForGone(api, `${connectionPath}/routingProtocols/${String(direct.uuid)}`, "/state", "DEPROVISIONED");
  await api.call("DELETE", connectionPath);
  await waitForGone(api, connectionPath, "/state", "DEPROVISIONED");
  await api.call("DELETE", filterPath);
  await waitForGone(api, filterPath, "/state", "DEPROVISIONED");
  view.detail("everything the tour created is deprovisioned");
}

/** Waits until the object reads `finalState` or is gone (404). */
async function waitForGone(api: ApiClient, path: string, pointer: string, finalState: string): Promise<void> {
  try {
    await waitForState(api, path, pointer, [finalState]);
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("start the embedded simulator and walk a short scripted tour of it")
    .option("--speed <x>", "how much faster than the real service transitions run", "40")
    .action(
      run(async ({ output }, flags: { speed: string }) => {
        const speed = Number(flags.speed);
        if (!(speed > 0)) throw new NetformError({ code: "usage", message: `--speed must be a positive number, got "${flags.speed}"` });
        const started = Date.now();
        const sim = await startSimulator({ port: 0, speed });
        const api = new ApiClient({ baseUrl: sim.url, credentials: { clientId: "demo-client", clientSecret: "demo-secret" } });
        const view = new DemoView(output);
        view.intro(sim.url, speed);
        try {
          await tour(api, view);
          view.done(api.requestCount, (Date.now() - started) / 1000);
        } finally {
          await api.close();
          await sim.close();
        }
        return 0;
      }),
    );
}
