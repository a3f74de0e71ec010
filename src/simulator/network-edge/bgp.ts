// BGP peerings of virtual devices (official description, tag "BGP"): a BGP session on a provisioned
// connection that ends at a provisioned device, from the device's address on the connection to the remote
// peer. A peering is made (202), read, listed and changed by PUT; the service has no delete. Its
// provisioningStatus moves PROVISIONING -> PROVISIONED while the session walks Idle -> Connect ->
// Established; it goes with its connection: once the connection is deprovisioned, so is the peering.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import { rejectUnknownFields } from "./device-fields.js";
import { neCreatedBy, neUpdatedBy, oneOf, optionalString, requireString, visibleDevice } from "./services-shared.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

const KIND = "bgpPeerings";
const STATUSES = ["PROVISIONING", "PROVISIONED", "FAILED", "DEPROVISIONED"] as const;
const TIMELINE = { connect: 10_000, established: 30_000 };
const MAX_ASN = 4294967295;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const CONNECTION_GONE: readonly Json[] = ["DEPROVISIONING", "DEPROVISIONED"];

const isIpv4 = (value: string) => {
  const m = IPV4.exec(value);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255 && String(Number(o)) === o);
};

function address(body: JsonObject, key: string, withPrefix: boolean): string {
  const value = requireString(body, key);
  const [ip, bits, ...rest] = value.split("/");
  const valid = rest.length === 0 && isIpv4(ip ?? "") && (withPrefix ? /^\d{1,2}$/.test(bits ?? "") && Number(bits) <= 32 : bits === undefined);
  if (!valid) fail("invalidProperty", key, withPrefix ? `${key} must be an IPv4 address with its prefix, e.g. 100.210.1.221/30` : `${key} must be an IPv4 address, e.g. 100.210.1.31`, value);
  return value;
}

function asn(body: JsonObject, key: string): number {
  const raw = body[key];
  if (raw === undefined || raw === null || raw === "") return fail("missingProperty", key, `${key} is required`);
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1 || raw > MAX_ASN) return fail("invalidProperty", key, `${key} must be an integer from 1 to ${MAX_ASN}`, JSON.stringify(raw));
  return raw;
}

/** What a create and an update both carry. */
function session(body: JsonObject): JsonObject {
  const localAsn = asn(body, "localAsn");
  const remoteAsn = asn(body, "remoteAsn");
  const authenticationKey = optionalString(body, "authenticationKey");
  if (authenticationKey !== undefined && (authenticationKey.length < 6 || authenticationKey.length > 80)) {
    fail("invalidProperty", "authenticationKey", "authenticationKey must be 6 to 80 characters");
  }
  return {
    localIpAddress: address(body, "localIpAddress", true),
    localAsn,
    remoteIpAddress: address(body, "remoteIpAddress", false),
    remoteAsn,
    ...(authenticationKey === undefined ? {} : { authenticationKey }),
  };
}

/** The device a connection ends at, on either side. */
function deviceEnd(view: JsonObject): string | undefined {
  for (const side of ["/aSide", "/zSide"]) {
    const uuid = getPointer(view, `${side}/accessPoint/virtualDevice/uuid`);
    if (typeof uuid === "string") return uuid;
  }
  return undefined;
}

function connectionOf(world: World, principal: Principal, uuid: string): { connection: JsonObject; device: string } {
  const obj = world.get(uuid, "connections");
  if (!obj || !canSee(principal, obj)) return fail("notFound", "connectionUuid", `connection ${uuid} was not found`, uuid);
  const connection = world.view(obj);
  if (connection.state !== "PROVISIONED") fail("invalidProperty", "connectionUuid", `connection ${uuid} is ${String(connection.state)}; BGP needs a PROVISIONED connection`, uuid);
  const device = deviceEnd(connection);
  if (device === undefined) return fail("invalidProperty", "connectionUuid", `connection ${uuid} does not end at a virtual device`, uuid);
  const deviceObj = visibleDevice(world, principal, device);
  const status = deviceObj ? world.view(deviceObj).status : "missing";
  if (status !== "PROVISIONED") fail("invalidProperty", "connectionUuid", `virtual device ${device} of connection ${uuid} is ${String(status)}; it must be PROVISIONED`, uuid);
  return { connection, device };
}

