// What the device-type catalogue offers (GET /ne/v1/deviceTypes, sections 2.10 and 4.10): the service
// accepts a device order only for a combination of type, management type, licence mode, core and package
// the catalogue lists, in one of the type's metros, at one of the package's versions for that licence. The configuration cannot know the catalogue offline, so a plan reads it once and
// reports each device it would create with a combination the service would refuse, before anything is sent.

import { listAll } from "../../api/index.js";
import { placeDiagnostic, type ConfigResource } from "../../config/index.js";
import type { Diagnostic } from "../../diag/index.js";
import { asNumber } from "../common.js";
import { enumeration } from "../reading.js";
import type { Body, KindContext } from "../types.js";
import { managementTypeForm } from "./spec.js";

const CATALOGUE = "/ne/v1/deviceTypes";
const PAGE_SIZE = 100;

const list = (v: unknown): Body[] => (Array.isArray(v) ? v.filter((x): x is Body => typeof x === "object" && x !== null) : []);
const object = (v: unknown): Body => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Body) : {});
const offeredWith = (items: Body[], key: string): string => items.map((i) => String(i[key])).join(", ");

/**
 * The catalogue's entry for a management type or licence mode, whichever way each side spells it: the
 * specification keys the catalogue PROVIDER-CONFIGURED, real answers EQUINIX-CONFIGURED (equinix/ne-go's
 * recorded catalogue ne_device_types_get.json), and a licence's `type` reads "Sub" there.
 */
function entryFor(entries: Body, wanted: unknown, form: (v: unknown) => unknown): unknown {
  const key = Object.keys(entries).find((k) => form(k) === form(wanted));
  return key === undefined ? undefined : entries[key];
}

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
  const management = entryFor(managementTypes, managementType, managementTypeForm);
  if (management === undefined) {
    return { path: "deviceManagementType", message: `${code} is not offered ${managementType}`, hint: `use ${Object.keys(managementTypes).join(" or ")}` };
  }
  const licenseOptions = object(object(management).licenseOptions);
  const mode = String(spec.licenseMode);
  const license = entryFor(licenseOptions, mode, enumeration);
  if (license === undefined) {
    return { path: "licenseMode", message: `${code} ${managementType} is not offered with licenseMode ${mode}`, hint: `use ${Object.keys(licenseOptions).join(" or ")}` };
  }
  const cores = list(object(license).cores).filter((c) => c.supported !== false);
  const core = cores.find((c) => asNumber(c.core) === spec.core);
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
 * How a version's `supportedLicenseTypes` names each licence mode (the official description's example; the
 * simulator's catalogue spells them the same, in VERSION_LICENSE_NAMES of device-catalogue.ts).
 */
const VERSION_LICENSE_NAMES: Readonly<Record<string, string>> = { SUB: "Subscription", BYOL: "BYOL" };

/** Why the type is not offered in the device's metros (a pair's secondary included), or undefined when it is. */
function metroProblem(type: Body, spec: Body): Problem | undefined {
  const metros = list(type.availableMetros).map((m) => String(m.metroCode));
  const sides: Array<[string, unknown]> = [["metroCode", spec.metroCode], ["secondary.metroCode", object(spec.secondary).metroCode]];
  for (const [path, metro] of sides) {
    if (typeof metro === "string" && !metros.includes(metro)) {
      return { path, message: `${String(type.deviceTypeCode)} is not offered in metro ${metro}`, hint: `use one of ${metros.join(", ")}` };
    }
  }
  return undefined;
}

