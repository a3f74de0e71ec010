import { describe, expect, it } from "vitest";
import { refKey } from "../../src/kinds/common.js";
import { routingProtocols as definition } from "../../src/kinds/routing-protocols/index.js";

const kind = definition.handler;
import type { Body, KindContext, ObjectRef } from "../../src/kinds/types.js";
import { seedConnection } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { differences, useKindContext, methodFor, ready, requestsDuring, settle } from "./kind-harness.js";

const t = useSimulator({ speed: 1000 });
const kindCtx = useKindContext(t);
const context = () => kindCtx.ctx;

const directSpec = (connection: string): Body => ({
  connection,
  type: "DIRECT",
  directIpv4: { equinixIfaceIp: "192.168.100.1/30" },
  directIpv6: { equinixIfaceIp: "2001:db8:c59b::1/126" },
});

/** Leaves enabled, asOverrideEnabled and bfd.enabled to the service's defaults; bfd.interval comes back a string. */
const bgpSpec = (connection: string): Body => ({
  connection,
  type: "BGP",
  name: "bgp-to-cloud",
  customerAsn: 65010,
  bgpIpv4: { customerPeerIp: "192.168.100.2", inboundMED: 1000 },
  bgpAuthKey: "s3cret-key",
  bfd: { interval: 200 },
});

/** Checks the spec against the configuration's own schema, so the tests drive only specs users can write. */
function valid(spec: Body): Body {
  definition.spec.parse(spec);
  return spec;
}

async function createReady(ctx: KindContext, spec: Body): Promise<{ ref: ObjectRef; body: Body }> {
  const created = await kind.create(ctx, valid(spec));
  expect(created.parent).toBe(spec.connection);
  const ref = { id: created.id, parent: created.parent! };
  return { ref, body: await ready(kind, ctx, ref, "create") };
}

