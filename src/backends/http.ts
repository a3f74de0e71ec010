// The http backend: Terraform's HTTP state protocol, as GitLab's and Gitea's managed state and other
// servers speak it. GET the address reads the state (204 or 404: none yet); the update method (POST)
// writes it, naming the lock's ID (?ID=); the lock method (LOCK; POST for GitLab and Gitea) takes the
// lock with its details as JSON, and the unlock method (UNLOCK; DELETE) gives it back; a held lock
// answers 409 or 423 with its holder's details, and so does a write under a lock ID the server does not
// hold. Every setting may come from the environment (NETFORM_HTTP_*, as Terraform's TF_HTTP_*), the
// password only from there.
//
// The protocol has no conditional write: a write reads the stored version first and refuses to overwrite
// another writer's, inside the lock. A request that failed for the server's sake (5xx, a connection
// closed before an answer) is repeated with back-off when repeating is safe: a read; a lock, whose repeat
// finds the lock held under this run's own ID; an unlock; and a write, once the stored version read back
// shows it was not stored. The server keeps every write as a version (GitLab lists them), so the state
// store writes only what crash safety needs (StateStore's `later`).

import { readFileSync } from "node:fs";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { hostname, userInfo } from "node:os";
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { fileProblem, NetformError } from "../diag/index.js";
import { conflict, lockLost, sealedVersion, type HeldLock, type LockInfo, type LockRefusal, type StateBackend, type StateVersion, type StoredVersion } from "../state/index.js";

/** The backend block's http settings; what it leaves out comes from the environment. */
export interface HttpSettings {
  address?: string;
  updateMethod?: string;
  lockAddress?: string;
  lockMethod?: string;
  unlockAddress?: string;
  unlockMethod?: string;
  username?: string;
  retryMax?: number;
  retryWaitMinMs?: number;
  retryWaitMaxMs?: number;
  /** Files, resolved against the configuration's folder. */
  clientCertificateFile?: string;
  clientPrivateKeyFile?: string;
  caCertificateFile?: string;
  /** The workspace whose state this is: `{workspace}` in the addresses stands for its name. */
  workspace?: { name: string; isDefault: boolean };
}

/** Each setting's environment variable, read when the backend block leaves the setting out. */
export const HTTP_ENVIRONMENT = {
  address: "NETFORM_HTTP_ADDRESS",
  updateMethod: "NETFORM_HTTP_UPDATE_METHOD",
  lockAddress: "NETFORM_HTTP_LOCK_ADDRESS",
  lockMethod: "NETFORM_HTTP_LOCK_METHOD",
  unlockAddress: "NETFORM_HTTP_UNLOCK_ADDRESS",
  unlockMethod: "NETFORM_HTTP_UNLOCK_METHOD",
  username: "NETFORM_HTTP_USERNAME",
  password: "NETFORM_HTTP_PASSWORD",
  retryMax: "NETFORM_HTTP_RETRY_MAX",
  retryWaitMin: "NETFORM_HTTP_RETRY_WAIT_MIN",
  retryWaitMax: "NETFORM_HTTP_RETRY_WAIT_MAX",
  clientCertificateFile: "NETFORM_HTTP_CLIENT_CERTIFICATE_FILE",
  clientPrivateKeyFile: "NETFORM_HTTP_CLIENT_PRIVATE_KEY_FILE",
  caCertificateFile: "NETFORM_HTTP_CA_CERTIFICATE_FILE",
} as const;

/** Terraform's defaults: two repeats, after 1s and then 2s, never more than 30s apart. */
const DEFAULT_RETRY = { max: 2, waitMinMs: 1000, waitMaxMs: 30_000 };
/** How long a request may go unanswered before it counts as a closed connection. */
const REQUEST_TIMEOUT_MS = 60_000;

