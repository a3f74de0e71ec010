// How the service prices a cloud router (price search, section 4.12): the CLOUD_ROUTER_PRODUCT of its
// package in its metro. Routers of one metro share one search, whatever their packages.

import { readPath } from "../config/index.js";
import type { KindPricing } from "./types.js";

export const pricing: KindPricing = {
  product(form) {
    const metro = readPath(form, "location.metroCode");
    const code = readPath(form, "package.code");
    if (typeof metro !== "string") return { unknown: "the metro is known only after apply" };
    if (typeof code !== "string") return { unknown: "the package is known only after apply" };
    return {
      product: `${code} package, ${metro}`,
      metro,
      query: { api: "fabric", batchBy: "/router/package/code", filter: { "/type": "CLOUD_ROUTER_PRODUCT", "/router/location/metroCode": metro, "/router/package/code": code } },
    };
  },
};
