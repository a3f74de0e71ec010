// Maintenance notifications for data-center (IBX) and network maintenance (sections 2.16 and 4.15).
// They are published by the operator, never created through the API, and read one at a time by id by
// callers holding the IBX Services Notifications permission. They are pulled, not pushed (section 6.9),
// so the kinds produce no cloud events. A scheduled maintenance moves to IN_PROGRESS at its start and to
// COMPLETED at its end on the simulator's clock.

import { requirePermission } from "../core/auth.js";
import type { Area, SimApp } from "../core/context.js";
import { fail } from "../core/errors.js";
import { rejectUnknownQuery } from "../core/http.js";
import { seededUuid } from "../core/seed.js";
import type { JsonObject, SimObject, World } from "../core/world.js";

type NotificationFamily = "ibx" | "network";
type MaintenanceStatus = "SCHEDULED" | "IN_PROGRESS" | "COMPLETED";

interface FamilyDef {
  kind: string;
  type: string;
  label: string;
  /** The first digit of the family's notification numbers. */
  numberPrefix: string;
}

const FAMILIES: Record<NotificationFamily, FamilyDef> = {
  ibx: { kind: "ibxNotifications", type: "IBX_MAINTENANCE", label: "IBX", numberPrefix: "5" },
  network: { kind: "networkNotifications", type: "NETWORK_MAINTENANCE", label: "Network", numberPrefix: "6" },
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A maintenance window relative to seeding time, in simulated ms (negative: in the past). */
interface MaintenanceWindow {
  startsIn: number;
  lastsFor: number | null;
}

interface Seeded {
  n: number;
  window: MaintenanceWindow;
  priority: string | null;
  summary: string;
  locations: string[];
}

interface SeededIbx extends Seeded {
  globalNotification: boolean;
}

interface SeededNetwork extends Seeded {
  productTypes: string[];
}

const IBX_NOTIFICATIONS: readonly SeededIbx[] = [
  {
    n: 1,
    window: { startsIn: -9 * DAY, lastsFor: 4 * HOUR },
    priority: "NORMAL",
    summary: "Scheduled UPS preventive maintenance in the main electrical room",
    locations: ["DC1", "DC2"],
    globalNotification: false,
  },
  {
    n: 2,
    window: { startsIn: 2 * DAY, lastsFor: 6 * HOUR },
    priority: "HIGH",
    summary: "Chiller plant replacement; cooling redundancy reduced to N during the window",
    locations: ["LD1", "LD8"],
    globalNotification: false,
  },
  {
    n: 3,
    window: { startsIn: 5 * DAY, lastsFor: null },
    priority: null,
    summary: "Customer portal and badge access system upgrade across all data centers",
    locations: ["AM1", "DC1", "FR1", "LD1", "NY1", "SG1", "SV1", "TY1"],
    globalNotification: true,
  },
];

const NETWORK_NOTIFICATIONS: readonly SeededNetwork[] = [
  {
    n: 1,
    window: { startsIn: -3 * DAY, lastsFor: 2 * HOUR },
    priority: "NORMAL",
    summary: "Metro Connect fiber re-route between SV1 and SV5",
    locations: ["SV1", "SV5"],
    productTypes: ["METRO_CONNECT"],
  },
  {
    n: 2,
    // Starts soon after seeding, so that the move to IN_PROGRESS is observable within a demo.
    window: { startsIn: HOUR / 6, lastsFor: 3 * HOUR },
    priority: "HIGH",
    summary: "Fabric edge router software upgrade; brief traffic interruption expected",
    locations: ["FR1", "AM1"],
    productTypes: ["EQUINIX_FABRIC", "METRO_CONNECT"],
  },
];

const ibxId = (n: number) => seededUuid("1b0c0e11", n);
const networkId = (n: number) => seededUuid("2e7a0c22", n);

function email(subject: string, summary: string, at: string, attachmentIds: string[]): JsonObject {
  return {
    subject,
    body: `<html><body><p>Dear Customer,</p><p>${summary}.</p><p>Regards,<br/>Global Service Desk</p></body></html>`,
    timestamp: at,
    attachmentIds,
  };
}

/** The fields both families share, with the status the window has at seeding time. */
function commonFields(world: World, family: NotificationFamily, s: Seeded, id: string): JsonObject {
  const now = world.now();
  const start = now + world.clock.scale(s.window.startsIn);
  const end = s.window.lastsFor === null ? null : start + world.clock.scale(s.window.lastsFor);
  const announced = new Date(Math.min(now, start) - world.clock.scale(7 * DAY)).toISOString();
  const { label, numberPrefix, type } = FAMILIES[family];
  return {
    notificationNumber: `${numberPrefix}-${String(210_000_000 + s.n)}`,
    id,
    type,
    startTimestamp: new Date(start).toISOString(),
    endTimestamp: end === null ? null : new Date(end).toISOString(),
    ibxs: s.locations,
    status: statusAt(now, start, end),
    priority: s.priority,
    summary: s.summary,
    emails: [email(`${label} maintenance notification: ${s.summary}`, s.summary, announced, [seededUuid("a77ac4e0", s.n)])],
  };
}

function statusAt(now: number, start: number, end: number | null): MaintenanceStatus {
  if (now < start) return "SCHEDULED";
  return end !== null && now >= end ? "COMPLETED" : "IN_PROGRESS";
}

/** Moves a window that is not over yet through IN_PROGRESS and COMPLETED on the clock. */
function scheduleStatus(world: World, obj: SimObject, window: MaintenanceWindow): void {
  const steps: Array<{ afterMs: number; set: JsonObject }> = [];
  if (window.startsIn > 0) steps.push({ afterMs: window.startsIn, set: { "/status": "IN_PROGRESS" } });
  const endsIn = window.lastsFor === null ? null : window.startsIn + window.lastsFor;
  if (endsIn !== null && endsIn > 0) steps.push({ afterMs: endsIn, set: { "/status": "COMPLETED" } });
  if (steps.length > 0) world.transition(obj, {}, steps);
}

function seed(world: World): void {
  for (const s of IBX_NOTIFICATIONS) {
    const id = ibxId(s.n);
    const body = { ...commonFields(world, "ibx", s, id), globalNotification: s.globalNotification };
    scheduleStatus(world, world.create(FAMILIES.ibx.kind, body, { uuid: id }), s.window);
  }
  for (const s of NETWORK_NOTIFICATIONS) {
    const id = networkId(s.n);
    const body = { ...commonFields(world, "network", s, id), productTypes: s.productTypes };
    scheduleStatus(world, world.create(FAMILIES.network.kind, body, { uuid: id }), s.window);
  }
}

function routes(app: SimApp, world: World): void {
  for (const family of ["ibx", "network"] as const) {
    app.get(`/v1/notifications/${family}/:id`, (c) => {
      requirePermission(c.get("principal"), "IBX_SERVICES_NOTIFICATIONS");
      rejectUnknownQuery(c, []);
      const id = c.req.param("id");
      const obj = world.get(id, FAMILIES[family].kind);
      if (!obj) return fail("notFound", "id", `${FAMILIES[family].label} notification ${id} was not found`);
      return c.json(world.view(obj));
    });
  }
}

export const maintenanceNotificationsArea: Area = { name: "maintenance-notifications", seed, routes };
