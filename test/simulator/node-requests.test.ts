// Requests as the simulator reads them from the Node request rather than through a web Request: the body
// text that `text()` would give, whatever the chunks it arrives in; the 5 MB limit, whichever way the body's
// length is told; and the headers as hono's would read.

import { request } from "node:http";
import { Readable } from "node:stream";
import { serve, type ServerType } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitBodySize, readBodyText, MAX_BODY_BYTES } from "../../src/simulator/core/body.js";
import { requestHeader, type SimEnv } from "../../src/simulator/core/context.js";
import { SimError } from "../../src/simulator/core/errors.js";
import { useSimulator } from "../support/sim.js";

describe("the body text read from the socket", () => {
  const app = new Hono<SimEnv>();
  app.use("*", limitBodySize());
  // Reads twice, as two helpers of one request might: the socket gives the body once.
  const echo = async (c: Context<SimEnv>) => c.json({ first: await readBodyText(c), again: await readBodyText(c) });
  app.post("/echo", echo);
  app.delete("/echo", echo);
  app.get("/header", (c) => c.json({ fromNode: requestHeader(c, "x-tag") ?? null, fromHono: c.req.header("x-tag") ?? null }));
  app.onError((error, c) => c.json({ error: error instanceof SimError ? error.details[0]?.reason : String(error) }, 400));
  let server: ServerType;
  let port: number;

  beforeAll(async () => {
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /**
   * POSTs `parts` as separate writes; with `length`, declared up front, else chunked. Each on a connection
   * of its own: a refused body is not read to its end, so its connection cannot carry another request.
   */
  const post = (parts: Buffer[], length?: number) =>
    new Promise<{ status: number; body: { first?: string; again?: string; error?: string } }>((resolve, reject) => {
      const headers: Record<string, string | number> = { "content-type": "application/json" };
      if (length !== undefined) headers["content-length"] = length;
      const req = request({ host: "127.0.0.1", port, path: "/echo", method: "POST", headers, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on("error", reject);
      for (const part of parts) req.write(part);
      req.end();
    });

  it("gives the body of a declared length, once read, to every reader of the request", async () => {
    const res = await post([Buffer.from('{"a":'), Buffer.from("1}")], 7);
    expect(res).toEqual({ status: 200, body: { first: '{"a":1}', again: '{"a":1}' } });
  });

  it("joins a character split between two chunks and drops a leading byte order mark", async () => {
    const bytes = Buffer.from('\uFEFF{"name":"Zürich-東京"}', "utf8");
    const split = bytes.indexOf(Buffer.from("東", "utf8")) + 1;
    // A Node request whose body arrives in exactly these two chunks, which a socket would not promise.
    const incoming = Object.assign(Readable.from([bytes.subarray(0, split), bytes.subarray(split)]), {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(bytes.length) },
    });
    const res = await app.fetch(new Request("http://127.0.0.1/echo", { method: "POST" }), { incoming });
    expect(await res.json()).toEqual({ first: '{"name":"Zürich-東京"}', again: '{"name":"Zürich-東京"}' });
  });

  it("reads a chunked body, which the limit has read already", async () => {
    const res = await post([Buffer.from('{"a":'), Buffer.from("1}")]);
    expect(res.body).toEqual({ first: '{"a":1}', again: '{"a":1}' });
  });

  it("ends on a request with a Content-Type and no body at all (neither a length nor chunks)", async () => {
    // Node sends a DELETE with no body without Content-Length or Transfer-Encoding: the body has ended
    // before anything reads it, which a reader waiting for its 'end' would wait for forever.
    const res = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/echo", method: "DELETE", headers: { "content-type": "application/json" }, agent: false }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(res).toEqual({ status: 200, body: { first: "", again: "" } });
  });

  it("refuses a body over 5 MB by its declared length without reading it", async () => {
    const res = await post([Buffer.from("{}")], MAX_BODY_BYTES + 1);
    expect(res).toEqual({ status: 400, body: { error: "the request body is larger than 5 MB" } });
  });

  it("reads a header as hono does: repeated values joined, surrounding whitespace dropped", async () => {
    const header = (values: string[] | undefined) =>
      new Promise<unknown>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/header", agent: false }, (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk));
          res.on("end", () => resolve(JSON.parse(text)));
        });
        if (values) req.setHeader("X-Tag", values);
        req.on("error", reject);
        req.end();
      });
    expect(await header([" a\t", "b  c"])).toEqual({ fromNode: "a, b  c", fromHono: "a, b  c" });
    expect(await header(undefined)).toEqual({ fromNode: null, fromHono: null });
  });

  it("refuses a chunked body once it passes 5 MB", async () => {
    const res = await post([Buffer.alloc(MAX_BODY_BYTES, 0x20), Buffer.from("{}")]);
    expect(res).toEqual({ status: 400, body: { error: "the request body is larger than 5 MB" } });
  });
});

describe("bodies sent to the simulator", () => {
  const t = useSimulator();

  it("answers DELETE /ne/v1/devices/{uuid} sent with a Content-Type and no body: the deletion info is optional", async () => {
    const created = await t.call("POST", "/ne/v1/devices", {
      body: {
        deviceTypeCode: "C8000V", metroCode: "DC", packageCode: "network-essentials", version: "17.11.01a", licenseMode: "SUB",
        deviceManagementType: "PROVIDER-CONFIGURED", core: 2, termlength: 12, notifications: ["netops@example.com"], accountNumber: 270848, virtualDeviceName: "edge-1",
      },
    });
    await t.waitFor(`/ne/v1/devices/${created.body.uuid}`, "/status", "PROVISIONED");
    const token = await t.token();
    const url = new URL(t.url);
    const status = await new Promise<number>((resolve, reject) => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
      const req = request({ host: url.hostname, port: url.port, path: `/ne/v1/devices/${created.body.uuid}`, method: "DELETE", headers, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(204);
    expect((await t.call("GET", `/ne/v1/devices/${created.body.uuid}`)).body.status).toBe("DEPROVISIONING");
  });

  it("refuses a chunked body over 5 MB with EQ-2012012, as one of declared length", async () => {
    const chunks = [new TextEncoder().encode(" ".repeat(MAX_BODY_BYTES)), new TextEncoder().encode("{}")];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await fetch(`${t.url}/oauth2/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "EQ-2012012" });
  });
});
