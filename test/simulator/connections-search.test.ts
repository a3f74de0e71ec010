import { beforeEach, describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { SANDBOX, coloSide, connectionBody, problem, profileSide, provisioned, qinqSide, seededPort, DIRECT_PROFILE } from "./connections-fixtures.js";

const t = useSimulator();
const SEARCH = "/fabric/v4/connections/search";

const search = (body: unknown, client: "demo" | "limited" = "demo") => t.call("POST", SEARCH, { body, client });
const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((c) => c.name).sort();
const where = (property: string, operator: string, values: unknown[]) => ({ filter: { and: [{ property, operator, values }] } });

let alpha: string;

beforeEach(async () => {
  alpha = await provisioned(t, { name: "alpha-dc" });
  await provisioned(t, { name: "beta-dc", aSide: coloSide(seededPort("DC", "PRIMARY"), 101), bandwidth: 500 });
  await provisioned(t, { name: "gamma-sv", aSide: coloSide(seededPort("SV", "PRIMARY"), 100), zSide: profileSide(DIRECT_PROFILE, "DC"), bandwidth: 1000 });
  const sandbox = connectionBody({ name: "delta-sandbox", aSide: qinqSide(seededPort("DC", "QINQ"), 300), project: { projectId: SANDBOX } });
  const created = await t.call("POST", "/fabric/v4/connections", { body: sandbox, client: "limited" });
  await t.waitFor(`/fabric/v4/connections/${created.body.uuid}`, "/state", "PROVISIONED", "limited");
});

describe("POST /fabric/v4/connections/search", () => {
  it("lists the caller's connections, newest change first by default, with the sort it applied", async () => {
    const all = await search({});
    expect(all.status).toBe(200);
    expect(all.body.pagination).toMatchObject({ offset: 0, limit: 20, total: 4 });
    expect(all.body.sort).toEqual([{ property: "/changeLog/updatedDateTime", direction: "DESC" }]);
    expect(all.body.data[0].name).toBe("delta-sandbox");
    expect(names(await search({}, "limited"))).toEqual(["delta-sandbox"]);
  });

  it("filters with the official properties and operators", async () => {
    expect(names(await search(where("/name", "=", ["alpha-dc"])))).toEqual(["alpha-dc"]);
    expect(names(await search(where("/name", "LIKE", ["%-dc"])))).toEqual(["alpha-dc", "beta-dc"]);
    expect(names(await search(where("/name", "ILKE", ["ALPHA%"])))).toEqual(["alpha-dc"]);
    expect(names(await search(where("/uuid", "IN", [alpha, "nope"])))).toEqual(["alpha-dc"]);
    expect(names(await search(where("/bandwidth", ">=", ["500"])))).toEqual(["beta-dc", "gamma-sv"]);
    expect(names(await search(where("/bandwidth", "BETWEEN", ["200", "800"])))).toEqual(["beta-dc"]);
    expect(names(await search(where("/aSide/accessPoint/location/metroCode", "!=", ["DC"])))).toEqual(["gamma-sv"]);
    expect(names(await search(where("/isRemote", "=", ["false"])))).toEqual(["gamma-sv"]);
    expect(names(await search(where("/project/projectId", "=", [SANDBOX])))).toEqual(["delta-sandbox"]);
    expect(names(await search(where("/state", "=", ["PROVISIONED"])))).toHaveLength(4);
    expect(names(await search(where("/operation/equinixStatus", "=", ["PROVISIONED"])))).toHaveLength(4);
    expect(names(await search(where("/changeLog/lastUpdatedBy", "=", ["limited-user"])))).toEqual(["delta-sandbox"]);
    expect(names(await search(where("/changeLog/deletedBy", "IS NOT NULL", [])))).toEqual([]);
    expect(names(await search(where("/zSide/accessPoint/profile/uuid", "IS NULL", [])))).toEqual([]);
    const nested = { filter: { or: [{ property: "/name", operator: "=", values: ["alpha-dc"] }, { and: [{ property: "/bandwidth", operator: "=", values: ["1000"] }] }] } };
    expect(names(await search(nested))).toEqual(["alpha-dc", "gamma-sv"]);
  });

  it("pages and sorts", async () => {
    const page = await search({ pagination: { offset: 1, limit: 2 }, sort: [{ property: "/name", direction: "ASC" }] });
    expect(page.body.pagination).toMatchObject({ offset: 1, limit: 2, total: 4 });
    expect(page.body.data.map((c: { name: string }) => c.name)).toEqual(["beta-dc", "delta-sandbox"]);
    const byBandwidth = await search({ sort: [{ property: "/bandwidth" }] });
    expect(byBandwidth.body.data[0].bandwidth).toBe(1000);
    expect(byBandwidth.body.sort).toEqual([{ property: "/bandwidth", direction: "DESC" }]);
  });

  it("refuses unsupported properties, operators, sorts and page sizes, naming them", async () => {
    const cases: Array<[unknown, string, string]> = [
      [where("/description", "=", ["x"]), "EQ-3040055", "/filter/and/0/property"],
      [where("/name", "~", ["x"]), "EQ-2012025", "/filter/and/0/operator"],
      [where("/name", "=", []), "EQ-2012011", "/filter/and/0/values"],
      [where("/description", "IS NULL", []), "EQ-3040055", "/filter/and/0/property"],
      [{ filter: { and: "x" } }, "EQ-2010010", "/filter/and"],
      [{ filter: 3 }, "EQ-2010010", "/filter"],
      [{ pagination: { limit: 101 } }, "EQ-2010010", "/pagination/limit"],
      [{ pagination: { limit: 0 } }, "EQ-2010010", "/pagination/limit"],
      [{ pagination: { offset: -1 } }, "EQ-2010010", "/pagination/offset"],
      [{ sort: [{ property: "/state" }] }, "EQ-2012025", "/sort/0/property"],
      [{ sort: [{ property: "/name", direction: "UP" }] }, "EQ-3040054", "/sort/0/direction"],
      [{ sort: "name" }, "EQ-2010010", "/sort"],
    ];
    for (const [body, code, property] of cases) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(problem(res.body), JSON.stringify(body)).toMatchObject({ errorCode: code, additionalInfo: [{ property }] });
    }
    expect((await t.call("POST", `${SEARCH}?limit=5`, { body: {} })).status).toBe(400);
  });
});

