// Ports (sections 2.14 and 4.13) and the service profiles clients connect to: port orders (with dryRun,
// which validates and echoes without creating), the order's provisioning on the clock, the changes the
// official description's PATCH allows (name, encapsulation, link aggregation), physical ports added to a
// link aggregation group (addToLag), the VLANs in use on a port (getVlans), the port's release, port lists,
// search and look-up, and the seeded service profiles. Objects of projects the caller cannot see do not
// exist for it.

import { createHash } from "node:crypto";
import { ACCOUNTS } from "../core/auth.js";
import { fail } from "../core/errors.js";
import { canSee, findVisible, projectFor, type Area, type Principal } from "../core/context.js";
import { PORT_BANDWIDTH } from "./connection-rules.js";
import { metroHref } from "./metros.js";
import { bodyPage, changeLogUpdate, compileFilter, newChangeLog, pageLink, paginate, queryPage, readArray, readObject, rejectUnknownQuery, sortBy, sortedPage } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";
import { vlansOnPort, type PortVlan } from "./connection-rules.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IBX = /^([A-Z]{2})\d{1,2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Simulated durations of a port order: the order is reviewed, then the port is built and tested. */
export const PORT_DURATIONS = { pendingMs: 120_000, provisioningMs: 300_000, deprovisioningMs: 120_000 } as const;

// ── reading the order body ────────────────────────────────────────────────────────────────

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

function objectAt(parent: JsonObject, key: string, at: string, required = false): JsonObject | undefined {
  const v = parent[key];
  if (v === undefined || v === null) return required ? fail("missingProperty", `${at}/${key}`, `${key} is required`) : undefined;
  return isObject(v) ? v : fail("invalidProperty", `${at}/${key}`, `${key} must be an object`);
}

function stringAt(parent: JsonObject, key: string, at: string, required = false): string | undefined {
  const v = parent[key];
  if (v === undefined || v === null) return required ? fail("missingProperty", `${at}/${key}`, `${key} is required`) : undefined;
  return typeof v === "string" && v.trim() !== "" ? v : fail("invalidProperty", `${at}/${key}`, `${key} must be a non-empty string`, JSON.stringify(v));
}

function enumAt<T extends string>(parent: JsonObject, key: string, at: string, allowed: readonly T[], required = false): T | undefined {
  const v = stringAt(parent, key, at, required);
  if (v === undefined) return undefined;
  return allowed.includes(v as T) ? (v as T) : fail("notInAllowedList", `${at}/${key}`, `allowed values: ${allowed.join(", ")}`, v);
}

function booleanAt(parent: JsonObject, key: string, at: string): boolean | undefined {
  const v = parent[key];
  if (v === undefined || v === null) return undefined;
  return typeof v === "boolean" ? v : fail("invalidProperty", `${at}/${key}`, `${key} must be true or false`, JSON.stringify(v));
}

function integerAt(parent: JsonObject, key: string, at: string, required = false): number | undefined {
  const v = parent[key];
  if (v === undefined || v === null) return required ? fail("missingProperty", `${at}/${key}`, `${key} is required`) : undefined;
  return typeof v === "number" && Number.isInteger(v) ? v : fail("invalidProperty", `${at}/${key}`, `${key} must be an integer`, JSON.stringify(v));
}

/** Request fields of PortRequest (official description) and section 2.14; anything else is refused. */
const ORDER_FIELDS = [
  "type", "name", "description", "physicalPortsSpeed", "physicalPortsType", "physicalPortsCount", "connectivitySourceType",
  "bmmrType", "project", "order", "account", "serviceType", "serviceCode", "bandwidth", "location", "demarcationPointIbx",
  "tetherIbx", "demarcationPoint", "redundancy", "encapsulation", "lagEnabled", "package", "settings", "notifications",
  "physicalPorts", "loas", "additionalInfo", "endCustomer",
] as const;

/** Port speed (Mbps) of each optic; section 2.14 also names 10GBASE_L. */
const PORT_TYPE_SPEED: Record<string, number> = {
  "1000BASE_LX": 1000, "1000BASE_SX": 1000, "10GBASE_LR": 10000, "10GBASE_ER": 10000, "10GBASE_SMF": 10000, "10GBASE_L": 10000,
  "100GBASE_LR4": 100000, "400GBASE_LR4": 400000,
};
const PORT_SPEEDS = [1000, 10000, 100000, 400000];

type ConnectivitySource = "COLO" | "BMMR" | "REMOTE";
type Encapsulation = "DOT1Q" | "QINQ" | "UNTAGGED";
type NotificationType = "TECHNICAL" | "NOTIFICATION" | "PEERING" | "ESCALATION";
const NOTIFICATION_TYPES: readonly NotificationType[] = ["TECHNICAL", "NOTIFICATION", "PEERING", "ESCALATION"];

/** Tag protocol identifiers: 0x8100 (802.1Q), 0x88A8 (802.1ad) and 0x9100 (legacy Q-in-Q). */
const hexTpid = (n: number): string => `0x${n.toString(16).toUpperCase().padStart(4, "0")}`;
const TPID: Record<Exclude<Encapsulation, "UNTAGGED">, readonly number[]> = { DOT1Q: [0x8100], QINQ: [0x88a8, 0x9100, 0x8100] };

