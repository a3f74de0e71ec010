import { describe, expect, it } from "vitest";
import { ACCOUNTS, PROJECTS } from "../../src/simulator/index.js";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

/** An OpenSSH-shaped public key: the algorithm, then a blob that starts with the length-prefixed algorithm. */
function sshKey(algorithm: "ssh-rsa" | "ssh-dss", comment = "me@example.com"): string {
  const name = Buffer.from(algorithm, "latin1");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  const blob = Buffer.concat([length, name, Buffer.from("0123456789abcdef0123456789abcdef")]);
  return `${algorithm} ${blob.toString("base64")} ${comment}`;
}

async function createKey(body: Record<string, unknown>, client: "demo" | "limited" = "demo"): Promise<string> {
  const res = await t.call("POST", "/ne/v1/publicKeys", { body, client });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const location = res.headers.get("location")!;
  expect(location).toMatch(/^\/ne\/v1\/publicKeys\/[0-9a-f-]{36}$/);
  return location.split("/").pop()!;
}

describe("POST /ne/v1/publicKeys", () => {
  it("creates an RSA key by default and returns its id in Location", async () => {
    const res = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "laptop", keyValue: sshKey("ssh-rsa") } });
    expect(res.status).toBe(201);
    expect(res.text).toBe("");
    const uuid = res.headers.get("location")!.split("/").pop();
    const keys = (await t.call("GET", "/ne/v1/publicKeys")).body;
    expect(keys).toContainEqual({ uuid, keyName: "laptop", keyValue: sshKey("ssh-rsa"), keyType: "RSA" });
  });

  it("creates a DSA key when asked and checks the value matches the type", async () => {
    await createKey({ keyName: "old", keyValue: sshKey("ssh-dss"), keyType: "DSA" });
    const mismatch = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue: sshKey("ssh-rsa"), keyType: "DSA" } });
    expect(mismatch.body).toMatchObject({ errorCode: "EQ-2010010", property: "keyValue", status: "400" });
    const dssAsRsa = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue: sshKey("ssh-dss") } });
    expect(dssAsRsa.body.property).toBe("keyValue");
  });

  it("refuses values that are not SSH public keys", async () => {
    const forged = `ssh-rsa ${Buffer.from("not a key blob at all, really").toString("base64")}`;
    for (const keyValue of ["hello", "ssh-rsa", "ssh-rsa !!!notbase64", forged, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB"]) {
      const res = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue } });
      expect(res.body, keyValue).toMatchObject({ errorCode: "EQ-2010010", property: "keyValue" });
    }
  });

  it("names missing and mistyped fields", async () => {
    expect((await t.call("POST", "/ne/v1/publicKeys", { body: { keyValue: sshKey("ssh-rsa") } })).body).toMatchObject({ errorCode: "EQ-2012011", property: "keyName" });
    expect((await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x" } })).body).toMatchObject({ errorCode: "EQ-2012011", property: "keyValue" });
    expect((await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue: sshKey("ssh-rsa"), keyType: "ED25519" } })).body).toMatchObject({ errorCode: "EQ-2012025", property: "keyType" });
    expect((await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: 3, keyValue: sshKey("ssh-rsa") } })).body).toMatchObject({ errorCode: "EQ-2010010", property: "keyName" });
    expect((await t.call("POST", "/ne/v1/publicKeys", { raw: "[", contentType: "application/json" })).status).toBe(400);
    expect((await t.call("POST", "/ne/v1/publicKeys", { raw: "x", contentType: "text/plain" })).status).toBe(415);
  });

  it("hides a key created under a project the caller cannot access", async () => {
    const hidden = await createKey({ keyName: "prod-only", keyValue: sshKey("ssh-rsa"), projectId: PROJECTS.production.projectId }, "limited");
    const limited = (await t.call("GET", "/ne/v1/publicKeys", { client: "limited" })).body;
    expect(limited.map((k: { uuid: string }) => k.uuid)).not.toContain(hidden);
    const demo = (await t.call("GET", "/ne/v1/publicKeys")).body;
    expect(demo.map((k: { uuid: string }) => k.uuid)).toContain(hidden);
    const own = await createKey({ keyName: "sandbox", keyValue: sshKey("ssh-rsa") }, "limited");
    expect((await t.call("GET", "/ne/v1/publicKeys", { client: "limited" })).body.map((k: { uuid: string }) => k.uuid)).toEqual([own]);
    const unknown = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue: sshKey("ssh-rsa"), projectId: "no-such-project" } });
    expect(unknown.body).toMatchObject({ errorCode: "EQ-2012010", property: "projectId" });
  });
});