describe("POST /fabric/v4/connections/search by state, sorted by last update", () => {
  const T0 = "2026-01-01T00:00:00.000Z";
  const T1 = "2026-01-02T00:00:00.000Z";
  const T2 = "2026-01-03T00:00:00.000Z";
  const byState = (state: string, extra: Record<string, unknown> = {}) => ({ ...where("/state", "=", [state]), ...extra });
  const inOrder = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((c) => c.name);
  const sorted = (direction: string) => ({ sort: [{ property: "/changeLog/updatedDateTime", direction }] });

  /** Gives the connection `name` this last update time, so that some tie. */
  function updatedAt(name: string, at: string): void {
    const world = t.sim.world;
    const connection = world.list("connections").find((o) => world.view(o).name === name)!;
    world.edit(connection, (body) => void ((body.changeLog as Record<string, unknown>).updatedDateTime = at));
  }

  beforeEach(() => {
    updatedAt("alpha-dc", T1);
    updatedAt("beta-dc", T1);
    updatedAt("gamma-sv", T2);
    updatedAt("delta-sandbox", T0);
  });

  it("orders both ways, connections updated at the same time in the order they were created", async () => {
    const descending = await search(byState("PROVISIONED", sorted("DESC")));
    expect(inOrder(descending)).toEqual(["gamma-sv", "alpha-dc", "beta-dc", "delta-sandbox"]);
    expect(descending.body.pagination).toEqual({ offset: 0, limit: 20, total: 4 });
    expect(inOrder(await search(byState("PROVISIONED")))).toEqual(inOrder(descending));
    expect(inOrder(await search(byState("PROVISIONED", sorted("ASC"))))).toEqual(["delta-sandbox", "alpha-dc", "beta-dc", "gamma-sv"]);
    expect(inOrder(await search(sorted("ASC")))).toEqual(["delta-sandbox", "alpha-dc", "beta-dc", "gamma-sv"]);
  });

  it("cuts pages across ties, and answers an offset past the end with no connections and the total", async () => {
    const page = await search(byState("PROVISIONED", { ...sorted("DESC"), pagination: { offset: 1, limit: 2 } }));
    expect(inOrder(page)).toEqual(["alpha-dc", "beta-dc"]);
    expect(page.body.pagination).toEqual({ offset: 1, limit: 2, total: 4 });
    expect(inOrder(await search(byState("PROVISIONED", { ...sorted("ASC"), pagination: { offset: 2, limit: 1 } })))).toEqual(["beta-dc"]);
    for (const offset of [4, 9]) {
      const past = await search(byState("PROVISIONED", { pagination: { offset, limit: 2 } }));
      expect(past.body).toMatchObject({ data: [], pagination: { offset, limit: 2, total: 4 } });
    }
  });

  it("sorted by name: both ways, pages cut the same, and a renamed connection in its new place", async () => {
    const byName = (direction: string, extra: Record<string, unknown> = {}) => byState("PROVISIONED", { sort: [{ property: "/name", direction }], ...extra });
    expect(inOrder(await search(byName("ASC")))).toEqual(["alpha-dc", "beta-dc", "delta-sandbox", "gamma-sv"]);
    expect(inOrder(await search(byName("DESC")))).toEqual(["gamma-sv", "delta-sandbox", "beta-dc", "alpha-dc"]);
    const page = await search(byName("ASC", { pagination: { offset: 1, limit: 2 } }));
    expect(inOrder(page)).toEqual(["beta-dc", "delta-sandbox"]);
    expect(page.body.pagination).toEqual({ offset: 1, limit: 2, total: 4 });

    const alpha = (await search(where("/name", "=", ["alpha-dc"]))).body.data[0].uuid;
    const renamed = await t.call("PATCH", `/fabric/v4/connections/${alpha}`, { body: [{ op: "replace", path: "/name", value: "zeta-dc" }] });
    expect(renamed.status, JSON.stringify(renamed.body)).toBeLessThan(300);
    await t.waitFor(`/fabric/v4/connections/${alpha}`, "/name", "zeta-dc");
    expect(inOrder(await search(byName("ASC")))).toEqual(["beta-dc", "delta-sandbox", "gamma-sv", "zeta-dc"]);
    // A search the counts cannot total sorts every match instead: the same order.
    expect(inOrder(await search({ ...where("/bandwidth", ">", [0]), sort: [{ property: "/name", direction: "ASC" }] }))).toEqual(["beta-dc", "delta-sandbox", "gamma-sv", "zeta-dc"]);
  });

  it("counts only what the caller sees, each asked state once, and a connection in the state it has reached", async () => {
    const limited = await search(byState("PROVISIONED"), "limited");
    expect(inOrder(limited)).toEqual(["delta-sandbox"]);
    expect(limited.body.pagination.total).toBe(1);
    const twice = await search(where("/operation/equinixStatus", "IN", ["PROVISIONED", "PROVISIONED", "FAILED"]));
    expect(twice.body.pagination.total).toBe(4);

    const beta = (await search(where("/name", "=", ["beta-dc"]))).body.data[0].uuid;
    expect((await t.call("DELETE", `/fabric/v4/connections/${beta}`)).status).toBe(200);
    const created = await t.call("POST", "/fabric/v4/connections", { body: connectionBody({ name: "epsilon-dc", aSide: coloSide(seededPort("DC", "PRIMARY"), 102) }) });
    // Whichever step of provisioning it is at, the new connection is the last updated.
    const provisioning = await search(where("/operation/equinixStatus", "IN", ["PROVISIONING", "PROVISIONED"]));
    expect(inOrder(provisioning)).toEqual(["epsilon-dc", "gamma-sv", "alpha-dc", "delta-sandbox"]);
    expect(provisioning.body.pagination.total).toBe(4);

    await t.waitFor(`/fabric/v4/connections/${created.body.uuid}`, "/state", "PROVISIONED");
    await t.waitFor(`/fabric/v4/connections/${beta}`, "/state", "DEPROVISIONED");
    expect((await search(byState("PROVISIONED"))).body.pagination.total).toBe(4);
    expect(inOrder(await search(byState("DEPROVISIONED")))).toEqual(["beta-dc"]);
  });
});