/** Why the package (the one written, else the first the core offers, as the service picks) has no such version for the licence. */
function versionProblem(type: Body, spec: Body): Problem | undefined {
  if (typeof spec.version !== "string") return undefined;
  const management = entryFor(object(type.deviceManagementTypes), spec.deviceManagementType, managementTypeForm);
  const license = entryFor(object(object(management).licenseOptions), spec.licenseMode, enumeration);
  const core = list(object(license).cores).find((c) => asNumber(c.core) === spec.core);
  const packageCode = typeof spec.packageCode === "string" ? spec.packageCode : list(core?.packageCodes).find((p) => p.supported !== false)?.packageCode;
  const pkg = list(type.softwarePackages).find((p) => p.packageCode === packageCode);
  if (!pkg) return undefined;
  const versions = list(pkg.versionDetails);
  const licenseName = VERSION_LICENSE_NAMES[String(enumeration(spec.licenseMode))];
  const offered = versions.filter((v) => !Array.isArray(v.supportedLicenseTypes) || v.supportedLicenseTypes.includes(licenseName));
  if (offered.some((v) => v.version === spec.version)) return undefined;
  const known = versions.some((v) => v.version === spec.version);
  return {
    path: "version",
    message: known ? `${String(packageCode)} version ${spec.version} is not offered with licenseMode ${String(spec.licenseMode)}` : `${String(packageCode)} has no version ${spec.version}`,
    hint: `use one of ${offeredWith(offered, "version")}`,
  };
}

/** A setting's value on one device of the order (or a cluster node): in its vendorConfig, or beside it. */
function settingOf(device: Body, name: string): unknown {
  const value = object(device.vendorConfig)[name] ?? device[name];
  return value === "" ? undefined : (value ?? undefined);
}

/** Where a setting is written (the service reads vendorConfig first), or where to write it. */
const settingPath = (device: Body, name: string, prefix: string): string => (object(device.vendorConfig)[name] === undefined && device[name] !== undefined ? `${prefix}${name}` : `${prefix}vendorConfig.${name}`);

/**
 * Why the device's settings miss one the type requires (the catalogue's additionalFields), on each device of a
 * pair or, for a cluster, on each node; or why a pair shares a value the type wants distinct.
 */
function settingsProblem(type: Body, spec: Body): Problem | undefined {
  const fields = list(object(object(type.deviceManagementTypes)[String(spec.deviceManagementType)]).additionalFields);
  const nodes = object(object(spec.clusterDetails).clusterNodeDetails);
  const devices: Array<[string, Body]> = isCluster(spec)
    ? ["node0", "node1"].map((n) => [`clusterDetails.clusterNodeDetails.${n}.`, object(nodes[n])])
    : [["", spec], ...(spec.secondary === undefined ? [] : [["secondary.", object(spec.secondary)] as [string, Body]])];
  for (const field of fields.filter((f) => f.required === true)) {
    const name = String(field.name);
    const missing = devices.find(([, device]) => settingOf(device, name) === undefined);
    if (missing) {
      return { path: `${missing[0]}vendorConfig.${name}`, message: `${String(type.deviceTypeCode)} needs ${name} in vendorConfig`, hint: `set ${missing[0]}vendorConfig.${name}` };
    }
  }
  if (spec.secondary === undefined) return undefined;
  for (const field of fields.filter((f) => f.isSameValueAllowedForPrimaryAndSecondary === false)) {
    const name = String(field.name);
    const primary = settingOf(spec, name);
    if (typeof primary === "string" && primary === settingOf(object(spec.secondary), name)) {
      return { path: settingPath(object(spec.secondary), name, "secondary."), message: `${String(type.deviceTypeCode)} needs a different ${name} on each device of a pair`, hint: `give the secondary its own ${name}` };
    }
  }
  return undefined;
}

const isCluster = (spec: Body): boolean => spec.clusterDetails !== undefined && spec.clusterDetails !== null;

/**
 * Each device the plan creates, checked against the catalogue: one read of it per plan. A pair's secondary
 * is ordered with the primary's type, licence, core and package, so the primary's check covers it; its metro
 * is checked beside the primary's. Fields
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
    const type = byCode.get(resource.spec.deviceTypeCode);
    // In the service's order: the combination, then the metro, the version, and the type's settings.
    const problem = problemOf(type, resource.spec, types) ?? (type && (metroProblem(type, resource.spec) ?? versionProblem(type, resource.spec) ?? settingsProblem(type, resource.spec)));
    if (!problem) continue;
    diagnostics.push(
      placeDiagnostic({ address: resource.address, positions: resource.positions }, { path: problem.path.split("."), code: "plan.device-offer", message: `${problem.message}; the service refuses the order`, hint: problem.hint }),
    );
  }
  return diagnostics;
}
