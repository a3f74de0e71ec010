// Route filter attachments (specification 2.3, 3.2, 4.3): a route filter attached to a connection in one
// direction, a connection attachment as connection-attachments.ts describes; another direction is a
// detach and a new attach.

import { z } from "zod";
import { connectionAttachmentKind } from "./connection-attachments.js";

export const ATTACHMENT_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;

export const routeFilterAttachments = connectionAttachmentKind({
  name: "routeFilterAttachments",
  description: "route filters attached to connections, by name",
  noun: "route filter attachment",
  policyField: "routeFilter",
  policyKind: "routeFilters",
  policyNoun: "route filter",
  rulesKind: "routeFilterRules",
  segment: "routeFilters",
  settings: { direction: z.enum(ATTACHMENT_DIRECTIONS) },
  attributes: ["href", "type", "uuid", "attachmentStatus", "direction", "connection", "routeFilter"],
});
