// PLACEHOLDER: this area is being built; it serves nothing yet.
import type { Area } from "./context.js";

export const routeFiltersArea: Area = { name: "fabric-route-filters" };
