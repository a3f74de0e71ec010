// Assembles the simulator: middleware (request log, control API, body limit, faults, auth), the areas'
// routes, error rendering in each API family's problem style, and the HTTP server on loopback.

import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AddressInfo } from "node:net";
import { ALL_AREAS } from "../areas.js";
import { DEFAULT_REFRESH_TOKEN_TTL_S, DEFAULT_TOKEN_TTL_S, TokenStore, bearerAuth, tokenRoutes } from "./auth.js";
import { limitBodySize } from "./body.js";
import { incomingMessage, type SimEnv } from "./context.js";
import { controlRoutes, type RequestLogEntry } from "./control.js";
import { SimError, problemStyleFor, renderProblem } from "./errors.js";
import { Faults } from "./faults.js";
import { World, type FaultSettings } from "./world.js";

/** Enough for the request counts of a benchmark apply of thousands of resources; a long-running simulator stays bounded. */
export const DEFAULT_REQUEST_LOG_SIZE = 100_000;

export interface SimulatorOptions {
  host?: string;
  port?: number;
  /** Divides every transition's duration (tests run at 100 or more). */
  speed?: number;
  /** Seeds identifiers and fault dice. */
  seed?: number;
  /** Persists the world to this file and continues from it on the next start. */
  dataFile?: string;
  faults?: FaultSettings;
  /** Lifetime of issued access tokens, in seconds (default 3599, as the official description says). */
  tokenTtlSeconds?: number;
  /** Lifetime of issued refresh tokens, in seconds (default 5182560, 60 days, as the official description says). */
  refreshTokenTtlSeconds?: number;
  /** How many of the latest requests the request log keeps (default 100,000). */
  requestLogSize?: number;
  /** Sees every API exchange (not the control API), e.g. for the conformance tests. */
  onExchange?: (exchange: Exchange) => void;
  /** Told about a defect in the simulator itself (an unexpected exception in a handler). */
  onInternalError?: (error: unknown) => void;
}

export interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
  /** The response is an error that fault injection produced (see `faults`). */
  injectedFault?: boolean;
}

export interface Simulator {
  app: Hono<SimEnv>;
  world: World;
  faults: Faults;
  /** The latest requests, oldest first (at most `requestLogSize`; callers may empty it). */
  requests: RequestLogEntry[];
  reset(): void;
}

const API_PREFIXES = ["/fabric/", "/ne/", "/internetAccess/", "/v1/", "/ecx/"];

/**
 * The header every answer carries with the simulator's speed (SIMULATOR.md: "each answer says the
 * simulator's pace"): a client that polls the real service's pace against `--speed 200` waits two hundred
 * times too long. The real service sends no such header.
 */
export const SPEED_HEADER = "X-Simulator-Speed";

