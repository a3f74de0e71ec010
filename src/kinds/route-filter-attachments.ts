// Route filter attachments (specification 2.3, 3.2, 4.3): a route filter attached to a connection in one
// direction, a connection attachment as connection-attachments.ts describes; another direction is a
// detach and a new attach. A cloud router learns the prefixes its INBOUND filters' rules permit, so the
// declared rules of the filters attached INBOUND to a declared router's connections count against the
// routes its package holds (section 8), as the service counts them.

import { z } from "zod";
import { identityOf, placeDiagnostic, readPath, Reference, reveal, type ConfigResource } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { ROUTER_PACKAGE_LIMITS, type RouterPackage } from "./cloud-routers.js";
import { connectionAttachmentKind } from "./connection-attachments.js";

/** The declared cloud router a connection resource starts (or ends) at. */
function routerOf(connection: ConfigResource | undefined, all: ReadonlyMap<string, ConfigResource>): ConfigResource | undefined {
  for (const side of ["aSide", "zSide"]) {
    const ref = readPath(connection?.spec ?? {}, `${side}.accessPoint.router.uuid`);
    if (ref instanceof Reference && ref.kind === "cloudRouters") return all.get(ref.address);
  }
  return undefined;
}

function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const rules = [...all.values()].filter((r) => r.kind === "routeFilterRules");
  const routes = new Map<string, number>();
  for (const attachment of own) {
    if (reveal(attachment.spec.direction) !== "INBOUND" || !(attachment.spec.connection instanceof Reference)) continue;
    const router = routerOf(all.get(attachment.spec.connection.address), all);
    const limits = ROUTER_PACKAGE_LIMITS[reveal(readPath(router?.spec ?? {}, "package.code")) as RouterPackage];
    const filter = identityOf(attachment.spec.routeFilter);
    if (!router || !limits || filter === undefined) continue;
    const filterSpec = attachment.spec.routeFilter instanceof Reference ? all.get(attachment.spec.routeFilter.address)?.spec : undefined;
    const family = reveal(filterSpec?.type) === "BGP_IPv6_PREFIX_FILTER" ? "IPv6" : "IPv4";
    const key = `${router.address} ${family}`;
    const before = routes.get(key) ?? 0;
    const total = before + rules.filter((r) => identityOf(r.spec.routeFilter) === filter).length;
    routes.set(key, total);
    const max = limits.routes[family];
    if (before <= max && total > max) {
      diagnostics.push(
        placeDiagnostic(
          { address: attachment.address, positions: attachment.positions },
          { path: ["routeFilter"], code: "rule.router-package", message: `${router.address} would hold ${total} ${family} routes (the rules of the filters attached INBOUND to its connections); its ${String(reveal(readPath(router.spec, "package.code")))} package holds ${max}`, hint: "attach fewer rules or summarise their prefixes (a STANDARD router holds 1000 IPv4 and 100 IPv6 routes)" },
        ),
      );
    }
  }
  return diagnostics;
}

export const ATTACHMENT_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;

export const routeFilterAttachments = connectionAttachmentKind({
  name: "routeFilterAttachments",
  typicalSeconds: { create: 8, update: 8, delete: 6 },
  description: "route filters attached to connections, by name",
  noun: "route filter attachment",
  policyField: "routeFilter",
  policyKind: "routeFilters",
  policyNoun: "route filter",
  rulesKind: "routeFilterRules",
  segment: "routeFilters",
  settings: { direction: z.enum(ATTACHMENT_DIRECTIONS) },
  crossRules,
  attributes: ["href", "type", "uuid", "attachmentStatus", "direction", "connection", "routeFilter"],
});
