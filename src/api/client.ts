// The one place that speaks HTTP to the service: an undici connection pool with keep-alive, OAuth2
// client credentials with a cached token renewed before it expires (one renewal at a time), and a
// single 401 renewal-and-retry.

import { Agent, request } from "undici";
import { NetformError } from "../diag/index.js";
import { ApiError } from "./errors.js";

export type Credentials = { clientId: string; clientSecret: string } | { token: string };

export interface ApiClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** Called for every exchange (for --debug traces and request counts). */
  onExchange?: (e: { method: string; path: string; status: number; ms: number }) => void;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/** Renew this long before the service's stated expiry, so no request carries a token that dies in flight. */
const RENEW_MARGIN_MS = 60_000;

export class ApiClient {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 32 });
  private token: { value: string; expires: number } | undefined;
  private renewing: Promise<string> | undefined;
  requestCount = 0;

  constructor(private readonly options: ApiClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  async close(): Promise<void> {
    await this.agent.close();
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
    const res = await this.send("POST", "/oauth2/v1/token", {
      body: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret },
    });
    if (res.status !== 200) {
      throw new NetformError({
        code: "auth.failed",
        message: `the service refused the client credentials (HTTP ${res.status})`,
        hint: "check NETFORM_CLIENT_ID and NETFORM_CLIENT_SECRET",
      });
    }
    const body = res.body as { access_token: string; token_timeout: string | number };
    const ttlMs = Number(body.token_timeout) * 1000;
    this.token = { value: body.access_token, expires: Date.now() + (Number.isFinite(ttlMs) ? ttlMs : 3_599_000) };
    return body.access_token;
  }

  private async send(method: string, path: string, opts: RequestOptions & { token?: string } = {}): Promise<{ status: number; body: unknown; headers: Record<string, string | string[] | undefined> }> {
    const url = new URL(path, this.options.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json" };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const started = performance.now();
    let res;
    try {
      res = await request(url, {
        method: method as "GET",
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        dispatcher: this.agent,
      });
    } catch (cause) {
      throw new NetformError({
        code: "api.unreachable",
        message: `cannot reach the service at ${this.options.baseUrl}: ${(cause as Error).message}`,
        hint: "check provider.endpoint (or NETFORM_ENDPOINT) and your network",
        cause,
      });
    }
    this.requestCount++;
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
    return { status: res.statusCode, body, headers: res.headers };
  }

  /** Sends a request without credentials (the simulator's control API); throws ApiError for a 4xx/5xx. */
  async unauthenticated<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, opts);
    if (res.status >= 400) throw new ApiError({ status: res.status, method, path, body: res.body });
    return res.body as T;
  }

  /** Sends an authenticated request; returns the parsed body, or throws ApiError for a 4xx/5xx. */
  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    let res = await this.send(method, path, { ...opts, token: await this.accessToken() });
    if (res.status === 401 && !("token" in this.options.credentials)) {
      res = await this.send(method, path, { ...opts, token: await this.accessToken(true) });
    }
    if (res.status >= 400) throw new ApiError({ status: res.status, method, path, body: res.body });
    return res.body as T;
  }
}
