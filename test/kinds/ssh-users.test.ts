import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../src/config/index.js";
import { KIND_CATALOG } from "../../src/kinds/index.js";
import { sshUsers as definition } from "../../src/kinds/ssh-users.js";
import type { Body, KindContext } from "../../src/kinds/types.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { differences, methodFor, ready, requestsDuring, useKindContext, withRequests } from "./kind-harness.js";

const kind = definition.handler;
const t = useSimulator();
const kindCtx = useKindContext(t);
const context = () => kindCtx.ctx;

const PASSWORD = "first-Pass1";

function valid(spec: Body): Body {
  definition.spec.parse(spec);
  return spec;
}

const userSpec = (deviceUuids: string[], fields: Body = {}): Body => valid({ username: "netops", password: PASSWORD, deviceUuids, ...fields });

/** The service's record of a user, read through the simulator's control API. */
const stored = (uuid: string) => t.sim.world.get(uuid, "sshUsers");

describe("sshUsers kind", () => {
  it("creates a user on every device, reads it back without a diff, and is ready once set up in each metro", async () => {
    const ctx = context();
    const [a, b] = [seedDevice(t), seedDevice(t, { metroCode: "SV" })];
    const spec = userSpec([b, a]);
    const { result: created, requests } = await withRequests(t, () => kind.create(ctx, spec));
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /ne/v1/sshUsers 201",
      `POST /ne/v1/sshUsers/${created.id}/devices/${[a, b].sort()[1]} 201`,
    ]);
    const body = await ready(kind, ctx, { id: created.id }, "create");
    expect(kind.stateOf(body)).toBe("ACTIVE");
    expect(differences(kind, spec, body)).toEqual([]);
    expect(stored(created.id)!.meta.password).toBe(PASSWORD);
    // The password is in no comparable form.
    expect(JSON.stringify([kind.desired(spec), kind.observed(body)])).not.toContain(PASSWORD);
  });

  it("changes the password by PUT and the devices by associating and dissociating them, in any order", async () => {
    const ctx = context();
    const [a, b, c] = [seedDevice(t), seedDevice(t), seedDevice(t)];
    const created = await kind.create(ctx, userSpec([a, b]));
    const ref = { id: created.id };
    await ready(kind, ctx, ref, "create");
    expect(methodFor(kind, "password")).toEqual({ via: "update" });
    expect(methodFor(kind, "deviceUuids")).toEqual({ via: "update" });
    expect(methodFor(kind, "username")).toBeUndefined();

    const moved = userSpec([c, b], { password: "second-Pass2" });
    const calls = await requestsDuring(t, () => kind.update(ctx, ref, moved, ["password", "deviceUuids"]));
    expect(calls.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PUT /ne/v1/sshUsers/${ref.id} 204`,
      `POST /ne/v1/sshUsers/${ref.id}/devices/${c} 201`,
      `DELETE /ne/v1/sshUsers/${ref.id}/devices/${a} 200`,
    ]);
    const body = await ready(kind, ctx, ref, "update");
    expect(differences(kind, userSpec([b, c]), body)).toEqual([]);
    expect(stored(ref.id)!.meta.password).toBe("second-Pass2");
  });

  it("deletes by dissociating every device, the last taking the user along, and a user already gone is deleted", async () => {
    const ctx = context();
    const [a, b] = [seedDevice(t), seedDevice(t)];
    const created = await kind.create(ctx, userSpec([a, b]));
    const calls = await requestsDuring(t, () => kind.delete(ctx, { id: created.id }));
    expect(calls.filter((r) => r.method === "DELETE").map((r) => r.path).sort()).toEqual([`/ne/v1/sshUsers/${created.id}/devices/${a}`, `/ne/v1/sshUsers/${created.id}/devices/${b}`].sort());
    expect(await kind.observe(ctx, { id: created.id })).toBeUndefined();
    expect((await t.call("GET", `/ne/v1/sshUsers/${created.id}`)).status).toBe(404);
    await kind.delete(ctx, { id: created.id });
  });

  it("reads one user by its GET and many through the list, leaving out the gone", async () => {
    const ctx = context();
    const device = seedDevice(t);
    const first = await kind.create(ctx, userSpec([device]));
    const second = await kind.create(ctx, userSpec([device], { username: "audit" }));
    const gone = "0a0a0a0a-0000-4000-8000-000000000000";
    const one = await withRequests(t, () => kind.observeMany!(ctx, [{ id: first.id }]));
    expect(one.requests.map((r) => r.path)).toEqual([`/ne/v1/sshUsers/${first.id}`]);
    const many = await withRequests(t, () => kind.observeMany!(ctx, [{ id: first.id }, { id: second.id }, { id: gone }]));
    expect([...many.result.keys()].sort()).toEqual([first.id, second.id].sort());
    expect(many.requests.map((r) => r.path)).toEqual(["/ne/v1/sshUsers"]);
  });

  it("finds what an interrupted create made by its exact username, never a user another address holds", async () => {
    const ctx = context();
    const device = seedDevice(t);
    const made = await kind.create(ctx, userSpec([device], { username: "netops_2" }));
    await kind.create(ctx, userSpec([device], { username: "netops" }));
    expect((await kind.lookup(ctx, userSpec([device], { username: "netops_2" })))?.id).toBe(made.id);
    expect(await kind.lookup(ctx, userSpec([device], { username: "netops_2" }), new Set([made.id]))).toBeUndefined();
    expect(await kind.lookup(ctx, userSpec([device], { username: "netops_3" }))).toBeUndefined();
  });
});

describe("sshUsers, reading the real service", () => {
  // Written in the shapes of equinix/ne-go's recorded answers (a user, a page of users), not copied.
  const recorded = { uuid: "u-1", username: "netops", deviceUuids: ["d-2", "d-1"], metroStatusMap: { SV: { status: "ACTIVE" } } };

  it("accepts deviceUuids and ne-go's deviceUUIDs, and no order", () => {
    const spec = { username: "netops", password: PASSWORD, deviceUuids: ["d-1", "d-2"] };
    expect(differences(kind, spec, recorded)).toEqual([]);
    const { deviceUuids, ...rest } = recorded;
    expect(differences(kind, spec, { ...rest, deviceUUIDs: deviceUuids })).toEqual([]);
    expect(differences(kind, { ...spec, deviceUuids: ["d-1"] }, recorded)).toEqual(["deviceUuids"]);
  });

  it("is ready when every metro is ACTIVE, waits on any other status, and fails on a failure", () => {
    expect(kind.readiness(recorded, "create")).toBe("ready");
    expect(kind.readiness({ ...recorded, metroStatusMap: { SV: { status: "ACTIVE" }, DC: { status: "PENDING" } } }, "update")).toBe("pending");
    expect(kind.readiness({ ...recorded, metroStatusMap: { SV: { status: "PROVISIONING" } } }, "create")).toBe("pending");
    expect(kind.readiness({ ...recorded, metroStatusMap: { SV: { status: "active" } } }, "create")).toBe("ready");
    expect(kind.readiness({ ...recorded, metroStatusMap: { DC: { status: "FAILED" } } }, "create")).toEqual({ failed: "the service could not set the user up in DC (FAILED)" });
    expect(kind.readiness({ uuid: "u-1", username: "netops", deviceUuids: ["d-1"] }, "create")).toBe("ready");
    expect(kind.stateOf({ ...recorded, metroStatusMap: { SV: { status: "ACTIVE" }, DC: { status: "PENDING" } } })).toBe("SV ACTIVE, DC PENDING");
  });

  it("reads a list answered as a page or as a bare array, page by page", async () => {
    const answers: unknown[] = [];
    const asked: unknown[] = [];
    const ctx = { api: { call: (_method: string, _path: string, opts: { query: unknown }) => (asked.push(opts.query), Promise.resolve(answers.shift())) }, provider: {} } as unknown as KindContext;
    const user = (n: number) => ({ uuid: `u-${n}`, username: `user${n}`, deviceUuids: ["d-1"], metroStatusMap: { DC: { status: "ACTIVE" } } });
    answers.push(
      { pagination: { offset: 0, limit: 100, total: 101 }, data: Array.from({ length: 100 }, (_, i) => user(i)) },
      { pagination: { offset: 100, limit: 100, total: 101 }, data: [user(100)] },
    );
    const paged = await kind.observeMany!(ctx, [{ id: "u-3" }, { id: "u-100" }, { id: "u-999" }]);
    expect([...paged.keys()]).toEqual(["u-3", "u-100"]);
    expect(asked).toEqual([
      { verbose: "true", offset: 0, limit: 100 },
      { verbose: "true", offset: 100, limit: 100 },
    ]);
    answers.push([user(1), { ...user(2), deviceUuids: [] }]);
    const bare = await kind.observeMany!(ctx, [{ id: "u-1" }, { id: "u-2" }]);
    // A user without devices is gone: the service deletes a user with its last device.
    expect([...bare.keys()]).toEqual(["u-1"]);
  });
});

describe("sshUsers configuration", () => {
  const load = (text: string) => buildConfiguration([{ file: "netform.yaml", text }], { kinds: KIND_CATALOG, env: { PW: "first-Pass1" } });
  const DEVICE = "0a0a0a0a-0000-4000-8000-000000000001";

  it("defaults the username to the resource name, masks the password and checks what the service checks", () => {
    const ok = load(`netform: 1\nsshUsers:\n  netops:\n    password: \${secret.PW}\n    deviceUuids: [${DEVICE}]\n`);
    expect(ok.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const resource = ok.config.resources.get("sshUsers.netops")!;
    expect(resource.spec.username).toBe("netops");
    expect(resource.secrets.holdsSecret("password")).toBe(true);

    const bad = load(`netform: 1\nsshUsers:\n  ops:\n    username: "net ops"\n    password: short\n    deviceUuids: []\n`);
    const messages = bad.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    expect(messages).toEqual(expect.arrayContaining(["username must be 3 to 32 letters, digits, dashes and underscores", "password must be 8 to 20 characters", "deviceUuids needs at least one device"]));
  });

  it("refuses two users of one name, and warns of a device order that makes a user of the same name", () => {
    const twice = load(`netform: 1\nsshUsers:\n  a:\n    username: netops\n    password: \${secret.PW}\n    deviceUuids: [${DEVICE}]\n  b:\n    username: netops\n    password: \${secret.PW}\n    deviceUuids: [${DEVICE}]\n`);
    expect(twice.diagnostics.filter((d) => d.code === "rule.ssh-username")).toEqual([expect.objectContaining({ severity: "error", address: "sshUsers.b", message: expect.stringContaining("already sshUsers.a's") })]);

    const device = `devices:\n  edge:\n    deviceTypeCode: C8000V\n    metroCode: DC\n    version: 17.11.01a\n    licenseMode: SUB\n    deviceManagementType: PROVIDER-CONFIGURED\n    core: 2\n    accountNumber: "270848"\n    notifications: [netops@example.com]\n    sshUsers: [{ sshUsername: netops, sshPassword: "\${secret.PW}" }]\n`;
    const user = `sshUsers:\n  netops:\n    password: \${secret.PW}\n    deviceUuids: ["\${devices.edge.uuid}"]\n`;
    const both = load(`netform: 1\n${device}${user}`);
    expect(both.diagnostics.filter((d) => d.code === "rule.ssh-username")).toEqual([
      expect.objectContaining({ severity: "warning", address: "sshUsers.netops", message: expect.stringContaining("devices.edge's sshUsers makes a user named netops too") }),
    ]);
    const adopted = load(`netform: 1\n${device}${user.replace("    password:", "    import: 0a0a0a0a-0000-4000-8000-0000000000ff\n    password:")}`);
    expect(adopted.diagnostics.filter((d) => d.code === "rule.ssh-username")).toEqual([]);
  });
});
