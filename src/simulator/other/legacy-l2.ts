// The legacy layer 2 connection interface (`/ecx/v3/l2/connections`, sections 4.16 and 7.3), known
// through its validation errors: every row of table 7.3 is checked here with its code and property, in
// problem style B. A valid request creates a connection from a colocation port (and optionally a
// redundant secondary from a second port) to a service profile, which provisions on the clock.
//
// Authorization keys are the seller-side keys of the profile's provider (a cloud account, say): the
// first connection made with a key binds it to that connection's seller metro, a named tag can be used
// once per key, and a key carries at most three Dot1Q connections.

import type { Context } from "hono";
import type { Area, Principal, SimApp, SimEnv } from "../core/context.js";
import { canSee } from "../core/context.js";
import { SimError, fail, type ProblemDetail } from "../core/errors.js";
import { readObject } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { getPointer, type Json, type JsonObject, type SimObject, type World } from "../core/world.js";

const KIND = "legacyConnections";

/** Simulated time from creation to PROVISIONED: a connection to a profile takes tens of seconds. */
const PROVISIONING_MS = 45_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Letters, digits and underscores, in words separated by single spaces. */
const NAME = /^[A-Za-z0-9_]+( [A-Za-z0-9_]+)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_NAME = 24;
const MAX_PURCHASE_ORDER = 30;
const MIN_TAG = 2;
const MAX_TAG = 4094;
const MAX_DOT1Q_PER_KEY = 3;

type SpeedUnit = "MB" | "GB";
type Redundancy = "primary" | "secondary";

/** One leg of the request: the primary connection, or the redundant secondary. */
interface Leg {
  redundancy: Redundancy;
  name: string;
  portUuid: string;
  sTag: number;
  cTag?: number;
}

interface L2Request {
  primary: Leg;
  secondary?: Leg;
  profileUuid: string;
  speed: number;
  speedUnit: SpeedUnit;
  notifications: string[];
  purchaseOrderNumber?: string;
  namedTag?: string;
  sellerMetroCode: string;
  authorizationKey?: string;
}

// ── field validation (IC-LAYER2-402) ─────────────────────────────────────────────────────────

/** Collects every IC-LAYER2-402 problem of a request, so that one answer names them all. */
class Problems {
  readonly list: ProblemDetail[] = [];

  add(property: string, reason: string, value?: Json): undefined {
    this.list.push({ property, reason, ...(value === undefined ? {} : { value }) });
    return undefined;
  }

  string(body: JsonObject, field: string, required: boolean, property = field): string | undefined {
    const value = body[field];
    if (value === undefined || value === null || value === "") return required ? this.add(property, `${field} is required`) : undefined;
    if (typeof value !== "string") return this.add(property, `${field} must be a string`, value);
    return value;
  }

  name(body: JsonObject, field: string, property: string, required: boolean): string | undefined {
    const value = this.string(body, field, required, property);
    if (value === undefined) return undefined;
    if (value.length > MAX_NAME) return this.add(property, `the connection name must be at most ${MAX_NAME} characters long`, value);
    if (!NAME.test(value)) return this.add(property, "the connection name may contain only letters, digits, underscores and single spaces between words", value);
    return value;
  }

  uuid(body: JsonObject, field: string, required: boolean): string | undefined {
    const value = this.string(body, field, required);
    if (value !== undefined && !UUID.test(value)) return this.add(field, `${field} must be a valid UUID`, value);
    return value;
  }

  tag(body: JsonObject, field: string, kind: "S-tag" | "C-tag", required: boolean): number | undefined {
    const value = body[field];
    if (value === undefined || value === null) return required ? this.add(field, `${field} is required`) : undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < MIN_TAG || value > MAX_TAG) {
      return this.add(field, `the ${kind} must be an integer from ${MIN_TAG} to ${MAX_TAG}`, value);
    }
    return value;
  }
}

function speedOf(p: Problems, body: JsonObject): { speed?: number; speedUnit?: SpeedUnit } {
  const speed = body.speed;
  const unit = body.speedUnit;
  const validSpeed = typeof speed === "number" && Number.isInteger(speed) && speed > 0;
  if (speed === undefined || speed === null) p.add("speed", "speed is required");
  else if (!validSpeed) p.add("speed", "speed must be a positive integer", speed);
  if (unit === undefined || unit === null) p.add("speedUnit", "speedUnit is required; valid values: MB, GB");
  else if (unit !== "MB" && unit !== "GB") p.add("speedUnit", "speedUnit must be one of MB, GB", unit);
  return { ...(validSpeed ? { speed } : {}), ...(unit === "MB" || unit === "GB" ? { speedUnit: unit } : {}) };
}

