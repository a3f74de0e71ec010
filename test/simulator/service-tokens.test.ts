import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { seedDevice, seedNetwork } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { coloSide, connectionBody, problem, profileSide, DIRECT_PROFILE, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const SANDBOX = PROJECTS.sandbox.projectId;
const TOKENS = "/fabric/v4/serviceTokens";
const FUTURE = "2099-06-30T00:00:00.000Z";
const DC_SECONDARY = seededPort("DC", "SECONDARY");

const portSelector = (port: string, vlanTag: number) => ({ type: "COLO", port: { uuid: port }, linkProtocol: { type: "DOT1Q", vlanTag } });

/** A z-side token on the DC secondary port: partners connect to it at up to 1000 Mbps. */
const tokenBody = (overrides: Record<string, unknown> = {}, connection: Record<string, unknown> = {}) => ({
  type: "VC_TOKEN",
  name: "partner-in",
  description: "for the partner",
  expirationDateTime: FUTURE,
  connection: { type: "EVPL_VC", allowRemoteConnection: true, supportedBandwidths: [50, 100, 1000], zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1700)] }, ...connection },
  project: { projectId: PRODUCTION },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function createToken(overrides: Record<string, unknown> = {}, connection: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call("POST", TOKENS, { body: tokenBody(overrides, connection) });
  expect(res.status, res.text).toBe(201);
  return res.body.uuid as string;
}

function expectProblem(res: { status: number; body: unknown }, code: string, property: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(problem(res.body)).toMatchObject({ errorCode: code, additionalInfo: [{ property }] });
  return problem(res.body).additionalInfo![0]!.reason;
}

/** A partner's connection from the SV primary port to the token (z-side). */
const toToken = (token: string, overrides: Record<string, unknown> = {}) =>
  connectionBody({ name: "partner-conn", aSide: coloSide(seededPort("SV", "PRIMARY"), 1800), zSide: { serviceToken: { uuid: token } }, ...overrides });

const connect = (body: Record<string, unknown>, client: "demo" | "limited" = "demo") => t.call("POST", "/fabric/v4/connections", { body, client });

