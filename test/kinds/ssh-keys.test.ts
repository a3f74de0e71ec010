import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import { sshKeys as definition } from "../../src/kinds/ssh-keys.js";
import type { KindContext } from "../../src/kinds/types.js";
import { useSimulator } from "../support/sim.js";
import { differences, useKindContext, withRequests } from "./kind-harness.js";

const kind = definition.handler;
const t = useSimulator();
const kindCtx = useKindContext(t);

const KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC5kHcagDZ7utPan4DHWUvoJxwz/DISRFwZdpMhslhZRI+6dGOC8mJn42SlSUAUtkt8Qyl4HipPK7Xh6oGj70Iba1a9pDcURYTYcqWFBEhcdDsMnH1CICmvVdsILehFtiS3X0J1JhwmWQI/7ll3QOk8fLgWCz3idlYJqtMs8Gz/6Q== ops@example.com";
const spec = (keyName = "ops") => definition.spec.parse({ keyName, keyValue: KEY, keyType: "RSA" }) as Record<string, unknown>;

describe("sshKeys kind", () => {
  it("reads one key by its own GET and many through the list", async () => {
    const ctx = kindCtx.ctx;
    const first = await kind.create(ctx, spec("ops"));
    const second = await kind.create(ctx, spec("ops-2"));
    const one = await withRequests(t, () => kind.observeMany!(ctx, [{ id: first.id }]));
    expect(one.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /ne/v1/publicKeys/${first.id}`]);
    expect(differences(kind, spec("ops"), one.result.get(first.id)!)).toEqual([]);
    const many = await withRequests(t, () => kind.observeMany!(ctx, [{ id: first.id }, { id: second.id }]));
    expect(many.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /ne/v1/publicKeys"]);
    expect([...many.result.keys()].sort()).toEqual([first.id, second.id].sort());
  });

  it("deletes the key on the service, and a key already gone is deleted", async () => {
    const ctx = kindCtx.ctx;
    expect(kind.keptByService).toBeUndefined();
    const made = await kind.create(ctx, spec());
    const { requests } = await withRequests(t, () => kind.delete(ctx, { id: made.id }));
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`DELETE /ne/v1/publicKeys/${made.id} 204`]);
    expect(await kind.observe(ctx, { id: made.id })).toBeUndefined();
    expect((await t.call("GET", "/ne/v1/publicKeys")).body.map((k: { uuid: string }) => k.uuid)).not.toContain(made.id);
    await kind.delete(ctx, { id: made.id });
  });

  it("reads the Terraform provider's code for a key that is not there as gone, whatever its status", async () => {
    const refused = (status: number, errorCode: string) =>
      new ApiError({ status, method: "DELETE", path: "/ne/v1/publicKeys/x", body: { errorCode, errorMessage: "Invalid SSH public key identifier", property: "uuid", status: String(status) } });
    const failing = (e: Error) => ({ api: { call: () => Promise.reject(e) }, provider: {} }) as unknown as KindContext;
    await expect(kind.delete(failing(refused(400, "EQ-4010206")), { id: "x" })).resolves.toBeUndefined();
    await expect(kind.observe(failing(refused(400, "EQ-4010206")), { id: "x" })).resolves.toBeUndefined();
    await expect(kind.delete(failing(refused(400, "EQ-2010010")), { id: "x" })).rejects.toThrow(/EQ-2010010/);
  });
});
