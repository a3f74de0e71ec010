// A session with the service for one command: where it is (a URL, or the embedded simulator started
// in this process with its world kept beside the state file), the credentials, the API client with
// its concurrency limit, and how fast to poll.

import { dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ApiClient, type Credentials } from "../api/index.js";
import type { Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { KIND_HANDLERS } from "../resources/index.js";
import type { KindContext, ResourceKind } from "../resources/types.js";
import type { RunningSimulator } from "../simulator/index.js";
import type { Kind } from "../config/index.js";
import { REAL_SERVICE_POLLING, type PollSettings } from "./wait.js";

/** How much faster than the real service the embedded simulator runs, unless NETFORM_EMBEDDED_SPEED says. */
export const DEFAULT_EMBEDDED_SPEED = 30;

export interface Session {
  endpoint: string;
  api: ApiClient;
  ctx: KindContext;
  kinds: Readonly<Record<Kind, ResourceKind>>;
  poll: PollSettings;
  /** The embedded simulator, when the endpoint is "embedded". */
  simulator?: RunningSimulator;
  close(): Promise<void>;
}

export interface SessionOptions {
  statePath: string;
  env: NodeJS.ProcessEnv;
  onExchange?: (e: { method: string; path: string; status: number; ms: number }) => void;
  onRetry?: (e: { method: string; path: string; attempt: number; delayMs: number; reason: string }) => void;
}

/** Where the embedded simulator keeps its world: beside the state file. */
export const embeddedWorldPath = (statePath: string) => join(dirname(statePath), ".netform", "embedded-world.json");

function credentialsFrom(env: NodeJS.ProcessEnv): Credentials {
  if (env.NETFORM_TOKEN) return { token: env.NETFORM_TOKEN };
  if (env.NETFORM_CLIENT_ID && env.NETFORM_CLIENT_SECRET) return { clientId: env.NETFORM_CLIENT_ID, clientSecret: env.NETFORM_CLIENT_SECRET };
  throw new NetformError({
    code: "auth.missing",
    message: "no credentials for the service",
    hint: "set NETFORM_CLIENT_ID and NETFORM_CLIENT_SECRET (OAuth2 client credentials) or NETFORM_TOKEN, or use provider.endpoint: embedded to rehearse on the simulator",
  });
}

export async function openSession(config: Configuration, options: SessionOptions): Promise<Session> {
  const endpoint = config.provider.endpoint;
  if (!endpoint) {
    throw new NetformError({ code: "provider.endpoint", message: "the service's endpoint is not set", hint: "set provider.endpoint in the configuration (a URL, or embedded) or NETFORM_ENDPOINT" });
  }
  let simulator: RunningSimulator | undefined;
  let baseUrl = endpoint;
  let credentials: Credentials;
  let poll = REAL_SERVICE_POLLING;
  if (endpoint === "embedded") {
    const speed = Number(options.env.NETFORM_EMBEDDED_SPEED ?? DEFAULT_EMBEDDED_SPEED);
    if (!(speed > 0)) throw new NetformError({ code: "usage", message: `NETFORM_EMBEDDED_SPEED must be a positive number, got "${options.env.NETFORM_EMBEDDED_SPEED}"` });
    // Loaded only when used: the simulator is most of the program, and most runs talk to the real service.
    const { startSimulator } = await import("../simulator/index.js");
    simulator = await startSimulator({ port: 0, speed, dataFile: embeddedWorldPath(options.statePath) });
    baseUrl = simulator.url;
    credentials = { clientId: "demo-client", clientSecret: "demo-secret" };
    // The simulator runs `speed` times faster: polling starts that much sooner.
    poll = { ...REAL_SERVICE_POLLING, minIntervalMs: Math.max(5, REAL_SERVICE_POLLING.minIntervalMs / speed) };
  } else {
    const first = options.env.NETFORM_POLL_INTERVAL_MS;
    if (first !== undefined) {
      const ms = Number(first);
      if (!(ms > 0)) throw new NetformError({ code: "usage", message: `NETFORM_POLL_INTERVAL_MS must be a positive number of milliseconds, got "${first}"` });
      poll = { ...poll, minIntervalMs: ms };
    }
    try {
      new URL(endpoint);
    } catch {
      throw new NetformError({ code: "provider.endpoint", message: `provider.endpoint "${endpoint}" is neither a URL nor "embedded"`, hint: "e.g. https://api.example.net" });
    }
    credentials = credentialsFrom(options.env);
  }
  // Closing the session ends the pauses between retries: a read an interrupt abandoned must not keep the
  // process alive retrying against a closed client.
  const closing = new AbortController();
  const api = new ApiClient({
    baseUrl,
    credentials,
    concurrency: config.provider.parallelism,
    sleep: (ms) => delay(ms, undefined, { signal: closing.signal }),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
  return {
    endpoint,
    api,
    ctx: { api, provider: config.provider },
    kinds: KIND_HANDLERS,
    poll,
    ...(simulator ? { simulator } : {}),
    async close() {
      closing.abort();
      await api.close();
      await simulator?.close();
    },
  };
}
