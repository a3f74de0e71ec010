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

  /** Removes the state (DELETE at the address, naming the lock this process holds). */
  async delete(): Promise<void> {
    const url = this.heldId ? `${this.settings.address}${this.settings.address.includes("?") ? "&" : "?"}ID=${encodeURIComponent(this.heldId)}` : this.settings.address;
    const res = await this.call("DELETE", url);
    if (!res.ok && res.status !== 404) throw await this.failed("DELETE", url, res);
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

/** Where a workspace's name goes in the addresses. */
const WORKSPACE_MARK = "{workspace}";

/**
 * The addresses of one workspace's state: `{workspace}` replaced by its name (the default workspace's too).
 * An address without it keeps one state, the default workspace's; a lock address that has it while the
 * state's address does not would lock every workspace's state through one.
 */
export function httpWorkspaceAddresses(settings: HttpSettings, workspace: { name: string; isDefault: boolean }): HttpSettings {
  const templated = settings.address.includes(WORKSPACE_MARK);
  if (!templated && !workspace.isDefault) {
    throw new NetformError({
      code: "backend.http-workspace",
      message: `the http backend's address ${settings.address} has no ${WORKSPACE_MARK}: it keeps one state, the default workspace's, and workspace ${workspace.name} is selected`,
      hint: `put ${WORKSPACE_MARK} in backend.http.address where the workspace's name goes (and in lockAddress and unlockAddress), e.g. https://state.example.net/netform/${WORKSPACE_MARK}; or select the default workspace`,
    });
  }
  const fill = (address: string): string => address.replaceAll(WORKSPACE_MARK, encodeURIComponent(workspace.name));
  for (const [field, address] of [["lockAddress", settings.lockAddress], ["unlockAddress", settings.unlockAddress]] as const) {
    if (address !== undefined && address.includes(WORKSPACE_MARK) !== templated) {
      throw new NetformError({
        code: "backend.http-workspace",
        message: templated ? `backend.http.${field} ${address} has no ${WORKSPACE_MARK}, and address has: every workspace's state would be locked through one address` : `backend.http.${field} has ${WORKSPACE_MARK}, and address has not`,
        hint: `write ${WORKSPACE_MARK} in address, lockAddress and unlockAddress alike`,
      });
    }
  }
  return { address: fill(settings.address), ...(settings.lockAddress !== undefined ? { lockAddress: fill(settings.lockAddress) } : {}), ...(settings.unlockAddress !== undefined ? { unlockAddress: fill(settings.unlockAddress) } : {}) };
}

/** The workspaces other than the default: none without {workspace}; with it, the protocol has no request that would list them. */
export function httpWorkspaces(settings: HttpSettings): string[] {
  if (!settings.address.includes(WORKSPACE_MARK)) return [];
  throw new NetformError({
    code: "backend.http-workspace",
    message: `the http backend cannot list workspaces: the HTTP state protocol reads and writes one address at a time, and has no request that lists the states under ${settings.address}`,
    hint: "netform workspace show names the selected one, and netform workspace select NAME checks that one exists; the server's own interface lists its states",
  });
}
