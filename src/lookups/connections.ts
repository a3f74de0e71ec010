// Connections that exist already, by name, type or the metro of their a-side (POST /fabric/v4/connections/search).

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { fabricSearchLookup, METRO, NAME } from "./fabric-search.js";

export const connections = fabricSearchLookup({
  name: "connection",
  noun: "connection",
  description: "an existing connection, by name, type or the metro of its a-side",
  path: "/fabric/v4/connections/search",
  read: (uuid) => `/fabric/v4/connections/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.string().min(1), field: { at: "type", property: "/type" }, description: "EVPL_VC, IP_VC..." },
    metroCode: METRO("aSide.accessPoint.location.metroCode", "/aSide/accessPoint/location/metroCode"),
    equinixStatus: { schema: z.string().min(1), field: { at: "operation.equinixStatus", property: "/operation/equinixStatus" }, description: "PROVISIONED..." },
  },
  attributes: ["uuid", "name", "href", "type", "bandwidth", "aSide", "zSide", "redundancy", "project"],
  // The connection kind's secrets (a cloud provider's authentication key, what the provider is told): a
  // connection read here carries them as the service returns them.
  sensitive: new SecretPaths(["aSide.accessPoint.authenticationKey", "zSide.accessPoint.authenticationKey", "additionalInfo"]),
  metroAt: "aSide.accessPoint.location.metroCode",
});