/** The settings, the backend block's first and the environment's for what it leaves out, checked. */
interface Resolved {
  address: URL;
  updateMethod: string;
  lockAddress: URL;
  lockMethod: string;
  unlockAddress: URL;
  unlockMethod: string;
  authorization?: string;
  retry: { max: number; waitMinMs: number; waitMaxMs: number };
  tls: { cert?: Buffer; key?: Buffer; ca?: Buffer };
}

const usage = (message: string, hint: string) => new NetformError({ code: "backend.http", message, hint });

function resolveSettings(settings: HttpSettings, env: NodeJS.ProcessEnv): Resolved {
  const from = <K extends keyof HttpSettings & keyof typeof HTTP_ENVIRONMENT>(key: K): { value: string; where: string } | undefined => {
    const given = settings[key];
    if (given !== undefined) return { value: String(given), where: `backend.http.${key}` };
    const value = env[HTTP_ENVIRONMENT[key]];
    return value ? { value, where: HTTP_ENVIRONMENT[key] } : undefined;
  };
  const workspace = settings.workspace ?? { name: "default", isDefault: true };
  const templated = from("address")?.value.includes(WORKSPACE_MARK) ?? false;
  const url = (key: "address" | "lockAddress" | "unlockAddress", fallback?: URL): URL => {
    const given = from(key);
    if (!given) {
      if (fallback) return fallback;
      throw usage("the http backend has no address", `set backend.http.address in the configuration, or ${HTTP_ENVIRONMENT.address}`);
    }
    checkWorkspaceMark(key, given, templated, workspace);
    let parsed: URL | undefined;
    try {
      parsed = new URL(given.value.replaceAll(WORKSPACE_MARK, encodeURIComponent(workspace.name)));
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      throw usage(`${given.where} must be an http:// or https:// URL`, "e.g. https://gitlab.example.com/api/v4/projects/42/terraform/state/prod");
    }
    return parsed;
  };
  const method = (key: "updateMethod" | "lockMethod" | "unlockMethod", fallback: string): string => {
    const given = from(key);
    if (!given) return fallback;
    if (!/^[A-Z]+$/.test(given.value)) throw usage(`${given.where} must be an HTTP method in capitals, got "${given.value}"`, `e.g. ${fallback} (the protocol's), or POST and DELETE for GitLab's lock`);
    return given.value;
  };
  const seconds = (key: "retryWaitMin" | "retryWaitMax", given: number | undefined, fallback: number): number => {
    if (given !== undefined) return given;
    const text = env[HTTP_ENVIRONMENT[key]];
    if (!text) return fallback;
    const value = Number(text);
    if (!(value >= 0)) throw usage(`${HTTP_ENVIRONMENT[key]} must be a number of seconds, got "${text}"`, "e.g. 5, or 0.5");
    return value * 1000;
  };
  const retryMax = (): number => {
    if (settings.retryMax !== undefined) return settings.retryMax;
    const text = env[HTTP_ENVIRONMENT.retryMax];
    if (!text) return DEFAULT_RETRY.max;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 20) throw usage(`${HTTP_ENVIRONMENT.retryMax} must be a whole number from 0 to 20, got "${text}"`, "e.g. 2 (Terraform's default)");
    return value;
  };
  const file = (key: "clientCertificateFile" | "clientPrivateKeyFile" | "caCertificateFile"): Buffer | undefined => {
    const given = from(key);
    if (!given) return undefined;
    try {
      return readFileSync(given.value);
    } catch (e) {
      throw usage(`cannot read ${given.value} (${given.where}): ${fileProblem(e)}`, "give a PEM file the run can read");
    }
  };
  const address = url("address");
  const username = from("username")?.value;
  const password = env[HTTP_ENVIRONMENT.password];
  const tls = { cert: file("clientCertificateFile"), key: file("clientPrivateKeyFile"), ca: file("caCertificateFile") };
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw usage("the http backend's client certificate needs its private key, and the key its certificate", "set both clientCertificateFile and clientPrivateKeyFile (or NETFORM_HTTP_CLIENT_CERTIFICATE_FILE and NETFORM_HTTP_CLIENT_PRIVATE_KEY_FILE)");
  }
  if (password !== undefined && username === undefined) {
    throw usage(`${HTTP_ENVIRONMENT.password} is set, and no user name`, `set backend.http.username or ${HTTP_ENVIRONMENT.username} (for GitLab: a user name, with a token as the password)`);
  }
  const waitMinMs = seconds("retryWaitMin", settings.retryWaitMinMs, DEFAULT_RETRY.waitMinMs);
  return {
    address,
    updateMethod: method("updateMethod", "POST"),
    lockAddress: url("lockAddress", address),
    lockMethod: method("lockMethod", "LOCK"),
    unlockAddress: url("unlockAddress", address),
    unlockMethod: method("unlockMethod", "UNLOCK"),
    ...(username !== undefined ? { authorization: `Basic ${Buffer.from(`${username}:${password ?? ""}`).toString("base64")}` } : {}),
    retry: { max: retryMax(), waitMinMs, waitMaxMs: Math.max(waitMinMs, seconds("retryWaitMax", settings.retryWaitMaxMs, DEFAULT_RETRY.waitMaxMs)) },
    tls: Object.fromEntries(Object.entries(tls).filter(([, v]) => v !== undefined)),
  };
}

