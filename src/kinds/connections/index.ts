// Virtual connections: the schema of their YAML (spec.ts), the service's rules across their fields
// (rules.ts) and across the routers, networks and tokens they name (cross-rules.ts), the limits only the
// service knows, checked at plan (service-limits.ts), and how the engine manages them through the Fabric
// API (handler.ts).

import { SecretPaths } from "../../config/index.js";
import type { KindDefinition } from "../types.js";
import { crossRules } from "./cross-rules.js";
import { handler } from "./handler.js";
import { pricing } from "./pricing.js";
import { rules } from "./rules.js";
import { preflight } from "./service-limits.js";
import { schema } from "./spec.js";

export const connections: KindDefinition<"connections"> = {
  name: "connections",
  topology: "connection",
  description: "virtual connections between two endpoints, by name",
  get spec() {
    return schema();
  },
  rules,
  crossRules,
  displayName: "name",
  defaults: (d) => {
    if (d.provider.projectId) d.set("project", { projectId: d.provider.projectId });
    d.set("order", {});
  },
  // additionalInfo carries cloud credentials; the service never returns them, so only their hash is kept.
  sensitive: new SecretPaths(["aSide.accessPoint.authenticationKey", "zSide.accessPoint.authenticationKey", "additionalInfo"]),
  attributes: ["href", "uuid", "type", "name", "state", "operation", "order", "bandwidth", "redundancy", "aSide", "zSide", "project", "notifications", "account", "change", "changeLog", "isRemote", "direction"],
  serverSet: ["href", "uuid", "state", "change", "changeLog", "changelog", "operation", "account", "isRemote", "direction"],
  parents: {},
  timeoutMs: 15 * 60_000,
  // Approval, then provisioning.
  typicalSeconds: { create: 55, update: 30, delete: 30 },
  handler,
  pricing,
  preflight,
};
