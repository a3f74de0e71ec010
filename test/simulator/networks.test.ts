import { describe, expect, it } from "vitest";
import { PROJECTS } from "../../src/simulator/index.js";
import { SEEDED_ENDPOINTS } from "../../src/simulator/core/seed.js";
import { seedNetwork } from "../support/fixtures.js";
import { useSimulator } from "../support/sim.js";
import { coloSide, connectionBody, problem, seededPort } from "./connections-fixtures.js";

const t = useSimulator();
const PRODUCTION = PROJECTS.production.projectId;
const NETWORKS = "/fabric/v4/networks";

const networkBody = (overrides: Record<string, unknown> = {}) => ({
  type: "EVPLAN",
  name: "lan-one",
  scope: "GLOBAL",
  project: { projectId: PRODUCTION },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  ...overrides,
});

async function provisionedNetwork(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call("POST", NETWORKS, { body: networkBody(overrides) });
  expect(res.status, res.text).toBe(201);
  await t.waitFor(`${NETWORKS}/${res.body.uuid}`, "/operation/equinixStatus", "PROVISIONED");
  return res.body.uuid as string;
}

function expectProblem(res: { status: number; body: unknown }, code: string, property: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(problem(res.body)).toMatchObject({ errorCode: code, additionalInfo: [{ property }] });
  return problem(res.body).additionalInfo![0]!.reason;
}

/** An EVPLAN_VC from a port of `metro` to the network. */
const joining = (network: string, metro: string, vlanTag: number, type = "EVPLAN_VC") =>
  connectionBody({ type, name: `join-${vlanTag}`, aSide: coloSide(seededPort(metro, "PRIMARY"), vlanTag), zSide: { accessPoint: { type: "NETWORK", network: { uuid: network } } } });

const connect = (body: Record<string, unknown>) => t.call("POST", "/fabric/v4/connections", { body });

describe("POST /fabric/v4/networks", () => {
  it("accepts a network (201, INACTIVE while PROVISIONING) that becomes ACTIVE once PROVISIONED", async () => {
    const res = await t.call("POST", NETWORKS, { body: networkBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "EVPLAN",
      name: "lan-one",
      scope: "GLOBAL",
      state: "INACTIVE",
      operation: { equinixStatus: "PROVISIONING" },
      connectionsCount: 0,
      project: { projectId: PRODUCTION },
      notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
      change: { type: "NETWORK_CREATION" },
      links: [{ rel: "getConnectionsByNetworkUuid", method: "GET", href: `${NETWORKS}/${res.body.uuid}/connections` }],
    });
    expect(res.body.change.href).toBe(`${NETWORKS}/${res.body.uuid}/changes/${res.body.change.uuid}`);
    const active = await t.waitFor(`${NETWORKS}/${res.body.uuid}`, "/state", "ACTIVE");
    expect(active.operation.equinixStatus).toBe("PROVISIONED");
    const change = await t.call("GET", res.body.change.href);
    expect(change.body).toMatchObject({ uuid: res.body.change.uuid, type: "NETWORK_CREATION", status: "COMPLETED" });
  });

  it("takes a region for a REGIONAL network and no location otherwise", async () => {
    const regional = await t.call("POST", NETWORKS, { body: networkBody({ scope: "REGIONAL", location: { region: "EMEA" } }) });
    expect(regional.body.location).toEqual({ region: "EMEA" });
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ scope: "REGIONAL" }) }), "EQ-2012011", "/location/region");
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ scope: "REGIONAL", location: { region: "MARS" } }) }), "EQ-2012025", "/location/region");
    expect(expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ scope: "LOCAL", location: { metroCode: "DC" } }) }), "EQ-2010010", "/location")).toContain("first connection");
  });

  it("requires type, name, scope and notifications, and checks a dry run without keeping it", async () => {
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ type: "VPLS" }) }), "EQ-2012025", "/type");
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ name: undefined }) }), "EQ-2012011", "/name");
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ scope: undefined }) }), "EQ-2012011", "/scope");
    expectProblem(await t.call("POST", NETWORKS, { body: networkBody({ notifications: undefined }) }), "EQ-2012011", "/notifications");
    const dry = await t.call("POST", `${NETWORKS}?dryRun=true`, { body: networkBody({ name: "dry-lan" }) });
    expect(dry.status).toBe(201);
    expect((await t.call("GET", `${NETWORKS}/${dry.body.uuid}`)).status).toBe(404);
  });

  it("ends NOT_PROVISIONED when a transition failure is injected, and records the change as FAILED", async () => {
    await t.call("POST", "/__sim/faults", { body: { failTransitions: { kind: "networks", count: 1 } } });
    const res = await t.call("POST", NETWORKS, { body: networkBody() });
    const failed = await t.waitFor(`${NETWORKS}/${res.body.uuid}`, "/operation/equinixStatus", "NOT_PROVISIONED");
    expect(failed.state).toBe("INACTIVE");
    expect((await t.call("GET", `${NETWORKS}/${res.body.uuid}/changes`)).body.data[0].status).toBe("FAILED");
  });
});