function notificationsOf(p: Problems, body: JsonObject): string[] {
  const value = body.notifications;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((e) => typeof e !== "string" || !EMAIL.test(e))) {
    p.add("notifications", "notifications must be an array of email addresses", value);
    return [];
  }
  return value as string[];
}

function purchaseOrderOf(p: Problems, body: JsonObject): string | undefined {
  const value = p.string(body, "purchaseOrderNumber", false);
  if (value !== undefined && value.length > MAX_PURCHASE_ORDER) {
    return p.add("purchaseOrderNumber", `the purchase order number must be at most ${MAX_PURCHASE_ORDER} characters long`, value);
  }
  return value;
}

/** The secondary leg, present when any of its fields is; then its name, port and S-tag are all required. */
function secondaryOf(p: Problems, body: JsonObject): Leg | undefined {
  const fields = ["secondaryName", "secondaryPortUUID", "secondaryVlanSTag", "secondaryVlanCTag"];
  if (!fields.some((f) => body[f] !== undefined && body[f] !== null)) return undefined;
  const name = p.name(body, "secondaryName", "SecondaryName", true);
  const portUuid = p.uuid(body, "secondaryPortUUID", true);
  const sTag = p.tag(body, "secondaryVlanSTag", "S-tag", true);
  const cTag = p.tag(body, "secondaryVlanCTag", "C-tag", false);
  if (name === undefined || portUuid === undefined || sTag === undefined) return undefined;
  return { redundancy: "secondary", name, portUuid, sTag, ...(cTag === undefined ? {} : { cTag }) };
}

/** Every field rule of table 7.3 (IC-LAYER2-402), reported together. */
function parseRequest(body: JsonObject): L2Request {
  const p = new Problems();
  const name = p.name(body, "primaryName", "PrimaryName", true);
  const profileUuid = p.uuid(body, "profileUUID", true);
  const purchaseOrderNumber = purchaseOrderOf(p, body);
  const { speed, speedUnit } = speedOf(p, body);
  const cTag = p.tag(body, "primaryVlanCTag", "C-tag", false);
  const sTag = p.tag(body, "primaryVlanSTag", "S-tag", true);
  const portUuid = p.uuid(body, "primaryPortUUID", true);
  const secondary = secondaryOf(p, body);
  const notifications = notificationsOf(p, body);
  const namedTag = p.string(body, "namedTag", false);
  const sellerMetroCode = p.string(body, "sellerMetroCode", true);
  const authorizationKey = p.string(body, "authorizationKey", false);
  if (p.list.length > 0) throw new SimError("layer2Invalid", p.list);
  // Every required value was checked above; the assertions only tell the compiler so.
  return {
    primary: { redundancy: "primary", name: name!, portUuid: portUuid!, sTag: sTag!, ...(cTag === undefined ? {} : { cTag }) },
    ...(secondary ? { secondary } : {}),
    profileUuid: profileUuid!,
    speed: speed!,
    speedUnit: speedUnit!,
    notifications,
    ...(purchaseOrderNumber === undefined ? {} : { purchaseOrderNumber }),
    ...(namedTag === undefined ? {} : { namedTag }),
    sellerMetroCode: sellerMetroCode!,
    ...(authorizationKey === undefined ? {} : { authorizationKey }),
  };
}

// ── references: ports, profile, authorization key ────────────────────────────────────────────

interface Profile {
  uuid: string;
  name: string;
  metros: string[];
  bandwidths: number[];
}

function profileOf(world: World, uuid: string): Profile {
  const obj = world.get(uuid, "serviceProfiles");
  if (!obj) return fail("layer2Invalid", "profileUUID", "no service profile has this UUID", uuid);
  const body = world.view(obj);
  const metros = getPointer(body, "/metros");
  const bandwidths = getPointer(body, "/accessPointTypeConfigs/0/supportedBandwidths");
  return {
    uuid,
    name: String(body.name ?? ""),
    metros: Array.isArray(metros) ? metros.map((m) => String(getPointer(m, "/code"))) : [],
    bandwidths: Array.isArray(bandwidths) ? bandwidths.map(Number) : [],
  };
}