function checkSpeedAndOptics(body: JsonObject): { speed: number; count: number } {
  enumAt(body, "type", "", ["XF_PORT"], true);
  const speed = integerAt(body, "physicalPortsSpeed", "", true)!;
  if (!PORT_SPEEDS.includes(speed)) fail("portSpeedInvalid", "/physicalPortsSpeed", `physicalPortsSpeed must be one of ${PORT_SPEEDS.join(", ")} (Mbps)`, speed);
  const optics = enumAt(body, "physicalPortsType", "", Object.keys(PORT_TYPE_SPEED), true)!;
  if (PORT_TYPE_SPEED[optics] !== speed) fail("portTypeInvalid", "/physicalPortsType", `${optics} does not run at ${speed} Mbps`, optics);
  const physicalPorts = body.physicalPorts;
  if (physicalPorts !== undefined && (!Array.isArray(physicalPorts) || physicalPorts.length === 0)) fail("invalidProperty", "/physicalPorts", "physicalPorts must be a non-empty array");
  const listed = Array.isArray(physicalPorts) ? physicalPorts.length : undefined;
  const count = integerAt(body, "physicalPortsCount", "") ?? listed ?? 1;
  if (count < 1 || count > 8) fail("invalidProperty", "/physicalPortsCount", "physicalPortsCount must be between 1 and 8", count);
  if (listed !== undefined && listed !== count) fail("invalidProperty", "/physicalPorts", `physicalPorts lists ${listed} ports but physicalPortsCount is ${count}`);
  return { speed, count };
}

/** The metro the port is ordered in: location.metroCode, or the metro of location.ibx. */
function checkLocation(body: JsonObject): { metro: string; ibx: string } {
  const location = objectAt(body, "location", "", true)!;
  const metroCode = stringAt(location, "metroCode", "/location");
  const ibx = stringAt(location, "ibx", "/location");
  if (metroCode === undefined && ibx === undefined) fail("missingProperty", "/location/metroCode", "location.metroCode (or location.ibx) is required");
  if (metroCode !== undefined && !METRO_BY_CODE.has(metroCode)) fail("portMetroUnavailable", "/location/metroCode", `metro ${metroCode} is not available`, metroCode);
  const ibxMetro = ibx === undefined ? undefined : IBX.exec(ibx)?.[1];
  if (ibx !== undefined && (ibxMetro === undefined || !METRO_BY_CODE.has(ibxMetro))) fail("portMetroUnavailable", "/location/ibx", `data center ${ibx} is not available`, ibx);
  if (metroCode !== undefined && ibxMetro !== undefined && metroCode !== ibxMetro) fail("invalidProperty", "/location/ibx", `data center ${ibx} is not in metro ${metroCode}`, ibx);
  const metro = (metroCode ?? ibxMetro)!;
  const demarcation = stringAt(body, "demarcationPointIbx", "");
  if (demarcation !== undefined && IBX.exec(demarcation)?.[1] !== metro) fail("invalidProperty", "/demarcationPointIbx", `demarcationPointIbx must be a data center of metro ${metro}`, demarcation);
  for (const [i, port] of (Array.isArray(body.physicalPorts) ? body.physicalPorts : []).entries()) {
    if (!isObject(port)) fail("invalidProperty", `/physicalPorts/${i}`, "each physical port must be an object");
    const point = objectAt(port as JsonObject, "demarcationPoint", `/physicalPorts/${i}`);
    const portIbx = point && stringAt(point, "ibx", `/physicalPorts/${i}/demarcationPoint`);
    if (portIbx !== undefined && IBX.exec(portIbx)?.[1] !== metro) fail("invalidProperty", `/physicalPorts/${i}/demarcationPoint/ibx`, `the demarcation point must be in metro ${metro}`, portIbx);
  }
  return { metro, ibx: demarcation ?? ibx ?? `${metro}1` };
}

function checkAccount(body: JsonObject, principal: Principal): number {
  const account = objectAt(body, "account", "", true)!;
  const accountNumber = integerAt(account, "accountNumber", "/account", true)!;
  if (!principal.accountNumbers.includes(accountNumber)) fail("portAccountInvalid", "/account/accountNumber", `account ${accountNumber} is not an account of ${principal.userName}`, accountNumber);
  return accountNumber;
}

function checkConnectivity(body: JsonObject): ConnectivitySource {
  const source = enumAt<ConnectivitySource>(body, "connectivitySourceType", "", ["COLO", "BMMR", "REMOTE"], true)!;
  const bmmrType = enumAt(body, "bmmrType", "", ["SELF", "EQUINIX"]);
  if (bmmrType !== undefined && source !== "BMMR") fail("invalidProperty", "/bmmrType", "bmmrType applies to BMMR ports only", bmmrType);
  const tether = stringAt(body, "tetherIbx", "");
  if (tether !== undefined && !METRO_BY_CODE.has(IBX.exec(tether)?.[1] ?? "")) fail("invalidProperty", "/tetherIbx", "tetherIbx must be a data-center code such as DC1", tether);
  return source;
}

function readTpid(raw: Json | undefined): number | undefined {
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  if (typeof raw === "string" && /^(0x[0-9a-f]{4}|\d+)$/i.test(raw)) return Number(raw);
  return undefined;
}

