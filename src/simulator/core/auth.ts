// OAuth2 client credentials (`POST /oauth2/v1/token`) and bearer-token checks for every API call.
// The seeded clients are fixed (SIMULATOR.md) so that the embedded simulator needs no setup.

import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { SimError, fail } from "./errors.js";
import type { Permission, Principal, SimApp, SimEnv } from "./context.js";
import { readJson } from "./http.js";
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
  principal: Omit<Principal, "clientId">;
}

export const CLIENTS: Record<string, ClientDef> = {
  "demo-client": {
    secret: "demo-secret",
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

export class TokenStore {
  private tokens = new Map<string, { principal: Principal; expires: number }>();

  constructor(private readonly ttlSeconds: number) {}

  issue(principal: Principal): { token: string; ttl: number } {
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, { principal, expires: Date.now() + this.ttlSeconds * 1000 });
    return { token, ttl: this.ttlSeconds };
  }

  resolve(token: string): Principal | "expired" | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.tokens.delete(token);
      return "expired";
    }
    return entry.principal;
  }
}

async function readTokenRequest(c: Parameters<MiddlewareHandler<SimEnv>>[0]): Promise<JsonObject> {
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await c.req.text())) as JsonObject;
  }
  const body: Json = await readJson(c);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return fail("invalidClient", "body", "the request body must be an object");
  return body;
}

export function tokenRoutes(app: SimApp, tokens: TokenStore): void {
  app.post("/oauth2/v1/token", async (c) => {
    const body = await readTokenRequest(c);
    const grant = body.grant_type ?? "password";
    if (grant !== "client_credentials") fail("unsupportedGrant", "grant_type", `grant_type ${String(grant)} is not supported; use client_credentials`);
    const id = body.client_id;
    const secret = body.client_secret;
    if (typeof id !== "string" || typeof secret !== "string") return fail("invalidClient", "client_id", "client_id and client_secret are required");
    const client = CLIENTS[id];
    if (!client || client.secret !== secret) return fail("invalidClient", "client_id", "unknown client or wrong secret");
    const { token, ttl } = tokens.issue({ clientId: id, ...client.principal });
    return c.json({ access_token: token, token_timeout: String(ttl), token_type: "Bearer", user_name: client.principal.userName });
  });
}

/** Requires a valid bearer token; sets the caller as `principal`. */
export function bearerAuth(tokens: TokenStore): MiddlewareHandler<SimEnv> {
  return async (c, next) => {
    const key = c.req.path.startsWith("/fabric/v4/metros") ? "metrosUnauthorized" : "unauthorized";
    const refuse = (reason: string) => new SimError(key, [{ property: "Authorization", reason }]);
    const header = c.req.header("authorization") ?? "";
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
