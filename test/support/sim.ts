// Test harness for the simulator: starts one on loopback per test file, resets it before each test,
// gets tokens for the seeded clients, and checks every response it serves against the official
// API descriptions (see conformance.ts).

import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../src/simulator/index.js";
import { conformanceRecorder } from "./conformance.js";

export type Client = "demo" | "limited" | "none";

export interface CallOptions {
  /** JSON body (serialised for you). */
  body?: unknown;
  /** A raw body, sent as is with `contentType`. */
  raw?: string | Uint8Array | FormData;
  contentType?: string;
  /** Which seeded OAuth client calls (default "demo"); "none" sends no Authorization header. */
  client?: Client;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  body: any;
  text: string;
  headers: Headers;
}

export interface TestSim {
  readonly url: string;
  readonly sim: RunningSimulator;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  token(client?: Exclude<Client, "none">): Promise<string>;
  /** Polls `probe` until it returns a value that is not undefined (fast; no real-second sleeps). */
  eventually<T>(probe: () => Promise<T | undefined>, what?: string): Promise<T>;
  /** GETs `path` until `pointer` (e.g. "/state") reads `value`; returns the body. */
  waitFor(path: string, pointer: string, value: unknown, client?: Exclude<Client, "none">): Promise<CallResult["body"]>;
  /**
   * Runs `act` on a clock that reads a minute later each time it is read: a test's fast clock may pass a
   * transition while a request is being answered (a process stalled for 20 ms at speed 1000 passes a
   * DIRECT's). What it plans lies minutes ahead of the real clock afterwards: act on fresh objects.
   */
  racing<T>(act: () => Promise<T>): Promise<T>;
}

const CREDENTIALS = { demo: ["demo-client", "demo-secret"], limited: ["limited-client", "limited-secret"] } as const;

function readPointer(doc: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((cur, key) => (cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[key] : undefined), doc);
}

/** Starts a simulator for this test file (default speed 1000) and resets it before each test. */
export function useSimulator(options: SimulatorOptions = {}): TestSim {
  let running: RunningSimulator | undefined;
  const tokens = new Map<string, string>();
  const recorder = conformanceRecorder();

  beforeAll(async () => {
    running = await startSimulator({
      port: 0,
      speed: 1000,
      seed: 42,
      ...options,
      onExchange: recorder.record,
      onInternalError: (e) => recorder.internalErrors.push(e),
    });
  });
  beforeEach(() => {
    running!.reset();
    running!.faults.configure({});
  });
  afterAll(async () => {
    await running?.close();
    expect(recorder.internalErrors, "the simulator threw unexpected exceptions").toEqual([]);
    recorder.assertConforms();
  });

  const harness: TestSim = {
    get url() {
      return running!.url;
    },
    get sim() {
      return running!;
    },
    async token(client = "demo") {
      const cached = tokens.get(client);
      if (cached) return cached;
      const [id, secret] = CREDENTIALS[client];
      const res = await fetch(`${running!.url}/oauth2/v1/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", client_id: id, client_secret: secret }),
      });
      const body = (await res.json()) as { access_token: string };
      tokens.set(client, body.access_token);
      return body.access_token;
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const client = opts.client ?? "demo";
      if (client !== "none" && !path.startsWith("/__sim") && !path.startsWith("/metal/")) headers.authorization = `Bearer ${await harness.token(client)}`;
      let body: string | Uint8Array | FormData | undefined;
      if (opts.raw !== undefined) {
        body = opts.raw;
        if (opts.contentType) headers["content-type"] = opts.contentType;
      } else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers["content-type"] = opts.contentType ?? "application/json";
      }
      const res = await fetch(`${running!.url}${path}`, { method, headers, body: body as RequestInit["body"] });
      const text = await res.text();
      let parsed: unknown = text;
      if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
    async eventually(probe, what = "condition") {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async racing(act) {
      const clock = running!.world.clock;
      const readNow = clock.now;
      let at = readNow.call(clock);
      clock.now = () => (at += 60_000);
      try {
        return await act();
      } finally {
        clock.now = readNow;
      }
    },
    async waitFor(path, pointer, value, client = "demo") {
      return harness.eventually(async () => {
        const res = await harness.call("GET", path, { client });
        return readPointer(res.body, pointer) === value ? res.body : undefined;
      }, `${path} ${pointer} = ${String(value)}`);
    },
  };
  return harness;
}
