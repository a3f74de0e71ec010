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
import { routeFilterAttachments } from "./route-filter-attachments.js";
import { routeFilterRules } from "./route-filter-rules.js";
import { routeFilters } from "./route-filters.js";
import { routeAggregationAttachments } from "./route-aggregation-attachments.js";
import { routeAggregationRules } from "./route-aggregation-rules.js";
import { routeAggregations } from "./route-aggregations.js";
import { routingProtocols } from "./routing-protocols/index.js";
import { serviceTokens } from "./service-tokens.js";
import { sshKeys } from "./ssh-keys.js";
import type { KindDefinition, KindHandler } from "./types.js";
import { vpns } from "./vpns.js";

/** Every kind, in the order the configuration's sections and the JSON Schema list them. */
const DEFINITIONS = [
  routeFilters,
  routeFilterRules,
  routeFilterAttachments,
  cloudRouters,
  networks,
  serviceTokens,
  connections,
  routingProtocols,
  devices,
  vpns,
  // Network-edge kinds around a device (issue 14).
  aclTemplates,
  sshKeys,
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
export const KIND_HANDLERS: ReadonlyMap<string, KindHandler> = new Map(DEFINITIONS.map((d) => [d.name, d.handler]));

export type { Body, KindContext, KindHandler, KindPricing, ObjectRef, Observed, Operation, PricedProduct, PriceQuery, Readiness, UpdateMethod } from "./types.js";
