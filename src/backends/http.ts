// The http backend: the HTTP state protocol that GitLab's managed state and other servers speak. GET
// the address reads the state (204 or 404: none yet), POST writes it (with ?ID= the lock's id), LOCK and
// UNLOCK send the lock's details as JSON, and a held lock answers 409 or 423 with its holder's. Basic
// auth comes from NETFORM_HTTP_USERNAME and NETFORM_HTTP_PASSWORD. The protocol has no conditional
// write: a write reads the stored version first and refuses to overwrite another writer's, inside the lock.

import { hostname, userInfo } from "node:os";
import { randomUUID } from "node:crypto";
import { NetformError } from "../diag/index.js";
import { conflict, sealedVersion, type HeldLock, type LockInfo, type LockRefusal, type StateBackend, type StateVersion, type StoredVersion } from "../state/index.js";

export interface HttpSettings {
  address: string;
  lockAddress?: string;
  unlockAddress?: string;
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

export class HttpBackend implements StateBackend {
  readonly type = "http";
  readonly location: string;
  private readonly headers: Record<string, string>;
  /** The lock this process holds, whose id a write names. */
  private heldId: string | undefined;

  constructor(
    private readonly settings: HttpSettings,
    env: NodeJS.ProcessEnv,
  ) {
    this.location = settings.address;
    const user = env.NETFORM_HTTP_USERNAME;
    this.headers = user !== undefined ? { authorization: `Basic ${Buffer.from(`${user}:${env.NETFORM_HTTP_PASSWORD ?? ""}`).toString("base64")}` } : {};
  }

  private async call(method: string, url: string, body?: string): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { method, headers: { ...this.headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      throw new NetformError({ code: "backend.http", message: `cannot reach the http backend at ${url}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`, hint: "check backend.http.address and that the server is up", cause: error });
    }
    if (res.status === 401 || res.status === 403) {
      throw new NetformError({ code: "backend.http", message: `the http backend refused ${method} ${url}: ${res.status} ${res.statusText}`, hint: "set NETFORM_HTTP_USERNAME and NETFORM_HTTP_PASSWORD to credentials the server accepts" });
    }
    return res;
  }

  private async failed(method: string, url: string, res: Response): Promise<NetformError> {
    const text = (await res.text()).slice(0, 200);
    return new NetformError({ code: "backend.http", message: `the http backend answered ${method} ${url} with ${res.status} ${res.statusText}${text ? `: ${text}` : ""}`, hint: "check backend.http in the configuration, and the server's log" });
  }

  async read(): Promise<string | undefined> {
    const res = await this.call("GET", this.settings.address);
    if (res.status === 204 || res.status === 404) return undefined;
    if (!res.ok) throw await this.failed("GET", this.settings.address, res);
    const text = await res.text();
    return text.trim() === "" ? undefined : text;
  }

  async write(content: string, _version: StateVersion, after: StateVersion | undefined): Promise<void> {
    const stored = await this.read();
    const now = stored === undefined ? undefined : sealedVersion(stored);
    if (now?.lineage !== after?.lineage || now?.serial !== after?.serial) throw conflict(this.location, after, now);
    const url = this.heldId ? `${this.settings.address}${this.settings.address.includes("?") ? "&" : "?"}ID=${encodeURIComponent(this.heldId)}` : this.settings.address;
    const res = await this.call("POST", url, content);
    if (!res.ok) throw await this.failed("POST", url, res);
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
    const url = this.settings.lockAddress ?? this.settings.address;
    const res = await this.call("LOCK", url, JSON.stringify(wire));
    if (res.status === 409 || res.status === 423) {
      const holder = await this.holderFrom(res);
      return {
        ...(holder ? { holder } : {}),
        refusal: new NetformError({
          code: "state.locked",
          message: holder ? `the state ${this.location} is locked by ${holder.who} for ${holder.operation} since ${holder.created} (lock ID ${holder.id})` : `the state ${this.location} is locked (the server did not say by whom)`,
          hint: holder ? `wait for that run to finish; if it is known to be dead, run: netform force-unlock ${holder.id}` : "wait for that run to finish",
        }),
      };
    }
    if (!res.ok) throw await this.failed("LOCK", url, res);
    this.heldId = wire.ID;
    return {
      info: fromWire(wire),
      release: async () => {
        this.heldId = undefined;
        await this.unlock(wire);
      },
    };
  }

  private async holderFrom(res: Response): Promise<LockInfo | undefined> {
    try {
      const body = (await res.json()) as Partial<WireLock>;
      return body && typeof body.ID === "string" ? fromWire(body) : undefined;
    } catch {
      return undefined;
    }
  }

  private async unlock(wire: Pick<WireLock, "ID"> & Partial<WireLock>): Promise<void> {
    const url = this.settings.unlockAddress ?? this.settings.address;
    const res = await this.call("UNLOCK", url, JSON.stringify(wire));
    if (!res.ok) throw await this.failed("UNLOCK", url, res);
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
    await this.unlock({ ID: id });
    return holder ?? { id, operation: "unknown", who: "unknown", created: "unknown", expires: "unknown" };
  }

  async history(): Promise<StoredVersion[]> {
    throw noHistory(this.location);
  }

  async readVersion(): Promise<string | undefined> {
    throw noHistory(this.location);
  }

  async close(): Promise<void> {}
}

const noHistory = (location: string) =>
  new NetformError({
    code: "state.no-history",
    message: `the http backend ${location} keeps no history netform can read (the protocol reads only the latest version)`,
    hint: "the server may keep versions of its own; a postgres backend keeps every version for netform state history",
  });
