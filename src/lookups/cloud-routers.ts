// Cloud routers that exist already, by name, metro or package (POST /fabric/v4/routers/search, which
// requires the project).

import { z } from "zod";
import { NetformError } from "../diag/index.js";
import { fabricSearchLookup, METRO, NAME, STATE } from "./fabric-search.js";

export const cloudRouters = fabricSearchLookup({
  name: "cloudRouter",
  noun: "cloud router",
  description: "an existing cloud router of the provider's project, by name, metro or package",
  path: "/fabric/v4/routers/search",
  read: (uuid) => `/fabric/v4/routers/${uuid}`,
  where: {
    name: NAME,
    metroCode: METRO("location.metroCode", "/location/metroCode"),
    package: { schema: z.string().min(1), field: { at: "package.code", property: "/package/code" }, description: "the package code (LAB, STANDARD...)" },
    state: STATE,
  },
  attributes: ["uuid", "name", "href", "type", "state", "location", "package", "project", "equinixAsn"],
  metroAt: "location.metroCode",
  fixed: (ctx) => {
    if (ctx.provider.projectId === undefined) {
      throw new NetformError({ code: "lookup.project", message: "a cloudRouter lookup needs provider.projectId: the service searches cloud routers within one project", hint: "set provider.projectId" });
    }
    return [{ property: "/project/projectId", operator: "=", values: [ctx.provider.projectId] }];
  },
});