/** Builds the simulator's app and world without opening a socket (tests may call `app.request`). */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const world = new World({
    ...(options.speed === undefined ? {} : { speed: options.speed }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
  });
  for (const area of ALL_AREAS) area.define?.(world);
  const reset = () => {
    world.clear();
    for (const area of ALL_AREAS) area.seed?.(world);
    world.save();
  };
  if (!world.load()) reset();

  const faults = new Faults(world);
  if (options.faults) faults.configure(options.faults);
  const requests: RequestLogEntry[] = [];
  const requestLogSize = options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  if (!Number.isInteger(requestLogSize) || requestLogSize < 1) throw new Error(`requestLogSize must be a positive integer, got ${requestLogSize}`);
  const logRequest = (entry: RequestLogEntry) => {
    requests.push(entry);
    // The oldest go a batch at a time, so that a full log costs the same per request as an empty one.
    if (requests.length > requestLogSize + Math.ceil(requestLogSize / 4)) requests.splice(0, requests.length - requestLogSize);
  };
  const tokens = new TokenStore(options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_S, options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_S);
  const app = new Hono<SimEnv>();

  const speed = String(world.clock.speed);
  // Set before the answer is made, so that every answer is made with it (errors, the control API, 404s).
  app.use("*", (c, next) => {
    c.header(SPEED_HEADER, speed);
    return next();
  });

  app.use("*", async (c, next) => {
    const started = performance.now();
    const path = c.req.path;
    c.set("correlationId", world.uuid());
    await next();
    if (path.startsWith("/__sim")) return;
    const query = c.req.url.indexOf("?");
    logRequest({ method: c.req.method, path, ...(query >= 0 ? { query: c.req.url.slice(query + 1) } : {}), status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 });
    if (c.req.method !== "GET" && (c.res.status < 500 || c.get("answerLost") === true)) world.save();
    if (options.onExchange) {
      const body = await c.res.clone().text();
      const injectedFault = c.get("injectedFault") === true;
      options.onExchange({ method: c.req.method, path, status: c.res.status, contentType: c.res.headers.get("content-type") ?? "", body, injectedFault });
    }
  });

  app.route("/__sim", controlRoutes({ world, faults, requests, requestLogSize, reset }));

  app.use("*", limitBodySize());

  app.use("*", async (c, next) => {
    const latency = faults.latency();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    const injected = faults.draw(c.req.path);
    if (injected) {
      c.set("injectedFault", true);
      throw injected;
    }
    await next();
    const lost = faults.lostAnswer(c.req.method, c.req.path, c.res.status);
    if (lost === undefined) return;
    c.set("injectedFault", true);
    c.set("answerLost", true);
    const socket = incomingMessage(c)?.socket;
    if (lost === "reset" && socket) {
      socket.resetAndDestroy();
      return;
    }
    // In process (app.request) there is no connection to reset: the gateway's 502 stands for it.
    const err = new SimError("badGateway");
    c.res = c.json(renderProblem(err, problemStyleFor(c.req.path), c.get("correlationId") ?? ""), 502);
  });

  tokenRoutes(app, tokens);
  const requireToken = bearerAuth(tokens);
  app.use("*", async (c, next) => {
    if (!API_PREFIXES.some((p) => c.req.path.startsWith(p))) return next();
    return requireToken(c, async () => {
      await world.runAs(c.get("principal").userName, next);
    });
  });

  for (const area of ALL_AREAS) area.routes?.(app, world);

  app.notFound((c) => {
    const path = c.req.path;
    const otherMethod = app.routes.some((r) => r.method !== c.req.method && r.method !== "ALL" && routeMatches(r.path, path));
    const err = otherMethod
      ? new SimError("methodNotAllowed", [{ property: "method", reason: `${c.req.method} is not supported on ${path}` }])
      : new SimError("notFound", [{ property: "path", reason: `no such resource: ${c.req.method} ${path}` }]);
    return c.json(renderProblem(err, problemStyleFor(path), c.get("correlationId") ?? ""), err.def.status as 404);
  });

  app.onError((error, c) => {
    let err: SimError;
    if (error instanceof SimError) err = error;
    else if (error instanceof HTTPException && error.status < 500) {
      err = new SimError("invalidProperty", [{ property: "request", reason: error.message }]);
    } else {
      options.onInternalError?.(error);
      err = new SimError("internalError");
    }
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json(renderProblem(err, problemStyleFor(c.req.path), c.get("correlationId") ?? ""), err.def.status as 400);
  });

  return { app, world, faults, requests, reset };
}

const routeRegexCache = new Map<string, RegExp>();
function routeMatches(pattern: string, path: string): boolean {
  let re = routeRegexCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\/:[^/]+/g, "/[^/]+").replace(/\*/g, ".*")}$`);
    routeRegexCache.set(pattern, re);
  }
  return re.test(path);
}

export interface RunningSimulator extends Simulator {
  url: string;
  close(): Promise<void>;
}

/** Starts the simulator on loopback; `port: 0` picks a free port. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = createSimulator(options);
  const host = options.host ?? "127.0.0.1";
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: sim.app.fetch, hostname: host, port: options.port ?? 8787 }, () => resolve(s));
    s.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    ...sim,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
