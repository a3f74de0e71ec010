// Service tokens that exist already, by name, type or state (POST /fabric/v4/serviceTokens/search).

import { z } from "zod";
import { fabricSearchLookup, NAME, STATE } from "./fabric-search.js";

export const serviceTokens = fabricSearchLookup({
  name: "serviceToken",
  noun: "service token",
  description: "an existing service token, by name, type or state",
  path: "/fabric/v4/serviceTokens/search",
  read: (uuid) => `/fabric/v4/serviceTokens/${uuid}`,
  where: {
    name: NAME,
    type: { schema: z.string().min(1), field: { at: "type", property: "/type" }, description: "VC_TOKEN, EPL_TOKEN" },
    state: STATE,
  },
  attributes: ["uuid", "name", "href", "type", "state", "expirationDateTime", "project"],
});
