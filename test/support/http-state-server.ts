// A small server speaking the HTTP state protocol, as GitLab's managed state does: GET and POST the
// state, LOCK and UNLOCK with the lock's details as JSON, 423 with the holder's details on a held lock,
// and basic auth. It keeps what it is sent as it is sent, for the tests to look at the stored bytes.

import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface HttpStateServer {
  readonly url: string;
  /** The stored state, byte for byte as posted; undefined when none. */
  stored: string | undefined;
  /** The lock's details as the holder sent them. */
  lock: Record<string, unknown> | undefined;
  /** The lock id each POST named (?ID=). */
  postedIds: (string | null)[];
}

export const HTTP_USER = "ci";
export const HTTP_PASSWORD = "s3cret-token";

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => resolve(text));
  });

/** Starts the server for a test file on loopback; each test starts with no state and no lock. */
export function useHttpStateServer(): HttpStateServer {
  let server: Server | undefined;
  const state: HttpStateServer = { url: "", stored: undefined, lock: undefined, postedIds: [] };
  const expected = `Basic ${Buffer.from(`${HTTP_USER}:${HTTP_PASSWORD}`).toString("base64")}`;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { "www-authenticate": "Basic" }).end();
        return;
      }
      const text = await body(req);
      const url = new URL(req.url ?? "/", "http://localhost");
      switch (req.method) {
        case "GET":
          if (state.stored === undefined) res.writeHead(204).end();
          else res.writeHead(200, { "content-type": "application/json" }).end(state.stored);
          return;
        case "POST": {
          const id = url.searchParams.get("ID");
          if (state.lock && id !== state.lock.ID) {
            res.writeHead(423, { "content-type": "application/json" }).end(JSON.stringify(state.lock));
            return;
          }
          state.postedIds.push(id);
          state.stored = text;
          res.writeHead(200).end();
          return;
        }
        case "LOCK":
          if (state.lock) {
            res.writeHead(423, { "content-type": "application/json" }).end(JSON.stringify(state.lock));
            return;
          }
          state.lock = JSON.parse(text) as Record<string, unknown>;
          res.writeHead(200).end();
          return;
        case "UNLOCK": {
          const given = JSON.parse(text) as { ID?: string };
          if (state.lock && given.ID !== state.lock.ID) {
            res.writeHead(409, { "content-type": "application/json" }).end(JSON.stringify(state.lock));
            return;
          }
          state.lock = undefined;
          res.writeHead(200).end();
          return;
        }
        default:
          res.writeHead(405).end();
      }
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    Object.assign(state, { url: `http://127.0.0.1:${port}/state/prod` });
  });
  beforeEach(() => {
    state.stored = undefined;
    state.lock = undefined;
    state.postedIds = [];
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return state;
}
