// The network-edge API (/ne/v1): device types, virtual devices (single, redundant pairs, clusters) with
// their catalogue, order rules and operations, VPNs, backups, images, public keys, SSH users, files, order
// summaries and downtime notices.

export { deviceTypesArea } from "./device-types.js";
export { devicesArea } from "./devices.js";
export { vpnArea } from "./vpn.js";
export { aclTemplatesArea } from "./acl-templates.js";
export { deviceLinksArea } from "./device-links.js";
export { bgpArea } from "./bgp.js";
export { backupsArea } from "./backups.js";
export { imagesArea } from "./images.js";
export { publicKeysArea } from "./public-keys.js";
export { sshUsersArea } from "./ssh-users.js";
export { filesArea } from "./files.js";
export { orderSummaryArea } from "./order-summary.js";
