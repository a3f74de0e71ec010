// Ports: the user's colocation ports, by name or by metro, priority and encapsulation (POST /fabric/v4/ports/search).

import { z } from "zod";
import { fabricSearchLookup, METRO, NAME, STATE } from "./fabric-search.js";

export const ports = fabricSearchLookup({
  name: "port",
  noun: "port",
  description: "one of the user's ports, by name, or by metro, priority and encapsulation",
  path: "/fabric/v4/ports/search",
  read: (uuid) => `/fabric/v4/ports/${uuid}`,
  where: {
    name: NAME,
    metroCode: METRO("location.metroCode", "/location/metroCode"),
    priority: { schema: z.enum(["PRIMARY", "SECONDARY"]), field: { at: "redundancy.priority" }, description: "the port's redundancy priority" },
    encapsulation: { schema: z.enum(["DOT1Q", "QINQ", "UNTAGGED"]), field: { at: "encapsulation.type" }, description: "the port's encapsulation" },
    state: STATE,
    bandwidth: { schema: z.number().int().positive(), field: { at: "bandwidth" }, description: "the port's bandwidth in Mbps" },
  },
  unfiltered: { list: "/fabric/v4/ports" },
  attributes: ["uuid", "name", "href", "type", "bandwidth", "location", "redundancy", "encapsulation", "project", "account"],
  metroAt: "location.metroCode",
  fixed: (ctx) => (ctx.provider.projectId ? [{ property: "/project/projectId", operator: "=", values: [ctx.provider.projectId] }] : []),
});
