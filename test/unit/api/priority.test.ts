// The client keeps request slots for changes apart from those for reads: with every read slot taken by
// slow status reads, a create still goes out at once, so polling never delays a create or a dependent's
// start. A dry run, asked only while a plan is checked, takes a free slot of either kind.

import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../../src/api/client.js";

describe("ApiClient request slots", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /**
   * A service that holds every answer until `release`, and a client with one slot of each kind. `settle`
   * waits until `count` requests were served, then gives any further one every chance to go out.
   */
  async function holdingService() {
    const served: string[] = [];
    const held: ServerResponse[] = [];
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      served.push(`${req.method} ${req.url}`);
      held.push(res);
      req.resume();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const api = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials: { token: "t" }, concurrency: 1 });
    closers.unshift(() => api.close());
    const release = () => {
      for (const res of held.splice(0)) res.writeHead(200, { "content-type": "application/json" }).end("{}");
    };
    // A failed expectation leaves answers held: they are let go first, so that closing does not wait for them.
    closers.unshift(async () => release());
    const settle = async (count: number) => {
      // Bounded, so that a request that never goes out fails the expectation after it, not the test's timeout.
      const deadline = Date.now() + 5_000;
      while (served.length < count && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const dryRun = (n: number) => api.call("POST", "/fabric/v4/connections", { query: { dryRun: true }, body: { n }, readOnly: true });
    return { api, served, release, settle, dryRun };
  }

  const DRY_RUN = "POST /fabric/v4/connections?dryRun=true";

  it("sends a change while the reads hold every read slot, and the reads in the order they were asked", async () => {
    const { api, served, release, settle } = await holdingService();
    const first = api.call("GET", "/fabric/v4/connections/first");
    await settle(1);
    const reads = [1, 2, 3].map((n) => api.call("GET", `/fabric/v4/connections/${n}`));
    const search = api.call("POST", "/fabric/v4/connections/search", { body: {}, readOnly: true });
    const create = api.call("POST", "/fabric/v4/connections", { body: {} });
    await settle(2);
    // The first read holds the only read slot, and the create still goes out.
    expect(served).toEqual(["GET /fabric/v4/connections/first", "POST /fabric/v4/connections"]);

    for (let count = 3; count <= 6; count++) {
      release();
      await settle(count);
    }
    release();
    await Promise.all([first, ...reads, search, create]);
    expect(served.slice(2)).toEqual(["GET /fabric/v4/connections/1", "GET /fabric/v4/connections/2", "GET /fabric/v4/connections/3", "POST /fabric/v4/connections/search"]);
  });

  it("runs dry runs in the slots of both kinds, and no more of them than both kinds have", async () => {
    const { served, release, settle, dryRun } = await holdingService();
    const checks = [1, 2, 3].map(dryRun);
    await settle(2);
    expect(served).toEqual([DRY_RUN, DRY_RUN]);
    release();
    await settle(3);
    release();
    await Promise.all(checks);
    expect(served).toEqual([DRY_RUN, DRY_RUN, DRY_RUN]);
  });

  it("sends a plan's other reads before the dry runs queued ahead of them", async () => {
    const { api, served, release, settle, dryRun } = await holdingService();
    const checks = [1, 2, 3, 4].map(dryRun);
    await settle(2);
    const metro = api.call("GET", "/fabric/v4/metros/DC");
    release();
    await settle(4);
    // One slot went to the next dry run, the other to the read asked after all four of them.
    expect(served.slice(2).sort()).toEqual(["GET /fabric/v4/metros/DC", DRY_RUN]);
    release();
    await settle(5);
    release();
    await Promise.all([...checks, metro]);
    expect(served).toHaveLength(5);
  });
});
