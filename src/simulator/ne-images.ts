// PLACEHOLDER: this area is being built; it serves nothing yet.
import type { Area } from "./context.js";

export const imagesArea: Area = { name: "ne-images" };