function checkProfileOffer(profile: Profile, req: L2Request): void {
  if (!profile.metros.includes(req.sellerMetroCode)) {
    fail("layer2Invalid", "sellerMetroCode", `the profile is offered in ${profile.metros.join(", ")} only`, req.sellerMetroCode);
  }
  const mbps = req.speedUnit === "GB" ? req.speed * 1000 : req.speed;
  if (!profile.bandwidths.includes(mbps)) {
    fail("layer2Invalid", "speed", `the profile supports ${profile.bandwidths.join(", ")} Mbps`, `${req.speed} ${req.speedUnit}`);
  }
}

interface Port {
  body: JsonObject;
  projectId: string | undefined;
}

/** A colocation port the caller owns; others do not exist for it (IC-LAYER2-PORTS-001). */
function portFor(world: World, principal: Principal, leg: Leg): Port {
  const property = leg.redundancy === "primary" ? "primaryPortUUID" : "secondaryPortUUID";
  const obj = world.get(leg.portUuid, "ports");
  if (!obj || !canSee(principal, obj)) return fail("layer2PortNotFound", property, undefined, leg.portUuid);
  return { body: world.view(obj), projectId: obj.projectId };
}

const encapsulationOf = (port: Port): string => String(getPointer(port.body, "/encapsulation/type") ?? "DOT1Q");

/** Connections already made with this authorization key (by anyone: the key is the seller's). */
function connectionsUnderKey(world: World, key: string): JsonObject[] {
  return world
    .list(KIND)
    .map((o) => world.view(o))
    .filter((b) => b.authorizationKey === key && b.status !== "DEPROVISIONED");
}

function checkAuthorizationKey(world: World, req: L2Request, newDot1q: number): void {
  const key = req.authorizationKey;
  if (key === undefined) return;
  const existing = connectionsUnderKey(world, key);
  if (req.namedTag !== undefined && existing.some((b) => b.namedTag === req.namedTag)) {
    fail("layer2NamedTagInUse", "authorizationkey", `named tag ${req.namedTag} is already used in another connection under this authorization key`, key);
  }
  const boundMetro = existing[0]?.sellerMetroCode;
  if (boundMetro !== undefined && boundMetro !== req.sellerMetroCode) {
    fail("layer2KeyMetroMismatch", "authorizationKey", `this authorization key belongs to metro ${String(boundMetro)}, not ${req.sellerMetroCode}`, key);
  }
  const dot1q = existing.filter((b) => b.asideEncapsulation === "dot1q").length;
  if (newDot1q > 0 && dot1q + newDot1q > MAX_DOT1Q_PER_KEY) {
    fail("layer2Dot1qLimit", "authorizationKey", `this authorization key already carries ${dot1q} Dot1Q connections; at most ${MAX_DOT1Q_PER_KEY} are allowed`, key);
  }
}

// ── creation and reading ─────────────────────────────────────────────────────────────────────

interface Placement {
  leg: Leg;
  port: Port;
  uuid: string;
}

