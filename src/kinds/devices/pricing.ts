// How the service prices a virtual device (section 4.10, GET /ne/v1/prices): its type, package, licence,
// management, cores, throughput, term and additional bandwidth in its metro, and for a redundant pair the
// secondary's metro and bandwidth in the same question.

import { isPlainObject } from "../../config/index.js";
import type { KindPricing } from "../types.js";

export const pricing: KindPricing = {
  product(form) {
    const { metroCode, deviceTypeCode, packageCode } = form;
    if (typeof metroCode !== "string") return { unknown: "the metro is known only after apply" };
    if (typeof deviceTypeCode !== "string") return { unknown: "the device type is known only after apply" };
    if (typeof packageCode !== "string") return { unknown: "the software package is known only after apply" };
    // A removed secondary is marked by a null metro: no secondary.
    const secondary = isPlainObject(form.secondary) && typeof form.secondary.metroCode === "string" ? form.secondary : undefined;
    const query: Record<string, string | number> = { metro: metroCode, vendorPackage: deviceTypeCode, softwarePackage: packageCode };
    const optional: Array<[string, unknown]> = [
      ["accountNumber", form.accountNumber],
      ["licenseType", form.licenseMode],
      ["deviceManagementType", form.deviceManagementType],
      ["core", form.core],
      ["throughput", form.throughput],
      ["throughputUnit", form.throughputUnit],
      ["termLength", form.termlength],
      ["additionalBandwidth", form.additionalBandwidth],
      ["secondaryMetro", secondary?.metroCode],
      ["secondaryAccountNumber", secondary?.accountNumber],
      ["secondaryAdditionalBandwidth", secondary?.additionalBandwidth],
    ];
    for (const [name, value] of optional) if (typeof value === "string" || typeof value === "number") query[name] = value;
    const cores = typeof form.core === "number" ? `, ${form.core} cores` : "";
    const pair = secondary ? ` + ${String(secondary.metroCode)}` : "";
    return { product: `${deviceTypeCode} ${packageCode}${cores}, ${metroCode}${pair}`, metro: metroCode, query: { api: "device", query } };
  },
};
