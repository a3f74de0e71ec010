// The one place that speaks HTTP to the service: an undici connection pool with keep-alive, OAuth2
// client credentials with a cached token renewed before it expires (one renewal at a time), a single
// 401 renewal-and-retry, and retries of what may be retried (retry.ts).

import PQueue from "p-queue";
import type { Agent, Dispatcher, FormData } from "undici";
import { NetformError } from "../diag/index.js";
import { ApiError } from "./errors.js";
import { DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_RETRY, RETRYABLE_STATUSES, backoffDelay, isReadOnly, neverSent, retryAfterMs, type RetryPolicy } from "./retry.js";

export type Credentials = { clientId: string; clientSecret: string } | { token: string };

export interface ApiClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** Called for every exchange (for --debug traces and request counts). */
  onExchange?: (e: { method: string; path: string; status: number; ms: number }) => void;
  /** Called before waiting to try a request again; `rateLimited` when the service asked to slow down (429). */
  onRetry?: (e: RetryNotice) => void;
  /** The longest wait a Retry-After header is honoured for (default one minute). */
  maxRetryAfterMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Waits (tests pass a fast one). */
  sleep?: (ms: number) => Promise<void>;
  /** How long to wait for the service's answer before giving up on an attempt. */
  timeoutMs?: number;
  /** Requests in flight at once (provider.parallelism); further ones queue. */
  concurrency?: number;
  /** Called when an answer says a speed other than the one known so far (see `serviceSpeed`). */
  onServiceSpeed?: (speed: number) => void;
}

export interface RetryNotice {
  method: string;
  path: string;
  attempt: number;
  delayMs: number;
  reason: string;
  rateLimited: boolean;
}

/**
 * A mutating request whose outcome is unknown: the request went out, and the connection broke or the
 * service failed before saying whether it acted. The caller observes the object before trying again.
 */
export class OutcomeUnknownError extends NetformError {
  constructor(
    readonly method: string,
    readonly path: string,
    cause: unknown,
  ) {
    super({ code: "api.outcome_unknown", message: `${method} ${path}: the service did not say whether it acted (${describe(cause)})`, source: "user", cause });
    this.name = "OutcomeUnknownError";
  }
}

function describe(cause: unknown): string {
  if (cause instanceof ApiError) return `HTTP ${cause.status}`;
  return cause instanceof Error ? cause.message : String(cause);
}

type Response = { status: number; body: unknown; headers: Record<string, string | string[] | undefined> };

export interface RequestOptions {
  body?: unknown;
  /** A multipart body (a file upload), sent in place of a JSON one: its fields in order. */
  form?: readonly MultipartField[];
  query?: Record<string, string | number | boolean | undefined>;
  /** A POST that changes nothing (a search): retried like a read. */
  readOnly?: boolean;
}

/** A field of a multipart body: a value, or a file's content under a file name. */
export type MultipartField = { name: string; value: string } | { name: string; content: string; fileName: string };

/**
 * The header in which a simulator of the service says how many times faster than the real service its
 * transitions run (netform's own `netform sim` sends it on every answer). The real service sends none.
 */
const SERVICE_SPEED_HEADER = "x-simulator-speed";

function speedIn(header: string | string[] | undefined): number | undefined {
  const speed = Number(Array.isArray(header) ? header[0] : header);
  return header !== undefined && Number.isFinite(speed) && speed > 0 ? speed : undefined;
}

/**
 * A token goes before the other requests queued for a slot, as every request waits for it. Dry runs go
 * after the rest: a plan asks many, each on its own, beside a few reads that other checks wait for (the
 * metros and ports of its limits, its prices), which would otherwise queue behind all of them.
 */
const PRIORITY = { token: 1, request: 0, dryRun: -1 } as const;

/** A request the service answers without acting on it (dryRun=true): asked only while a plan is checked. */
const isDryRun = (opts: RequestOptions) => opts.query?.dryRun === true;

/** Renew this long before the service's stated expiry, so no request carries a token that dies in flight. */
const RENEW_MARGIN_MS = 60_000;

export class ApiClient {
  /** The HTTP client, loaded with the first request: commands that never call the service do not pay for loading it. */
  private http: Promise<{ agent: Agent; request: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>; loadFormData(): Promise<typeof FormData> }> | undefined;
  /**
   * Changes and reads have request slots of their own, as many of each as the concurrency: a status read in
   * flight never holds the slot a create or a dependent's start waits for. With a slow service (a few
   * hundred milliseconds per answer) shared slots would let polls set the apply's pace; the reads lose
   * nothing by waiting for each other (the next read sees the same or a later state).
   */
  private readonly changes: PQueue;
  private readonly reads: PQueue;
  private readonly policy: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private token: { value: string; expires: number } | undefined;
  private renewing: Promise<string> | undefined;
  private user: string | undefined;
  private speed: number | undefined;
  requestCount = 0;

