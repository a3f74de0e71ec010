import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();
const DEMO = "demo-metal-key";
const LIMITED = "limited-metal-key";

const as = (token: string, body?: unknown) => ({ headers: { "x-auth-token": token }, ...(body === undefined ? {} : { body }) });

async function createUserKey(token: string, body: unknown = { description: "ci key", read_only: false }) {
  const res = await t.call("POST", "/metal/v1/user/api-keys", as(token, body));
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string; read_only: boolean; user: { id: string } };
}

async function createProjectKey(token: string, projectId: string, readOnly = false) {
  const res = await t.call("POST", `/metal/v1/projects/${projectId}/api-keys`, as(token, { description: "project key", read_only: readOnly }));
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string; project: { id: string } };
}

describe("X-Auth-Token authentication", () => {
  it("answers 401 in the bare-metal error shape without a token or with an unknown one", async () => {
    const none = await t.call("GET", "/metal/v1/user/api-keys");
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ errors: [expect.stringMatching(/X-Auth-Token/)] });
    const unknown = await t.call("GET", "/metal/v1/user/api-keys", as("not-a-key"));
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors).toEqual(["Invalid authentication token"]);
  });

  it("does not take bearer tokens", async () => {
    const res = await t.call("GET", "/metal/v1/user/api-keys", { headers: { authorization: `Bearer ${await t.token()}` } });
    expect(res.status).toBe(401);
  });

  it("lets read-only keys read and refuses their writes with 403", async () => {
    const readOnly = await createUserKey(DEMO, { description: "auditor", read_only: true });
    expect(readOnly.read_only).toBe(true);
    expect((await t.call("GET", "/metal/v1/user/api-keys", as(readOnly.token))).status).toBe(200);
    const write = await t.call("POST", "/metal/v1/user/api-keys", as(readOnly.token, { description: "escalate" }));
    expect(write.status).toBe(403);
    expect(write.body.errors[0]).toMatch(/read-only/);
    expect((await t.call("DELETE", `/metal/v1/api-keys/${readOnly.id}`, as(readOnly.token))).status).toBe(403);
    const project = await t.call("POST", `/metal/v1/projects/${PROJECTS.production.projectId}/api-keys`, as(readOnly.token, {}));
    expect(project.status).toBe(403);
  });
});

