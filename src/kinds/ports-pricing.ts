// How the service prices a port order (price search, section 4.12): the VIRTUAL_PORT_PRODUCT of its speed,
// connectivity source, link aggregation, service type and buyout, for its account, in its data center when
// the order names one (its demarcation point). The `ports` kind (port orders, sections 2.14 and 4.13)
// declares it as its `pricing`; it reads the order's own field names, as the kind's comparable form keeps them.

import { readPath } from "../config/index.js";
import type { KindPricing } from "./types.js";

/** The port speeds the price search quotes (Mbps). */
const PRICED_SPEEDS = [1000, 10000, 100000];

export const portPricing: KindPricing = {
  product(form) {
    const speed = form.physicalPortsSpeed;
    const account = readPath(form, "account.accountNumber");
    const metro = readPath(form, "location.metroCode");
    const ibx = form.demarcationPointIbx;
    if (typeof speed !== "number") return { unknown: "the port speed is known only after apply" };
    if (!PRICED_SPEEDS.includes(speed)) return { unknown: `the service's price search quotes ports of ${PRICED_SPEEDS.join(", ")} Mbps, not ${speed}` };
    if (typeof account !== "number") return { unknown: "the price search needs the port's account number, known only after apply" };
    const filter: Record<string, string | number | boolean> = {
      "/type": "VIRTUAL_PORT_PRODUCT",
      "/account/accountNumber": account,
      "/port/type": "XF_PORT",
      "/port/bandwidth": speed,
      "/port/connectivitySource/type": typeof form.connectivitySourceType === "string" ? form.connectivitySourceType : "COLO",
      "/port/lag/enabled": form.lagEnabled === true,
      "/port/settings/buyout": readPath(form, "settings.buyout") === true,
    };
    if (typeof form.serviceType === "string") filter["/port/serviceType"] = form.serviceType;
    if (typeof ibx === "string") filter["/port/location/ibx"] = ibx;
    const where = typeof ibx === "string" ? ibx : typeof metro === "string" ? metro : undefined;
    return {
      product: `${speed / 1000} Gbps port${form.lagEnabled === true ? " (LAG)" : ""}${where ? `, ${where}` : ""}`,
      ...(typeof metro === "string" ? { metro } : typeof ibx === "string" ? { metro: ibx.replace(/\d+$/, "") } : {}),
      query: { api: "fabric", filter },
    };
  },
};
