// The kinds netform manages, one module each (a folder for a large one) exporting one KindDefinition, and
// this registry: the only list of kinds. The configuration layer reads it as a KindCatalog, the engine
// looks handlers up in it, and adding a kind touches its module and this file alone.

import type { KindCatalog } from "../config/index.js";
import { aclTemplates } from "./acl-templates.js";
import { bgpPeerings } from "./bgp-peerings.js";
import { cloudRouters } from "./cloud-routers.js";
import { connections } from "./connections/index.js";
import { deviceLinks } from "./device-links.js";
import { devices } from "./devices/index.js";
import { files } from "./files.js";
import { networks } from "./networks.js";
import { ports } from "./ports.js";
import { routeFilterAttachments } from "./route-filter-attachments.js";
import { routeFilterRules } from "./route-filter-rules.js";
import { routeFilters } from "./route-filters.js";
import { routeAggregationAttachments } from "./route-aggregation-attachments.js";
import { routeAggregationRules } from "./route-aggregation-rules.js";
import { routeAggregations } from "./route-aggregations.js";
import { routingProtocols } from "./routing-protocols/index.js";
import { serviceTokens } from "./service-tokens.js";
import { sshKeys } from "./ssh-keys.js";
import { sshUsers } from "./ssh-users.js";
import type { Body, KindDefinition, KindHandler, Operation, TopologyRole, TypicalSeconds } from "./types.js";
import { vpns } from "./vpns.js";

/** Every kind, in the order the configuration's sections and the JSON Schema list them. */
const DEFINITIONS = [
  routeFilters,
  routeFilterRules,
  routeFilterAttachments,
  cloudRouters,
  ports,
  networks,
  serviceTokens,
  connections,
  routingProtocols,
  devices,
  vpns,
  // Network-edge kinds around a device (issue 14).
  aclTemplates,
  sshKeys,
  sshUsers,
  files,
  deviceLinks,
  bgpPeerings,
  routeAggregations,
  routeAggregationRules,
  routeAggregationAttachments,
] as const;

export type Kind = (typeof DEFINITIONS)[number]["name"];

export const KINDS: readonly Kind[] = DEFINITIONS.map((d) => d.name);

export const isKind = (name: string): name is Kind => (KINDS as readonly string[]).includes(name);

/** The registry: each kind's definition by name. */
export const KIND_DEFINITIONS: ReadonlyMap<Kind, KindDefinition<Kind>> = new Map(DEFINITIONS.map((d) => [d.name, d as KindDefinition<Kind>]));

/** The registry as the configuration layer reads it. */
export const KIND_CATALOG: KindCatalog = KIND_DEFINITIONS;

/** Each kind's handler, by the name a configuration, a state or a plan gives (a plain string). */
/** Each drawn kind's place in the network's drawing (KindDefinition.topology). */
export const KIND_TOPOLOGY: ReadonlyMap<string, TopologyRole> = new Map(DEFINITIONS.flatMap((d) => ((d as KindDefinition).topology ? [[d.name, (d as KindDefinition).topology!] as const] : [])));

export const KIND_HANDLERS: ReadonlyMap<string, KindHandler> = new Map(DEFINITIONS.map((d) => [d.name, d.handler]));

/**
 * Typical transition times by timing key: a kind's name, and "kind/variant" for the variants a kind
 * times apart (timingKey).
 */
export const KIND_TYPICAL_SECONDS: ReadonlyMap<string, TypicalSeconds> = new Map(
  DEFINITIONS.flatMap((d: KindDefinition): [string, TypicalSeconds][] => [[d.name, d.typicalSeconds], ...Object.entries(d.timedVariants?.seconds ?? {}).map(([variant, seconds]): [string, TypicalSeconds] => [`${d.name}/${variant}`, seconds])]),
);

/** The key an object's transition times are known and learned by: its kind, or its kind's variant. */
export function timingKey(kind: string, body: Body | undefined): string {
  const variant = body && KIND_DEFINITIONS.get(kind as Kind)?.timedVariants?.of(body);
  return variant ? `${kind}/${variant}` : kind;
}

/** The timing key of a planned change's object, as it is before a delete and as it will be otherwise. */
export const timingKeyOf = (change: { kind: string; before?: Body; after?: Body }, operation: Operation): string =>
  timingKey(change.kind, operation === "delete" ? change.before : (change.after ?? change.before));

export type { Body, KindContext, KindHandler, KindPricing, ObjectRef, Observed, Operation, PricedProduct, PriceQuery, Readiness, TopologyRole, TypicalSeconds, UpdateMethod } from "./types.js";
