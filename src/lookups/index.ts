// The lookup kinds: what a configuration may name without managing it (a port, a service profile, a
// metro's account), one module each exporting one LookupDefinition, and this registry, the only list of
// them. The configuration layer reads it as a LookupCatalog; the engine resolves lookups through it.

import type { LookupCatalog } from "../config/index.js";
import { cloudRouters } from "./cloud-routers.js";
import { connectionRouteAggregations, connectionRouteFilters } from "./connection-attachments.js";
import { connections } from "./connections.js";
import { devicePlatforms, deviceSoftware } from "./device-offers.js";
import { devices } from "./devices.js";
import { deviceTypes } from "./device-types.js";
import { edgeAccounts } from "./edge-accounts.js";
import { metros } from "./metros.js";
import { networks } from "./networks.js";
import { ports } from "./ports.js";
import { routeAggregationRules, routeFilterRules } from "./prefix-rules.js";
import { routeAggregations } from "./route-aggregations.js";
import { routeFilters } from "./route-filters.js";
import { routingProtocols } from "./routing-protocols.js";
import { serviceProfiles } from "./service-profiles.js";
import { serviceTokens } from "./service-tokens.js";
import type { LookupDefinition } from "./types.js";

/** Every lookup kind, in the order the JSON Schema and messages list them. */
const DEFINITIONS: readonly LookupDefinition[] = [
  ports,
  serviceProfiles,
  metros,
  deviceTypes,
  devicePlatforms,
  deviceSoftware,
  edgeAccounts,
  cloudRouters,
  networks,
  serviceTokens,
  routeFilters,
  routeFilterRules,
  routeAggregations,
  routeAggregationRules,
  connections,
  connectionRouteFilters,
  connectionRouteAggregations,
  routingProtocols,
  devices,
];

export const LOOKUP_DEFINITIONS: ReadonlyMap<string, LookupDefinition> = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** The registry as the configuration layer reads it. */
export const LOOKUP_CATALOG: LookupCatalog = LOOKUP_DEFINITIONS;

export type { Body, Candidate, LookupContext, LookupDefinition } from "./types.js";
export { compareValues, matches } from "./search.js";
