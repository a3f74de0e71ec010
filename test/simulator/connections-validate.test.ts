// POST /fabric/v4/connections/validate (validateConnections): a port's VLAN tags and a seller's authorisation
// key, validated by the rules a connection create applies, so that what validates is what a create accepts.

import { describe, expect, it } from "vitest";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { useSimulator } from "../support/sim.js";
import { DIRECT_PROFILE, STORAGE_PROFILE, coloSide, connectionBody, problem, profileSide, provisioned, qinqSide, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const VALIDATE = "/fabric/v4/connections/validate";

const expression = (property: string, value: string | number) => ({ property, operator: "=", values: [String(value)] });
const filter = (...and: object[]) => ({ filter: { and } });

/** The description's Dot1q and Qinq examples, on `side`. */
const dot1q = (port: string, vlanTag: number, side = "zSide") => filter(expression(`/${side}/accessPoint/port/uuid`, port), expression(`/${side}/accessPoint/linkProtocol/vlanTag`, vlanTag));
const qinq = (port: string, vlanSTag: number, vlanCTag?: number) =>
  filter(
    expression("/zSide/accessPoint/port/uuid", port),
    expression("/zSide/accessPoint/linkProtocol/vlanSTag", vlanSTag),
    ...(vlanCTag === undefined ? [] : [expression("/zSide/accessPoint/linkProtocol/vlanCTag", vlanCTag)]),
  );
/** The description's cloud examples: a key, the profile it is for, and (AWS, Google) the seller region. */
const key = (authenticationKey: string, profile: string, sellerRegion?: string) =>
  filter(
    expression("/zSide/accessPoint/authenticationKey", authenticationKey),
    expression("/zSide/accessPoint/profile/uuid", profile),
    ...(sellerRegion === undefined ? [] : [expression("/zSide/accessPoint/sellerRegion", sellerRegion)]),
  );

const AVAILABLE = { additionalInfo: [{ key: "message", value: "vlanTag(s) provided is available" }] };

async function refused(body: object, property: string): Promise<string> {
  const res = await t.call("POST", VALIDATE, { body });
  expect(res.status, res.text).toBe(400);
  expect(problem(res.body).additionalInfo?.[0]?.property).toBe(property);
  return problem(res.body).additionalInfo![0]!.reason;
}

describe("POST /fabric/v4/connections/validate: VLAN availability", () => {
  it("finds a DOT1Q tag free until a live connection takes it, and free again once the connection is gone", async () => {
    const port = seededPort("NY", "PRIMARY");
    expect(await t.call("POST", VALIDATE, { body: dot1q(port, 155) })).toMatchObject({ status: 200, body: AVAILABLE });
    const taken = await provisioned(t, { aSide: coloSide(port, 155), zSide: profileSide(DIRECT_PROFILE, "NY") });
    expect(await refused(dot1q(port, 155), "/zSide/accessPoint/linkProtocol")).toBe(`VLAN 155 is already used on port ${port} by connection ${taken}`);
    // The create applies the same rule, with the same words.
    const create = await t.call("POST", "/fabric/v4/connections", { body: connectionBody({ aSide: coloSide(port, 155), zSide: profileSide(DIRECT_PROFILE, "NY"), redundancy: undefined }) });
    expect(problem(create.body)).toMatchObject({ errorCode: "EQ-2010010", additionalInfo: [{ property: "/aSide/accessPoint/linkProtocol", reason: `VLAN 155 is already used on port ${port} by connection ${taken}` }] });
    expect((await t.call("POST", VALIDATE, { body: dot1q(port, 156, "aSide") })).status).toBe(200);

    expect((await t.call("DELETE", `/fabric/v4/connections/${taken}`)).status).toBe(200);
    await t.waitFor(`/fabric/v4/connections/${taken}`, "/state", "DEPROVISIONED");
    expect(await t.call("POST", VALIDATE, { body: dot1q(port, 155) })).toMatchObject({ status: 200, body: AVAILABLE });
  });

  it("finds a tag an unused service token reserves taken", async () => {
    const { port, vlanTag, uuid } = SEEDED_ENDPOINTS.serviceToken;
    expect(await refused(dot1q(port, vlanTag), "/zSide/accessPoint/linkProtocol")).toContain(`reserved by service token ${uuid}`);
  });

  it("checks QINQ outer and inner tags as pairs: an outer tag alone takes every inner tag under it", async () => {
    const port = seededPort("DC", "QINQ");
    await provisioned(t, { aSide: qinqSide(port, 300, 10), zSide: profileSide(DIRECT_PROFILE, "DC") });
    expect(await refused(qinq(port, 300, 10), "/zSide/accessPoint/linkProtocol")).toBe(`VLAN 300.10 is already used on port ${port} by connection ${(await connectionOn(port))!}`);
    expect((await t.call("POST", VALIDATE, { body: qinq(port, 300, 11) })).body).toEqual(AVAILABLE);
    expect(await refused(qinq(port, 300), "/zSide/accessPoint/linkProtocol")).toContain("VLAN 300 is already used");
    expect((await t.call("POST", VALIDATE, { body: qinq(port, 301) })).status).toBe(200);
  });

  it("refuses a tag of the wrong encapsulation, out of range, on an unknown port, or half a QINQ pair", async () => {
    expect(await refused(dot1q(seededPort("DC", "QINQ"), 100), "/zSide/accessPoint/linkProtocol/type")).toMatch(/encapsulation is QINQ/);
    expect(await refused(dot1q(seededPort("DC", "PRIMARY"), 4095), "/zSide/accessPoint/linkProtocol/vlanTag")).toMatch(/between 2 and 4094/);
    expect(await refused(dot1q("0c5d0c8b-0000-4000-8000-000000000000", 100), "/zSide/accessPoint/port/uuid")).toMatch(/does not exist/);
    const inner = filter(expression("/zSide/accessPoint/port/uuid", seededPort("DC", "QINQ")), expression("/zSide/accessPoint/linkProtocol/vlanCTag", 5));
    expect(await refused(inner, "/zSide/accessPoint/linkProtocol/vlanSTag")).toMatch(/needs its outer tag/);
  });
});

async function connectionOn(port: string): Promise<string | undefined> {
  const found = await t.call("POST", "/fabric/v4/connections/search", { body: { filter: { and: [{ property: "/aSide/accessPoint/port/uuid", operator: "=", values: [port] }] } } });
  return found.body.data[0]?.uuid;
}

describe("POST /fabric/v4/connections/validate: authorisation keys", () => {
  it("finds a key valid, lists the connections made with it, and binds it to their profile and seller region, as a create does", async () => {
    const authenticationKey = "123456789012";
    expect(await t.call("POST", VALIDATE, { body: key(authenticationKey, DIRECT_PROFILE, "us-west-1") })).toMatchObject({
      status: 200,
      body: { additionalInfo: [{ key: "message", value: "Authorization key provided is valid" }] },
    });
    const zSide = { accessPoint: { ...profileSide(DIRECT_PROFILE, "SV").accessPoint, authenticationKey, sellerRegion: "us-west-1", peeringType: "PRIVATE" } };
    const made = await provisioned(t, { aSide: coloSide(seededPort("SV", "PRIMARY"), 210), zSide });

    const valid = await t.call("POST", VALIDATE, { body: key(authenticationKey, DIRECT_PROFILE) });
    expect(valid.body.data).toEqual([
      expect.objectContaining({ uuid: made, bandwidth: 100, redundancy: expect.objectContaining({ priority: "PRIMARY" }), zSide: { accessPoint: expect.objectContaining({ type: "SP", peeringType: "PRIVATE", sellerRegion: "us-west-1" }) } }),
    ]);
    // Another project's caller learns that the key is valid, not what was made with it.
    expect((await t.call("POST", VALIDATE, { body: key(authenticationKey, DIRECT_PROFILE), client: "limited" })).body.data).toBeUndefined();

    expect(await refused(key(authenticationKey, STORAGE_PROFILE), "/zSide/accessPoint/authenticationKey")).toBe(`the authorisation key is for service profile ${DIRECT_PROFILE}, not ${STORAGE_PROFILE}`);
    expect(await refused(key(authenticationKey, DIRECT_PROFILE, "eu-west-1"), "/zSide/accessPoint/authenticationKey")).toBe("the authorisation key is for seller region us-west-1, not eu-west-1");
    const elsewhere = { accessPoint: { ...profileSide(STORAGE_PROFILE, "DC").accessPoint, authenticationKey } };
    const create = await t.call("POST", "/fabric/v4/connections", { body: connectionBody({ aSide: coloSide(seededPort("DC", "PRIMARY"), 211), zSide: elsewhere, bandwidth: 100 }) });
    expect(problem(create.body).additionalInfo?.[0]).toEqual({ property: "/zSide/accessPoint/authenticationKey", reason: `the authorisation key is for service profile ${DIRECT_PROFILE}, not ${STORAGE_PROFILE}` });
  });

  it("refuses an unknown profile, an empty key, and a key without its profile", async () => {
    expect(await refused(key("k-1", "0c5d0c8b-0000-4000-8000-000000000000"), "/zSide/accessPoint/profile/uuid")).toMatch(/does not exist/);
    expect(await refused(key(" ", DIRECT_PROFILE), "/zSide/accessPoint/authenticationKey")).toMatch(/must not be empty/);
    expect(await refused(filter(expression("/zSide/accessPoint/authenticationKey", "k-1")), "/zSide/accessPoint/profile/uuid")).toMatch(/name the service profile/);
  });
});

describe("POST /fabric/v4/connections/validate: the request", () => {
  it("refuses a missing filter, an unknown property, another operator, both kinds at once, and mixed sides", async () => {
    expect(await refused({}, "/filter/and")).toMatch(/must list the properties/);
    expect(await refused(filter(expression("/zSide/accessPoint/name", "x")), "/filter/and/0/property")).toMatch(/validation reads/);
    expect(await refused(filter({ property: "/zSide/accessPoint/port/uuid", operator: "LIKE", values: ["x"] }), "/filter/and/0/operator")).toMatch(/the operator is =/);
    const both = filter(expression("/zSide/accessPoint/port/uuid", seededPort("DC", "PRIMARY")), expression("/zSide/accessPoint/authenticationKey", "k"));
    expect(await refused(both, "/filter/and")).toMatch(/not both at once/);
    const mixed = filter(expression("/zSide/accessPoint/port/uuid", seededPort("DC", "PRIMARY")), expression("/aSide/accessPoint/linkProtocol/vlanTag", 5));
    expect(await refused(mixed, "/filter/and/1/property")).toMatch(/same side/);
    expect((await t.call("POST", `${VALIDATE}?dryRun=true`, { body: dot1q(seededPort("DC", "PRIMARY"), 5) })).status).toBe(400);
  });
});
