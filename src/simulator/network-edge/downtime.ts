// The downtime notification of the network-edge service (sections 2.13, 4.11): pulled, not pushed. The
// seeded world announces one planned maintenance a week ahead; out-of-band changes (the control API)
// can turn it into an unplanned outage or remove it. Once every notification has ended, the service
// answers no_downtime.

import type { Context } from "hono";
import type { SimApp, SimEnv } from "../core/context.js";
import { rejectUnknownQuery } from "../core/http.js";
import { seededUuid } from "../core/seed.js";
import type { JsonObject, World } from "../core/world.js";

export const DOWNTIME_KIND = "downtimeNotifications";

/** Spelled as the service spells them (section 2.13). */
type NotificationType = "unplanned_downtime" | "planed_downtime" | "no_downtime";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A planned two-hour window a week after the world was seeded, on the hour. */
function plannedMaintenance(seededAt: number): JsonObject {
  const start = Math.ceil((seededAt + 7 * DAY_MS) / HOUR_MS) * HOUR_MS;
  const end = start + 2 * HOUR_MS;
  const startTime = new Date(start).toISOString();
  const endTime = new Date(end).toISOString();
  const type: NotificationType = "planed_downtime";
  return {
    notificationType: type,
    startTime,
    endTime,
    impactedServices: [
      { serviceName: "Device", impact: "delay", serviceStartTime: startTime, serviceEndTime: endTime, errorMessage: "Create and update device requests are queued and processed after the maintenance window." },
      { serviceName: "VPN", impact: "down", serviceStartTime: startTime, serviceEndTime: endTime, errorMessage: "VPN configuration APIs are unavailable during the maintenance window." },
    ],
    additionalMessage: "Network Edge APIs are under planned maintenance in this window. Please plan changes around it.",
  };
}

function noDowntime(): JsonObject {
  const type: NotificationType = "no_downtime";
  return { notificationType: type, impactedServices: [], additionalMessage: "No downtime is planned for Network Edge APIs." };
}

/** The notification that has not ended yet and starts first, else no_downtime. */
function currentNotification(world: World): JsonObject {
  const now = world.nowIso();
  const pending = world
    .list(DOWNTIME_KIND)
    .map((o) => world.view(o))
    .filter((n) => typeof n.endTime !== "string" || n.endTime > now)
    .sort((a, b) => String(a.startTime ?? "").localeCompare(String(b.startTime ?? "")));
  const first = pending[0];
  if (!first) return noDowntime();
  const { uuid: _uuid, ...notification } = first;
  return notification;
}

export function defineDowntime(world: World): void {
  world.defineKind(DOWNTIME_KIND, { eventType: "equinix.network_edge.downtime_notification", subject: (o) => `/ne/v1/notifications/${o.uuid}` });
}

export function seedDowntime(world: World): void {
  const uuid = seededUuid("d0a71e00", 1);
  world.create(DOWNTIME_KIND, { uuid, ...plannedMaintenance(world.now()) }, { uuid });
}

export function downtimeRoutes(app: SimApp, world: World): void {
  app.get("/ne/v1/notifications", (c: Context<SimEnv>) => {
    rejectUnknownQuery(c, []);
    return c.json(currentNotification(world));
  });
}
