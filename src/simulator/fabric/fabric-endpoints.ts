// The objects a connection may end at besides ports, devices and service profiles: cloud routers, networks
// and the service tokens handed to partners, one area each.

export { cloudRoutersArea } from "./cloud-routers.js";
export { networksArea } from "./networks.js";
export { serviceTokensArea } from "./service-tokens.js";
