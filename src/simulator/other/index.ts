// The areas of the service outside Fabric and network edge that the specification describes: internet
// access signature policies, bare-metal API keys, IBX and network maintenance notices, and the legacy
// layer 2 connection interface.

export { signaturePoliciesArea } from "./internet-access.js";
export { metalApiKeysArea } from "./metal-api-keys.js";
export { maintenanceNotificationsArea } from "./maintenance-notifications.js";
export { legacyLayer2Area } from "./legacy-l2.js";
