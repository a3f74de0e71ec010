// Where a resource's value is written, for diagnostics raised after loading (by the engine, from the API).

import type { FieldPath } from "./address.js";
import { spanAt, type SourcePosition } from "./positions.js";
import type { ConfigResource } from "./types.js";

/** The value's position, or its nearest written ancestor's key (defaulted and missing fields). */
export function positionOf(resource: Pick<ConfigResource, "positions" | "position">, path: FieldPath): SourcePosition {
  const found = spanAt(resource.positions, path);
  if (!found) return resource.position;
  return found.exact ? found.span.value : (found.span.key ?? found.span.value);
}