/** Redundancy, encapsulation and LAG, with the rules an untagged port adds; returns their echo. */
function checkLayout(body: JsonObject, count: number): JsonObject {
  const redundancy = objectAt(body, "redundancy", "") ?? {};
  const priority = enumAt(redundancy, "priority", "/redundancy", ["PRIMARY", "SECONDARY"]) ?? "PRIMARY";
  const group = stringAt(redundancy, "group", "/redundancy");
  booleanAt(redundancy, "enabled", "/redundancy");
  // A secondary port joins the group of an existing primary; a new group starts with its primary.
  if (priority === "SECONDARY" && group === undefined) fail("portPriorityNotPrimary", "/redundancy/priority", "a port without a redundancy group must be PRIMARY", priority);

  const encapsulation = objectAt(body, "encapsulation", "", true)!;
  const type = enumAt<Encapsulation>(encapsulation, "type", "/encapsulation", ["DOT1Q", "QINQ", "UNTAGGED"], true)!;
  const rawTpid = encapsulation.tagProtocolId;
  const lagEnabled = booleanAt(body, "lagEnabled", "") ?? false;
  if (count > 1 && !lagEnabled) fail("portLagRequired", "/lagEnabled", "more than one physical port needs lagEnabled: true", count);
  let tpid: Json | undefined = rawTpid;
  switch (type) {
    case "UNTAGGED":
      if (rawTpid !== undefined && rawTpid !== null) fail("portUntaggedTpid", "/encapsulation/tagProtocolId", "an untagged port has no tag protocol identifier");
      if (lagEnabled) fail("portUntaggedLag", "/lagEnabled", "an untagged port cannot be a link aggregation group");
      if (priority === "SECONDARY") fail("portUntaggedRedundant", "/redundancy/priority", "an untagged port cannot be redundant");
      tpid = undefined;
      break;
    case "DOT1Q":
    case "QINQ": {
      const value = rawTpid === undefined || rawTpid === null ? TPID[type][0]! : readTpid(rawTpid);
      if (value === undefined || !TPID[type].includes(value)) {
        fail("notInAllowedList", "/encapsulation/tagProtocolId", `allowed for ${type}: ${TPID[type].map(hexTpid).join(", ")}`, JSON.stringify(rawTpid));
      }
      // Stored and returned as the seeded ports carry it (the official schema's string, e.g. "0x8100").
      tpid = hexTpid(value!);
      break;
    }
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
  return {
    redundancy: { ...redundancy, priority },
    encapsulation: { type, ...(tpid === undefined ? {} : { tagProtocolId: tpid }) },
    lagEnabled,
  };
}

function checkPackageAndSettings(body: JsonObject): JsonObject {
  const pkg = objectAt(body, "package", "");
  const code = (pkg && enumAt(pkg, "code", "/package", ["STANDARD", "UNLIMITED", "UNLIMITED_PLUS"])) ?? "STANDARD";
  const settings = objectAt(body, "settings", "") ?? {};
  for (const key of Object.keys(settings)) {
    if (key === "packageType") enumAt(settings, key, "/settings", ["STANDARD", "UNLIMITED", "UNLIMITED_PLUS"]);
    else booleanAt(settings, key, "/settings");
  }
  enumAt(body, "serviceType", "", ["EPL", "MSP"]);
  enumAt(body, "serviceCode", "", ["CX", "IX", "IA", "MC"]);
  stringAt(body, "name", "");
  stringAt(body, "description", "");
  return { package: { code }, settings: { sharedPortType: false, ...settings } };
}

/** The order's notification contacts; the types the order leaves out get the technical contacts. */
function checkNotifications(body: JsonObject, principal: Principal): JsonObject[] {
  const raw = body.notifications ?? [];
  if (!Array.isArray(raw)) return fail("invalidProperty", "/notifications", "notifications must be an array");
  const given = new Map<NotificationType, string[]>();
  raw.forEach((entry, i) => {
    if (!isObject(entry)) fail("invalidProperty", `/notifications/${i}`, "each notification must be {type, registeredUsers}");
    const type = enumAt(entry as JsonObject, "type", `/notifications/${i}`, NOTIFICATION_TYPES, true)!;
    const users = (entry as JsonObject).registeredUsers;
    if (!Array.isArray(users) || users.length === 0 || users.some((u) => typeof u !== "string" || u.trim() === "")) {
      fail("portNotificationInvalid", `/notifications/${i}/registeredUsers`, "registeredUsers must be a non-empty array of user names");
    }
    if (given.has(type)) fail("invalidProperty", `/notifications/${i}/type`, `notification type ${type} is listed twice`, type);
    given.set(type, users as string[]);
  });
  const fallback = given.get("TECHNICAL") ?? given.values().next().value ?? [principal.userName];
  return NOTIFICATION_TYPES.map((type) => ({ type, registeredUsers: [...(given.get(type) ?? fallback)] }));
}

function checkDate(parent: JsonObject, key: string, at: string): number | undefined {
  const raw = stringAt(parent, key, at);
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? fail("invalidProperty", `${at}/${key}`, `${key} must be an ISO 8601 timestamp`, raw) : ms;
}

/** The order block: purchase order and signature; returns it as submitted, numbers as the strings they are. */
function checkOrder(body: JsonObject, where = ""): JsonObject {
  const order = objectAt(body, "order", where) ?? {};
  let purchaseOrder: JsonObject | undefined;
  stringAt(order, "customerReferenceId", `${where}/order`);
  const po = objectAt(order, "purchaseOrder", `${where}/order`);
  if (po) {
    const at = `${where}/order/purchaseOrder`;
    const type = enumAt(po, "type", at, ["NEW", "EXISTING", "BLANKET", "EXEMPTION"], true)!;
    for (const key of ["number", "amount"]) {
      const v = po[key];
      if (v !== undefined && v !== null && typeof v !== "string" && typeof v !== "number") fail("invalidProperty", `${at}/${key}`, `${key} must be a string or a number`);
    }
    if (type !== "EXEMPTION" && (po.number === undefined || po.number === null || po.number === "")) fail("missingProperty", `${at}/number`, `a ${type} purchase order needs its number`);
    const start = checkDate(po, "startDate", at);
    const end = checkDate(po, "endDate", at);
    if (start !== undefined && end !== undefined && end <= start) fail("invalidProperty", `${at}/endDate`, "endDate must be later than startDate");
    purchaseOrder = { ...po, ...(po.number == null ? {} : { number: String(po.number) }), ...(po.amount == null ? {} : { amount: String(po.amount) }) };
  }
  const signature = objectAt(order, "signature", `${where}/order`);
  if (signature) {
    const at = `${where}/order/signature`;
    const signatory = enumAt(signature, "signatory", at, ["DELEGATE", "SELF", "ACCOUNT_SUPPORT"], true);
    const delegate = objectAt(signature, "delegate", at, signatory === "DELEGATE");
    if (delegate) {
      const email = stringAt(delegate, "email", `${at}/delegate`, true)!;
      if (!EMAIL.test(email)) fail("invalidProperty", `${at}/delegate/email`, "email must be an email address", email);
      stringAt(delegate, "firstName", `${at}/delegate`);
      stringAt(delegate, "lastName", `${at}/delegate`);
    }
  }
  return purchaseOrder ? { ...order, purchaseOrder } : order;
}

interface CheckedOrder {
  projectId: string;
  accountNumber: number;
  metro: string;
  ibx: string;
  speed: number;
  count: number;
  /** The submitted order with the server's defaults filled in. */
  echo: JsonObject;
}

function checkPortOrder(body: JsonObject, principal: Principal): CheckedOrder {
  for (const key of Object.keys(body)) {
    if (!(ORDER_FIELDS as readonly string[]).includes(key)) fail("invalidProperty", `/${key}`, `unknown or read-only property ${key}`);
  }
  const { speed, count } = checkSpeedAndOptics(body);
  const source = checkConnectivity(body);
  const project = objectAt(body, "project", "", true)!;
  const projectId = projectFor(principal, project.projectId ?? fail("missingProperty", "/project/projectId", "projectId is required"));
  const accountNumber = checkAccount(body, principal);
  const { metro, ibx } = checkLocation(body);
  const layout = checkLayout(body, count);
  const extras = checkPackageAndSettings(body);
  const notifications = checkNotifications(body, principal);
  const order = checkOrder(body);
  const info = METRO_BY_CODE.get(metro)!;
  const echo: JsonObject = {
    ...body,
    type: "XF_PORT",
    physicalPortsCount: count,
    connectivitySourceType: source,
    project: { projectId },
    account: { accountNumber },
    location: { metroHref: metroHref(metro), region: info.region, metroName: info.name, metroCode: metro },
    demarcationPointIbx: ibx,
    ...layout,
    ...extras,
    notifications,
    order,
  };
  return { projectId, accountNumber, metro, ibx, speed, count, echo };
}

// ── creating the port ─────────────────────────────────────────────────────────────────────

function accountBlock(accountNumber: number): JsonObject {
  const known = Object.values(ACCOUNTS).find((a) => a.accountNumber === accountNumber);
  return known ? { accountNumber, accountName: known.accountName, ucmId: known.ucmId } : { accountNumber };
}

/** Order numbers look like the service's: "1-" and twelve digits. */
const orderNumber = (world: World): string => `1-${world.random.int(100_000_000_000, 999_999_999_999)}`;

function placeOrder(world: World, principal: Principal, checked: CheckedOrder): JsonObject {
  const uuid = world.uuid();
  const now = world.nowIso();
  const priority = (checked.echo.redundancy as JsonObject).priority === "SECONDARY" ? "SEC" : "PRI";
  const bandwidth = checked.speed * checked.count;
  const body: JsonObject = {
    href: `/fabric/v4/ports/${uuid}`,
    uuid,
    ...checked.echo,
    name: checked.echo.name ?? `${checked.accountNumber}-${checked.ibx}-CX-${priority}-${world.random.int(10, 99)}`,
    state: "PENDING",
    order: { ...(checked.echo.order as JsonObject), orderNumber: orderNumber(world), uuid: world.uuid() },
    account: accountBlock(checked.accountNumber),
    bandwidth,
    availableBandwidth: bandwidth,
    usedBandwidth: 0,
    connectionsCount: 0,
    changeLog: newChangeLog(principal, now),
  };
  const port = world.create("ports", body, { uuid, projectId: checked.projectId });
  // The answer shows the order as placed, however far a test's clock has moved on since.
  const placed = world.now();
  world.transition(
    port,
    { "/state": "PENDING" },
    [
      { afterMs: PORT_DURATIONS.pendingMs, set: { "/state": "PROVISIONING" } },
      { afterMs: PORT_DURATIONS.pendingMs + PORT_DURATIONS.provisioningMs, set: { "/state": "ACTIVE", "/operation": { operationalStatus: "UP", connectionCount: 0 } } },
    ],
    { "/state": "FAILED" },
  );
  return world.viewAsOf(port, placed);
}

function readDryRun(raw: string | undefined): boolean {
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  return fail("invalidQueryParameter", "dryRun", "dryRun must be true or false", raw);
}

// ── changing and releasing a port ─────────────────────────────────────────────────────────

/** The paths PATCH may replace (the official description's examples of updatePortByUuid). */
const PATCHABLE = ["/name", "/encapsulation", "/lagEnabled"] as const;

/** States in which a port is still being ordered or released: it can be neither changed nor released then. */
const BUSY_STATES = ["PENDING", "PROVISIONING", "REPROVISIONING", "PENDING_CROSS_CONNECT", "DEPROVISIONING"];
const RELEASED_STATES = ["DEPROVISIONED", "DELETED"];

function portState(world: World, port: SimObject): string {
  world.settle(port);
  return String(world.view(port).state ?? "");
}

function checkChangeable(world: World, port: SimObject, action: string): void {
  const state = portState(world, port);
  if (BUSY_STATES.includes(state) || RELEASED_STATES.includes(state)) fail("invalidProperty", "portId", `port ${port.uuid} is ${state}; it can be ${action} only when ACTIVE`, state);
}

/** The connections still using the port: a port in use cannot be released. */
function connectionsOnPort(world: World, uuid: string): string[] {
  return world
    .list("connections")
    .map((c) => world.view(c))
    .filter((c) => c.state !== "DEPROVISIONED" && ["aSide", "zSide"].some((side) => JSON.stringify((c[side] as JsonObject | undefined)?.accessPoint ?? {}).includes(uuid)))
    .map((c) => String(c.uuid));
}

/** The JSON-patch operations of a PATCH, checked as the order checks the same fields; returns what they set. */
function readPortChanges(ops: Json[], port: JsonObject): Record<string, Json> {
  if (ops.length === 0) fail("invalidProperty", "body", "the request body must list at least one operation");
  const changed: JsonObject = { ...port };
  const set: Record<string, Json> = {};
  ops.forEach((raw, i) => {
    if (!isObject(raw)) return fail("invalidProperty", `/${i}`, "each operation must be {op, path, value}");
    enumAt(raw, "op", `/${i}`, ["replace"], true);
    const path = enumAt(raw, "path", `/${i}`, PATCHABLE, true)!;
    if (raw.value === undefined) return fail("missingProperty", `/${i}/value`, "value is required");
    changed[path.slice(1)] = raw.value;
    set[path] = raw.value;
  });
  stringAt(changed, "name", "");
  const count = typeof changed.physicalPortsCount === "number" ? changed.physicalPortsCount : 1;
  const layout = checkLayout(changed, count);
  if ("/encapsulation" in set) set["/encapsulation"] = layout.encapsulation!;
  return set;
}

// ── link aggregation and VLANs ────────────────────────────────────────────────────────────

/** The most physical ports one port (a link aggregation group) bundles, as an order may ask for. */
const MAX_PHYSICAL_PORTS = 8;
const PHYSICAL_PORT_FIELDS = ["type", "account", "interfaceSpeed", "interfaceType", "tether", "demarcationPoint", "settings", "interface", "notifications", "additionalInfo", "order", "loas"];

/**
 * The physical ports an addToLag request adds. The description's REMOTE and BMMR examples write a port's LOAs
 * as an item of their own after it (`{loas: [...]}`): such an item belongs to the port before it.
 */
function readPhysicalPorts(body: JsonObject, metro: string, principal: Principal): JsonObject[] {
  const data = body.data;
  if (!Array.isArray(data) || data.length === 0) return fail("missingProperty", "/data", "data must list the physical ports to add");
  const ports: JsonObject[] = [];
  data.forEach((raw, i) => {
    const at = `/data/${i}`;
    if (!isObject(raw)) return fail("invalidProperty", at, "each physical port must be an object");
    for (const key of Object.keys(raw)) if (!PHYSICAL_PORT_FIELDS.includes(key)) fail("invalidProperty", `${at}/${key}`, `unknown or read-only property ${key}`);
    if (Object.keys(raw).length === 1 && raw.loas !== undefined && ports.length > 0) {
      ports[ports.length - 1]!.loas = checkLoas(raw, at);
      return;
    }
    enumAt(raw, "type", at, ["XF_PHYSICAL_PORT"], true);
    const point = objectAt(raw, "demarcationPoint", at);
    const ibx = point && stringAt(point, "ibx", `${at}/demarcationPoint`);
    if (ibx !== undefined && IBX.exec(ibx)?.[1] !== metro) fail("invalidProperty", `${at}/demarcationPoint/ibx`, `the demarcation point must be in the port's metro ${metro}`, ibx);
    const account = objectAt(raw, "account", at);
    const accountNumber = account && integerAt(account, "accountNumber", `${at}/account`);
    if (accountNumber !== undefined && !principal.accountNumbers.includes(accountNumber)) fail("portAccountInvalid", `${at}/account/accountNumber`, `account ${accountNumber} is not an account of ${principal.userName}`, accountNumber);
    if (account && accountNumber === undefined) stringAt(account, "accountReferenceId", `${at}/account`, true);
    const notifications = raw.notifications ?? [];
    if (!Array.isArray(notifications)) return fail("invalidProperty", `${at}/notifications`, "notifications must be an array");
    notifications.forEach((n, j) => {
      if (!isObject(n)) return fail("invalidProperty", `${at}/notifications/${j}`, "each notification must be {type, registeredUsers}");
      enumAt(n, "type", `${at}/notifications/${j}`, NOTIFICATION_TYPES, true);
      const users = n.registeredUsers;
      if (!Array.isArray(users) || users.length === 0 || users.some((u) => typeof u !== "string" || u.trim() === "")) {
        fail("portNotificationInvalid", `${at}/notifications/${j}/registeredUsers`, "registeredUsers must be a non-empty array of user names");
      }
    });
    // Patch panel ports are sent as numbers (the request example) and kept as the strings the answers show.
    const demarcationPoint = point && Object.fromEntries(Object.entries(point).map(([k, v]) => [k, k.startsWith("patchPanelPort") && typeof v === "number" ? String(v) : v]));
    ports.push({ ...raw, type: "XF_PHYSICAL_PORT", ...(demarcationPoint ? { demarcationPoint } : {}), order: checkOrder(raw, at), ...(raw.loas === undefined ? {} : { loas: checkLoas(raw, at) }) });
  });
  return ports;
}

function checkLoas(item: JsonObject, at: string): Json[] {
  const loas = item.loas;
  if (!Array.isArray(loas) || loas.some((loa) => !isObject(loa) || typeof loa.uuid !== "string")) return fail("invalidProperty", `${at}/loas`, "loas must be a list of {uuid}");
  return loas;
}

/**
 * Adds physical ports to a link aggregation group: they are ordered at once and come into service on the
 * clock, when the port's bandwidth grows by theirs (addToLag).
 */
function addToLag(world: World, principal: Principal, port: SimObject, body: JsonObject): JsonObject[] {
  checkChangeable(world, port, "extended");
  const view = world.view(port);
  if (view.lagEnabled !== true) fail("portLagRequired", "portId", `port ${port.uuid} is not a link aggregation group; set lagEnabled first (PATCH /lagEnabled)`, port.uuid);
  const added = readPhysicalPorts(body, String((view.location as JsonObject | undefined)?.metroCode ?? ""), principal);
  const existing = Array.isArray(view.physicalPorts) ? view.physicalPorts : [];
  const count = (typeof view.physicalPortsCount === "number" ? view.physicalPortsCount : 1) + added.length;
  if (count > MAX_PHYSICAL_PORTS) fail("invalidProperty", "/data", `a port bundles at most ${MAX_PHYSICAL_PORTS} physical ports; it has ${count - added.length}`, added.length);
  const ordered = added.map((p) => ({ ...p, uuid: world.uuid(), state: "PROVISIONING", order: { ...(p.order as JsonObject), orderNumber: orderNumber(world), uuid: world.uuid() } }));
  const speed = typeof view.physicalPortsSpeed === "number" ? view.physicalPortsSpeed : 0;
  const grown = (field: string) => (typeof view[field] === "number" ? (view[field] as number) : 0) + speed * added.length;
  const inService: Record<string, Json> = { "/bandwidth": grown("bandwidth"), "/availableBandwidth": grown("availableBandwidth") };
  ordered.forEach((_, i) => (inService[`/physicalPorts/${existing.length + i}/state`] = "ACTIVE"));
  world.transition(
    port,
    { "/physicalPortsCount": count, "/physicalPorts": [...existing, ...ordered], ...changeLogUpdate(principal, world.nowIso()) },
    [{ afterMs: PORT_DURATIONS.provisioningMs, set: inService }],
  );
  return ordered;
}

/** A stable identifier for a VLAN a connection or token holds on a port: the service gives each its own. */
function linkProtocolUuid(holder: string, port: string, linkProtocol: JsonObject): string {
  const hex = createHash("sha1").update(`${holder}:${port}:${JSON.stringify(linkProtocol)}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const TAG_FIELDS = ["type", "vlanTag", "vlanTagMin", "vlanTagMax", "vlanSTag", "vlanCTag", "vlanCTagMin", "vlanCTagMax"];

/** A VLAN in use as getVlans lists it (LinkProtocolResponse): its tags, RESERVED, and the connection or token holding it. */
function renderVlan(port: string, taken: PortVlan): JsonObject {
  const holder = (taken.connection ?? taken.token)!;
  const uuid = String(holder.uuid);
  const tags = Object.fromEntries(TAG_FIELDS.filter((f) => taken.linkProtocol[f] !== undefined).map((f) => [f, taken.linkProtocol[f]!]));
  const bandwidth = taken.connection ? taken.connection.bandwidth : ((taken.token?.connection as JsonObject | undefined)?.bandwidthLimit ?? undefined);
  const reference = { uuid, type: String(holder.type), ...(typeof bandwidth === "number" ? { bandwidth } : {}) };
  const created = (holder.changeLog as JsonObject | undefined)?.createdDateTime;
  return {
    uuid: linkProtocolUuid(uuid, port, taken.linkProtocol),
    state: "RESERVED",
    ...tags,
    ...(taken.connection ? { asset: { href: `/fabric/v4/connections/${uuid}`, ...reference } } : { serviceToken: { href: `/fabric/v4/serviceTokens/${uuid}`, ...reference } }),
    ...(typeof created === "string" ? { changeLog: { createdDateTime: created } } : {}),
  };
}

const outerTag = (v: JsonObject): number => Number(v.vlanTag ?? v.vlanSTag ?? v.vlanTagMin ?? 0);
const innerTag = (v: JsonObject): number => Number(v.vlanCTag ?? v.vlanCTagMin ?? 0);

// ── finding ports and profiles ────────────────────────────────────────────────────────────

const PORT_SEARCH_PROPERTIES = [
  "/device/name", "/physicalPorts/tether/crossConnectId", "/physicalPorts/interface/name", "/state", "/project/projectId", "/uuid",
  "/name", "/account/orgId", "/account/accountNumber", "/location/metroCode", "/operation/maintenanceStatus", "/operation/lockEnabled",
] as const;
const PORT_SORT_PROPERTIES = [
  "/device/name", "/name", "/state", "/location/metroName", "/demarcationPointIbx", "/device/redundancy/priority", "/lagEnabled",
  "/physicalPortsSpeed", "/encapsulation/type", "/physicalPorts/tether/crossConnectId", "/package/code", "/changeLog/updatedDateTime",
  "/changeLog/createdDateTime", "/bandwidth", "/serviceCode",
] as const;
/** The official operator names, as the core's filter compiler spells them. */
const PORT_OPERATORS: Record<string, string> = {
  "=": "=", "!=": "!=", ">": ">", ">=": ">=", "<": "<", "<=": "<=", LIKE: "like", ILIKE: "like", IN: "IN", "NOT IN": "NOT IN", BETWEEN: "BETWEEN",
};

/** Rewrites the official operator names for `compileFilter`; an unknown one is refused there. */
function normaliseOperators(filter: Json): Json {
  if (Array.isArray(filter)) return filter.map(normaliseOperators);
  if (!isObject(filter)) return filter;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(filter)) {
    out[key] = key === "operator" && typeof value === "string" ? (PORT_OPERATORS[value] ?? value) : normaliseOperators(value);
  }
  return out;
}

function visiblePorts(world: World, principal: Principal): JsonObject[] {
  return world.list("ports").filter((p) => canSee(principal, p)).map((p) => world.view(p));
}

function checkUuid(id: string, property: string): void {
  if (!UUID.test(id)) fail("invalidProperty", property, `${property} must be a UUID`, id);
}

type ViewPoint = "aSide" | "zSide";

/** The official description's search properties and sort keys of service profiles. */
const PROFILE_SEARCH_PROPERTIES = ["/name", "/uuid", "/state", "/metros/code", "/visibility", "/type", "/project/projectId"];
const PROFILE_SORT_PROPERTIES = ["/name", "/state", "/changeLog/createdDateTime", "/changeLog/updatedDateTime"];

/** `/metros/code` names an item of the profile's metros: a profile matches when one of its metros makes the filter true. */
function profileMatches(profile: JsonObject, matches: (item: JsonObject) => boolean): boolean {
  const metros = Array.isArray(profile.metros) ? profile.metros : [];
  if (metros.length === 0) return matches(profile);
  return metros.some((metro) => matches({ ...profile, metros: metro }));
}

function readViewPoint(raw: string | undefined): ViewPoint {
  if (raw === undefined || raw === "aSide") return "aSide";
  if (raw === "zSide") return "zSide";
  return fail("notInAllowedList", "viewPoint", "allowed values: aSide, zSide", raw);
}

/** The media type the official description gives every service profile answer (getServiceProfiles, searchServiceProfiles, getServiceProfileByUuid). */
const PROFILE_MEDIA_TYPE = { "Content-Type": "application/json; charset=UTF-8" };

/** The seller's view (zSide) shows only the profiles the caller's own projects publish. */
const ownsProfile = (principal: Principal, projectId: string | undefined): boolean => projectId !== undefined && principal.projectIds.includes(projectId);

export const portsArea: Area = {
  name: "fabric-ports",
  define(world) {
    // What a port carries is what its live connections use: read from their tally, never a stored copy.
    world.defineKind("ports", {
      statePath: "/state",
      eventType: "equinix.fabric.port",
      subject: (o) => `/fabric/v4/ports/${o.uuid}`,
      render: (body, obj, w) => {
        if (typeof body.bandwidth !== "number") return body;
        const used = w.tally("connections", PORT_BANDWIDTH, obj.uuid);
        return { ...body, usedBandwidth: used, availableBandwidth: Math.max(body.bandwidth - used, 0) };
      },
    });
  },
  routes(app, world) {
    app.post("/fabric/v4/ports", async (c) => {
      rejectUnknownQuery(c, ["dryRun"]);
      const dryRun = readDryRun(c.req.query("dryRun"));
      const principal = c.get("principal");
      const checked = checkPortOrder(await readObject(c), principal);
      if (dryRun) return c.json({ ...checked.echo, order: { ...(checked.echo.order as JsonObject), orderNumber: orderNumber(world) } }, 200);
      return c.json(placeOrder(world, principal, checked), 202);
    });

    app.get("/fabric/v4/ports", (c) => {
      rejectUnknownQuery(c, ["name", "offset", "limit"]);
      const page = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
      const name = c.req.query("name");
      const ports = visiblePorts(world, c.get("principal")).filter((p) => name === undefined || p.name === name);
      return c.json(paginate(ports, page, pageLink(c)));
    });

    app.post("/fabric/v4/ports/search", async (c) => {
      rejectUnknownQuery(c, []);
      const body = await readObject(c);
      for (const key of Object.keys(body)) if (!["filter", "pagination", "sort"].includes(key)) fail("invalidProperty", `/${key}`, "the search body takes filter, pagination and sort");
      if (body.filter === undefined || body.filter === null) fail("missingProperty", "/filter", "filter is required");
      const matches = compileFilter(normaliseOperators(body.filter!), { properties: PORT_SEARCH_PROPERTIES, operators: Object.values(PORT_OPERATORS) });
      const page = bodyPage(body.pagination, { defaultLimit: 20, maxLimit: 1000 });
      const found = sortBy(visiblePorts(world, c.get("principal")).filter(matches), body.sort, PORT_SORT_PROPERTIES);
      return c.json(paginate(found, page));
    });

    app.get("/fabric/v4/ports/:portId", (c) => {
      rejectUnknownQuery(c, []);
      const id = c.req.param("portId");
      checkUuid(id, "portId");
      return c.json(world.view(findVisible(world, c.get("principal"), "ports", id, "portId")));
    });

    app.patch("/fabric/v4/ports/:portId", async (c) => {
      rejectUnknownQuery(c, ["dryRun"]);
      const dryRun = readDryRun(c.req.query("dryRun"));
      const id = c.req.param("portId");
      checkUuid(id, "portId");
      const principal = c.get("principal");
      const ops = await readArray(c);
      const port = findVisible(world, principal, "ports", id, "portId");
      checkChangeable(world, port, "changed");
      const set = readPortChanges(ops, world.view(port));
      if (dryRun) return c.json(paginate([{ ...world.view(port), ...Object.fromEntries(Object.entries(set).map(([k, v]) => [k.slice(1), v])) }], { offset: 0, limit: 1 }), 200);
      world.apply(port, { at: world.now(), set: { ...set, ...changeLogUpdate(principal, world.nowIso()) } });
      return c.json(world.view(port), 202);
    });

    app.post("/fabric/v4/ports/:portId/physicalPorts/bulk", async (c) => {
      rejectUnknownQuery(c, []);
      const id = c.req.param("portId");
      checkUuid(id, "portId");
      const principal = c.get("principal");
      const body = await readObject(c);
      const port = findVisible(world, principal, "ports", id, "portId");
      return c.json({ data: addToLag(world, principal, port, body) }, 200);
    });

    app.get("/fabric/v4/ports/:portUuid/linkProtocols", (c) => {
      rejectUnknownQuery(c, ["offset", "limit"]);
      const id = c.req.param("portUuid");
      checkUuid(id, "portUuid");
      const page = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
      const port = world.get(id, "ports");
      // getVlans documents 400 and 403, not 404: a port the caller cannot see is a property not found (7.2).
      if (!port || !canSee(c.get("principal"), port)) return fail("referenceNotFound", "portUuid", `port ${id} does not exist or is not accessible`, id);
      const taken = vlansOnPort(world, port.uuid)
        .map((v) => renderVlan(port.uuid, v))
        .sort((a, b) => outerTag(a) - outerTag(b) || innerTag(a) - innerTag(b));
      return c.json(paginate(taken, page, pageLink(c)));
    });

    app.delete("/fabric/v4/ports/:portId", (c) => {
      rejectUnknownQuery(c, ["dryRun"]);
      const dryRun = readDryRun(c.req.query("dryRun"));
      const id = c.req.param("portId");
      checkUuid(id, "portId");
      const principal = c.get("principal");
      const port = findVisible(world, principal, "ports", id, "portId");
      checkChangeable(world, port, "released");
      const using = connectionsOnPort(world, port.uuid);
      if (using.length > 0) fail("invalidProperty", "portId", `port ${port.uuid} still carries connection(s) ${using.join(", ")}; delete them first`);
      if (dryRun) return c.json(world.view(port), 200);
      // The answer shows the port as the delete left it, however far a test's clock has moved on since.
      const at = world.now();
      const now = world.nowIso();
      world.transition(
        port,
        { "/state": "DEPROVISIONING", ...changeLogUpdate(principal, now), ...changeLogUpdate(principal, now, true) },
        [{ afterMs: PORT_DURATIONS.deprovisioningMs, set: { "/state": "DEPROVISIONED" } }],
        { "/state": "FAILED" },
      );
      return c.json(world.viewAsOf(port, at), 202);
    });

    app.get("/fabric/v4/serviceProfiles", (c) => {
      rejectUnknownQuery(c, ["offset", "limit", "viewPoint"]);
      const viewPoint = readViewPoint(c.req.query("viewPoint"));
      const page = queryPage(c, { defaultLimit: 20, maxLimit: 100 });
      const principal = c.get("principal");
      const profiles = world
        .list("serviceProfiles")
        .filter((p) => canSee(principal, p) && (viewPoint === "aSide" || ownsProfile(principal, p.projectId)))
        .map((p) => world.view(p));
      return c.json(paginate(profiles, page, pageLink(c)), 200, PROFILE_MEDIA_TYPE);
    });

    app.post("/fabric/v4/serviceProfiles/search", async (c) => {
      rejectUnknownQuery(c, ["viewPoint"]);
      const viewPoint = readViewPoint(c.req.query("viewPoint"));
      const body = await readObject(c);
      for (const key of Object.keys(body)) if (!["filter", "pagination", "sort"].includes(key)) fail("invalidProperty", `/${key}`, "the search body takes filter, pagination and sort");
      const matches = compileFilter(body.filter, { properties: PROFILE_SEARCH_PROPERTIES, operators: ["="] });
      const page = bodyPage(body.pagination, { defaultLimit: 20, maxLimit: 100 });
      const principal = c.get("principal");
      const found = world
        .list("serviceProfiles")
        .filter((p) => canSee(principal, p) && (viewPoint === "aSide" || ownsProfile(principal, p.projectId)))
        .map((p) => world.view(p))
        .filter((p) => profileMatches(p, matches));
      return c.json(sortedPage(found, body.sort, PROFILE_SORT_PROPERTIES, page), 200, PROFILE_MEDIA_TYPE);
    });

    app.get("/fabric/v4/serviceProfiles/:serviceProfileId", (c) => {
      rejectUnknownQuery(c, ["viewPoint"]);
      const viewPoint = readViewPoint(c.req.query("viewPoint"));
      const id = c.req.param("serviceProfileId");
      checkUuid(id, "serviceProfileId");
      const principal = c.get("principal");
      const profile = findVisible(world, principal, "serviceProfiles", id, "serviceProfileId");
      if (viewPoint === "zSide" && !ownsProfile(principal, profile.projectId)) fail("forbidden", "viewPoint", "the seller view of a profile is for the profile's owner only");
      return c.json(world.view(profile), 200, PROFILE_MEDIA_TYPE);
    });
  },
};
