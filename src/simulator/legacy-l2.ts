// PLACEHOLDER: this area is being built; it serves nothing yet.
import type { Area } from "./context.js";

export const legacyLayer2Area: Area = { name: "legacy-l2" };
