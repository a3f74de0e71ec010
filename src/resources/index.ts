// The resource kinds netform manages: one file per kind implementing the contract in types.ts, and
// this registry that the engine looks them up in.

import type { Kind } from "../config/index.js";
import { connections } from "./connections.js";
import { devices } from "./devices.js";
import { routeFilterAttachments } from "./route-filter-attachments.js";
import { routeFilters } from "./route-filters.js";
import { routingProtocols } from "./routing-protocols.js";
import type { ResourceKind } from "./types.js";
import { vpns } from "./vpns.js";

export const KIND_HANDLERS: Readonly<Record<Kind, ResourceKind>> = {
  routeFilters,
  routeFilterAttachments,
  connections,
  routingProtocols,
  devices,
  vpns,
};

export type { Body, KindContext, ObjectRef, Observed, Operation, Readiness, ResourceKind, UpdateMethod } from "./types.js";
