// A session with the service for one command: where it is (resolved by the composition root: a URL, or
// the embedded simulator it starts), the credentials, the API client with its concurrency limit, and how
// fast to poll.

import { setTimeout as delay } from "node:timers/promises";
import { ApiClient, type Credentials, type RetryNotice } from "../api/index.js";
import type { Configuration } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { KIND_HANDLERS, type KindContext, type KindHandler } from "../kinds/index.js";
import { REAL_SERVICE_POLLING, type PollSettings } from "./wait.js";

/** Where the API is, as the composition root resolved provider.endpoint. */
export interface Endpoint {
  baseUrl: string;
  /** Credentials the endpoint comes with (the embedded simulator's seeded client); else the environment's. */
  credentials?: Credentials;
  /** How many times faster than the real service its transitions run: polling starts that much sooner. */
  speed?: number;
  close(): Promise<void>;
}

/** Resolves provider.endpoint ("embedded" or a URL) for a run whose state is at `statePath`. */
export type EndpointResolver = (endpoint: string, where: { statePath: string; env: NodeJS.ProcessEnv }) => Promise<Endpoint>;

export interface Session {
  endpoint: string;
  api: ApiClient;
  ctx: KindContext;
  kinds: ReadonlyMap<string, KindHandler>;
  /** How fast to poll; its interval follows what a simulator says of its speed once it has said it. */
  poll: PollSettings;
  close(): Promise<void>;
}

/**
 * What sets the smallest polling interval: the real service's pace; the user's NETFORM_POLL_INTERVAL_MS; the
 * speed of the embedded simulator, known before any request; or the speed a simulator says in its answers.
 */
export type PaceSource = "real-service" | "NETFORM_POLL_INTERVAL_MS" | "embedded" | "X-Simulator-Speed";

/** A service that said its speed, and the polling the session follows from then on. */
export interface PaceNotice {
  speed: number;
  minIntervalMs: number;
  setBy: PaceSource;
}

export interface SessionOptions {
  statePath: string;
  env: NodeJS.ProcessEnv;
  resolveEndpoint: EndpointResolver;
  onExchange?: (e: { method: string; path: string; status: number; ms: number }) => void;
  onRetry?: (e: RetryNotice) => void;
  onPace?: (e: PaceNotice) => void;
}

function credentialsFrom(env: NodeJS.ProcessEnv): Credentials {
  if (env.NETFORM_TOKEN) return { token: env.NETFORM_TOKEN };
  if (env.NETFORM_CLIENT_ID && env.NETFORM_CLIENT_SECRET) return { clientId: env.NETFORM_CLIENT_ID, clientSecret: env.NETFORM_CLIENT_SECRET };
  // Half a pair is a mistake worth naming: "no credentials" would send the user to look at the half that is set.
  const [set, unset] = env.NETFORM_CLIENT_ID ? ["NETFORM_CLIENT_ID", "NETFORM_CLIENT_SECRET"] : ["NETFORM_CLIENT_SECRET", "NETFORM_CLIENT_ID"];
  if (env.NETFORM_CLIENT_ID || env.NETFORM_CLIENT_SECRET) {
    throw new NetformError({ code: "auth.missing", message: `${set} is set, and ${unset} is not`, hint: `set ${unset} too (the OAuth2 client's ${unset === "NETFORM_CLIENT_SECRET" ? "secret" : "id"}), or use NETFORM_TOKEN instead` });
  }
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
  const maxRetryAfter = options.env.NETFORM_MAX_RETRY_AFTER_S;
  if (maxRetryAfter !== undefined && !(Number(maxRetryAfter) >= 0)) {
    throw new NetformError({ code: "usage", message: `NETFORM_MAX_RETRY_AFTER_S must be a number of seconds (0 or more), got "${maxRetryAfter}"` });
  }
  const firstPoll = options.env.NETFORM_POLL_INTERVAL_MS;
  if (firstPoll !== undefined && !(Number(firstPoll) > 0)) {
    throw new NetformError({ code: "usage", message: `NETFORM_POLL_INTERVAL_MS must be a positive number of milliseconds, got "${firstPoll}"` });
  }
  const resolved = await options.resolveEndpoint(endpoint, { statePath: options.statePath, env: options.env });
  // A simulator running `speed` times faster is polled that much sooner.
  const forSpeed = (speed: number) => Math.max(5, REAL_SERVICE_POLLING.minIntervalMs / speed);
  const pace = (): { setBy: PaceSource; minIntervalMs: number } => {
    if (resolved.speed) return { setBy: "embedded", minIntervalMs: forSpeed(resolved.speed) };
    if (firstPoll !== undefined) return { setBy: "NETFORM_POLL_INTERVAL_MS", minIntervalMs: Number(firstPoll) };
    const said = api.serviceSpeed;
    if (said !== undefined) return { setBy: "X-Simulator-Speed", minIntervalMs: forSpeed(said) };
    return { setBy: "real-service", minIntervalMs: REAL_SERVICE_POLLING.minIntervalMs };
  };
  // Read each time it is used: a simulator says its speed in its answers, the first of which (the token's)
  // comes after the session is open, and the run's polling follows it from then on.
  const poll: PollSettings = {
    ...REAL_SERVICE_POLLING,
    get minIntervalMs() {
      return pace().minIntervalMs;
    },
  };
  let credentials: Credentials;
  try {
    credentials = resolved.credentials ?? credentialsFrom(options.env);
  } catch (error) {
    await resolved.close();
    throw error;
  }
  // Closing the session ends the pauses between retries: a read an interrupt abandoned must not keep the
  // process alive retrying against a closed client.
  const closing = new AbortController();
  const api = new ApiClient({
    baseUrl: resolved.baseUrl,
    credentials,
    concurrency: config.provider.parallelism,
    ...(maxRetryAfter !== undefined ? { maxRetryAfterMs: Number(maxRetryAfter) * 1000 } : config.provider.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: config.provider.maxRetryAfterMs } : {}),
    sleep: (ms) => delay(ms, undefined, { signal: closing.signal }),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.onPace ? { onServiceSpeed: (speed: number) => options.onPace!({ speed, ...pace() }) } : {}),
  });
  return {
    endpoint,
    api,
    ctx: { api, provider: config.provider },
    kinds: KIND_HANDLERS,
    poll,
    async close() {
      closing.abort();
      await api.close();
      await resolved.close();
    },
  };
}
