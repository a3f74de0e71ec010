// How the service prices a virtual connection (price search, section 4.12): the VIRTUAL_CONNECTION_PRODUCT
// of its type and bandwidth between the a-side and z-side metros, with a service profile's uuid for an SP
// z-side. A connection from a port names the port, whose metro the pricing reads.

import { isPlainObject, readPath } from "../../config/index.js";
import type { Body, KindPricing, PricedProduct } from "../types.js";

/** The bandwidths the price search quotes (4.12); another is not priced by the service. */
const PRICED_BANDWIDTHS = [50, 200, 500, 1000, 2000, 5000, 10000];
const A_SIDE_TYPES = ["COLO", "CLOUD_ROUTER", "VD"];
const Z_SIDE_TYPES = ["COLO", "SP"];
const A = "/connection/aSide/accessPoint";
const Z = "/connection/zSide/accessPoint";

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A side's metro: the one it names, or its port's. */
function metroOf(side: unknown, portMetro: (uuid: string) => string | undefined): string | undefined {
  const named = text(readPath(side, "accessPoint.location.metroCode"));
  if (named) return named;
  const port = text(readPath(side, "accessPoint.port.uuid"));
  return port ? portMetro(port) : undefined;
}

function product(form: Body, portMetro: (uuid: string) => string | undefined): PricedProduct {
  const type = text(form.type);
  const bandwidth = form.bandwidth;
  if (type !== "EVPL_VC" && type !== "IP_VC") return { unknown: `the service's price search does not price ${type ?? "this"} connections` };
  if (typeof bandwidth !== "number") return { unknown: "the bandwidth is known only after apply" };
  if (!PRICED_BANDWIDTHS.includes(bandwidth)) return { unknown: `the service's price search quotes ${PRICED_BANDWIDTHS.join(", ")} Mbps, not ${bandwidth}` };
  if (isPlainObject(form.aSide) && form.aSide.serviceToken !== undefined) return { unknown: "a connection from a service token is billed to the token's issuer" };
  if (isPlainObject(form.zSide) && form.zSide.serviceToken !== undefined) return { unknown: "a connection to a service token is billed to the token's issuer" };
  const aType = text(readPath(form.aSide, "accessPoint.type"));
  const zType = text(readPath(form.zSide, "accessPoint.type"));
  if (!aType || !A_SIDE_TYPES.includes(aType)) return { unknown: `the price search does not price an a-side of type ${aType ?? "(none)"}` };
  if (!zType || !Z_SIDE_TYPES.includes(zType)) return { unknown: `the price search does not price a z-side of type ${zType ?? "(none)"}` };
  const aMetro = metroOf(form.aSide, portMetro);
  if (!aMetro) return { unknown: aType === "COLO" ? "the a-side port's metro is known only after apply" : `the metro of the a-side ${aType.toLowerCase().replace("_", " ")} is known only after apply` };
  const zMetro = metroOf(form.zSide, portMetro);
  if (!zMetro) return { unknown: "the z-side metro is known only after apply" };
  const profile = text(readPath(form.zSide, "accessPoint.profile.uuid"));
  if (zType === "SP" && !profile) return { unknown: "the z-side service profile is known only after apply" };
  return {
    product: `${type} ${bandwidth} Mbps, ${aMetro} to ${zMetro}`,
    metro: aMetro,
    query: {
      api: "fabric",
      batchBy: "/connection/bandwidth",
      filter: {
        "/type": "VIRTUAL_CONNECTION_PRODUCT",
        "/connection/type": type,
        "/connection/bandwidth": bandwidth,
        [`${A}/type`]: aType,
        [`${A}/location/metroCode`]: aMetro,
        [`${Z}/type`]: zType,
        [`${Z}/location/metroCode`]: zMetro,
        ...(zType === "SP" && profile ? { [`${Z}/profile/uuid`]: profile } : {}),
      },
    },
  };
}

function portsNamed(form: Body): string[] {
  return [form.aSide, form.zSide].flatMap((side) => {
    const port = readPath(side, "accessPoint.port.uuid");
    return typeof port === "string" && readPath(side, "accessPoint.location.metroCode") === undefined ? [port] : [];
  });
}

export const pricing: KindPricing = { product, portsNamed };