  constructor(private readonly options: ApiClientOptions) {
    const slots = Math.max(1, options.concurrency ?? 32);
    this.changes = new PQueue({ concurrency: slots });
    this.reads = new PQueue({ concurrency: slots });
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Loads the parts of undici this client uses, not its main entry: that one also loads the mock agents,
   * fetch, WebSocket and the caches, about three times as long, which every command talking to the service
   * would pay. undici has no export map, and package-lock.json pins the version whose layout these paths name.
   */
  private loadHttp(): NonNullable<ApiClient["http"]> {
    if (this.http) return this.http;
    // undici parses HTTP with WebAssembly; the command line keeps V8 from compiling it twice (src/cli/main.ts).
    this.http = import("./http-modules.js").then(({ Agent, request, loadFormData }) => {
      const timeout = this.options.timeoutMs ?? 60_000;
      // A connection for every slot of both kinds, so that no request waits for a socket after its slot.
      const connections = Math.max(32, 2 * this.changes.concurrency + 1);
      return { agent: new Agent({ keepAliveTimeout: 30_000, connections, headersTimeout: timeout, bodyTimeout: timeout }), request, loadFormData };
    });
    return this.http;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /**
   * How many times faster than the real service the service at hand runs, as its latest answer said (a
   * simulator's); undefined for the real service, or before the first answer.
   */
  get serviceSpeed(): number | undefined {
    return this.speed;
  }

  /**
   * Who the service knows this client as (the token's user name), once a token was issued; undefined with a
   * ready token. The service records it as the creator of what this client creates.
   */
  async identity(): Promise<string | undefined> {
    if ("token" in this.options.credentials) return undefined;
    await this.accessToken();
    return this.user;
  }

  async close(): Promise<void> {
    if (this.http) await (await this.http).agent.close();
  }

  private async accessToken(force = false): Promise<string> {
    const creds = this.options.credentials;
    if ("token" in creds) return creds.token;
    if (!force && this.token && this.token.expires - RENEW_MARGIN_MS > Date.now()) return this.token.value;
    this.renewing ??= this.fetchToken(creds).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async fetchToken(creds: { clientId: string; clientSecret: string }): Promise<string> {
    // Asking for a token changes nothing on the service, so it is retried like a read.
    const res = await this.exchange("POST", "/oauth2/v1/token", {
      body: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret },
    }, { idempotent: true, authenticated: false, priority: PRIORITY.token });
    if (res.status >= 500) {
      throw new NetformError({
        code: "auth.service_error",
        message: `the service's token endpoint failed (HTTP ${res.status}) after ${this.policy.attempts} attempts; the credentials were not checked`,
        hint: "the service is having trouble: try again later",
      });
    }
    if (res.status !== 200) {
      throw new NetformError({
        code: "auth.failed",
        message: `the service refused the client credentials (HTTP ${res.status})`,
        hint: "check NETFORM_CLIENT_ID and NETFORM_CLIENT_SECRET",
      });
    }
    const body = res.body as { access_token: string; token_timeout: string | number; user_name?: unknown };
    if (typeof body.user_name === "string") this.user = body.user_name;
    const ttlMs = Number(body.token_timeout) * 1000;
    this.token = { value: body.access_token, expires: Date.now() + (Number.isFinite(ttlMs) ? ttlMs : 3_599_000) };
    return body.access_token;
  }

  private async send(method: string, path: string, opts: RequestOptions & { token?: string } = {}): Promise<Response> {
    const url = new URL(path, this.options.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json" };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    // A multipart body carries its own content type, boundary included.
    if (opts.body !== undefined && !opts.form) headers["content-type"] = "application/json";
    const { agent, request, loadFormData } = await this.loadHttp();
    let form: FormData | undefined;
    if (opts.form) {
      const FormData = await loadFormData();
      form = new FormData();
      for (const field of opts.form) {
        if ("content" in field) form.append(field.name, new Blob([field.content]), field.fileName);
        else form.append(field.name, field.value);
      }
    }
    const started = performance.now();
    this.requestCount++;
    const res = await request.call(agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: form ?? (opts.body === undefined ? null : JSON.stringify(opts.body)),
    });
    const text = await res.body.text();
    let body: unknown = text;
    if (text && String(res.headers["content-type"] ?? "").includes("json")) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    this.options.onExchange?.({ method, path: url.pathname, status: res.statusCode, ms: performance.now() - started });
    const speed = speedIn(res.headers[SERVICE_SPEED_HEADER]);
    if (speed !== undefined && speed !== this.speed) {
      this.speed = speed;
      this.options.onServiceSpeed?.(speed);
    }
    return { status: res.statusCode, body, headers: res.headers };
  }

  /**
   * One logical request: retries what may be retried (reads on 429 and 5xx and broken connections;
   * anything on 429 or a connection never made), renews the token once on a 401, and turns a mutating
   * request whose outcome is unknown into OutcomeUnknownError.
   */
  private async exchange(method: string, path: string, opts: RequestOptions, how: { idempotent: boolean; authenticated: boolean; priority: number }): Promise<Response> {
    let renewed = false;
    let forceToken = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.policy.attempts;
      let res: Response;
      try {
        const token = how.authenticated ? await this.accessToken(forceToken) : undefined;
        forceToken = false;
        res = await this.laneOf(opts, how.idempotent).add(() => this.send(method, path, token ? { ...opts, token } : opts), { priority: how.priority });
      } catch (cause) {
        if (cause instanceof NetformError) throw cause;
        const retryable = how.idempotent || neverSent(cause);
        if (!retryable) throw new OutcomeUnknownError(method, path, cause);
        if (last) {
          throw new NetformError({
            code: "api.unreachable",
            message: `cannot reach the service at ${this.options.baseUrl} (${method} ${path}): ${describe(cause)}`,
            hint: "check provider.endpoint (or NETFORM_ENDPOINT) and your network",
            cause,
          });
        }
        await this.wait(method, path, attempt, undefined, describe(cause), false);
        continue;
      }
      if (res.status === 401 && how.authenticated && !renewed && !("token" in this.options.credentials)) {
        renewed = true;
        forceToken = true;
        attempt--;
        continue;
      }
      if (RETRYABLE_STATUSES.has(res.status)) {
        const safe = how.idempotent || res.status === 429;
        if (!safe) throw new OutcomeUnknownError(method, path, new ApiError({ status: res.status, method, path, body: res.body }));
        if (!last) {
          const retryAfter = retryAfterMs(res.headers["retry-after"]);
          await this.wait(method, path, attempt, retryAfter === undefined ? undefined : Math.min(retryAfter, this.options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS), `HTTP ${res.status}`, res.status === 429);
          continue;
        }
      }
      if (res.status >= 500 && !how.idempotent) throw new OutcomeUnknownError(method, path, new ApiError({ status: res.status, method, path, body: res.body }));
      return res;
    }
  }

  /**
   * The slots a request waits for. A dry run changes nothing and is asked only while a plan is checked,
   * when no change waits for a slot: it takes the less busy kind, so that the checks of a large plan run
   * twice as many at a time, within the slots of both kinds that parallelism allows.
   */
  private laneOf(opts: RequestOptions, idempotent: boolean): PQueue {
    if (!isDryRun(opts)) return idempotent ? this.reads : this.changes;
    const load = (lane: PQueue) => lane.pending + lane.size;
    return load(this.changes) < load(this.reads) ? this.changes : this.reads;
  }

  private async wait(method: string, path: string, attempt: number, retryAfter: number | undefined, reason: string, rateLimited: boolean): Promise<void> {
    const delayMs = retryAfter ?? backoffDelay(this.policy, attempt);
    this.options.onRetry?.({ method, path, attempt, delayMs, reason, rateLimited });
    await this.sleep(delayMs);
  }

  /** Sends an authenticated request; returns the parsed body, or throws ApiError for a 4xx/5xx. */
  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.authenticated(method, path, opts)).body as T;
  }

  /** Sends a create that answers with the new object's address in its Location header alone (an SSH key, 4.11); returns that address. */
  async callForLocation(method: string, path: string, opts: RequestOptions = {}): Promise<string | undefined> {
    const location = (await this.authenticated(method, path, opts)).headers.location;
    return Array.isArray(location) ? location[0] : location;
  }

  private async authenticated(method: string, path: string, opts: RequestOptions): Promise<Response> {
    const idempotent = opts.readOnly || isReadOnly(method);
    const res = await this.exchange(method, path, opts, { idempotent, authenticated: true, priority: isDryRun(opts) ? PRIORITY.dryRun : PRIORITY.request });
    if (res.status >= 400) throw new ApiError({ status: res.status, method, path, body: res.body });
    return res;
  }
}