describe("POST /fabric/v4/serviceTokens", () => {
  it("issues a z-side port token (201, INACTIVE) with its selector resolved", async () => {
    const res = await t.call("POST", TOKENS, { body: tokenBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "VC_TOKEN",
      name: "partner-in",
      description: "for the partner",
      state: "INACTIVE",
      expirationDateTime: FUTURE,
      connection: {
        type: "EVPL_VC",
        allowRemoteConnection: true,
        allowCustomBandwidth: false,
        supportedBandwidths: [50, 100, 1000],
        zSide: { accessPointSelectors: [{ type: "COLO", port: { uuid: DC_SECONDARY, type: "XF_PORT", href: `/fabric/v4/ports/${DC_SECONDARY}` }, linkProtocol: { type: "DOT1Q", vlanTag: 1700 } }] },
      },
      project: { projectId: PRODUCTION },
      changeLog: { createdBy: "demo-user" },
    });
    expect(res.body.href).toBe(`${TOKENS}/${res.body.uuid}`);
    expect((await t.call("GET", res.body.href)).body.state).toBe("INACTIVE");
  });

  it("issues a-side port tokens and z-side tokens on devices and networks", async () => {
    const aSide = await t.call("POST", TOKENS, { body: tokenBody({}, { supportedBandwidths: undefined, bandwidthLimit: 50, zSide: undefined, aSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1701)] } }) });
    expect(aSide.status, aSide.text).toBe(201);
    expect(aSide.body.connection).toMatchObject({ bandwidthLimit: 50, aSide: { accessPointSelectors: [{ type: "COLO" }] } });
    const device = seedDevice(t);
    const vd = await t.call("POST", TOKENS, { body: tokenBody({}, { zSide: { accessPointSelectors: [{ type: "VD", virtualDevice: { type: "EDGE", uuid: device }, interface: { type: "NETWORK", id: 7 } }] } }) });
    expect(vd.body.connection.zSide.accessPointSelectors[0]).toMatchObject({ type: "VD", virtualDevice: { uuid: device, type: "EDGE" }, interface: { type: "NETWORK", id: 7 } });
    const network = seedNetwork(t, { type: "EPLAN" });
    const lan = await t.call("POST", TOKENS, { body: tokenBody({}, { type: "EPLAN_VC", zSide: { accessPointSelectors: [{ type: "NETWORK", network: { uuid: network } }] } }) });
    expect(lan.status, lan.text).toBe(201);
    expect(lan.body.connection.zSide.accessPointSelectors[0].network).toMatchObject({ uuid: network, type: "EPLAN", scope: "GLOBAL" });
  });

  it("refuses past expiries, tokens for both or no side, tokens without a bandwidth, and mismatched types", async () => {
    expect(expectProblem(await t.call("POST", TOKENS, { body: tokenBody({ expirationDateTime: "2020-01-01T00:00:00Z" }) }), "EQ-2021010", "/expirationDateTime")).toContain("future");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({ expirationDateTime: "next week" }) }), "EQ-2010010", "/expirationDateTime");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({ expirationDateTime: undefined }) }), "EQ-2012011", "/expirationDateTime");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { aSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1702)] } }) }), "EQ-2010010", "/connection/zSide");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { zSide: undefined }) }), "EQ-2012011", "/connection/zSide");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { supportedBandwidths: undefined }) }), "EQ-2012011", "/connection/bandwidthLimit");
    const network = seedNetwork(t);
    const onNetwork = { zSide: { accessPointSelectors: [{ type: "NETWORK", network: { uuid: network } }] } };
    expect(expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, onNetwork) }), "EQ-2010010", "/connection/type")).toContain("EVPLAN_VC");
    const aSideNetwork = { zSide: undefined, aSide: { accessPointSelectors: [{ type: "NETWORK", network: { uuid: network } }] } };
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { ...aSideNetwork, type: "EVPLAN_VC" }) }), "EQ-2012025", "/connection/aSide/accessPointSelectors/0/type");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { zSide: { accessPointSelectors: [] } }) }), "EQ-2010010", "/connection/zSide/accessPointSelectors");
    expectProblem(await t.call("POST", TOKENS, { body: tokenBody({ type: "GIFT_TOKEN" }) }), "EQ-2012025", "/type");
  });

  it("refuses a VLAN already in use on the port, and a port of a project the caller lacks", async () => {
    const busy = await connect(connectionBody({ aSide: coloSide(DC_SECONDARY, 1703), zSide: profileSide(DIRECT_PROFILE, "DC") }));
    expect(busy.status, busy.text).toBe(201);
    expect(expectProblem(await t.call("POST", TOKENS, { body: tokenBody({}, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1703)] } }) }), "EQ-2010010", "/connection/zSide/accessPointSelectors/0/linkProtocol")).toContain("VLAN 1703");
    expect((await t.call("POST", TOKENS, { client: "limited", body: tokenBody({ project: { projectId: SANDBOX } }) })).status).toBe(400);
  });

  it("reserves its VLAN on the port until a connection uses it, and releases it when deleted or expired", async () => {
    const token = await createToken({}, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1711)] } });
    const taker = connectionBody({ name: "taker", aSide: coloSide(DC_SECONDARY, 1711), zSide: profileSide(DIRECT_PROFILE, "DC") });
    expect(expectProblem(await connect(taker), "EQ-2010010", "/aSide/accessPoint/linkProtocol")).toContain(`reserved by service token ${token}`);
    expect(expectProblem(await t.call("POST", TOKENS, { body: tokenBody({ name: "twin" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1711)] } }) }), "EQ-2010010", "/connection/zSide/accessPointSelectors/0/linkProtocol")).toContain(token);

    expect((await t.call("DELETE", `${TOKENS}/${token}`)).status).toBe(200);
    expect((await connect(taker)).status).toBe(201);

    const expiring = await createToken({ name: "short-lived" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1712)] } });
    const late = connectionBody({ name: "late", aSide: coloSide(DC_SECONDARY, 1712), zSide: profileSide(DIRECT_PROFILE, "DC") });
    expect(expectProblem(await connect(late), "EQ-2010010", "/aSide/accessPoint/linkProtocol")).toContain(`reserved by service token ${expiring}`);
    await t.call("PATCH", `/__sim/objects/${expiring}`, { body: { expirationDateTime: "2000-01-01T00:00:00.000Z" } });
    expect((await t.call("GET", `${TOKENS}/${expiring}`)).body.state).toBe("EXPIRED");
    expect((await connect(late)).status).toBe(201);
  });

  it("checks a dry run without keeping it", async () => {
    const dry = await t.call("POST", `${TOKENS}?dryRun=true`, { body: tokenBody({ name: "dry-token" }) });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ name: "dry-token", type: "VC_TOKEN" });
    expect(dry.body.uuid).toBeUndefined();
    const search = await t.call("POST", `${TOKENS}/search`, { body: { filter: { and: [{ property: "/name", operator: "=", values: ["dry-token"] }] } } });
    expect(search.body.data).toEqual([]);
  });
});