/** A URL as messages show it: without the user and password it may carry. */
function shown(url: URL): string {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  return copy.toString();
}

/** The lock's details as the protocol's servers keep and return them. */
interface WireLock {
  ID: string;
  Operation: string;
  Info: string;
  Who: string;
  Version: string;
  Created: string;
  Path: string;
}

const fromWire = (w: Partial<WireLock>): LockInfo => ({
  id: w.ID ?? "unknown",
  operation: w.Operation ?? "unknown",
  who: w.Who ?? "unknown",
  created: w.Created ?? "unknown",
  expires: "when it is unlocked",
});

/** An answer, read whole. */
interface Answer {
  status: number;
  statusText: string;
  retryAfterMs?: number;
  text: string;
}

/**
 * What came of one request: an answer, or a connection that failed before one (`problem` says how;
 * `lasting` when repeating cannot help: a certificate refused either way).
 */
type Outcome = { answer: Answer } | { problem: string; lasting: boolean };

/** Failed for the server's sake, not the request's: worth repeating where repeating is safe. */
const transient = (o: Outcome): boolean => ("answer" in o ? o.answer.status >= 500 || o.answer.status === 429 : !o.lasting);
const refusedLock = (o: Outcome): o is { answer: Answer } => "answer" in o && (o.answer.status === 409 || o.answer.status === 423);
const ok = (o: Outcome): o is { answer: Answer } => "answer" in o && o.answer.status >= 200 && o.answer.status < 300;
const described = (o: Outcome): string => ("answer" in o ? `${o.answer.status} ${o.answer.statusText}${o.answer.text.trim() ? `: ${o.answer.text.trim().slice(0, 200)}` : ""}` : o.problem);


function holderIn(answer: Answer): LockInfo | undefined {
  try {
    const body = JSON.parse(answer.text) as Partial<WireLock> | null;
    return body && typeof body.ID === "string" ? fromWire(body) : undefined;
  } catch {
    return undefined;
  }
}

const sameVersion = (a: StateVersion | undefined, b: StateVersion | undefined) => a?.lineage === b?.lineage && a?.serial === b?.serial;

/**
 * The lock this process holds, which every write names; `lost` once the server refused it. `unaskable`:
 * the server grants the lock again to its holder, or refuses it without naming the holder, so asking for
 * it tells nothing.
 */
interface Holding {
  wire: WireLock;
  unaskable: boolean;
  lost?: NetformError;
}

export class HttpBackend implements StateBackend {
  readonly type = "http";
  readonly location: string;
  readonly keepsEveryWrite = true;
  private readonly settings: Resolved;
  private readonly agent: HttpAgent | HttpsAgent;
  private holding: Holding | undefined;
  /** A write whose outcome could not be told (its read-back failed too): the next write knows it as this run's own. */
  private unconfirmed: { version: StateVersion; after: StateVersion | undefined } | undefined;

