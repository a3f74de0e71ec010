// API keys of the bare-metal compute API (sections 4.2 and 5.3; official description metalv1). Calls under
// /metal/v1 authenticate with `X-Auth-Token: <API key>` instead of a bearer token. A user key acts with
// the full access of its user in every project the user reaches; a project key acts inside its one
// project only. Either may be read-only (chosen at creation), which refuses every write with 403. A
// key's token is shown once, in the answer to its creation; later reads never carry it.

import type { Context, MiddlewareHandler } from "hono";
import { CLIENTS } from "../core/auth.js";
import { requestHeader, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { SimError, fail } from "../core/errors.js";
import { readObject } from "../core/http.js";
import type { JsonObject, SimObject, World } from "../core/world.js";

const KIND = "apiKeys";

type KeyScope = "user" | "project";

/** What the API never returns about a key: its secret and who or what it belongs to. */
interface KeyMeta {
  token: string;
  scope: KeyScope;
  /** The user a user key belongs to, or the user who created a project key. */
  owner: string;
  projectId?: string;
}

interface MetalUser {
  id: string;
  principal: Principal;
}

/** The bare-metal identities of the seeded users: the OAuth clients' users, with fixed ids. */
const USER_IDS: Record<string, string> = {
  "demo-user": "5e7a1c2b-0d4e-4f60-8a9b-0c1d2e3f4a01",
  "limited-user": "5e7a1c2b-0d4e-4f60-8a9b-0c1d2e3f4a02",
};

const USERS: readonly MetalUser[] = Object.entries(CLIENTS).flatMap(([clientId, client]) => {
  const id = USER_IDS[client.principal.userName];
  return id === undefined ? [] : [{ id, principal: { clientId, ...client.principal } }];
});

/** The seeded keys: their tokens are fixed so that they can be documented and used without setup. */
const SEEDED_KEYS = [
  { token: "demo-metal-key", owner: "demo-user", description: "Seeded user key of demo-user" },
  { token: "limited-metal-key", owner: "limited-user", description: "Seeded user key of limited-user" },
] as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const userNamed = (userName: string): MetalUser | undefined => USERS.find((u) => u.principal.userName === userName);

function metaOf(obj: SimObject): KeyMeta {
  const m = obj.meta;
  return {
    token: String(m.token),
    scope: m.scope === "project" ? "project" : "user",
    owner: String(m.owner),
    ...(typeof m.projectId === "string" ? { projectId: m.projectId } : {}),
  };
}

function userRef(userName: string): JsonObject {
  const id = userNamed(userName)?.id ?? "";
  return { id, href: `/metal/v1/users/${id}` };
}

const projectRef = (id: string): JsonObject => ({ id, href: `/metal/v1/projects/${id}` });

function createKey(world: World, meta: KeyMeta, description: string, readOnly: boolean): SimObject {
  const id = world.uuid();
  const at = world.nowIso();
  const holder: JsonObject = meta.scope === "user" ? { user: userRef(meta.owner) } : { project: projectRef(meta.projectId ?? "") };
  const body: JsonObject = { id, description, read_only: readOnly, created_at: at, updated_at: at, ...holder };
  return world.create(KIND, body, { uuid: id, meta: { ...meta }, ...(meta.projectId === undefined ? {} : { projectId: meta.projectId }) });
}

/** A fresh secret in the shape of the service's tokens (32 characters), from the seeded generator. */
const newToken = (world: World): string => world.random.hex(32);

// ── authentication ───────────────────────────────────────────────────────────────────────────

function principalFor(obj: SimObject): Principal | undefined {
  const meta = metaOf(obj);
  const user = userNamed(meta.owner);
  if (!user) return undefined;
  const readOnly = obj.body.read_only === true;
  switch (meta.scope) {
    case "user":
      return { ...user.principal, apiKeyId: obj.uuid, readOnly };
    case "project":
      return {
        ...user.principal,
        clientId: `project-api-key:${obj.uuid}`,
        projectIds: meta.projectId === undefined ? [] : [meta.projectId],
        permissions: [],
        apiKeyId: obj.uuid,
        readOnly,
      };
    default: {
      const unreachable: never = meta.scope;
      return unreachable;
    }
  }
}

function keyWithToken(world: World, token: string): SimObject | undefined {
  return world.list(KIND).find((o) => o.meta.token === token);
}

/** `X-Auth-Token` authentication for every call under /metal/v1; read-only keys may only read. */
function tokenAuth(world: World): MiddlewareHandler<SimEnv> {
  return async (c, next) => {
    const token = requestHeader(c, "x-auth-token");
    if (!token) throw new SimError("unauthorized", [{ property: "X-Auth-Token", reason: "Missing X-Auth-Token header: send an API key" }]);
    const key = keyWithToken(world, token);
    const principal = key && principalFor(key);
    if (!principal) throw new SimError("unauthorized", [{ property: "X-Auth-Token", reason: "Invalid authentication token" }]);
    if (principal.readOnly && !SAFE_METHODS.has(c.req.method)) {
      throw new SimError("forbidden", [{ property: "X-Auth-Token", reason: "This API key is read-only: it cannot create, change or delete anything" }]);
    }
    c.set("principal", principal);
    await world.runAs(principal.userName, next);
  };
}

type MetalContext = Context<SimEnv>;

/** The user behind the calling key; project keys have no user to act as. */
function callingUser(c: MetalContext, world: World): MetalUser {
  const principal = c.get("principal");
  const key = world.get(principal.apiKeyId ?? "", KIND);
  const user = key && metaOf(key).scope === "user" ? userNamed(metaOf(key).owner) : undefined;
  if (!user) return fail("unauthorized", "X-Auth-Token", "A project API key cannot manage user API keys; use a user API key");
  return user;
}

// ── requests ─────────────────────────────────────────────────────────────────────────────────

/** The AuthTokenInput body; anything the service cannot use is a 422, as the official description says. */
async function readKeyInput(c: MetalContext): Promise<{ description: string; readOnly: boolean }> {
  let body: JsonObject;
  try {
    body = await readObject(c);
  } catch (e) {
    if (e instanceof SimError && e.def.status === 400) throw new SimError("metalUnprocessable", e.details);
    throw e;
  }
  const { description, read_only: readOnly } = body;
  if (description !== undefined && typeof description !== "string") fail("metalUnprocessable", "description", "description must be a string");
  if (readOnly !== undefined && typeof readOnly !== "boolean") fail("metalUnprocessable", "read_only", "read_only must be a boolean");
  return { description: (description as string | undefined) ?? "", readOnly: (readOnly as boolean | undefined) ?? false };
}

function created(c: MetalContext, world: World, key: SimObject) {
  return c.json({ ...world.view(key), token: metaOf(key).token }, 201);
}

function listOf(c: MetalContext, world: World, keys: SimObject[]) {
  const search = c.req.query("search")?.toLowerCase();
  const matching = search ? keys.filter((k) => String(k.body.description ?? "").toLowerCase().includes(search)) : keys;
  return c.json({ api_keys: matching.map((k) => world.view(k)) });
}

const userKeysOf = (world: World, user: MetalUser) =>
  world.list(KIND).filter((k) => metaOf(k).scope === "user" && metaOf(k).owner === user.principal.userName);

const projectKeysOf = (world: World, projectId: string) =>
  world.list(KIND).filter((k) => metaOf(k).scope === "project" && metaOf(k).projectId === projectId);

/** A project the calling key reaches; others do not exist for it. */
function reachableProject(c: MetalContext, id: string): string {
  if (!c.get("principal").projectIds.includes(id)) fail("notFound", "id", `Project ${id} not found`);
  return id;
}

/** Whether the calling key may delete this key: its own user's keys, or keys of a project it reaches. */
function mayDelete(c: MetalContext, world: World, key: SimObject): boolean {
  const meta = metaOf(key);
  switch (meta.scope) {
    case "user": {
      const callerKey = world.get(c.get("principal").apiKeyId ?? "", KIND);
      return callerKey !== undefined && metaOf(callerKey).scope === "user" && metaOf(callerKey).owner === meta.owner;
    }
    case "project":
      return meta.projectId !== undefined && c.get("principal").projectIds.includes(meta.projectId);
    default: {
      const unreachable: never = meta.scope;
      return unreachable;
    }
  }
}

function deleteKey(c: MetalContext, world: World, id: string, scope?: KeyScope) {
  const key = world.get(id, KIND);
  if (!key || (scope && metaOf(key).scope !== scope) || !mayDelete(c, world, key)) return fail("notFound", "id", `API key ${id} not found`);
  world.remove(key);
  return c.body(null, 204);
}

function routes(app: SimApp, world: World): void {
  app.use("/metal/v1/*", tokenAuth(world));

  app.post("/metal/v1/user/api-keys", async (c) => {
    const user = callingUser(c, world);
    const input = await readKeyInput(c);
    const key = createKey(world, { token: newToken(world), scope: "user", owner: user.principal.userName }, input.description, input.readOnly);
    return created(c, world, key);
  });
  app.get("/metal/v1/user/api-keys", (c) => listOf(c, world, userKeysOf(world, callingUser(c, world))));
  app.delete("/metal/v1/user/api-keys/:id", (c) => deleteKey(c, world, c.req.param("id"), "user"));

  // The specification's forms: {id} names the caller's user when listing and the key when deleting.
  app.get("/metal/v1/user/:id/api-keys", (c) => {
    const user = callingUser(c, world);
    const id = c.req.param("id");
    if (id !== user.id) return fail("notFound", "id", `User ${id} not found`);
    return listOf(c, world, userKeysOf(world, user));
  });
  app.delete("/metal/v1/user/:id/api-keys", (c) => deleteKey(c, world, c.req.param("id"), "user"));

  app.get("/metal/v1/projects/:id/api-keys", (c) => listOf(c, world, projectKeysOf(world, reachableProject(c, c.req.param("id")))));
  app.post("/metal/v1/projects/:id/api-keys", async (c) => {
    const projectId = reachableProject(c, c.req.param("id"));
    const input = await readKeyInput(c);
    const owner = c.get("principal").userName;
    const key = createKey(world, { token: newToken(world), scope: "project", owner, projectId }, input.description, input.readOnly);
    return created(c, world, key);
  });

  app.delete("/metal/v1/api-keys/:id", (c) => deleteKey(c, world, c.req.param("id")));
}

function seed(world: World): void {
  for (const k of SEEDED_KEYS) createKey(world, { token: k.token, scope: "user", owner: k.owner }, k.description, false);
}

export const metalApiKeysArea: Area = { name: "metal-api-keys", seed, routes };