describe("the seeded token", () => {
  it("is an unused z-side token on the DC secondary port", async () => {
    const res = await t.call("GET", `${TOKENS}/${SEEDED_ENDPOINTS.serviceToken.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "INACTIVE", connection: { zSide: { accessPointSelectors: [{ port: { uuid: DC_SECONDARY }, linkProtocol: { vlanTag: 4001 } }] } } });
  });
});

describe("GET, PATCH and actions", () => {
  it("answers an unknown token, or another project's, with 400 Token not found (EQ-3034016)", async () => {
    expectProblem(await t.call("GET", `${TOKENS}/00000000-0000-4000-8000-000000000000`), "EQ-3034016", "serviceTokenId");
    const token = await createToken();
    expectProblem(await t.call("GET", `${TOKENS}/${token}`, { client: "limited" }), "EQ-3034016", "serviceTokenId");
    expectProblem(await t.call("DELETE", `${TOKENS}/${token}`, { client: "limited" }), "EQ-3034016", "serviceTokenId");
  });

  it("changes name, description, expiry, notifications and bandwidths in place", async () => {
    const token = await createToken();
    const res = await t.call("PATCH", `${TOKENS}/${token}`, {
      contentType: "application/json-patch+json",
      body: [
        { op: "replace", path: "/name", value: "partner-in-2" },
        { op: "replace", path: "/description", value: "" },
        { op: "replace", path: "/expirationDateTime", value: "2098-01-01T00:00:00Z" },
        { op: "replace", path: "/connection/supportedBandwidths", value: [50, 200] },
        { op: "replace", path: "/notifications/emails", value: ["ops@example.com"] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "partner-in-2",
      description: "",
      expirationDateTime: "2098-01-01T00:00:00.000Z",
      connection: { supportedBandwidths: [50, 200] },
      notifications: [{ type: "ALL", emails: ["ops@example.com"] }],
      changeLog: { updatedBy: "demo-user" },
    });
    const dry = await t.call("PATCH", `${TOKENS}/${token}?dryRun=true`, { body: [{ op: "replace", path: "/connection/bandwidthLimit", value: 500 }] });
    expect(dry.body.connection.bandwidthLimit).toBe(500);
    expect((await t.call("GET", `${TOKENS}/${token}`)).body.connection.bandwidthLimit).toBeUndefined();
    expectProblem(await t.call("PATCH", `${TOKENS}/${token}`, { body: [{ op: "replace", path: "/connection/type", value: "EPL_VC" }] }), "EQ-2012025", "/0/path");
    expectProblem(await t.call("PATCH", `${TOKENS}/${token}`, { body: [{ op: "replace", path: "/expirationDateTime", value: "2001-01-01T00:00:00Z" }] }), "EQ-2021010", "/0/value");
  });

  it("resends a token's notification, and lists tokens a page at a time", async () => {
    const token = await createToken();
    const resent = await t.call("POST", `${TOKENS}/${token}/actions`, { body: { type: "RESEND_EMAIL_NOTIFICATION" } });
    expect(resent.status).toBe(202);
    expect(resent.body.uuid).toBe(token);
    expectProblem(await t.call("POST", `${TOKENS}/${token}/actions`, { body: { type: "REVOKE" } }), "EQ-2012025", "/type");
    await createToken({ name: "second" }, { zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1701)] } });
    const page = await t.call("GET", `${TOKENS}?offset=0&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.pagination).toMatchObject({ offset: 0, limit: 2, total: 3 });
    expect(page.body.pagination.next).toBe(`${TOKENS}?offset=2&limit=2`);
  });

  it("searches by name, state and the port a token stands for", async () => {
    const token = await createToken({ name: "find-me" });
    const search = (filter: unknown) => t.call("POST", `${TOKENS}/search`, { body: { filter } });
    expect((await search({ and: [{ property: "/name", operator: "LIKE", values: ["find%"] }] })).body.data.map((x: { uuid: string }) => x.uuid)).toEqual([token]);
    const byPort = await search({ and: [{ property: "/connection/zSide/accessPointSelectors/port/uuid", operator: "=", values: [DC_SECONDARY] }, { property: "/state", operator: "=", values: ["INACTIVE"] }] });
    expect(byPort.body.data.map((x: { uuid: string }) => x.uuid)).toContain(token);
    expectProblem(await search({ and: [{ property: "/colour", operator: "=", values: ["x"] }] }), "EQ-3040055", "/filter/and/0/property");
  });
});