function connectionBody(world: World, principal: Principal, req: L2Request, profile: Profile, placed: Placement, group: string, redundantUuid?: string): JsonObject {
  const { leg, port, uuid } = placed;
  const metroCode = String(getPointer(port.body, "/location/metroCode") ?? "");
  const at = world.nowIso();
  return {
    uuid,
    name: leg.name,
    vlanSTag: leg.sTag,
    ...(leg.cTag === undefined ? {} : { vlanCTag: leg.cTag }),
    portUUID: leg.portUuid,
    portName: String(port.body.name ?? ""),
    asideEncapsulation: encapsulationOf(port).toLowerCase(),
    metroCode,
    metroDescription: METRO_BY_CODE.get(metroCode)?.name ?? metroCode,
    buyerOrganizationName: String(getPointer(port.body, "/account/organizationName") ?? ""),
    status: "PROVISIONING",
    providerStatus: "PROVISIONING",
    billingTier: `Up to ${req.speed} ${req.speedUnit}`,
    speed: req.speed,
    speedUnit: req.speedUnit,
    redundancyType: leg.redundancy,
    redundancyGroup: group,
    ...(redundantUuid === undefined ? {} : { redundantUUID: redundantUuid }),
    sellerMetroCode: req.sellerMetroCode,
    sellerMetroDescription: METRO_BY_CODE.get(req.sellerMetroCode)?.name ?? req.sellerMetroCode,
    sellerServiceName: profile.name,
    sellerServiceUUID: profile.uuid,
    ...(req.authorizationKey === undefined ? {} : { authorizationKey: req.authorizationKey }),
    ...(req.namedTag === undefined ? {} : { namedTag: req.namedTag }),
    ...(req.purchaseOrderNumber === undefined ? {} : { purchaseOrderNumber: req.purchaseOrderNumber }),
    notifications: req.notifications,
    createdDate: at,
    createdBy: principal.userName,
    createdByFullName: principal.fullName,
    createdByEmail: principal.email,
    lastUpdatedBy: principal.userName,
    lastUpdatedDate: at,
    lastUpdatedByFullName: principal.fullName,
    lastUpdatedByEmail: principal.email,
    remote: metroCode !== req.sellerMetroCode,
    private: false,
    self: false,
  };
}

/** Creates one leg in its port's project and starts provisioning it. */
function provision(world: World, body: JsonObject, port: Port): SimObject {
  const obj = world.create(KIND, body, port.projectId === undefined ? {} : { projectId: port.projectId });
  world.transition(
    obj,
    { "/status": "PROVISIONING", "/providerStatus": "PROVISIONING" },
    [{ afterMs: PROVISIONING_MS, set: { "/status": "PROVISIONED", "/providerStatus": "PROVISIONED" } }],
    { "/status": "FAILED", "/providerStatus": "NOT_AVAILABLE" },
  );
  return obj;
}

async function createConnections(c: Context<SimEnv>, world: World) {
  const principal = c.get("principal");
  const req = parseRequest(await readObject(c));
  const profile = profileOf(world, req.profileUuid);
  checkProfileOffer(profile, req);
  const primaryPort = portFor(world, principal, req.primary);
  const secondaryPort = req.secondary && portFor(world, principal, req.secondary);
  if (secondaryPort && encapsulationOf(secondaryPort) !== encapsulationOf(primaryPort)) {
    fail("layer2PortTypesDiffer", "secondaryPortUUID", `the primary port is ${encapsulationOf(primaryPort)} and the secondary port is ${encapsulationOf(secondaryPort)}; use ports of the same type`, req.secondary?.portUuid);
  }
  const legs = [primaryPort, ...(secondaryPort ? [secondaryPort] : [])];
  checkAuthorizationKey(world, req, legs.filter((port) => encapsulationOf(port) === "DOT1Q").length);

  const group = world.uuid();
  const primary: Placement = { leg: req.primary, port: primaryPort, uuid: world.uuid() };
  const secondary: Placement | undefined = req.secondary && secondaryPort && { leg: req.secondary, port: secondaryPort, uuid: world.uuid() };
  provision(world, connectionBody(world, principal, req, profile, primary, group, secondary?.uuid), primary.port);
  if (secondary) provision(world, connectionBody(world, principal, req, profile, secondary, group, primary.uuid), secondary.port);
  return c.json({
    message: "Connection Saved Successfully",
    primaryConnectionId: primary.uuid,
    ...(secondary ? { secondaryConnectionId: secondary.uuid } : {}),
  });
}

function routes(app: SimApp, world: World): void {
  app.post("/ecx/v3/l2/connections", (c) => createConnections(c, world));
  app.get("/ecx/v3/l2/connections/:uuid", (c) => {
    const uuid = c.req.param("uuid");
    const obj = world.get(uuid, KIND);
    if (!obj || !canSee(c.get("principal"), obj)) return fail("layer2ConnectionNotFound", "uuid", undefined, uuid);
    return c.json(world.view(obj));
  });
}

function define(world: World): void {
  world.defineKind(KIND, {
    statePath: "/status",
    eventType: "equinix.ecx.l2connection",
    subject: (o) => `/ecx/v3/l2/connections/${o.uuid}`,
  });
}

export const legacyLayer2Area: Area = { name: "legacy-l2", define, routes };
