// Device rules across fields (4.10, 2.10): an account to bill, single-device-only and self-configured-only
// fields, the mutually exclusive ways of making a pair or a cluster, and the rules across vendor settings
// (vendor-config.ts).

import type { RuleContext } from "../../config/index.js";
import { managementTypeForm } from "./spec.js";
import { vendorConfigRules } from "./vendor-config.js";

export function rules(r: RuleContext): void {
  if (!r.has(["accountNumber"]) && !r.has(["accountReferenceId"])) {
    r.report({ path: ["accountNumber"], code: "rule.device-account", message: "a device needs accountNumber or accountReferenceId", hint: "set accountNumber here or provider.accountNumber" });
  }
  const pairing = (["secondary", "clusterDetails", "primaryDeviceUuid"] as const).filter((f) => r.has([f]));
  if (pairing.length > 1) {
    r.report({ path: [pairing[1] ?? "secondary"], code: "rule.device-redundancy", message: `${pairing.join(" and ")} cannot be combined: a device is single, part of a pair, or a cluster`, atKey: true });
  }
  if (r.has(["diverseFromDeviceUuid"]) && pairing.length > 0) {
    r.report({ path: ["diverseFromDeviceUuid"], code: "rule.device-redundancy", message: "diverseFromDeviceUuid applies only to single devices", atKey: true });
  }
  // Only the SSH interface is the customer's to choose; a provider-managed device may still carry a user's
  // key (real EQUINIX-CONFIGURED devices do: equinix/ne-go's recorded device ne_device_get_resp.json).
  if (managementTypeForm(r.get(["deviceManagementType"])) === "EQUINIX-CONFIGURED" && r.has(["sshInterfaceId"])) {
    r.report({ path: ["sshInterfaceId"], code: "rule.device-management", message: "sshInterfaceId applies only to SELF-CONFIGURED devices", atKey: true });
  }
  vendorConfigRules(r);
  if (r.has(["ipType"])) r.report({ path: ["ipType"], code: "rule.deprecated", severity: "warning", message: "ipType is deprecated and always STATIC; remove it", atKey: true });
}
