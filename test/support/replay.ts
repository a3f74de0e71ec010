// A replay of the real service for tests: a loopback HTTP server that answers each request with the answer a
// test scripted for it, in the shapes real answers have (public client libraries' recordings), where the
// simulator answers as the specification says. It grants any OAuth token, records every request, and refuses
// what no script answers (501 for a change, 404 for a read), so that a test sees each call netform makes.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Json = unknown;

/** One scripted answer: what it answers (a method, and a path exactly or by pattern, and query values it requires) and with what. */
export interface ReplayAnswer {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string | RegExp;
  /** Query parameters the request must carry with these values. */
  query?: Record<string, string>;
  status?: number;
  /** The body, or a function of the request (a page of a list by its offset). */
  body?: Json | ((request: RecordedRequest) => Json);
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Json;
  /** The status the replay answered with. */
  status: number;
}

export interface Replay {
  readonly url: string;
  /** Every request answered, in order (the token requests left out). */
  readonly requests: RecordedRequest[];
  /** Replaces the scripted answers. */
  answer(answers: readonly ReplayAnswer[]): void;
  /** The requests that change something: every method but GET, the token's POST, the POST searches and the dry runs, which only read. */
  changes(): RecordedRequest[];
  close(): Promise<void>;
}

/** A Fabric search (`POST .../search`): a read with its criteria in the body. */
const isSearch = (r: RecordedRequest): boolean => r.method === "POST" && r.path.endsWith("/search");

/** A dry run (`?dryRun=true`): the service checks the change and makes nothing. */
const isDryRun = (r: RecordedRequest): boolean => r.query.dryRun === "true";

const matches = (answer: ReplayAnswer, method: string, path: string, query: Record<string, string>): boolean =>
  answer.method === method &&
  (typeof answer.path === "string" ? answer.path === path : answer.path.test(path)) &&
  Object.entries(answer.query ?? {}).every(([k, v]) => query[k] === v);

async function readBody(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** Starts a replay on a free loopback port. */
export async function startReplay(answers: readonly ReplayAnswer[] = []): Promise<Replay> {
  let script = [...answers];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://replay");
      const query = Object.fromEntries(url.searchParams);
      const body = await readBody(req);
      const send = (status: number, payload: Json, headers: Record<string, string> = {}) => {
        res.writeHead(status, { ...(payload === undefined ? {} : { "content-type": "application/json" }), ...headers });
        res.end(payload === undefined ? undefined : JSON.stringify(payload));
      };
      if (req.method === "POST" && url.pathname === "/oauth2/v1/token") {
        send(200, { access_token: "replay-token", token_timeout: "3600", token_type: "Bearer", user_name: "replay-user" });
        return;
      }
      const found = script.find((a) => matches(a, req.method ?? "GET", url.pathname, query));
      const recorded: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, query, body, status: 0 };
      requests.push(recorded);
      if (!found) {
        recorded.status = req.method === "GET" ? 404 : 501;
        send(recorded.status, [{ errorCode: "replay.unscripted", errorMessage: `the replay has no answer for ${req.method} ${url.pathname}${url.search}` }]);
        return;
      }
      recorded.status = found.status ?? 200;
      send(recorded.status, typeof found.body === "function" ? (found.body as (r: RecordedRequest) => Json)(recorded) : found.body, found.headers);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      script = [...next];
    },
    changes: () => requests.filter((r) => r.method !== "GET" && !isSearch(r) && !isDryRun(r)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
