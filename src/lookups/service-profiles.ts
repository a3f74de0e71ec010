// Service profiles: the providers' offers connections reach, by name, type and metro (POST /fabric/v4/serviceProfiles/search).

import { z } from "zod";
import { fabricSearchLookup, METRO, NAME, STATE } from "./fabric-search.js";

export const serviceProfiles = fabricSearchLookup({
  name: "serviceProfile",
  noun: "service profile",
  description: "a service profile, by name, type, visibility or a metro it serves",
  path: "/fabric/v4/serviceProfiles/search",
  read: (uuid) => `/fabric/v4/serviceProfiles/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.string().min(1), field: { at: "type", property: "/type" }, description: "the profile type (L2_PROFILE, L3_PROFILE...)" },
    visibility: { schema: z.enum(["PUBLIC", "PRIVATE"]), field: { at: "visibility", property: "/visibility" }, description: "PUBLIC or PRIVATE" },
    metroCode: { ...METRO("metros", "/metros/code"), field: { at: "metros", property: "/metros/code", each: "code" } },
    state: STATE,
  },
  attributes: ["uuid", "name", "href", "type", "visibility", "state", "metros", "accessPointTypeConfigs"],
});
