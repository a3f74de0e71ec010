// The token endpoints of the official description (accesstokenv1): the client credentials grant gives an
// access token only; the password grant also gives a refresh token, which POST /oauth2/v1/refreshaccesstoken
// exchanges for new access tokens until it expires.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

const DEMO = { client_id: "demo-client", client_secret: "demo-secret" };
const DEMO_USER = { user_name: "demo-user", user_password: "demo-password" };

const token = (body: Record<string, unknown>) => t.call("POST", "/oauth2/v1/token", { client: "none", body });
const refresh = (body: Record<string, unknown>) => t.call("POST", "/oauth2/v1/refreshaccesstoken", { client: "none", body });
const metrosWith = (accessToken: string) => t.call("GET", "/fabric/v4/metros", { client: "none", headers: { authorization: `Bearer ${accessToken}` } });

describe("POST /oauth2/v1/token", () => {
  it("gives a refresh token, valid 60 days, to the password grant only", async () => {
    const password = await token({ grant_type: "password", ...DEMO, ...DEMO_USER });
    expect(password.status).toBe(200);
    expect(password.body).toMatchObject({ token_type: "Bearer", token_timeout: "3599", user_name: "demo-user", refresh_token_timeout: "5182560" });
    expect(password.body.refresh_token).toMatch(/^\S{20,}$/);
    expect((await metrosWith(password.body.access_token)).status).toBe(200);

    const clientCredentials = await token({ grant_type: "client_credentials", ...DEMO });
    expect(clientCredentials.status).toBe(200);
    expect(clientCredentials.body).not.toHaveProperty("refresh_token");
    expect(clientCredentials.body).not.toHaveProperty("refresh_token_timeout");
  });

  it("takes the password grant when no grant_type is given, as the description's default, and a password hashed md5-b64", async () => {
    const hashed = createHash("md5").update("demo-password").digest("base64");
    const res = await token({ ...DEMO, user_name: "demo-user", user_password: hashed, password_encoding: "md5-b64" });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeDefined();
    const withoutUser = await token(DEMO);
    expect(withoutUser.status).toBe(400);
    expect(withoutUser.body).toMatchObject({ error_code: "IC-AUTH-402", developer_message: "the password grant needs user_name and user_password" });
  });

  it("refuses a wrong password and a user other than the client's", async () => {
    for (const user of [{ ...DEMO_USER, user_password: "nope" }, { user_name: "limited-user", user_password: "limited-password" }]) {
      const res = await token({ grant_type: "password", ...DEMO, ...user });
      expect(res.status, user.user_name).toBe(400);
      expect(res.body).toMatchObject({
        error_code: "IC-AUTH-402",
        error_message: "Please enter a valid client id/client secret/username/password and try again.",
        developer_message: "unknown user, wrong password, or a user other than the client's",
      });
    }
  });
});

describe("POST /oauth2/v1/refreshaccesstoken", () => {
  it("exchanges a refresh token for a new access token of the same user, keeping the refresh token", async () => {
    const first = (await token({ grant_type: "password", ...DEMO, ...DEMO_USER })).body;
    const renewed = await refresh({ ...DEMO, refresh_token: first.refresh_token });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ token_type: "Bearer", token_timeout: "3599", user_name: "demo-user", refresh_token: first.refresh_token });
    expect(Number(renewed.body.refresh_token_timeout)).toBeGreaterThan(5182500);
    expect(renewed.body.access_token).not.toBe(first.access_token);
    expect((await metrosWith(renewed.body.access_token)).status).toBe(200);
  });

  it("refuses a missing or unknown refresh token, a wrong secret, and another client's refresh token", async () => {
    const demoRefresh = (await token({ grant_type: "password", ...DEMO, ...DEMO_USER })).body.refresh_token;
    const cases: Array<[Record<string, unknown>, string]> = [
      [DEMO, "refresh_token is required"],
      [{ ...DEMO, refresh_token: "not-a-refresh-token" }, "unknown refresh token, or one issued to another client"],
      [{ ...DEMO, client_secret: "nope", refresh_token: demoRefresh }, "unknown client or wrong secret"],
      [{ client_id: "limited-client", client_secret: "limited-secret", refresh_token: demoRefresh }, "unknown refresh token, or one issued to another client"],
    ];
    for (const [body, reason] of cases) {
      const res = await refresh(body);
      expect(res.status, reason).toBe(400);
      expect(res.body, reason).toMatchObject({ error_code: "IC-AUTH-403", error_message: "Please enter valid client id/client secret/refresh token and try again.", developer_message: reason });
    }
  });

  it("refuses an expired refresh token and says how to get a new one", async () => {
    const sim = createSimulator({ refreshTokenTtlSeconds: 0 });
    const post = (path: string, body: unknown) => sim.app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const granted = (await (await post("/oauth2/v1/token", { grant_type: "password", ...DEMO, ...DEMO_USER })).json()) as { refresh_token: string };
    const res = await post("/oauth2/v1/refreshaccesstoken", { ...DEMO, refresh_token: granted.refresh_token });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "IC-AUTH-403", developer_message: "the refresh token has expired; request a new access token with the password grant" });
  });
});
