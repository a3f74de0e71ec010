// Every area of the service the simulator serves, in the order their routes are mounted.

import type { Area } from "./context.js";
import { coreArea } from "./seed.js";
import { routeFiltersArea } from "./fabric-route-filters.js";
import { connectionsArea } from "./fabric-connections.js";
import { routingProtocolsArea } from "./fabric-routing-protocols.js";
import { metrosArea } from "./fabric-metros.js";
import { pricesArea } from "./fabric-prices.js";
import { portsArea } from "./fabric-ports.js";
import { cloudEventsArea } from "./cloud-events.js";
import { deviceTypesArea } from "./ne-device-types.js";
import { devicesArea } from "./ne-devices.js";
import { vpnArea } from "./ne-vpn.js";
import { backupsArea } from "./ne-backups.js";
import { imagesArea } from "./ne-images.js";
import { publicKeysArea } from "./ne-public-keys.js";
import { filesArea } from "./ne-files.js";
import { orderSummaryArea } from "./ne-order-summary.js";
import { signaturePoliciesArea } from "./internet-access.js";
import { metalApiKeysArea } from "./metal-api-keys.js";
import { maintenanceNotificationsArea } from "./maintenance-notifications.js";
import { legacyLayer2Area } from "./legacy-l2.js";

export const ALL_AREAS: readonly Area[] = [
  coreArea,
  routeFiltersArea,
  connectionsArea,
  routingProtocolsArea,
  metrosArea,
  pricesArea,
  portsArea,
  cloudEventsArea,
  deviceTypesArea,
  devicesArea,
  vpnArea,
  backupsArea,
  imagesArea,
  publicKeysArea,
  filesArea,
  orderSummaryArea,
  signaturePoliciesArea,
  metalApiKeysArea,
  maintenanceNotificationsArea,
  legacyLayer2Area,
];
