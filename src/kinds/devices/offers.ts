// What the device-type catalogue offers (GET /ne/v1/deviceTypes, sections 2.10 and 4.10): the service
// accepts a device order only for a combination of type, management type, licence mode, core and package
// the catalogue lists. The configuration cannot know the catalogue offline, so a plan reads it once and
// reports each device it would create with a combination the service would refuse, before anything is sent.

import { listAll } from "../../api/index.js";
import { placeDiagnostic, type ConfigResource } from "../../config/index.js";
import type { Diagnostic } from "../../diag/index.js";
import type { Body, KindContext } from "../types.js";

const CATALOGUE = "/ne/v1/deviceTypes";
const PAGE_SIZE = 100;

const list = (v: unknown): Body[] => (Array.isArray(v) ? v.filter((x): x is Body => typeof x === "object" && x !== null) : []);
const object = (v: unknown): Body => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Body) : {});
const offeredWith = (items: Body[], key: string): string => items.map((i) => String(i[key])).join(", ");

interface Problem {
  path: string;
  message: string;
  hint: string;
}

/** Why the catalogue's type does not offer the device's combination, or undefined when it does. */
function problemOf(type: Body | undefined, spec: Body, types: readonly Body[]): Problem | undefined {
  const code = String(spec.deviceTypeCode);
  if (!type) return { path: "deviceTypeCode", message: `the service offers no device type ${code}`, hint: `use one of ${offeredWith([...types], "deviceTypeCode")}` };
  const managementTypes = object(type.deviceManagementTypes);
  const managementType = String(spec.deviceManagementType);
  const management = managementTypes[managementType];
  if (management === undefined) {
    return { path: "deviceManagementType", message: `${code} is not offered ${managementType}`, hint: `use ${Object.keys(managementTypes).join(" or ")}` };
  }
  const licenseOptions = object(object(management).licenseOptions);
  const mode = String(spec.licenseMode);
  const license = licenseOptions[mode];
  if (license === undefined) {
    return { path: "licenseMode", message: `${code} ${managementType} is not offered with licenseMode ${mode}`, hint: `use ${Object.keys(licenseOptions).join(" or ")}` };
  }
  const cores = list(object(license).cores).filter((c) => c.supported !== false);
  const core = cores.find((c) => c.core === spec.core);
  if (!core) {
    return { path: "core", message: `${code} ${managementType} ${mode} offers ${offeredWith(cores, "core")} cores, not ${String(spec.core)}`, hint: `set core to one of ${offeredWith(cores, "core")}` };
  }
  if (typeof spec.packageCode !== "string") return undefined;
  const packages = list(core.packageCodes);
  const offered = packages.filter((p) => p.supported !== false);
  if (!offered.some((p) => p.packageCode === spec.packageCode)) {
    const known = packages.some((p) => p.packageCode === spec.packageCode);
    return {
      path: "packageCode",
      message: known ? `${code} does not offer package ${spec.packageCode} with ${String(spec.core)} cores` : `${code} has no package ${spec.packageCode}`,
      hint: `with ${String(spec.core)} cores, use ${offeredWith(offered, "packageCode")}`,
    };
  }
  return undefined;
}

/**
 * Each device the plan creates, checked against the catalogue: one read of it per plan. A pair's secondary
 * is ordered with the primary's type, licence, core and package, so the primary's check covers it. Fields
 * still unknown (written from another resource's attributes) are left to the service.
 */
export async function preflight(ctx: KindContext, creates: readonly ConfigResource[]): Promise<Diagnostic[]> {
  const checked = creates.filter((r) => ["deviceTypeCode", "deviceManagementType", "licenseMode"].every((f) => typeof r.spec[f] === "string") && typeof r.spec.core === "number");
  if (checked.length === 0) return [];
  const types: Body[] = [];
  for await (const type of listAll<Body>(ctx.api, CATALOGUE, { pageSize: PAGE_SIZE })) types.push(type);
  const byCode = new Map(types.map((t) => [t.deviceTypeCode, t]));
  const diagnostics: Diagnostic[] = [];
  for (const resource of checked) {
    const problem = problemOf(byCode.get(resource.spec.deviceTypeCode), resource.spec, types);
    if (!problem) continue;
    diagnostics.push(
      placeDiagnostic({ address: resource.address, positions: resource.positions }, { path: [problem.path], code: "plan.device-offer", message: `${problem.message}; the service refuses the order`, hint: problem.hint }),
    );
  }
  return diagnostics;
}