describe("the seeded network", () => {
  it("is an active GLOBAL EVPLAN network", async () => {
    const res = await t.call("GET", `${NETWORKS}/${SEEDED_ENDPOINTS.network.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "global-lan", type: "EVPLAN", scope: "GLOBAL", state: "ACTIVE", operation: { equinixStatus: "PROVISIONED" } });
  });
});

describe("PATCH /fabric/v4/networks/{id}", () => {
  it("renames and changes notifications at once, recording NETWORK_UPDATE changes", async () => {
    const network = await provisionedNetwork();
    const res = await t.call("PATCH", `${NETWORKS}/${network}`, {
      contentType: "application/json-patch+json",
      body: [{ op: "replace", path: "/name", value: "lan-renamed" }, { op: "replace", path: "/notifications", value: [{ type: "ALL", emails: ["ops@example.com"] }] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "lan-renamed", state: "ACTIVE", notifications: [{ emails: ["ops@example.com"] }], change: { type: "NETWORK_UPDATE" }, changeLog: { updatedBy: "demo-user" } });
    const changes = (await t.call("GET", `${NETWORKS}/${network}/changes`)).body;
    expect(changes.data.map((c: { type: string; status: string }) => `${c.type} ${c.status}`)).toEqual(["NETWORK_CREATION COMPLETED", "NETWORK_UPDATE COMPLETED"]);
    expect(changes.data[1].data[0]).toEqual({ op: "replace", path: "/name", value: "lan-renamed" });
  });

  it("refuses other paths and a network still provisioning", async () => {
    const network = await provisionedNetwork();
    expectProblem(await t.call("PATCH", `${NETWORKS}/${network}`, { body: [{ op: "replace", path: "/scope", value: "LOCAL" }] }), "EQ-2012025", "/0/path");
    expectProblem(await t.call("PATCH", `${NETWORKS}/${network}`, { body: [{ op: "remove", path: "/name", value: "x" }] }), "EQ-2012025", "/0/op");
    const fresh = seedNetwork(t, { equinixStatus: "PROVISIONING" });
    expect(expectProblem(await t.call("PATCH", `${NETWORKS}/${fresh}`, { body: [{ op: "replace", path: "/name", value: "x" }] }), "EQ-2010010", "networkId")).toContain("PROVISIONING");
  });
});

describe("connections joining a network", () => {
  it("are of the network's own type, counted and listed by the network", async () => {
    const network = await provisionedNetwork();
    expect(expectProblem(await connect(joining(network, "DC", 2100, "EVPL_VC")), "EQ-2010010", "/type")).toContain("EVPLAN_VC");
    const first = await connect(joining(network, "DC", 2100));
    const second = await connect(joining(network, "SV", 2101));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await t.call("GET", `${NETWORKS}/${network}`)).body.connectionsCount).toBe(2);
    const listed = await t.call("GET", `${NETWORKS}/${network}/connections`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { uuid: string }) => c.uuid).sort()).toEqual([first.body.uuid, second.body.uuid].sort());
  });

  it("wait for the network to be provisioned", async () => {
    const fresh = seedNetwork(t, { equinixStatus: "PROVISIONING" });
    expect(expectProblem(await connect(joining(fresh, "DC", 2200)), "EQ-2010010", "/zSide/accessPoint/network/uuid")).toContain("PROVISIONING");
  });

  it("come from the network's region, or its one metro for a LOCAL network", async () => {
    const amer = await provisionedNetwork({ scope: "REGIONAL", location: { region: "AMER" } });
    expect((await connect(joining(amer, "DC", 2300))).status).toBe(201);
    expect(expectProblem(await connect(joining(amer, "LD", 2301)), "EQ-2010010", "/zSide/accessPoint/network/uuid")).toContain("REGIONAL in AMER");
    const local = await provisionedNetwork({ scope: "LOCAL" });
    expect((await connect(joining(local, "SV", 2302))).status).toBe(201);
    expect(expectProblem(await connect(joining(local, "NY", 2303)), "EQ-2010010", "/zSide/accessPoint/network/uuid")).toContain("LOCAL to SV");
  });
});

describe("DELETE /fabric/v4/networks/{id}", () => {
  it("deletes a network once its connections are gone, leaving it readable as DELETED", async () => {
    const network = await provisionedNetwork();
    const joined = await connect(joining(network, "DC", 2400));
    expect(expectProblem(await t.call("DELETE", `${NETWORKS}/${network}`), "EQ-2010010", "networkId")).toContain(joined.body.uuid);
    await t.waitFor(`/fabric/v4/connections/${joined.body.uuid}`, "/state", "PROVISIONED");
    await t.call("DELETE", `/fabric/v4/connections/${joined.body.uuid}`);
    await t.waitFor(`/fabric/v4/connections/${joined.body.uuid}`, "/state", "DEPROVISIONED");

    const res = await t.call("DELETE", `${NETWORKS}/${network}`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: "INACTIVE", operation: { equinixStatus: "DEPROVISIONING" }, change: { type: "NETWORK_DELETION" }, changeLog: { deletedBy: "demo-user" } });
    const deleted = await t.waitFor(`${NETWORKS}/${network}`, "/state", "DELETED");
    expect(deleted.operation.equinixStatus).toBe("DEPROVISIONED");
    expectProblem(await t.call("DELETE", `${NETWORKS}/${network}`), "EQ-2010010", "networkId");
    const byUuid = (more: unknown[] = []) => t.call("POST", `${NETWORKS}/search`, { body: { filter: { and: [{ property: "/uuid", operator: "=", values: [network] }, ...more] } } });
    expect((await byUuid()).body.data).toEqual([]);
    expect((await byUuid([{ property: "/state", operator: "=", values: ["DELETED"] }])).body.data).toHaveLength(1);
  });

  it("answers 404 for an unknown network and another project's, and 400 (EQ-3152004) for the lists under an unknown one", async () => {
    expect((await t.call("GET", `${NETWORKS}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const network = await provisionedNetwork();
    expect((await t.call("GET", `${NETWORKS}/${network}`, { client: "limited" })).status).toBe(404);
    expect((await t.call("GET", `${NETWORKS}/${network}/changes/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    for (const list of ["connections", "changes"]) {
      expectProblem(await t.call("GET", `${NETWORKS}/00000000-0000-4000-8000-000000000000/${list}`), "EQ-3152004", "networkId");
    }
  });
});

describe("POST /fabric/v4/networks/search", () => {
  it("finds by nested and/or filters, sorted, and echoes the sort", async () => {
    await provisionedNetwork({ name: "lan-a" });
    await provisionedNetwork({ name: "lan-b", type: "EPLAN" });
    await provisionedNetwork({ name: "tree-c", type: "EVPTREE" });
    const sort = [{ property: "/name", direction: "ASC" }];
    const res = await t.call("POST", `${NETWORKS}/search`, {
      body: { filter: { and: [{ property: "/name", operator: "LIKE", values: ["lan-%"] }, { or: [{ property: "/type", operator: "=", values: ["EVPLAN"] }, { property: "/type", operator: "=", values: ["EPLAN"] }] }] }, sort },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((n: { name: string }) => n.name)).toEqual(["lan-a", "lan-b"]);
    expect(res.body.sort).toEqual(sort);
    const notIn = await t.call("POST", `${NETWORKS}/search`, { body: { filter: { property: "/type", operator: "NOT IN", values: ["EVPLAN", "EPLAN"] } } });
    expect(notIn.body.data.map((n: { name: string }) => n.name)).toEqual(["tree-c"]);
    expectProblem(await t.call("POST", `${NETWORKS}/search`, { body: { filter: { property: "/colour", operator: "=", values: ["x"] } } }), "EQ-3040055", "/filter/property");
  });
});
