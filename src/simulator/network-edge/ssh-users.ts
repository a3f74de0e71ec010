// SSH users of virtual devices. The specification names them only inside a device order (`sshUsers`);
// the service manages them through /ne/v1/sshUsers, which the public client library equinix/ne-go and the
// Terraform provider use and an earlier official description of the device service documents (the
// equinix/equinix-sdk-go SSH user API): create a user on one device, read one or a page of them, change
// the password, associate the user with more devices and dissociate it from them. A user goes with its
// last device: dissociating it deletes the user, and so does the deletion of every device it was on.
//
// A user exists in each metro of its devices, where the service sets it up: `metroStatusMap` reads PENDING
// until that is done, then ACTIVE, as equinix/ne-go's recorded answers show it (ne_sshuser_get_resp.json).

import type { Context } from "hono";
import { ACCOUNTS } from "../core/auth.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { fail } from "../core/errors.js";
import { pageLink, pageResponse, paginate, queryPage, readObject, rejectUnknownQuery } from "../core/http.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";
import { queryBoolean, rejectUnknownFields, requiredString, type StringRule } from "./device-fields.js";

const KIND = "sshUsers";
const DEVICE_KIND = "devices";

/** The official description of the device order's sshUsername: 3 to 32 letters, digits, dashes and underscores. */
const USERNAME_RULE: StringRule = { min: 3, max: 32, pattern: /^[A-Za-z0-9_-]+$/, patternText: "may hold only letters, digits, dashes and underscores" };
/** The Terraform provider's rule for an SSH user's password (equinix_network_ssh_user: 8 to 20 characters). */
const PASSWORD_LENGTH = { min: 8, max: 20 };
/** Simulated time the service takes to set a user up on a device it was just associated with. */
const SETUP_MS = 20_000;

const LIST_QUERY = ["username", "virtualDeviceUuid", "verbose", "accountUcmId", "offset", "limit"];

type Ctx = Context<SimEnv>;

// ── reading a user ─────────────────────────────────────────────────────────────────────────────

/** A device the user can still be on: it exists and has not been deleted. */
function liveDevice(world: World, uuid: string): JsonObject | undefined {
  const device = world.get(uuid, DEVICE_KIND);
  if (!device) return undefined;
  const view = world.view(device);
  return view.status === "DEPROVISIONED" ? undefined : view;
}

const storedDevices = (body: JsonObject): string[] => (Array.isArray(body.deviceUuids) ? body.deviceUuids.filter((d): d is string => typeof d === "string") : []);
const storedStatuses = (body: JsonObject): JsonObject => (body.metroStatusMap !== null && typeof body.metroStatusMap === "object" && !Array.isArray(body.metroStatusMap) ? body.metroStatusMap : {});

type MetroStatus = "ACTIVE" | "PENDING" | "FAILED";
const STATUS_RANK: Readonly<Record<MetroStatus, number>> = { ACTIVE: 0, PENDING: 1, FAILED: 2 };

/** A device still being made or changed: a user on it is not set up there yet. */
const settling = (status: Json | undefined) => status !== "PROVISIONED" && status !== "DEPROVISIONING";

/**
 * The user as the service answers it (the shape of equinix/ne-go's recorded answers: uuid, username,
 * deviceUuids, metroStatusMap): only the devices that still exist, and a status for each of their metros,
 * which is PENDING while the user is being set up there or while a device there is still being made.
 */
function renderUser(body: JsonObject, _obj: SimObject, world: World): JsonObject {
  const devices = storedDevices(body)
    .map((uuid) => ({ uuid, view: liveDevice(world, uuid) }))
    .filter((d): d is { uuid: string; view: JsonObject } => d.view !== undefined);
  const stored = storedStatuses(body);
  const metroStatusMap: Record<string, { status: MetroStatus }> = {};
  for (const { view } of devices) {
    const metro = String(view.metroCode);
    const recorded = (stored[metro] as JsonObject | undefined)?.status;
    const status: MetroStatus = recorded === "PENDING" || recorded === "FAILED" ? recorded : settling(view.status) ? "PENDING" : "ACTIVE";
    // A metro is as far as the least advanced of the user's devices there.
    const known = metroStatusMap[metro]?.status;
    if (known === undefined || STATUS_RANK[status] > STATUS_RANK[known]) metroStatusMap[metro] = { status };
  }
  return { uuid: body.uuid ?? null, username: body.username ?? null, deviceUuids: devices.map((d) => d.uuid), metroStatusMap };
}

