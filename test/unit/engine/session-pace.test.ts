// A simulator says its speed on every answer (X-Simulator-Speed); the session polls at that pace from the
// first answer on, unless the user set NETFORM_POLL_INTERVAL_MS or the endpoint's speed is known (the
// embedded simulator). The real service sends no such header: its pace stays the real one.

import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Configuration } from "../../../src/config/index.js";
import { openSession, type PaceNotice, type Session } from "../../../src/engine/session.js";
import { paceOf } from "../../../src/engine/wait.js";

/** A service that answers every call with an empty object and a token, saying `speed` if given. */
async function service(speed?: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const headers: Record<string, string> = { "content-type": "application/json", ...(speed === undefined ? {} : { "X-Simulator-Speed": speed }) };
    const body = req.url === "/oauth2/v1/token" ? { access_token: "token", token_timeout: "3599", token_type: "Bearer", user_name: "demo-user" } : {};
    res.writeHead(200, headers).end(JSON.stringify(body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const config = (endpoint: string) => ({ provider: { endpoint, parallelism: 4 } }) as unknown as Configuration;

describe("the session's pace", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function open(url: string, env: NodeJS.ProcessEnv, speed?: number): Promise<{ session: Session; notices: PaceNotice[] }> {
    const notices: PaceNotice[] = [];
    const session = await openSession(config(url), {
      statePath: "netform.state.json",
      env: { NETFORM_CLIENT_ID: "demo-client", NETFORM_CLIENT_SECRET: "demo-secret", ...env },
      resolveEndpoint: async (endpoint) => ({ baseUrl: endpoint, ...(speed === undefined ? {} : { speed }), close: async () => {} }),
      onPace: (e) => notices.push(e),
    });
    closers.unshift(() => session.close());
    return { session, notices };
  }

  it("follows the speed a simulator says from its first answer, the token's", async () => {
    const sim = await service("200");
    closers.push(sim.close);
    const { session, notices } = await open(sim.url, {});
    expect(session.poll.minIntervalMs).toBe(1000);
    await session.api.identity();
    expect(session.api.serviceSpeed).toBe(200);
    expect(session.poll.minIntervalMs).toBe(5);
    expect(paceOf(session.poll)).toBe(0.005);
    await session.api.call("GET", "/fabric/v4/connections/c");
    expect(notices).toEqual([{ speed: 200, minIntervalMs: 5, setBy: "X-Simulator-Speed" }]);
  });

  it("keeps the real service's pace when no answer says a speed", async () => {
    const real = await service();
    closers.push(real.close);
    const { session, notices } = await open(real.url, {});
    await session.api.call("GET", "/fabric/v4/connections/c");
    expect(session.api.serviceSpeed).toBeUndefined();
    expect(session.poll.minIntervalMs).toBe(1000);
    expect(notices).toEqual([]);
  });

  it("lets NETFORM_POLL_INTERVAL_MS, and the embedded simulator's known speed, decide over the header", async () => {
    const sim = await service("200");
    closers.push(sim.close);
    const set = await open(sim.url, { NETFORM_POLL_INTERVAL_MS: "50" });
    await set.session.api.identity();
    expect(set.session.poll.minIntervalMs).toBe(50);
    expect(set.notices).toEqual([{ speed: 200, minIntervalMs: 50, setBy: "NETFORM_POLL_INTERVAL_MS" }]);

    const embedded = await open(sim.url, {}, 100);
    await embedded.session.api.identity();
    expect(embedded.session.poll.minIntervalMs).toBe(10);
    expect(embedded.notices).toEqual([{ speed: 200, minIntervalMs: 10, setBy: "embedded" }]);
  });
});