function bringUp(world: World, peering: SimObject, immediate: Record<string, Json>): void {
  world.transition(
    peering,
    { ...immediate, "/provisioningStatus": "PROVISIONING", "/state": "Idle" },
    [
      { afterMs: TIMELINE.connect, set: { "/state": "Connect" } },
      { afterMs: TIMELINE.established, set: { "/provisioningStatus": "PROVISIONED", "/state": "Established" } },
    ],
    { "/provisioningStatus": "FAILED", "/state": "Idle" },
  );
}

/** A peering whose connection is gone is gone with it. */
function render(body: JsonObject, _obj: SimObject, world: World): JsonObject {
  const connection = typeof body.connectionUuid === "string" ? world.get(body.connectionUuid, "connections") : undefined;
  if (connection && !CONNECTION_GONE.includes(world.view(connection).state ?? null)) return body;
  return { ...body, provisioningStatus: "DEPROVISIONED", state: "Idle" };
}

function findPeering(world: World, principal: Principal, uuid: string): SimObject {
  const peering = world.get(uuid, KIND);
  if (!peering || !canSee(principal, peering)) return fail("notFound", "uuid", `BGP peering ${uuid} was not found`, uuid);
  return peering;
}

async function createPeering(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const body = await readObject(c);
  rejectUnknownFields(body, ["connectionUuid", "localIpAddress", "localAsn", "remoteIpAddress", "remoteAsn", "authenticationKey"]);
  const connectionUuid = requireString(body, "connectionUuid");
  const { device } = connectionOf(world, principal, connectionUuid);
  const settings = session(body);
  const taken = world.list(KIND).find((o) => o.body.connectionUuid === connectionUuid && world.view(o).provisioningStatus !== "DEPROVISIONED");
  if (taken) fail("invalidProperty", "connectionUuid", `connection ${connectionUuid} already has BGP peering ${taken.uuid}; change it with PUT /ne/v1/bgp/${taken.uuid}`, connectionUuid);
  const uuid = world.uuid();
  const peering = world.create(KIND, { uuid, connectionUuid, virtualDeviceUuid: device, ...settings, ...neCreatedBy(principal, world.nowIso()) }, { uuid, projectId: principal.projectIds[0]! });
  bringUp(world, peering, {});
  return c.json({ uuid }, 202);
}

async function updatePeering(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const peering = findPeering(world, principal, c.req.param("uuid")!);
  const view = world.view(peering);
  if (view.provisioningStatus === "DEPROVISIONED") fail("invalidProperty", "uuid", `BGP peering ${peering.uuid} is DEPROVISIONED with its connection`, peering.uuid);
  const body = await readObject(c);
  rejectUnknownFields(body, ["localIpAddress", "localAsn", "remoteIpAddress", "remoteAsn", "authenticationKey"]);
  const settings = session(body);
  world.settle(peering);
  world.edit(peering, (stored) => delete stored.authenticationKey);
  const pointers = Object.fromEntries(Object.entries({ ...settings, ...neUpdatedBy(principal, world.nowIso()) }).map(([k, v]) => [`/${k}`, v]));
  bringUp(world, peering, pointers);
  return c.json({ uuid: peering.uuid }, 202);
}

function listPeerings(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["virtualDeviceUuid", "connectionUuid", "status", "accountUcmId", "offset", "limit"]);
  const principal = c.get("principal");
  const page = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
  const rawStatus = c.req.query("status");
  const status = rawStatus === undefined ? undefined : oneOf(rawStatus, STATUSES, "status");
  const [device, connection] = ["virtualDeviceUuid", "connectionUuid"].map((q) => c.req.query(q));
  const items = world
    .list(KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o))
    .filter((v) => device === undefined || v.virtualDeviceUuid === device)
    .filter((v) => connection === undefined || v.connectionUuid === connection)
    .filter((v) => (status === undefined ? v.provisioningStatus !== "DEPROVISIONED" : v.provisioningStatus === status));
  return c.json(paginate(items, page));
}

export const bgpArea: Area = {
  name: "ne-bgp",
  define(world) {
    world.defineKind(KIND, { statePath: "/provisioningStatus", eventType: "equinix.network_edge.bgp", subject: (o) => `/ne/v1/bgp/${o.uuid}`, render });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/bgp", (c) => createPeering(c, world));
    app.get("/ne/v1/bgp", (c) => listPeerings(c, world));
    app.get("/ne/v1/bgp/:uuid", (c) => {
      rejectUnknownQuery(c, []);
      return c.json(world.view(findPeering(world, c.get("principal"), c.req.param("uuid")!)));
    });
    app.put("/ne/v1/bgp/:uuid", (c) => updatePeering(c, world));
  },
};
