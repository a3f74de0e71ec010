// PLACEHOLDER: this area is being built; it serves nothing yet.
import type { Area } from "./context.js";

export const metalApiKeysArea: Area = { name: "metal-api-keys" };