describe("user API keys", () => {
  it("lists the seeded key without its token", async () => {
    const res = await t.call("GET", "/metal/v1/user/api-keys", as(DEMO));
    expect(res.status).toBe(200);
    expect(res.body.api_keys).toHaveLength(1);
    expect(res.body.api_keys[0]).toMatchObject({ read_only: false, user: { id: expect.any(String) } });
    expect(res.body.api_keys[0]).not.toHaveProperty("token");
    expect(res.body.api_keys[0]).not.toHaveProperty("project");
  });

  it("creates a key whose token is shown once and works at once", async () => {
    const key = await createUserKey(DEMO, { description: "terraform" });
    expect(key).toMatchObject({ description: "terraform", read_only: false, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(key.token).toMatch(/^[0-9a-f]{32}$/);
    const list = await t.call("GET", "/metal/v1/user/api-keys", as(key.token));
    const listed = list.body.api_keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ description: "terraform" });
    expect(listed).not.toHaveProperty("token");
  });

  it("filters the list by description", async () => {
    await createUserKey(DEMO, { description: "Nightly Backup" });
    const res = await t.call("GET", "/metal/v1/user/api-keys?search=backup", as(DEMO));
    expect(res.body.api_keys.map((k: { description: string }) => k.description)).toEqual(["Nightly Backup"]);
  });

  it("refuses bodies it cannot use with 422", async () => {
    const readOnly = await t.call("POST", "/metal/v1/user/api-keys", as(DEMO, { read_only: "yes" }));
    expect(readOnly.status).toBe(422);
    expect(readOnly.body.errors[0]).toMatch(/read_only/);
    const description = await t.call("POST", "/metal/v1/user/api-keys", as(DEMO, { description: 7 }));
    expect(description.status).toBe(422);
    const malformed = await t.call("POST", "/metal/v1/user/api-keys", { ...as(DEMO), raw: "{oops", contentType: "application/json" });
    expect(malformed.status).toBe(422);
    const notObject = await t.call("POST", "/metal/v1/user/api-keys", as(DEMO, [1, 2]));
    expect(notObject.status).toBe(422);
  });

  it("lists through the specification's /user/{id}/api-keys form for the caller only", async () => {
    const key = await createUserKey(DEMO);
    const own = await t.call("GET", `/metal/v1/user/${key.user.id}/api-keys`, as(DEMO));
    expect(own.status).toBe(200);
    expect(own.body.api_keys).toHaveLength(2);
    const limitedUser = (await t.call("GET", "/metal/v1/user/api-keys", as(LIMITED))).body.api_keys[0].user.id;
    expect(limitedUser).not.toBe(key.user.id);
    const other = await t.call("GET", `/metal/v1/user/${limitedUser}/api-keys`, as(DEMO));
    expect(other.status).toBe(404);
  });

  it("deletes a key through each delete path; its token stops working", async () => {
    for (const path of ["/metal/v1/user/api-keys/{id}", "/metal/v1/user/{id}/api-keys", "/metal/v1/api-keys/{id}"]) {
      const key = await createUserKey(DEMO);
      const url = path.replace("{id}", key.id);
      expect((await t.call("DELETE", url, as(DEMO))).status).toBe(204);
      expect((await t.call("GET", "/metal/v1/user/api-keys", as(key.token))).status).toBe(401);
      expect((await t.call("DELETE", url, as(DEMO))).status).toBe(404);
    }
  });

  it("lets a key delete itself", async () => {
    const key = await createUserKey(DEMO);
    expect((await t.call("DELETE", `/metal/v1/user/api-keys/${key.id}`, as(key.token))).status).toBe(204);
    expect((await t.call("GET", "/metal/v1/user/api-keys", as(key.token))).status).toBe(401);
  });

  it("manages only the caller's own keys: another user's key is not found", async () => {
    const demoKey = await createUserKey(DEMO);
    for (const path of [`/metal/v1/user/api-keys/${demoKey.id}`, `/metal/v1/user/${demoKey.id}/api-keys`, `/metal/v1/api-keys/${demoKey.id}`]) {
      const res = await t.call("DELETE", path, as(LIMITED));
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatch(/not found/);
    }
    expect((await t.call("GET", "/metal/v1/user/api-keys", as(demoKey.token))).status).toBe(200);
    const limitedList = await t.call("GET", "/metal/v1/user/api-keys", as(LIMITED));
    expect(limitedList.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(demoKey.id);
  });
});

describe("project API keys", () => {
  const production = PROJECTS.production.projectId;
  const sandbox = PROJECTS.sandbox.projectId;

  it("creates and lists keys of a project the user reaches", async () => {
    const key = await createProjectKey(DEMO, production);
    expect(key.project.id).toBe(production);
    expect(key).not.toHaveProperty("user");
    expect(key.token).toMatch(/^[0-9a-f]{32}$/);
    const list = await t.call("GET", `/metal/v1/projects/${production}/api-keys`, as(DEMO));
    expect(list.status).toBe(200);
    expect(list.body.api_keys).toEqual([expect.objectContaining({ id: key.id, project: expect.objectContaining({ id: production }) })]);
    expect(list.body.api_keys[0]).not.toHaveProperty("token");
    expect((await t.call("GET", `/metal/v1/projects/${sandbox}/api-keys`, as(DEMO))).body.api_keys).toEqual([]);
  });

  it("answers 404 for projects the caller does not reach", async () => {
    expect((await t.call("GET", `/metal/v1/projects/${production}/api-keys`, as(LIMITED))).status).toBe(404);
    expect((await t.call("POST", `/metal/v1/projects/${production}/api-keys`, as(LIMITED, {}))).status).toBe(404);
    expect((await t.call("GET", `/metal/v1/projects/${sandbox}/api-keys`, as(LIMITED))).status).toBe(200);
    expect((await t.call("GET", "/metal/v1/projects/00000000-0000-4000-8000-000000000000/api-keys", as(DEMO))).status).toBe(404);
  });

  it("works only inside its project", async () => {
    const key = await createProjectKey(DEMO, production);
    expect((await t.call("GET", `/metal/v1/projects/${production}/api-keys`, as(key.token))).status).toBe(200);
    expect((await t.call("GET", `/metal/v1/projects/${sandbox}/api-keys`, as(key.token))).status).toBe(404);
    const user = await t.call("GET", "/metal/v1/user/api-keys", as(key.token));
    expect(user.status).toBe(401);
    expect(user.body.errors[0]).toMatch(/project API key/);
    expect((await t.call("POST", "/metal/v1/user/api-keys", as(key.token, {}))).status).toBe(401);
  });

  it("cannot remove a user's key at project level", async () => {
    const projectKey = await createProjectKey(DEMO, production);
    const userKeyId = (await t.call("GET", "/metal/v1/user/api-keys", as(DEMO))).body.api_keys[0].id;
    expect((await t.call("DELETE", `/metal/v1/api-keys/${userKeyId}`, as(projectKey.token))).status).toBe(404);
    expect((await t.call("GET", "/metal/v1/user/api-keys", as(DEMO))).status).toBe(200);
  });

  it("is deleted by a key that reaches its project, and not by others", async () => {
    const key = await createProjectKey(DEMO, production);
    expect((await t.call("DELETE", `/metal/v1/api-keys/${key.id}`, as(LIMITED))).status).toBe(404);
    expect((await t.call("DELETE", `/metal/v1/user/api-keys/${key.id}`, as(DEMO))).status).toBe(404);
    expect((await t.call("DELETE", `/metal/v1/api-keys/${key.id}`, as(DEMO))).status).toBe(204);
    expect((await t.call("GET", `/metal/v1/projects/${production}/api-keys`, as(key.token))).status).toBe(401);
  });

  it("shows keys to the control API without their tokens", async () => {
    await createProjectKey(DEMO, sandbox);
    const keys = (await t.call("GET", "/__sim/objects?kind=apiKeys")).body.data;
    expect(keys.length).toBe(3);
    for (const key of keys) expect(key).not.toHaveProperty("token");
  });
});