describe("GET /ne/v1/publicKeys", () => {
  it("lists the seeded key and filters by keyType and accountUcmId", async () => {
    const seeded = (await t.call("GET", "/ne/v1/publicKeys")).body;
    expect(seeded).toEqual([expect.objectContaining({ keyName: "demo-key", keyType: "RSA" })]);
    const dsa = await createKey({ keyName: "dsa", keyValue: sshKey("ssh-dss"), keyType: "DSA" });
    const customer = await createKey({ keyName: "customer", keyValue: sshKey("ssh-rsa"), accountUcmId: ACCOUNTS.lab.ucmId });
    expect((await t.call("GET", "/ne/v1/publicKeys?keyType=DSA")).body.map((k: { uuid: string }) => k.uuid)).toEqual([dsa]);
    expect((await t.call("GET", `/ne/v1/publicKeys?accountUcmId=${ACCOUNTS.lab.ucmId}`)).body.map((k: { uuid: string }) => k.uuid)).toEqual([customer]);
  });

  it("refuses unknown key types, accounts and parameters", async () => {
    expect((await t.call("GET", "/ne/v1/publicKeys?keyType=ECDSA")).body).toMatchObject({ errorCode: "EQ-2012025", property: "keyType" });
    expect((await t.call("GET", `/ne/v1/publicKeys?accountUcmId=${ACCOUNTS.main.ucmId}`, { client: "limited" })).body).toMatchObject({ errorCode: "EQ-2012010", property: "accountUcmId" });
    expect((await t.call("GET", "/ne/v1/publicKeys?name=x")).body).toMatchObject({ errorCode: "EQ-2014010", property: "name" });
    const badAccount = await t.call("POST", "/ne/v1/publicKeys", { body: { keyName: "x", keyValue: sshKey("ssh-rsa"), accountUcmId: "nobody" } });
    expect(badAccount.body).toMatchObject({ errorCode: "EQ-2012010", property: "accountUcmId" });
  });
});

function expectProblem(res: { status: number; body: unknown }, status: number, code: string, property: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ errorCode: code, property, status: String(status) });
}

describe("GET and DELETE /ne/v1/publicKeys/{uuid}", () => {
  it("reads one key as the list does, and deletes it", async () => {
    const uuid = await createKey({ keyName: "ops", keyValue: sshKey("ssh-rsa") });
    const read = await t.call("GET", `/ne/v1/publicKeys/${uuid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ uuid, keyName: "ops", keyValue: sshKey("ssh-rsa"), keyType: "RSA" });
    const deleted = await t.call("DELETE", `/ne/v1/publicKeys/${uuid}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await t.call("GET", "/ne/v1/publicKeys")).body.map((k: { uuid: string }) => k.uuid)).not.toContain(uuid);
    // Gone: 404, with the code the Terraform provider reads as "no such key".
    expectProblem(await t.call("GET", `/ne/v1/publicKeys/${uuid}`), 404, "EQ-4010206", "uuid");
    expectProblem(await t.call("DELETE", `/ne/v1/publicKeys/${uuid}`), 404, "EQ-4010206", "uuid");
  });

  it("hides keys of projects the caller cannot see", async () => {
    const uuid = await createKey({ keyName: "ops", keyValue: sshKey("ssh-rsa") });
    expectProblem(await t.call("GET", `/ne/v1/publicKeys/${uuid}`, { client: "limited" }), 404, "EQ-4010206", "uuid");
    expectProblem(await t.call("DELETE", `/ne/v1/publicKeys/${uuid}`, { client: "limited" }), 404, "EQ-4010206", "uuid");
    expect((await t.call("GET", `/ne/v1/publicKeys/${uuid}`)).status).toBe(200);
  });
});
