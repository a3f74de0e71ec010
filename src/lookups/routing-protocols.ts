// A connection's routing protocols (GET /fabric/v4/connections/{connectionId}/routingProtocols): its DIRECT
// and BGP configurations, by type or state.

import { z } from "zod";
import { SecretPaths } from "../config/index.js";
import { childListLookup } from "./child-list.js";
import { NAME, STATE } from "./fabric-search.js";

export const routingProtocols = childListLookup({
  name: "routingProtocol",
  noun: "routing protocol",
  description: "a routing protocol of a connection (DIRECT or BGP), by type, name or state",
  parent: { field: "connectionId", noun: "connection" },
  list: (id) => `/fabric/v4/connections/${id}/routingProtocols`,
  where: {
    type: { schema: z.enum(["DIRECT", "BGP"]), field: { at: "type" }, description: "DIRECT or BGP" },
    name: { ...NAME, field: { at: "name" } },
    state: { ...STATE, field: { at: "state" } },
  },
  attributes: ["uuid", "name", "href", "type", "state", "directIpv4", "directIpv6", "bgpIpv4", "bgpIpv6", "customerAsn", "equinixAsn", "bfd"],
  // The BGP session's password, as the routing protocol kind keeps it.
  sensitive: new SecretPaths(["bgpAuthKey"]),
});
