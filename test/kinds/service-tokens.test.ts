import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import { serviceTokens as definition } from "../../src/kinds/service-tokens.js";
import type { Body, ObjectRef } from "../../src/kinds/types.js";
import { seedDevice } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { DC_PRIMARY, DC_SECONDARY, PRODUCTION, changedPaths, colo, describeDifferences, expectNoDiff, replaceReasons, settle, useKindContext, withRequests } from "./fabric-kind-support.js";

const serviceTokens = definition.handler;
const t = useSimulator({ speed: 1000 });
const k = useKindContext(t);

const portSelector = (port: string, vlanTag: number) => ({ type: "COLO", port: { uuid: port }, linkProtocol: { type: "DOT1Q", vlanTag } });

/** A z-side token on the DC secondary port, as the engine hands it over: defaults applied. */
const spec = (overrides: Body = {}, connection: Body = {}): Body => ({
  type: "VC_TOKEN",
  name: "partner-in",
  description: "for the partner",
  expirationDateTime: "2099-06-30T00:00:00Z",
  connection: { type: "EVPL_VC", supportedBandwidths: [1000, 50], zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2500)] }, ...connection },
  project: { projectId: PRODUCTION },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function created(s: Body): Promise<ObjectRef> {
  const { id, body } = await serviceTokens.create(k.ctx, s);
  expect(serviceTokens.readiness(body, "create")).toBe("ready");
  return { id };
}

describe("serviceTokens handler", () => {
  it("creates, reads back without a diff, changes what the service allows with one PATCH, and deletes", async () => {
    const s = spec();
    const ref = await created(s);
    const body = await serviceTokens.observe(k.ctx, ref);
    expect(body).toMatchObject({ state: "INACTIVE", expirationDateTime: "2099-06-30T00:00:00.000Z" });
    expectNoDiff(serviceTokens, s, body);

    const changed = spec({ name: "partner-in-2", description: undefined, expirationDateTime: "2098-01-01T00:00:00Z", notifications: [{ type: "ALL", emails: ["ops@example.com"] }] }, { supportedBandwidths: [50, 100] });
    const paths = changedPaths(serviceTokens, s, changed);
    expect(paths.sort()).toEqual(["connection.supportedBandwidths", "description", "expirationDateTime", "name", "notifications"]);
    expect(replaceReasons(serviceTokens, paths)).toEqual([]);
    const { requests } = await withRequests(t, () => serviceTokens.update(k.ctx, ref, changed, paths));
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 200"]);
    const updated = await settle(serviceTokens, k.ctx, ref, "update");
    expect(updated.readiness).toBe("ready");
    expectNoDiff(serviceTokens, changed, updated.body);
    expect(updated.body?.description).toBe("");

    await serviceTokens.delete(k.ctx, ref);
    expect((await settle(serviceTokens, k.ctx, ref, "delete")).readiness).toBe("ready");
    await serviceTokens.delete(k.ctx, ref);
  });

  it("reads an unknown token (400 Token not found) as gone, and deletes it as done", async () => {
    const unknown = { id: "0f0f0f0f-0000-4000-8000-000000000000" };
    expect(await serviceTokens.observe(k.ctx, unknown)).toBeUndefined();
    await serviceTokens.delete(k.ctx, unknown);
  });

  it("refuses to delete a token a connection uses, saying which", async () => {
    const ref = await created(spec());
    const { body } = await t.call("POST", "/fabric/v4/connections", {
      body: { type: "EVPL_VC", name: "partner", bandwidth: 50, order: {}, aSide: colo(DC_PRIMARY, 2600), zSide: { serviceToken: { uuid: ref.id } }, notifications: [{ type: "ALL", emails: ["noc@example.com"] }], project: { projectId: PRODUCTION } },
    });
    expect((await serviceTokens.observe(k.ctx, ref))?.state).toBe("ACTIVE");
    const refused = await serviceTokens.delete(k.ctx, ref).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toContain(`connection ${String(body.uuid)} uses it`);
  });

  it("replaces for another side, access point, connection type or token type", () => {
    const s = spec();
    expect(replaceReasons(serviceTokens, changedPaths(serviceTokens, s, spec({}, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2501)] } })))).toEqual(["connection.zSide.accessPointSelectors"]);
    expect(replaceReasons(serviceTokens, changedPaths(serviceTokens, s, spec({}, { type: "EPL_VC" })))).toEqual(["connection.type"]);
    expect(replaceReasons(serviceTokens, changedPaths(serviceTokens, s, spec({ type: "EPL_TOKEN" })))).toEqual(["type"]);
  });

  it("fills in the device and interface types of a device token, and compares bandwidths as a set", async () => {
    const device = seedDevice(t);
    const s = spec({}, { zSide: { accessPointSelectors: [{ type: "VD", virtualDevice: { uuid: device }, interface: { id: 4 } }] } });
    const ref = await created(s);
    const body = (await serviceTokens.observe(k.ctx, ref))!;
    expect(describeDifferences(serviceTokens, s, body)).toEqual([]);
    const reordered = { ...body, connection: { ...(body.connection as Body), supportedBandwidths: [1000, 50] } };
    expect(describeDifferences(serviceTokens, s, reordered)).toEqual([]);
  });

  it("refreshes through one search, and looks a token up by name and access point", async () => {
    const refs = await Promise.all([0, 1, 2].map((i) => created(spec({ name: `partner-${i}` }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2510 + i)] } }))));
    await serviceTokens.delete(k.ctx, refs[0]!);
    const { result, requests } = await withRequests(t, () => serviceTokens.observeMany!(k.ctx, refs));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /fabric/v4/serviceTokens/search"]);
    expect([...result.keys()].sort()).toEqual([refs[1]!.id, refs[2]!.id].sort());
    const s = spec({ name: "partner-1" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2511)] } });
    expect((await serviceTokens.lookup(k.ctx, s))?.id).toBe(refs[1]!.id);
    expect(await serviceTokens.lookup(k.ctx, spec({ name: "partner-1" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2599)] } }))).toBeUndefined();
    expect(await serviceTokens.lookup(k.ctx, spec({ name: "partner-0" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 2510)] } }))).toBeUndefined();
  });
});
