// Where the service is, resolved at the top: a URL is used as it is; "embedded" starts the simulator in
// this process, its world kept beside the state file, with its seeded client's credentials. The engine
// receives the resolver and never imports the simulator.

import { dirname, join } from "node:path";
import { NetformError } from "../diag/index.js";
import type { Endpoint, EndpointResolver } from "../engine/index.js";

/** How much faster than the real service the embedded simulator runs, unless NETFORM_EMBEDDED_SPEED says. */
export const DEFAULT_EMBEDDED_SPEED = 30;

/** Where the embedded simulator keeps its world: beside the state file. */
export const embeddedWorldPath = (statePath: string) => join(dirname(statePath), ".netform", "embedded-world.json");

export const resolveEndpoint: EndpointResolver = async (endpoint, { statePath, env }): Promise<Endpoint> => {
  if (endpoint !== "embedded") {
    try {
      new URL(endpoint);
    } catch {
      throw new NetformError({ code: "provider.endpoint", message: `provider.endpoint "${endpoint}" is neither a URL nor "embedded"`, hint: "e.g. https://api.example.net" });
    }
    return { baseUrl: endpoint, close: async () => {} };
  }
  const speed = Number(env.NETFORM_EMBEDDED_SPEED ?? DEFAULT_EMBEDDED_SPEED);
  if (!(speed > 0)) throw new NetformError({ code: "usage", message: `NETFORM_EMBEDDED_SPEED must be a positive number, got "${env.NETFORM_EMBEDDED_SPEED}"` });
  // Loaded only when used: the simulator is most of the program, and most runs talk to the real service.
  const { CLIENTS, startSimulator } = await import("../simulator/index.js");
  const simulator = await startSimulator({ port: 0, speed, dataFile: embeddedWorldPath(statePath) });
  const clientId = "demo-client";
  return { baseUrl: simulator.url, credentials: { clientId, clientSecret: CLIENTS[clientId]!.secret }, speed, close: () => simulator.close() };
};
