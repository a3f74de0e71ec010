// OAuth2 tokens (`POST /oauth2/v1/token`, `POST /oauth2/v1/refreshaccesstoken`) and bearer-token checks
// for every API call. The seeded clients and their users are fixed (SIMULATOR.md) so that the embedded
// simulator needs no setup. As the official description has it, the client credentials grant gives an
// access token only; the password grant (a client's user signing in through it) also gives a refresh
// token, which buys new access tokens until it expires.

import { createHash, randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { SimError, fail, type ErrorKey } from "./errors.js";
import { requestHeader, type Permission, type Principal, type SimApp, type SimEnv } from "./context.js";
import { readJson } from "./http.js";
import { readBodyText } from "./body.js";
import type { Json, JsonObject } from "./world.js";

export const ORG_ID = "216504";
export const PROJECTS = {
  production: { projectId: "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01", name: "production" },
  sandbox: { projectId: "9d8e7f60-1b2c-4d3e-8f4a-5b6c7d8e9f02", name: "sandbox" },
} as const;
export const ACCOUNTS = {
  main: { accountNumber: 270848, accountName: "Example Networks Inc", ucmId: "A1B2C3D4-0001" },
  lab: { accountNumber: 270849, accountName: "Example Networks Lab", ucmId: "A1B2C3D4-0002" },
} as const;

interface ClientDef {
  secret: string;
  /** The password of the client's user (`principal.userName`), for the password grant. */
  userPassword: string;
  principal: Omit<Principal, "clientId">;
}

export const CLIENTS: Record<string, ClientDef> = {
  "demo-client": {
    secret: "demo-secret",
    userPassword: "demo-password",
    principal: {
      userName: "demo-user",
      fullName: "Demo User",
      email: "demo.user@example.com",
      orgId: ORG_ID,
      projectIds: [PROJECTS.production.projectId, PROJECTS.sandbox.projectId],
      accountNumbers: [ACCOUNTS.main.accountNumber, ACCOUNTS.lab.accountNumber],
      permissions: ["IBX_SERVICES_NOTIFICATIONS"],
    },
  },
  "limited-client": {
    secret: "limited-secret",
    userPassword: "limited-password",
    principal: {
      userName: "limited-user",
      fullName: "Limited User",
      email: "limited.user@example.com",
      orgId: ORG_ID,
      projectIds: [PROJECTS.sandbox.projectId],
      accountNumbers: [ACCOUNTS.lab.accountNumber],
      permissions: [] as Permission[],
    },
  },
};

/** Default token lifetime of the official description: 3599 seconds. */
export const DEFAULT_TOKEN_TTL_S = 3599;
/** Default refresh token lifetime of the official description: 5182560 seconds (60 days). */
export const DEFAULT_REFRESH_TOKEN_TTL_S = 5182560;

interface Grant {
  principal: Principal;
  expires: number;
}

export class TokenStore {
  private tokens = new Map<string, Grant>();
  private refreshTokens = new Map<string, Grant>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly refreshTtlSeconds: number,
  ) {}

  issue(principal: Principal): { token: string; ttl: number } {
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, { principal, expires: Date.now() + this.ttlSeconds * 1000 });
    return { token, ttl: this.ttlSeconds };
  }

  issueRefresh(principal: Principal): { refreshToken: string; ttl: number } {
    const refreshToken = randomBytes(32).toString("base64url");
    this.refreshTokens.set(refreshToken, { principal, expires: Date.now() + this.refreshTtlSeconds * 1000 });
    return { refreshToken, ttl: this.refreshTtlSeconds };
  }

  resolve(token: string): Principal | "expired" | undefined {
    const grant = live(this.tokens, token);
    return grant === "expired" ? grant : grant?.principal;
  }

  /** The grant a refresh token stands for, with the seconds it has left. */
  resolveRefresh(refreshToken: string): { principal: Principal; ttl: number } | "expired" | undefined {
    const grant = live(this.refreshTokens, refreshToken);
    if (grant === undefined || grant === "expired") return grant;
    return { principal: grant.principal, ttl: Math.floor((grant.expires - Date.now()) / 1000) };
  }
}

function live(grants: Map<string, Grant>, token: string): Grant | "expired" | undefined {
  const grant = grants.get(token);
  if (!grant) return undefined;
  if (grant.expires <= Date.now()) {
    grants.delete(token);
    return "expired";
  }
  return grant;
}

