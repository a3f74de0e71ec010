// PLACEHOLDER: this area is being built; it serves nothing yet.
import type { Area } from "./context.js";

export const metrosArea: Area = { name: "fabric-metros" };