  constructor(settings: HttpSettings, env: NodeJS.ProcessEnv) {
    this.settings = resolveSettings(settings, env);
    this.location = shown(this.settings.address);
    this.agent = this.settings.address.protocol === "https:" ? new HttpsAgent({ keepAlive: true, ...this.settings.tls }) : new HttpAgent({ keepAlive: true });
  }

  /** One request, its answer read whole; a connection that fails is an outcome, not an exception. */
  private once(method: string, url: URL, body?: string): Promise<Outcome> {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...(this.settings.authorization ? { authorization: this.settings.authorization } : {}), ...(body !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}) };
    return new Promise((resolve) => {
      const req = send(url, { method, headers, agent: this.agent, timeout: REQUEST_TIMEOUT_MS }, (res: IncomingMessage) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("error", (error) => resolve({ problem: `the connection closed during the answer (${error.message})`, lasting: false }));
        res.on("end", () => {
          const retryAfter = Number(res.headers["retry-after"]);
          resolve({ answer: { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", text, ...(retryAfter >= 0 ? { retryAfterMs: retryAfter * 1000 } : {}) } });
        });
      });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000}s`)));
      req.on("error", (error: NodeJS.ErrnoException) => {
        const code = error.code ?? "";
        const problem = code === "ECONNRESET" ? "the connection closed before an answer" : `${error.message}${code ? ` (${code})` : ""}`;
        resolve({ problem, lasting: /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS|ERR_SSL/.test(code) });
      });
      req.end(body);
    });
  }

  /** The pause before repeat `attempt` (from 0): doubled each time, within the settings' bounds, or as long as the server asks. */
  private async pause(attempt: number, outcome: Outcome): Promise<void> {
    const { waitMinMs, waitMaxMs } = this.settings.retry;
    const asked = "answer" in outcome ? outcome.answer.retryAfterMs : undefined;
    await delay(Math.min(waitMaxMs, asked ?? waitMinMs * 2 ** attempt));
  }

  /**
   * Sends a request that is safe to repeat, repeating it while it fails for the server's sake.
   * Credentials refused are said as such.
   */
  private async send(method: string, url: URL, body?: string): Promise<Outcome> {
    for (let attempt = 0; ; attempt++) {
      const outcome = this.authorized(method, url, await this.once(method, url, body));
      if (!transient(outcome) || attempt >= this.settings.retry.max) return outcome;
      await this.pause(attempt, outcome);
    }
  }

  /** The outcome, unless it says the credentials were refused: that is said as such. */
  private authorized(method: string, url: URL, outcome: Outcome): Outcome {
    if (!("answer" in outcome) || (outcome.answer.status !== 401 && outcome.answer.status !== 403)) return outcome;
    throw new NetformError({
      code: "backend.http",
      message: `the http backend refused ${method} ${shown(url)}: ${outcome.answer.status} ${outcome.answer.statusText}`,
      hint: `set ${HTTP_ENVIRONMENT.username} and ${HTTP_ENVIRONMENT.password} (the user may be backend.http.username instead) to credentials the server accepts`,
    });
  }

  /** The error for an outcome `send` gave up on: a transient one was repeated as many times as the settings allow. */
  private failed(method: string, url: URL, outcome: Outcome): NetformError {
    const what = "answer" in outcome ? `answered ${method} ${shown(url)} with ${described(outcome)}` : `did not answer ${method} ${shown(url)}: ${outcome.problem}`;
    const tries = this.settings.retry.max + 1;
    const repeated = transient(outcome) && tries > 1;
    return new NetformError({
      code: "backend.http",
      message: `the http backend ${what}${repeated ? ` (asked ${tries} times)` : ""}`,
      hint: repeated
        ? `check that the server is up, and its log; backend.http.retryMax (or ${HTTP_ENVIRONMENT.retryMax}) sets how many times a request is repeated`
        : "answer" in outcome
          ? "check backend.http in the configuration, and the server's log"
          : "check backend.http's address and certificate files, and that the server is up",
    });
  }

  async read(): Promise<string | undefined> {
    const url = this.settings.address;
    const outcome = await this.send("GET", url);
    if ("answer" in outcome && (outcome.answer.status === 204 || outcome.answer.status === 404)) return undefined;
    if (!ok(outcome)) throw this.failed("GET", url, outcome);
    return outcome.answer.text.trim() === "" ? undefined : outcome.answer.text;
  }

  /** The lineage and serial of the stored state, read now. */
  private async storedVersion(): Promise<StateVersion | undefined> {
    const stored = await this.read();
    return stored === undefined ? undefined : sealedVersion(stored);
  }

  /** Whether the stored version is the one a write follows: `after`, or this run's own write of it whose outcome was not told. */
  private follows(stored: StateVersion | undefined, after: StateVersion | undefined): boolean {
    return sameVersion(stored, after) || (this.unconfirmed !== undefined && sameVersion(stored, this.unconfirmed.version) && sameVersion(this.unconfirmed.after, after));
  }

  async write(content: string, version: StateVersion, after: StateVersion | undefined): Promise<void> {
    const held = this.held();
    const before = await this.storedVersion();
    if (!this.follows(before, after)) throw await this.conflict(held, after, before);
    const url = new URL(this.settings.address);
    url.searchParams.set("ID", held.wire.ID);
    const method = this.settings.updateMethod;
    for (let attempt = 0; ; attempt++) {
      const outcome = this.authorized(method, url, await this.once(method, url, content));
      if (ok(outcome)) {
        this.unconfirmed = undefined;
        return;
      }
      if (refusedLock(outcome)) throw this.lost(held, holderIn(outcome.answer));
      if (!transient(outcome)) throw this.failed(method, url, outcome);
      // Stored or not? Only the server can tell: the write is repeated only when it was not.
      this.unconfirmed = { version, after };
      let stored: StateVersion | undefined;
      try {
        stored = await this.storedVersion();
      } catch (error) {
        throw new NetformError({
          code: "backend.http",
          message: `the http backend failed ${method} ${shown(url)} (${described(outcome)}), and reading the state back to tell whether it was stored failed too: ${(error as Error).message}`,
          hint: "the next run (or the next write of this one) reads it back and knows this write as its own; check that the server is up",
        });
      }
      if (sameVersion(stored, version)) {
        this.unconfirmed = undefined;
        return;
      }
      if (!this.follows(stored, after)) throw await this.conflict(held, after, stored);
      if (attempt >= this.settings.retry.max) {
        this.unconfirmed = undefined;
        throw new NetformError({
          code: "backend.http",
          message: `the http backend failed ${method} ${shown(url)} ${attempt + 1} times, the last time with ${described(outcome)}; read back, it still has ${stored ? `serial ${stored.serial}` : "no state"}: this write was not stored`,
          hint: `check the server's log; backend.http.retryMax (or ${HTTP_ENVIRONMENT.retryMax}) sets how many times a write is repeated`,
        });
      }
      await this.pause(attempt, outcome);
    }
  }

  /**
   * The refusal of a write that another writer's version got ahead of: that writer held the lock, and
   * this run no longer does (the check rejects, saying so), or it ignored the lock (a conflict).
   */
  private async conflict(held: Holding, after: StateVersion | undefined, stored: StateVersion | undefined): Promise<NetformError> {
    await this.check(held);
    return conflict(this.location, after, stored);
  }

  /** The lock every write names; a write without it is a defect (every writer takes the lock first). */
  private held(): Holding {
    if (!this.holding) throw new NetformError({ code: "internal", source: "internal", message: `a write to ${this.location} without its lock` });
    if (this.holding.lost) throw this.holding.lost;
    return this.holding;
  }

  /** The refusal of a lock the server no longer holds for this run; every later write is refused alike. */
  private lost(held: Holding, holder: LockInfo | undefined): NetformError {
    const why = holder && holder.id !== held.wire.ID ? `another run holds it now: ${holder.who} for ${holder.operation} since ${holder.created} (lock ID ${holder.id})` : "the server no longer holds it (netform force-unlock removed it)";
    held.lost ??= lockLost(this.location, held.wire.ID, why);
    return held.lost;
  }

  /**
   * Asks for the lock under `wire`'s ID: granted; already held under that ID (the server refuses it,
   * naming it: a repeat after a lost answer finds it so); or held by another.
   */
  private async lock(wire: WireLock): Promise<"granted" | "held" | { holder?: LockInfo }> {
    const url = this.settings.lockAddress;
    const outcome = await this.send(this.settings.lockMethod, url, JSON.stringify(wire));
    if (ok(outcome)) return "granted";
    if (!refusedLock(outcome)) throw this.failed(this.settings.lockMethod, url, outcome);
    const holder = holderIn(outcome.answer);
    return holder?.id === wire.ID ? "held" : holder ? { holder } : {};
  }

  private refusal(holder: LockInfo | undefined): LockRefusal {
    return {
      ...(holder ? { holder } : {}),
      refusal: new NetformError({
        code: "state.locked",
        message: holder ? `the state ${this.location} is locked by ${holder.who} for ${holder.operation} since ${holder.created} (lock ID ${holder.id})` : `the state ${this.location} is locked (the server did not say by whom)`,
        hint: holder ? `wait for that run to finish; if it is known to be dead, run: netform force-unlock ${holder.id}` : "wait for that run to finish",
      }),
    };
  }

  async tryLock(operation: string): Promise<HeldLock | LockRefusal> {
    const wire: WireLock = {
      ID: randomUUID(),
      Operation: operation,
      Info: "",
      Who: `${userInfo().username}@${hostname()} (pid ${process.pid})`,
      Version: "netform",
      Created: new Date().toISOString(),
      Path: "",
    };
    const attempt = await this.lock(wire);
    if (typeof attempt === "object") return this.refusal(attempt.holder);
    // Whether the server refuses the lock to its own holder, as the protocol has it: only then can the
    // run ask it, later, whether the lock is still its own.
    const again = attempt === "held" ? "held" : await this.lock(wire);
    // Another run's lock, named, could only come from a force-unlock between the two requests.
    if (typeof again === "object" && again.holder) return this.refusal(again.holder);
    const held: Holding = { wire, unaskable: again !== "held" };
    this.holding = held;
    return {
      info: fromWire(wire),
      check: () => this.check(held),
      release: async () => {
        if (this.holding === held) this.holding = undefined;
        if (!held.lost) await this.unlock(wire, "release");
      },
    };
  }

  /**
   * The protocol cannot ask who holds the lock without asking for it: a server that holds it for this
   * run refuses it again, naming this run's ID; one that grants it had let it go (force-unlock), and the
   * lock just taken back is given back at once. A server that grants the lock to its holder again, or
   * refuses it without naming the holder, cannot be asked: there the write of the step's pending record,
   * refused without the lock, is the check.
   */
  private async check(held: Holding): Promise<void> {
    if (held.lost) throw held.lost;
    if (held.unaskable) return;
    const attempt = await this.lock(held.wire);
    if (attempt === "held") return;
    if (attempt === "granted") await this.unlock(held.wire, "release");
    throw this.lost(held, typeof attempt === "object" ? attempt.holder : undefined);
  }

  /**
   * Gives the lock `wire` names back. On release, a lock the server no longer holds under that ID (a
   * repeat after a lost answer, or one force-unlocked) is not this run's to give back: nothing to do.
   */
  private async unlock(wire: Pick<WireLock, "ID"> & Partial<WireLock>, why: "release" | "force"): Promise<void> {
    const url = this.settings.unlockAddress;
    const outcome = await this.send(this.settings.unlockMethod, url, JSON.stringify(wire));
    if (ok(outcome) || (why === "release" && refusedLock(outcome))) return;
    throw this.failed(this.settings.unlockMethod, url, outcome);
  }

  async forceUnlock(id: string): Promise<LockInfo> {
    // The protocol cannot ask who holds the lock: a lock attempt that is refused says so.
    const attempt = await this.tryLock("force-unlock");
    if ("release" in attempt) {
      await attempt.release();
      throw new NetformError({ code: "state.not_locked", message: `the state ${this.location} is not locked` });
    }
    const holder = attempt.holder;
    if (holder && holder.id !== id) {
      throw new NetformError({ code: "state.lock_mismatch", message: `the lock on ${this.location} has ID ${holder.id}, not ${id}`, hint: `held by ${holder.who} for ${holder.operation}` });
    }
    await this.unlock({ ID: id }, "force");
    return holder ?? { id, operation: "unknown", who: "unknown", created: "unknown", expires: "unknown" };
  }

  /** Removes the state (DELETE at the address, naming the lock this process holds). */
  async delete(): Promise<void> {
    const held = this.held();
    const url = new URL(this.settings.address);
    url.searchParams.set("ID", held.wire.ID);
    const outcome = await this.send("DELETE", url);
    if ("answer" in outcome && outcome.answer.status === 404) return;
    if (refusedLock(outcome)) throw this.lost(held, holderIn(outcome.answer));
    if (!ok(outcome)) throw this.failed("DELETE", url, outcome);
  }

  async history(): Promise<StoredVersion[]> {
    throw noHistory(this.location);
  }

  async readVersion(): Promise<string | undefined> {
    throw noHistory(this.location);
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

const noHistory = (location: string) =>
  new NetformError({
    code: "state.no-history",
    message: `the http backend ${location} keeps no history netform can read (the protocol reads only the latest version)`,
    hint: "the server may keep versions of its own; a postgres backend keeps every version for netform state history",
  });

/** Where a workspace's name goes in the addresses. */
const WORKSPACE_MARK = "{workspace}";

/**
 * `{workspace}` in an address: the address keeps one state per workspace when it has it, and one state,
 * the default workspace's, when it has not; a lock address that has it while the state's address does not
 * (or the reverse) would lock several workspaces' states through one address.
 */
function checkWorkspaceMark(key: "address" | "lockAddress" | "unlockAddress", given: { value: string; where: string }, templated: boolean, workspace: { name: string; isDefault: boolean }): void {
  const has = given.value.includes(WORKSPACE_MARK);
  if (key === "address") {
    if (has || workspace.isDefault) return;
    throw new NetformError({
      code: "backend.http-workspace",
      message: `the http backend's address (${given.where}) has no ${WORKSPACE_MARK}: it keeps one state, the default workspace's, and workspace ${workspace.name} is selected`,
      hint: `put ${WORKSPACE_MARK} in the address where the workspace's name goes (and in lockAddress and unlockAddress), e.g. https://state.example.net/netform/${WORKSPACE_MARK}; or select the default workspace`,
    });
  }
  if (has === templated) return;
  throw new NetformError({
    code: "backend.http-workspace",
    message: templated ? `${given.where} ${given.value} has no ${WORKSPACE_MARK}, and the address has: every workspace's state would be locked through one address` : `${given.where} has ${WORKSPACE_MARK}, and the address has not`,
    hint: `write ${WORKSPACE_MARK} in address, lockAddress and unlockAddress alike`,
  });
}

/** The workspaces other than the default: none without {workspace}; with it, the protocol has no request that would list them. */
export function httpWorkspaces(settings: HttpSettings, env: NodeJS.ProcessEnv): string[] {
  const address = settings.address ?? env[HTTP_ENVIRONMENT.address];
  if (!address?.includes(WORKSPACE_MARK)) return [];
  throw new NetformError({
    code: "backend.http-workspace",
    message: `the http backend cannot list workspaces: the HTTP state protocol reads and writes one address at a time, and has no request that lists the states under ${address}`,
    hint: "netform workspace show names the selected one, and netform workspace select NAME checks that one exists; the server's own interface lists its states",
  });
}
