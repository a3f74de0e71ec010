// A small server speaking Terraform's HTTP state protocol, in the two shapes teams run: the protocol's
// own (LOCK and UNLOCK on the state's address, 423 with the holder's details on a held lock) and
// GitLab's managed state (POST and DELETE on the address followed by /lock, 409 with the holder's
// details). Both keep the protocol's fence: a write names the lock's ID (?ID=), and one that names no
// lock the server holds, or names none while the state is locked, is refused as a held lock is. Basic
// auth, and with `tls` a certificate the client must present (all made at test time). It keeps what it
// is sent as it is sent, for the tests to look at the stored bytes, and fails the requests a test asks it to.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** How a request is made to fail: a 500 or a dropped connection, before the server acts on it or after. */
export type Failure = "500-before" | "500-after" | "drop-before" | "drop-after";

export interface HttpStateServer {
  /** The state's address. */
  readonly url: string;
  /** GitLab's lock address: the state's, followed by /lock. */
  readonly lockUrl: string;
  /** The stored state, byte for byte as written; undefined when none. */
  stored: string | undefined;
  /** The lock's details as the holder sent them. */
  lock: Record<string, unknown> | undefined;
  /** Every write stored, in order, with the lock ID it named (?ID=): each one a version, as GitLab keeps them. */
  writes: { id: string | null; content: string }[];
  /** Every request received, in order. */
  requests: { method: string; path: string; id: string | null }[];
  /** Fails the next `times` requests with this method (and path ending, when given), as `how` says. */
  fail(method: string, how: Failure, times?: number, pathEnd?: string): void;
}

export const HTTP_USER = "ci";
export const HTTP_PASSWORD = "s3cret-token";

/** Certificates made for one test process: an authority, a server certificate for 127.0.0.1 signed by it, and a client certificate signed by it. */
export interface TestCertificates {
  ca: string;
  serverCertificate: string;
  serverKey: string;
  clientCertificate: string;
  clientKey: string;
}

let certificates: TestCertificates | undefined;

/**
 * Makes the TLS tests' certificates with the openssl command, in a temporary folder, the first time they
 * are asked for: no key is kept in the repository. Without openssl the test fails, saying so.
 */
