// Every area of the service the simulator serves, in the order their routes are mounted.

import type { Area } from "./core/context.js";
import { coreArea } from "./core/seed.js";
import {
  routeFiltersArea,
  routeAggregationsArea,
  connectionsArea,
  routingProtocolsArea,
  metrosArea,
  pricesArea,
  portsArea,
  cloudEventsArea,
  cloudRoutersArea,
  networksArea,
  serviceTokensArea,
} from "./fabric/index.js";
import { deviceTypesArea, devicesArea, vpnArea, aclTemplatesArea, deviceLinksArea, bgpArea, backupsArea, imagesArea, publicKeysArea, sshUsersArea, filesArea, orderSummaryArea } from "./network-edge/index.js";
import { signaturePoliciesArea, metalApiKeysArea, maintenanceNotificationsArea, legacyLayer2Area } from "./other/index.js";

export const ALL_AREAS: readonly Area[] = [
  coreArea,
  routeFiltersArea,
  routeAggregationsArea,
  connectionsArea,
  routingProtocolsArea,
  metrosArea,
  pricesArea,
  portsArea,
  cloudEventsArea,
  cloudRoutersArea,
  networksArea,
  serviceTokensArea,
  deviceTypesArea,
  devicesArea,
  vpnArea,
  aclTemplatesArea,
  deviceLinksArea,
  bgpArea,
  backupsArea,
  imagesArea,
  publicKeysArea,
  sshUsersArea,
  filesArea,
  orderSummaryArea,
  signaturePoliciesArea,
  metalApiKeysArea,
  maintenanceNotificationsArea,
  legacyLayer2Area,
];