describe("connections made with a token", () => {
  it("reach the token's port on the owner's behalf, make it ACTIVE, and free it when deleted", async () => {
    const token = await createToken();
    const partner = await connect(toToken(token));
    expect(partner.status, partner.text).toBe(201);
    expect(partner.body.zSide).toMatchObject({ serviceToken: { uuid: token, type: "VC_TOKEN" }, accessPoint: { type: "COLO", port: { uuid: DC_SECONDARY }, linkProtocol: { vlanTag: 1700 } } });
    const active = (await t.call("GET", `${TOKENS}/${token}`)).body;
    expect(active).toMatchObject({ state: "ACTIVE", connection: { uuid: partner.body.uuid } });

    expect(expectProblem(await connect(toToken(token, { name: "again", aSide: coloSide(seededPort("SV", "PRIMARY"), 1802) })), "EQ-2010010", "/zSide/serviceToken/uuid")).toContain(`already used by connection ${partner.body.uuid}`);
    expect(expectProblem(await t.call("DELETE", `${TOKENS}/${token}`), "EQ-2010010", "serviceTokenId")).toContain("delete the connection first");

    await t.waitFor(`/fabric/v4/connections/${partner.body.uuid}`, "/state", "PROVISIONED");
    await t.call("DELETE", `/fabric/v4/connections/${partner.body.uuid}`);
    await t.waitFor(`/fabric/v4/connections/${partner.body.uuid}`, "/state", "DEPROVISIONED");
    expect((await t.call("GET", `${TOKENS}/${token}`)).body.state).toBe("INACTIVE");
    const deleted = await t.call("DELETE", `${TOKENS}/${token}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ state: "DELETED", changeLog: { deletedBy: "demo-user" } });
    expect((await t.call("GET", `${TOKENS}/${token}`)).body.state).toBe("DELETED");
    expectProblem(await t.call("PATCH", `${TOKENS}/${token}`, { body: [{ op: "replace", path: "/name", value: "x" }] }), "EQ-2010010", "serviceTokenId");
    expectProblem(await connect(toToken(token, { name: "late" })), "EQ-2010010", "/zSide/serviceToken/uuid");
    const byUuid = (more: unknown[] = []) => t.call("POST", `${TOKENS}/search`, { body: { filter: { and: [{ property: "/uuid", operator: "=", values: [token] }, ...more] } } });
    expect((await byUuid()).body.data).toEqual([]);
    expect((await byUuid([{ property: "/state", operator: "IN", values: ["DELETED"] }])).body.data).toHaveLength(1);
  });

  it("can be made by a partner who cannot see the owner's project", async () => {
    const token = await createToken();
    const partner = await connect(toToken(token, { project: { projectId: SANDBOX }, aSide: { accessPoint: { type: "COLO", port: { uuid: seededPort("SV", "QINQ") }, linkProtocol: { type: "QINQ", vlanSTag: 1803 } } } }), "limited");
    expect(partner.status, partner.text).toBe(201);
    expect((await t.call("GET", `${TOKENS}/${token}`)).body.state).toBe("ACTIVE");
  });

  it("hold to the token's side, type, bandwidths and reach", async () => {
    const token = await createToken({}, { allowRemoteConnection: false });
    expect(expectProblem(await connect(connectionBody({ aSide: { serviceToken: { uuid: token } }, zSide: profileSide(DIRECT_PROFILE, "DC") })), "EQ-2010010", "/aSide/serviceToken/uuid")).toContain("z-side");
    expect(expectProblem(await connect(toToken(token, { type: "EPL_VC" })), "EQ-2010010", "/type")).toContain("EVPL_VC");
    expect(expectProblem(await connect(toToken(token)), "EQ-2010010", "/zSide/serviceToken/uuid")).toContain("only connections within DC");
    const fromDc = coloSide(seededPort("DC", "PRIMARY"), 1804);
    expect(expectProblem(await connect(toToken(token, { aSide: fromDc, bandwidth: 200 })), "EQ-2012025", "/bandwidth")).toContain("50, 100, 1000");
    const local = await connect(toToken(token, { aSide: fromDc }));
    expect(local.status, local.text).toBe(201);
    const limited = await createToken({}, { supportedBandwidths: undefined, bandwidthLimit: 50, zSide: { accessPointSelectors: [portSelector(DC_SECONDARY, 1705)] } });
    expect(expectProblem(await connect(toToken(limited, { bandwidth: 100 })), "EQ-2010010", "/bandwidth")).toContain("up to 50 Mbps");
  });

  it("are refused once the token has expired", async () => {
    const token = await createToken();
    await t.call("PATCH", `/__sim/objects/${token}`, { body: { expirationDateTime: "2020-01-01T00:00:00.000Z" } });
    expect((await t.call("GET", `${TOKENS}/${token}`)).body.state).toBe("EXPIRED");
    expect(expectProblem(await connect(toToken(token)), "EQ-2010010", "/zSide/serviceToken/uuid")).toContain("EXPIRED");
    expectProblem(await t.call("POST", `${TOKENS}/${token}/actions`, { body: { type: "RESEND_EMAIL_NOTIFICATION" } }), "EQ-2010010", "serviceTokenId");
    expect((await t.call("DELETE", `${TOKENS}/${token}`)).status).toBe(200);
  });
});
