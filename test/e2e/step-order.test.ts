// When a finished object releases several steps at once, the one with the longest chain of work behind it
// goes first: a connection turning ACTIVE releases its DIRECT routing protocol (which its BGP session waits
// for) and a filter attachment (which nothing waits for), and with one request slot the DIRECT create is
// sent before the attachment.

import { expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { changesSent, dcConnectionYaml, directAndBgpYaml, out, PROJECT, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

const config = `netform: 1
provider:
  endpoint: embedded
  projectId: ${PROJECT}
  parallelism: 1
routeFilters:
  inbound:
    type: BGP_IPv4_PREFIX_FILTER
connections:
${dcConnectionYaml("c", 2601, 2602)}routingProtocols:
${directAndBgpYaml("c", "192.168.70")}routeFilterAttachments:
  inbound:
    connection: \${connections.c.uuid}
    routeFilter: \${routeFilters.inbound.uuid}
    direction: INBOUND
`;

it("sends the create with the longest chain behind it first when a connection releases several", { timeout: 120_000 }, async () => {
  const run = runner(t, workspace(config));
  await t.call("DELETE", "/__sim/requests");
  const applied = await run("apply", "--auto-approve");
  expect(applied.code, out(applied)).toBe(0);
  const log = (await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>;
  const changes = changesSent(log).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, "ID")}`);
  expect(changes).toEqual([
    // The connection's chain (connection, DIRECT, BGP) is longer than the filter's (filter, attachment).
    "POST /fabric/v4/connections",
    "POST /fabric/v4/routeFilters",
    "POST /fabric/v4/connections/ID/routingProtocols",
    "PUT /fabric/v4/connections/ID/routeFilters/ID",
    "POST /fabric/v4/connections/ID/routingProtocols",
  ]);
});