/** Whether the service still has the user: it has at least one device left. */
const exists = (world: World, obj: SimObject): boolean => (world.view(obj).deviceUuids as Json[]).length > 0;

function findUser(world: World, principal: Principal, uuid: string): SimObject | undefined {
  const user = world.get(uuid, KIND);
  return user && canSee(principal, user) && exists(world, user) ? user : undefined;
}

function visibleUser(world: World, principal: Principal, uuid: string, property = "uuid"): SimObject {
  return findUser(world, principal, uuid) ?? fail("sshUserNotFound", property, `SSH user ${uuid} was not found`, uuid);
}

/** The live user of this name, visible or not: a username is the organisation's, once. */
const userNamed = (world: World, username: string): SimObject | undefined => world.list(KIND).find((u) => u.body.username === username && exists(world, u));

// ── devices ────────────────────────────────────────────────────────────────────────────────────

/**
 * A device a user can be put on: the caller's, and PROVISIONED. One named in a request body that names no
 * device is a bad request (the create documents no 404); one named in the path is not found.
 */
function usableDevice(world: World, principal: Principal, uuid: string, property: string, inPath: boolean): SimObject {
  const device = world.get(uuid, DEVICE_KIND);
  if (!device || !canSee(principal, device) || liveDevice(world, uuid) === undefined) {
    return fail(inPath ? "sshUserDeviceNotFound" : "sshUserDeviceInvalid", property, `virtual device ${uuid} was not found`, uuid);
  }
  const status = world.view(device).status;
  if (status !== "PROVISIONED") fail("sshUserDeviceNotReady", property, `virtual device ${uuid} is ${String(status)}; SSH users can be added to PROVISIONED devices`, uuid);
  return device;
}

const metroOf = (world: World, deviceUuid: string): string | undefined => {
  const view = liveDevice(world, deviceUuid);
  return typeof view?.metroCode === "string" ? view.metroCode : undefined;
};

/**
 * The user is set up on a device just associated: PENDING in its metro, unless a device of the user is
 * already there, and ACTIVE after a while. Setups still running end with this one.
 */
function setUp(world: World, user: SimObject, device: string, others: readonly string[]): void {
  const metro = metroOf(world, device);
  if (metro === undefined || others.some((d) => metroOf(world, d) === metro)) return;
  world.settle(user);
  const waiting = Object.entries(storedStatuses(user.body))
    .filter(([, s]) => (s as JsonObject | undefined)?.status === "PENDING")
    .map(([m]) => m);
  const metros = [...new Set([...waiting, metro])];
  const at = (status: string) => Object.fromEntries(metros.map((m) => [`/metroStatusMap/${m}`, { status }]));
  world.transition(user, { [`/metroStatusMap/${metro}`]: { status: "PENDING" } }, [{ afterMs: SETUP_MS, set: at("ACTIVE") }], at("FAILED"));
}

// ── checks of a request ────────────────────────────────────────────────────────────────────────