describe("routingProtocols kind", () => {
  it("creates DIRECT then BGP, reads them back without a perpetual diff, and batches the refresh per connection", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    const direct = await createReady(ctx, directSpec(connection));
    expect(differences(kind, directSpec(connection), direct.body)).toEqual([]);
    const bgp = await createReady(ctx, bgpSpec(connection));
    expect(kind.stateOf(bgp.body)).toBe("PROVISIONED");
    expect(differences(kind, bgpSpec(connection), bgp.body)).toEqual([]);
    // The quirks normalised: the service's interval string, its changelog spelling, its own fields left out.
    expect(bgp.body.bfd).toMatchObject({ interval: "200" });
    expect(kind.desired(bgpSpec(connection))).toMatchObject({ asOverrideEnabled: false, bfd: { enabled: false, interval: 200 }, bgpIpv4: { enabled: true } });
    expect(kind.observed(bgp.body)).not.toHaveProperty("equinixAsn");
    expect(kind.observed(bgp.body)).not.toHaveProperty("bgpAuthKey");
    expect(kind.desired(bgpSpec(connection))).not.toHaveProperty("bgpAuthKey");
    expect(kind.observed(bgp.body)).not.toHaveProperty("changelog");

    const other = seedConnection(t);
    const otherDirect = await createReady(ctx, directSpec(other));
    const refs = [direct.ref, bgp.ref, otherDirect.ref, { id: "00000000-0000-4000-8000-00000000dead", parent: other }];
    let found = new Map<string, Body>();
    const log = await requestsDuring(t, async () => {
      found = await kind.observeMany!(ctx, refs);
    });
    expect([...found.keys()].sort()).toEqual([direct.ref, bgp.ref, otherDirect.ref].map(refKey).sort());
    expect(log.map((r) => `${r.method} ${r.path}`).sort()).toEqual([`GET /fabric/v4/connections/${connection}/routingProtocols`, `GET /fabric/v4/connections/${other}/routingProtocols`].sort());
    expect(differences(kind, bgpSpec(connection), found.get(refKey(bgp.ref))!)).toEqual([]);
  });

  it("patches the enabled flags, puts every other field, and forces a replace for type and connection", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    await createReady(ctx, directSpec(connection));
    const { ref } = await createReady(ctx, bgpSpec(connection));

    const disabled = valid({ ...bgpSpec(connection), bgpIpv4: { customerPeerIp: "192.168.100.2", inboundMED: 1000, enabled: false } });
    let body = (await kind.observe(ctx, ref))!;
    const flagOnly = differences(kind, disabled, body);
    expect(flagOnly).toEqual(["bgpIpv4.enabled"]);
    expect(methodFor(kind, "bgpIpv4.enabled")).toEqual({ via: "patch", path: "/bgpIpv4/enabled" });
    const patchLog = await requestsDuring(t, () => kind.update(ctx, ref, disabled, flagOnly));
    expect(patchLog.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 202"]);
    expect(kind.readiness({ state: "REPROVISIONING" }, "update")).toBe("pending");
    body = await ready(kind, ctx, ref, "update");
    expect(differences(kind, disabled, body)).toEqual([]);

    // Every other field, with the enabled flag back on and a removed default (asOverrideEnabled), in one PUT.
    const changedSpec = valid({
      ...bgpSpec(connection),
      name: "bgp-renamed",
      bgpIpv4: { customerPeerIp: "192.168.100.2", outboundMED: 50, outboundASPrependCount: 3, routesMax: 20 },
      customerAsn: 65020,
      asOverrideEnabled: true,
      bfd: { enabled: true, interval: 300 },
    });
    const changed = differences(kind, changedSpec, body);
    // inboundMED, dropped from the spec, is no leaf of the desired form: the compare cannot see it go (see report).
    expect(changed.sort()).toEqual(
      ["name", "bgpIpv4.enabled", "bgpIpv4.outboundMED", "bgpIpv4.outboundASPrependCount", "bgpIpv4.routesMax", "customerAsn", "asOverrideEnabled", "bfd.enabled", "bfd.interval"].sort(),
    );
    for (const path of changed.filter((p) => p !== "bgpIpv4.enabled")) expect(methodFor(kind, path), path).toEqual({ via: "put" });
    const putLog = await requestsDuring(t, () => kind.update(ctx, ref, changedSpec, [...changed, "bgpAuthKey"]));
    expect(putLog.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 202"]);
    body = await ready(kind, ctx, ref, "update");
    expect(differences(kind, changedSpec, body)).toEqual([]);
    expect(body).toMatchObject({ customerAsn: 65020, asOverrideEnabled: true, bgpIpv4: { enabled: true, outboundMED: 50 } });
    // The PUT sends the whole instance, so a field dropped from the spec is gone from the service too.
    expect(body.bgpIpv4).not.toHaveProperty("inboundMED");
    expect(methodFor(kind, "bgpAuthKey")).toEqual({ via: "put" });

    // The parent and the type cannot change in place.
    expect(differences(kind, { ...changedSpec, connection: seedConnection(t) }, body)).toEqual(["connection"]);
    expect(methodFor(kind, "connection")).toBeUndefined();
    expect(methodFor(kind, "type")).toBeUndefined();
  });

  it("moves a DIRECT instance's address by replacing it (the service keeps its BGP peer inside the subnet)", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    const { body } = await createReady(ctx, directSpec(connection));
    const moved = valid({ ...directSpec(connection), directIpv4: { equinixIfaceIp: "10.10.0.1/30" } });
    const changed = differences(kind, moved, body);
    expect(changed).toEqual(["directIpv4.equinixIfaceIp"]);
    expect(methodFor(kind, changed[0]!)).toBeUndefined();
  });

  it("deletes BGP then DIRECT, twice without complaint, until observe says gone", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    const direct = await createReady(ctx, directSpec(connection));
    const bgp = await createReady(ctx, bgpSpec(connection));
    await kind.delete(ctx, bgp.ref);
    expect(kind.readiness({ state: "DEPROVISIONING" }, "delete")).toBe("pending");
    await kind.delete(ctx, bgp.ref);
    expect((await settle(kind, ctx, bgp.ref, "delete")).readiness).toBe("ready");
    expect(await kind.observe(ctx, bgp.ref)).toBeUndefined();
    expect((await kind.observeMany!(ctx, [bgp.ref])).size).toBe(0);
    await kind.delete(ctx, bgp.ref);

    await kind.delete(ctx, direct.ref);
    expect((await settle(kind, ctx, direct.ref, "delete")).readiness).toBe("ready");
    expect(await kind.observe(ctx, direct.ref)).toBeUndefined();
    // A connection that is gone takes its instances with it.
    expect(await kind.observe(ctx, { id: direct.ref.id, parent: "00000000-0000-4000-8000-00000000dead" })).toBeUndefined();
  });

  it("looks up the instance of the spec's type on the connection, but not one being deleted", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    expect(await kind.lookup(ctx, directSpec(connection))).toBeUndefined();
    const direct = await createReady(ctx, directSpec(connection));
    const bgp = await createReady(ctx, bgpSpec(connection));
    expect(await kind.lookup(ctx, directSpec(connection))).toMatchObject({ id: direct.ref.id, parent: connection });
    expect(await kind.lookup(ctx, bgpSpec(connection))).toMatchObject({ id: bgp.ref.id, parent: connection });
    await kind.delete(ctx, bgp.ref);
    expect(await kind.lookup(ctx, bgpSpec(connection))).toBeUndefined();
    expect(await kind.lookup(ctx, directSpec("00000000-0000-4000-8000-00000000dead"))).toBeUndefined();
  });

  it("reports a failed transition with the service's reason", async () => {
    const ctx = context();
    const connection = seedConnection(t);
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "routingProtocols", count: 1 } } });
    const created = await kind.create(ctx, directSpec(connection));
    const { readiness } = await settle(kind, ctx, { id: created.id, parent: connection }, "create");
    expect(readiness).toEqual({ failed: expect.stringMatching(/^FAILED: EQ-3041012 /) });
    expect(kind.readiness({ state: "SOMETHING_NEW" }, "create")).toBe("pending");
  });
});
