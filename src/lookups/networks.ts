// Networks that exist already, by name, type or scope (POST /fabric/v4/networks/search).

import { z } from "zod";
import { fabricSearchLookup, NAME, STATE } from "./fabric-search.js";

export const networks = fabricSearchLookup({
  name: "network",
  noun: "network",
  description: "an existing network, by name, type or scope",
  path: "/fabric/v4/networks/search",
  read: (uuid) => `/fabric/v4/networks/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.string().min(1), field: { at: "type", property: "/type" }, description: "EVPLAN, EPLAN, IPWAN" },
    scope: { schema: z.enum(["LOCAL", "REGIONAL", "GLOBAL"]), field: { at: "scope", property: "/scope" }, description: "LOCAL, REGIONAL or GLOBAL" },
    state: STATE,
  },
  attributes: ["uuid", "name", "href", "type", "scope", "state", "location", "project"],
  metroAt: "location.metroCode",
});