async function readTokenRequest(c: Parameters<MiddlewareHandler<SimEnv>>[0]): Promise<JsonObject> {
  const type = requestHeader(c, "content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await readBodyText(c))) as JsonObject;
  }
  const body: Json = await readJson(c);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return fail("invalidClient", "body", "the request body must be an object");
  return body;
}

/** The client that `client_id` and `client_secret` name; refused with `refusal` otherwise. */
function authenticateClient(body: JsonObject, refusal: ErrorKey): { id: string; client: ClientDef } {
  const id = body.client_id;
  const secret = body.client_secret;
  if (typeof id !== "string" || typeof secret !== "string") return fail(refusal, "client_id", "client_id and client_secret are required");
  const client = CLIENTS[id];
  if (!client || client.secret !== secret) return fail(refusal, "client_id", "unknown client or wrong secret");
  return { id, client };
}

/** The password grant signs in the client's own user; `password_encoding: md5-b64` sends the password hashed. */
function authenticateUser(body: JsonObject, client: ClientDef): void {
  const { user_name: userName, user_password: password, password_encoding: encoding } = body;
  if (typeof userName !== "string" || typeof password !== "string") fail("invalidUserCredentials", "user_name", "the password grant needs user_name and user_password");
  const expected = encoding === "md5-b64" ? createHash("md5").update(client.userPassword).digest("base64") : client.userPassword;
  if (userName !== client.principal.userName || password !== expected) fail("invalidUserCredentials", "user_name", "unknown user, wrong password, or a user other than the client's");
}

export function tokenRoutes(app: SimApp, tokens: TokenStore): void {
  app.post("/oauth2/v1/token", async (c) => {
    const body = await readTokenRequest(c);
    // The description's default grant is the (deprecated) password grant.
    const grant = body.grant_type ?? "password";
    if (grant !== "client_credentials" && grant !== "password") {
      fail("unsupportedGrant", "grant_type", `grant_type ${String(grant)} is not supported; use client_credentials or password`);
    }
    const { id, client } = authenticateClient(body, grant === "password" ? "invalidUserCredentials" : "invalidClient");
    if (grant === "password") authenticateUser(body, client);
    const principal = { clientId: id, ...client.principal };
    const { token, ttl } = tokens.issue(principal);
    const granted = { access_token: token, token_timeout: String(ttl), token_type: "Bearer", user_name: principal.userName };
    if (grant === "client_credentials") return c.json(granted);
    const { refreshToken, ttl: refreshTtl } = tokens.issueRefresh(principal);
    return c.json({ ...granted, refresh_token: refreshToken, refresh_token_timeout: String(refreshTtl) });
  });

  app.post("/oauth2/v1/refreshaccesstoken", async (c) => {
    const body = await readTokenRequest(c);
    const { id } = authenticateClient(body, "invalidRefreshToken");
    const refreshToken = body.refresh_token;
    if (typeof refreshToken !== "string") return fail("invalidRefreshToken", "refresh_token", "refresh_token is required");
    const grant = tokens.resolveRefresh(refreshToken);
    if (grant === "expired") return fail("invalidRefreshToken", "refresh_token", "the refresh token has expired; request a new access token with the password grant");
    if (!grant || grant.principal.clientId !== id) return fail("invalidRefreshToken", "refresh_token", "unknown refresh token, or one issued to another client");
    const { token, ttl } = tokens.issue(grant.principal);
    return c.json({
      access_token: token,
      token_timeout: String(ttl),
      token_type: "Bearer",
      user_name: grant.principal.userName,
      refresh_token: refreshToken,
      refresh_token_timeout: String(grant.ttl),
    });
  });
}

/** Requires a valid bearer token; sets the caller as `principal`. */
export function bearerAuth(tokens: TokenStore): MiddlewareHandler<SimEnv> {
  return async (c, next) => {
    const key = c.req.path.startsWith("/fabric/v4/metros") ? "metrosUnauthorized" : "unauthorized";
    const refuse = (reason: string) => new SimError(key, [{ property: "Authorization", reason }]);
    const header = requestHeader(c, "authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw refuse(header ? "Invalid Authorization header format" : "Missing Authorization header");
    const principal = tokens.resolve(match[1]!);
    if (principal === "expired") throw refuse("the access token has expired; request a new one");
    if (!principal) throw refuse("Invalid or unknown access token");
    c.set("principal", principal);
    await next();
  };
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.includes(permission)) {
    throw new SimError("forbidden", [{ property: "permission", reason: `Insufficient permissions: ${permission} is required; ask your master administrator to grant it` }], {}, "Insufficient permissions");
  }
}
