// Notification preferences as the Fabric objects take them (connections, cloud routers, networks, service
// tokens): entries of a type and email addresses. The service keeps both as sets, so the comparable form
// sorts them and their order is never a change.

import { z } from "zod";
import { email, isPlainObject } from "../config/index.js";

/** The official enumeration (fabricv4 SimplifiedNotification.type). */
export const NOTIFICATION_TYPES = ["NOTIFICATION", "BANDWIDTH_ALERT", "CONNECTION_APPROVAL", "PROFILE_LIFECYCLE", "ALL", "SALES_REP_NOTIFICATIONS", "TECHNICAL", "ORDERING", "QUOTE_NOTIFICATIONS"] as const;

/** Up to 12 recipients (section 8 states it for connections; the service holds every Fabric object to it). */
export const MAX_RECIPIENTS = 12;

/** Notification entries; `what` names the object in the messages ("a connection"). */
export const notificationsSpec = (what: string) =>
  z
    .array(
      z.strictObject({
        type: z.enum(NOTIFICATION_TYPES),
        emails: z
          .array(email())
          .min(1, { error: "emails needs at least one address" })
          .max(MAX_RECIPIENTS, { error: `${what} takes up to ${MAX_RECIPIENTS} notification email addresses` }),
      }),
    )
    .min(1, { error: "notifications needs at least one entry" });

/** Entries and their addresses sorted. */
export function sortedNotifications(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const key = (x: unknown) => JSON.stringify(isPlainObject(x) ? [x.type, x.emails] : x);
  return v
    .map((n) => (isPlainObject(n) ? { type: n.type, emails: Array.isArray(n.emails) ? [...n.emails].map(String).sort() : n.emails } : n))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
