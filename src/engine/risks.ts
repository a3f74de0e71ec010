// Whether now is a bad time to apply, from what the service announces (sections 2.13 and 2.16): its
// network-edge downtime notification, read when the plan changes a network-edge object, and the
// maintenance notices the configuration lists (provider.maintenanceNotices), in progress in a metro or
// IBX the plan changes something in. Each is a risk in the plan; apply refuses a plan with risks unless
// told to ignore them (the command line's --ignore-downtime), as a reviewer would rather wait than find
// out mid-apply.

import { ApiError } from "../api/index.js";
import type { Configuration, MaintenanceNotice } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { isKind, KIND_DEFINITIONS } from "../kinds/index.js";
import type { Plan, Risk } from "../plan/types.js";
import type { Session } from "./session.js";

type Body = Record<string, unknown>;

const DOWNTIME = "/ne/v1/notifications";
/** The two families of maintenance notification a listed id may belong to (section 4.15), tried in turn. */
const NOTICE_FAMILIES = ["ibx", "network"] as const;

/** A window in progress at `now`: started, and not ended (a missing end means it has none yet). */
export function inProgress(start: unknown, end: unknown, now: number): boolean {
  const from = typeof start === "string" ? Date.parse(start) : NaN;
  const to = typeof end === "string" ? Date.parse(end) : NaN;
  return from <= now && (Number.isNaN(to) || now < to);
}

/** The service's downtime notification as a risk, when it announces a downtime in progress. */
export function downtimeRisk(notification: Body, now: number): Risk | undefined {
  const type = notification.notificationType;
  if (type !== "unplanned_downtime" && type !== "planed_downtime") return undefined;
  if (!inProgress(notification.startTime, notification.endTime, now)) return undefined;
  const services = Array.isArray(notification.impactedServices) ? (notification.impactedServices as Body[]) : [];
  const words = type === "unplanned_downtime" ? "unplanned downtime" : "planned downtime";
  return {
    kind: "downtime",
    severity: "warning",
    message: `network-edge ${words}: ${String(notification.additionalMessage ?? "the service announces no details")}`,
    window: { start: String(notification.startTime), end: typeof notification.endTime === "string" ? notification.endTime : null },
    impacts: services.map((s) => `${String(s.serviceName)} (${String(s.impact)}): ${String(s.errorMessage ?? "")}`.replace(/: $/, "")),
  };
}

/** An IBX code begins with its metro's code: DC1 is in DC. */
const metroOfIbx = (ibx: string): string => ibx.replace(/\d.*$/, "");

/** A maintenance notice as a risk, when it is in progress and names an IBX the plan touches or one in a metro it touches. */
export function maintenanceRisk(notice: Body, touched: { metros: ReadonlySet<string>; ibxs: ReadonlySet<string> }, now: number): Risk | undefined {
  if (notice.status === "COMPLETED" || !inProgress(notice.startTimestamp, notice.endTimestamp, now)) return undefined;
  const ibxs = (Array.isArray(notice.ibxs) ? notice.ibxs : []).filter((i): i is string => typeof i === "string");
  const hit = ibxs.filter((ibx) => touched.ibxs.has(ibx) || touched.metros.has(metroOfIbx(ibx)));
  if (hit.length === 0) return undefined;
  return {
    kind: "maintenance",
    severity: "warning",
    message: `${String(notice.type ?? "maintenance")} ${String(notice.notificationNumber ?? notice.id)}: ${String(notice.summary ?? "")}`,
    window: { start: String(notice.startTimestamp), end: typeof notice.endTimestamp === "string" ? notice.endTimestamp : null },
    impacts: hit.map((ibx) => `${ibx} (metro ${metroOfIbx(ibx)})`),
    notice: { id: String(notice.id), ...(typeof notice.notificationNumber === "string" ? { number: notice.notificationNumber } : {}), ...(typeof notice.type === "string" ? { type: notice.type } : {}) },
  };
}

/** The metros and IBXs of what the plan changes: every `metroCode` and `ibx` in their values, before and after, and in the lookups. */
export function touchedPlaces(plan: Plan): { metros: Set<string>; ibxs: Set<string> } {
  const metros = new Set<string>();
  const ibxs = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) {
      for (const [key, value] of Object.entries(v)) {
        if (key === "metroCode" && typeof value === "string") metros.add(value);
        else if (key === "ibx" && typeof value === "string") ibxs.add(value);
        else walk(value);
      }
    }
  };
  for (const change of plan.changes) if (change.action !== "no-op") walk([change.before, change.after]);
  for (const lookup of plan.lookups ?? []) walk(lookup.value);
  return { metros, ibxs };
}

const changesNetworkEdge = (plan: Plan): boolean => plan.changes.some((c) => c.action !== "no-op" && isKind(c.kind) && KIND_DEFINITIONS.get(c.kind)?.networkEdge === true);

/** A listed notice, from whichever family has it; undefined when neither does. */
async function readNotice(session: Session, id: string): Promise<Body | undefined> {
  for (const family of NOTICE_FAMILIES) {
    try {
      return await session.api.call<Body>("GET", `/v1/notifications/${family}/${encodeURIComponent(id)}`);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  return undefined;
}

function unknownNotice(notice: MaintenanceNotice, index: number): Diagnostic {
  const { file, line, column } = notice;
  return {
    severity: "error",
    code: "plan.maintenance-notice",
    address: "provider",
    path: `maintenanceNotices[${index}]`,
    ...(file !== undefined ? { file } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    message: `maintenance notice ${notice.id} does not exist: the service has neither an IBX nor a network maintenance notification with this id`,
    hint: "copy the id from the notification (its id, not its number), or remove it from provider.maintenanceNotices",
  };
}

/**
 * The risks of applying the plan now: the downtime notification, read once when the plan changes a
 * network-edge object, and each listed maintenance notice, read once when the plan changes anything. A
 * listed notice the service does not have is an error at its place in the configuration.
 */
export async function assessRisks(session: Session, config: Configuration, plan: Plan, now = Date.now()): Promise<{ risks: Risk[]; diagnostics: Diagnostic[] }> {
  const risks: Risk[] = [];
  const diagnostics: Diagnostic[] = [];
  if (!plan.changes.some((c) => c.action !== "no-op")) return { risks, diagnostics };
  const notices = config.provider.maintenanceNotices ?? [];
  const [downtime, found] = await Promise.all([
    changesNetworkEdge(plan) ? session.api.call<Body>("GET", DOWNTIME) : undefined,
    Promise.all(notices.map((n) => readNotice(session, n.id))),
  ]);
  const down = downtime && downtimeRisk(downtime, now);
  if (down) risks.push(down);
  const touched = touchedPlaces(plan);
  found.forEach((notice, i) => {
    if (!notice) diagnostics.push(unknownNotice(notices[i]!, i));
    else {
      const risk = maintenanceRisk(notice, touched, now);
      if (risk) risks.push(risk);
    }
  });
  return { risks, diagnostics };
}