export function testCertificates(): TestCertificates {
  if (certificates) return certificates;
  const dir = mkdtempSync(join(tmpdir(), "netform-tls-"));
  const at = (name: string) => join(dir, name);
  // A configuration of its own, so that the machine's openssl.cnf changes nothing.
  writeFileSync(
    at("openssl.cnf"),
    "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = netform test\n[ca]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign\n[server]\nsubjectAltName = IP:127.0.0.1,DNS:localhost\nextendedKeyUsage = serverAuth\n[client]\nextendedKeyUsage = clientAuth\n",
  );
  const openssl = (...args: string[]) => {
    try {
      execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    } catch (error) {
      throw new Error(`the TLS tests make their certificates with the openssl command, which failed (install OpenSSL): ${(error as Error).message}`);
    }
  };
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-config", "openssl.cnf"];
  openssl("req", "-x509", ...key, "-extensions", "ca", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=netform test CA");
  for (const [name, cn] of [["server", "127.0.0.1"], ["client", "netform test runner"]] as const) {
    openssl("req", ...key, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`);
    openssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", "2", "-extfile", "openssl.cnf", "-extensions", name);
  }
  certificates = { ca: at("ca.pem"), serverCertificate: at("server.pem"), serverKey: at("server.key"), clientCertificate: at("client.pem"), clientKey: at("client.key") };
  return certificates;
}

/** An answer: a status, and the JSON body it carries. */
interface Answer {
  status: number;
  json?: string;
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => resolve(text));
  });

export interface ServerOptions {
  /** "terraform": LOCK/UNLOCK on the address, 423; "gitlab": POST/DELETE on the address's /lock, 409. */
  flavour?: "terraform" | "gitlab";
  /** Serve HTTPS with the fixtures' server certificate, and require a client certificate signed by their authority. */
  tls?: boolean;
  /** Grant the lock again to the ID that holds it, as some servers do, where the protocol refuses it. */
  regrantsHolder?: boolean;
  /** Refuse a held lock without saying who holds it (an empty body), as the protocol allows. */
  namelessRefusal?: boolean;
}

/** Starts the server for a test file on loopback; each test starts with no state, no lock and no failures. */
export function useHttpStateServer(options: ServerOptions = {}): HttpStateServer {
  const flavour = options.flavour ?? "terraform";
  const heldStatus = flavour === "gitlab" ? 409 : 423;
  let server: Server | undefined;
  let failures: { method: string; how: Failure; pathEnd?: string }[] = [];
  const state: HttpStateServer = {
    url: "",
    lockUrl: "",
    stored: undefined,
    lock: undefined,
    writes: [],
    requests: [],
    fail(method, how, times = 1, pathEnd) {
      for (let i = 0; i < times; i++) failures.push({ method, how, ...(pathEnd ? { pathEnd } : {}) });
    },
  };
  const expected = `Basic ${Buffer.from(`${HTTP_USER}:${HTTP_PASSWORD}`).toString("base64")}`;
  const statePath = "/state/prod";
  const lockPath = flavour === "gitlab" ? `${statePath}/lock` : statePath;
  const [lockMethod, unlockMethod] = flavour === "gitlab" ? ["POST", "DELETE"] : ["LOCK", "UNLOCK"];
  const held = (): Answer => (options.namelessRefusal ? { status: heldStatus } : { status: heldStatus, json: JSON.stringify(state.lock ?? {}) });

  /** What the server does with a request, and answers. */
  const handle = (method: string, url: URL, text: string): Answer => {
    if (url.pathname === lockPath && method === lockMethod) {
      const asked = JSON.parse(text) as Record<string, unknown>;
      if (state.lock && !(options.regrantsHolder && state.lock.ID === asked.ID)) return held();
      state.lock = asked;
      return { status: 200 };
    }
    if (url.pathname === lockPath && method === unlockMethod) {
      const given = (text ? JSON.parse(text) : {}) as { ID?: string };
      // GitLab compares the ID given with the lock's, and none held matches no ID.
      if (given.ID !== undefined && given.ID !== state.lock?.ID) return held();
      state.lock = undefined;
      return { status: 200 };
    }
    if (url.pathname !== statePath) return { status: 404 };
    if (method === "GET") return state.stored === undefined ? { status: 204 } : { status: 200, json: state.stored };
    if (method === "POST") {
      const id = url.searchParams.get("ID");
      // The fence: a write names the lock the server holds, or no lock while none is held.
      if ((state.lock?.ID ?? null) !== id) return held();
      state.writes.push({ id, content: text });
      state.stored = text;
      return { status: 200 };
    }
    return { status: 405 };
  };

  beforeAll(async () => {
    const listener = async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const method = req.method ?? "";
      state.requests.push({ method, path: url.pathname, id: url.searchParams.get("ID") });
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { "www-authenticate": "Basic" }).end();
        return;
      }
      const text = await body(req);
      const index = failures.findIndex((f) => f.method === method && (f.pathEnd === undefined || url.pathname.endsWith(f.pathEnd)));
      const failure = index >= 0 ? failures.splice(index, 1)[0]!.how : undefined;
      if (failure === "drop-before") return void req.socket.destroy();
      if (failure === "500-before") return void res.writeHead(500).end("injected failure");
      const answer = handle(method, url, text);
      // Acted on, and then the answer is lost: the client cannot tell it from a failure before.
      if (failure === "drop-after") return void req.socket.destroy();
      if (failure === "500-after") return void res.writeHead(500).end("injected failure");
      res.writeHead(answer.status, answer.json !== undefined ? { "content-type": "application/json" } : {}).end(answer.json);
    };
    server = options.tls
      ? createTlsServer({ cert: readFileSync(testCertificates().serverCertificate), key: readFileSync(testCertificates().serverKey), ca: readFileSync(testCertificates().ca), requestCert: true, rejectUnauthorized: true }, listener)
      : createServer(listener);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const url = `${options.tls ? "https" : "http"}://127.0.0.1:${port}${statePath}`;
    Object.assign(state, { url, lockUrl: `${url}/lock` });
  });
  beforeEach(() => {
    state.stored = undefined;
    state.lock = undefined;
    state.writes = [];
    state.requests = [];
    failures = [];
  });
  afterAll(async () => {
    server?.closeAllConnections?.();
    await new Promise((resolve) => server?.close(resolve));
  });
  return state;
}