/** A password: never echoed in an answer. */
function password(body: JsonObject, property = "password"): string {
  const value = body.password;
  if (value === undefined || value === null || value === "") return fail("missingProperty", property, `${property} is required`);
  if (typeof value !== "string") return fail("invalidProperty", property, `${property} must be a string`);
  if (value.length < PASSWORD_LENGTH.min || value.length > PASSWORD_LENGTH.max) {
    fail("invalidProperty", property, `${property} must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
  }
  return value;
}

function unusedName(world: World, name: string, property: string): void {
  if (userNamed(world, name)) fail("sshUserExists", property, `an SSH user named ${name} already exists; associate it with the device instead`, name);
}

/** A new user on its first device; its project is that device's, so that the device's viewers see it. */
function makeUser(world: World, name: string, secret: string | undefined, device: SimObject): SimObject {
  const uuid = world.uuid();
  return world.create(KIND, { uuid, username: name, deviceUuids: [device.uuid], metroStatusMap: {} }, { uuid, ...(device.projectId === undefined ? {} : { projectId: device.projectId }), meta: secret === undefined ? {} : { password: secret } });
}

// ── the routes ─────────────────────────────────────────────────────────────────────────────────

async function createUser(c: Ctx, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const body = await readObject(c);
  rejectUnknownFields(body, ["username", "password", "deviceUuid"]);
  const name = requiredString(body, "username", "username", USERNAME_RULE);
  const secret = password(body);
  const deviceUuid = requiredString(body, "deviceUuid", "deviceUuid");
  const device = usableDevice(world, principal, deviceUuid, "deviceUuid", false);
  unusedName(world, name, "username");
  const user = makeUser(world, name, secret, device);
  setUp(world, user, device.uuid, []);
  // equinix/ne-go reads the new user's id from Location; the description's answer also carries it.
  c.header("Location", `/ne/v1/sshUsers/${user.uuid}`);
  return c.json({ uuid: user.uuid }, 201);
}

function accountFilter(c: Ctx, principal: Principal): ((deviceUuids: readonly string[], world: World) => boolean) | undefined {
  const ucmId = c.req.query("accountUcmId");
  if (ucmId === undefined) return undefined;
  const account = Object.values(ACCOUNTS).find((a) => a.ucmId === ucmId && principal.accountNumbers.includes(a.accountNumber));
  if (!account) return fail("referenceNotFound", "accountUcmId", `account ${ucmId} was not found among the caller's accounts`, ucmId);
  return (devices, world) => devices.some((d) => liveDevice(world, d)?.accountNumber === String(account.accountNumber));
}

function listUsers(c: Ctx, world: World): Response {
  rejectUnknownQuery(c, LIST_QUERY);
  const principal = c.get("principal");
  const page = queryPage(c, { defaultLimit: 20 });
  // The description does not say what a list without `verbose` leaves out; equinix/ne-go always sends it.
  queryBoolean(c, "verbose");
  const name = c.req.query("username");
  const device = c.req.query("virtualDeviceUuid");
  const byAccount = accountFilter(c, principal);
  const users = world
    .list(KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o))
    .filter((u) => {
      const devices = u.deviceUuids as string[];
      return devices.length > 0 && (name === undefined || u.username === name) && (device === undefined || devices.includes(device)) && (!byAccount || byAccount(devices, world));
    });
  return pageResponse(c, paginate(users, page, pageLink(c)));
}

function getUser(c: Ctx, world: World): Response {
  rejectUnknownQuery(c, []);
  return c.json(world.view(visibleUser(world, c.get("principal"), c.req.param("uuid")!)));
}

async function changePassword(c: Ctx, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const user = visibleUser(world, c.get("principal"), c.req.param("uuid")!);
  const body = await readObject(c);
  rejectUnknownFields(body, ["password"]);
  world.setMeta(user, "password", password(body));
  world.recordEvent(user, "updated", world.now(), "password changed");
  return c.body(null, 204);
}

function associate(c: Ctx, world: World): Response {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const user = visibleUser(world, principal, c.req.param("userUuid")!, "sshUserUuid");
  const device = usableDevice(world, principal, c.req.param("deviceUuid")!, "deviceUuid", true);
  const current = world.view(user).deviceUuids as string[];
  if (current.includes(device.uuid)) fail("invalidProperty", "deviceUuid", `SSH user ${user.uuid} is already associated with device ${device.uuid}`, device.uuid);
  world.edit(user, (stored) => {
    stored.deviceUuids = [...current, device.uuid];
  });
  setUp(world, user, device.uuid, current);
  world.recordEvent(user, "updated", world.now(), `associated with device ${device.uuid}`);
  return c.body(null, 201);
}

/** Dissociates the user from a device; without devices left, the user is deleted. */
function dissociate(c: Ctx, world: World): Response {
  rejectUnknownQuery(c, []);
  const principal = c.get("principal");
  const user = visibleUser(world, principal, c.req.param("userUuid")!, "sshUserUuid");
  const deviceUuid = c.req.param("deviceUuid")!;
  const current = world.view(user).deviceUuids as string[];
  if (!current.includes(deviceUuid)) fail("sshUserNotFound", "deviceUuid", `SSH user ${user.uuid} is not associated with device ${deviceUuid}`, deviceUuid);
  const left = current.filter((d) => d !== deviceUuid);
  const metro = metroOf(world, deviceUuid);
  world.settle(user);
  world.edit(user, (stored) => {
    stored.deviceUuids = left;
    // The user leaves a metro with its last device there.
    if (metro !== undefined && !left.some((d) => metroOf(world, d) === metro)) {
      const { [metro]: _left, ...statuses } = storedStatuses(stored);
      stored.metroStatusMap = statuses;
    }
  });
  if (left.length === 0) world.remove(user);
  else world.recordEvent(user, "updated", world.now(), `dissociated from device ${deviceUuid}`);
  return c.json({ sshUserToDeviceAssociationDeleted: true, sshUserDeleted: left.length === 0 });
}

// ── users named in a device order ──────────────────────────────────────────────────────────────

/** One device's `sshUsers` in a device order, and where in the order they are written. */
export interface OrderedUsers {
  entries: readonly JsonObject[];
  /** "sshUsers" or "secondary.sshUsers". */
  property: string;
}

type OrderStep = { reuse: SimObject } | { name: string; secret: string | undefined };

/**
 * Checks the users a device order names (one group per device it makes) before anything is made, and
 * returns what puts them on the devices once they are: a new username becomes a user (one user when the
 * primary and the secondary name it alike), REUSE puts an existing user on the device too.
 */
export function orderedUsers(world: World, principal: Principal, groups: readonly OrderedUsers[]): (deviceUuids: readonly string[]) => void {
  const plans = groups.map(({ entries, property }) =>
    entries.map((entry, i): OrderStep | undefined => {
      const p = `${property}[${i}]`;
      if (entry.action === "DELETE") return undefined;
      if (entry.action === "REUSE") {
        const uuid = String(entry.sshUserUuid);
        // The device order documents no 404: a user it names that is not there is a bad reference.
        return { reuse: findUser(world, principal, uuid) ?? fail("referenceNotFound", `${p}.sshUserUuid`, `no SSH user ${uuid}; list the users with GET /ne/v1/sshUsers`, uuid) };
      }
      const name = String(entry.sshUsername);
      unusedName(world, name, `${p}.sshUsername`);
      return { name, secret: typeof entry.sshPassword === "string" ? entry.sshPassword : undefined };
    }),
  );
  return (deviceUuids) => {
    const made = new Map<string, SimObject>();
    plans.forEach((plan, g) => {
      const device = world.get(deviceUuids[g]!, DEVICE_KIND);
      if (!device) return;
      for (const step of plan) {
        if (!step) continue;
        let user: SimObject | undefined;
        if ("reuse" in step) user = step.reuse;
        else {
          user = made.get(step.name);
          if (!user) {
            made.set(step.name, makeUser(world, step.name, step.secret, device));
            continue;
          }
        }
        const current = storedDevices(user.body);
        if (current.includes(device.uuid)) continue;
        world.edit(user, (stored) => {
          stored.deviceUuids = [...current, device.uuid];
        });
      }
    });
  };
}

export const sshUsersArea: Area = {
  name: "ne-ssh-users",
  define(world) {
    world.defineKind(KIND, { eventType: "equinix.network_edge.ssh_user", subject: (o) => `/ne/v1/sshUsers/${o.uuid}`, render: renderUser });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/sshUsers", (c) => createUser(c, world));
    app.get("/ne/v1/sshUsers", (c) => listUsers(c, world));
    app.get("/ne/v1/sshUsers/:uuid", (c) => getUser(c, world));
    app.put("/ne/v1/sshUsers/:uuid", (c) => changePassword(c, world));
    app.post("/ne/v1/sshUsers/:userUuid/devices/:deviceUuid", (c) => associate(c, world));
    app.delete("/ne/v1/sshUsers/:userUuid/devices/:deviceUuid", (c) => dissociate(c, world));
  },
};
