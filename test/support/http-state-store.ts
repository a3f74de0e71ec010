// A server speaking the HTTP state protocol for many states, one per path, as GitLab's managed state keeps
// one per name: GET, POST (with ?ID= naming the lock) and DELETE a state, LOCK and UNLOCK at its path,
// 423 with the holder's details on a held lock, basic auth. For workspaces, whose states sit at addresses
// made from one template.

import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { HTTP_PASSWORD, HTTP_USER } from "./http-state-server.js";

export interface HttpStateStore {
  /** The server's base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /** Each stored state by its path, byte for byte as posted. */
  readonly states: Map<string, string>;
  /** Each held lock by its path, as its holder sent it. */
  readonly locks: Map<string, Record<string, unknown>>;
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => resolve(text));
  });

/** Starts the server for a test file on loopback; the tests keep their states apart by their paths. */
export function useHttpStateStore(): HttpStateStore {
  let server: Server | undefined;
  const store = { url: "", states: new Map<string, string>(), locks: new Map<string, Record<string, unknown>>() };
  const expected = `Basic ${Buffer.from(`${HTTP_USER}:${HTTP_PASSWORD}`).toString("base64")}`;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { "www-authenticate": "Basic" }).end();
        return;
      }
      const text = await body(req);
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname;
      const lock = store.locks.get(path);
      const refuse = () => res.writeHead(423, { "content-type": "application/json" }).end(JSON.stringify(lock));
      switch (req.method) {
        case "GET": {
          const state = store.states.get(path);
          if (state === undefined) res.writeHead(404).end();
          else res.writeHead(200, { "content-type": "application/json" }).end(state);
          return;
        }
        case "POST":
        case "DELETE":
          if (lock && url.searchParams.get("ID") !== lock.ID) return refuse();
          if (req.method === "POST") store.states.set(path, text);
          else store.states.delete(path);
          res.writeHead(200).end();
          return;
        case "LOCK":
          if (lock) return refuse();
          store.locks.set(path, JSON.parse(text) as Record<string, unknown>);
          res.writeHead(200).end();
          return;
        case "UNLOCK":
          if (lock && (JSON.parse(text) as { ID?: string }).ID !== lock.ID) return refuse();
          store.locks.delete(path);
          res.writeHead(200).end();
          return;
        default:
          res.writeHead(405).end();
      }
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    store.url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return store;
}
