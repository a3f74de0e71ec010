// Search filters as the newer Fabric endpoints spell them (cloud routers, networks, service tokens): groups
// of `and` and `or` nested in each other, upper-case operators with negated forms (LIKE, ILIKE, NOT LIKE,
// NOT IN, NOT BETWEEN), each endpoint with its own closed list of properties and operators.

import { fail } from "../core/errors.js";
import { compileFilter, type SearchRules } from "../core/http.js";
import type { Json, JsonObject } from "../core/world.js";

type Predicate = (item: JsonObject) => boolean;

/** The operators compileFilter evaluates: every official one is one of them or a negation of one. */
const EVALUATED: SearchRules["operators"] = ["=", "!=", ">", ">=", "<", "<=", "IN", "NOT IN", "like", "BETWEEN"];

function evaluated(operator: string): { operator: string; negated: boolean } {
  switch (operator) {
    case "LIKE":
    case "ILIKE":
      return { operator: "like", negated: false };
    case "NOT LIKE":
    case "NOT ILIKE":
      return { operator: "like", negated: true };
    case "NOT BETWEEN":
      return { operator: "BETWEEN", negated: true };
    // The route searches' case-insensitive like (`~*`).
    case "~*":
      return { operator: "like", negated: false };
    default:
      return { operator, negated: false };
  }
}

/** Compiles a filter: `{and: [...]}`, `{or: [...]}` or `{property, operator, values}`, nested at will. */
export function compileSearch(filter: Json | undefined, rules: SearchRules, path = "/filter"): Predicate {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== "object" || Array.isArray(filter)) return fail("invalidProperty", path, "a filter must be an object");
  for (const key of ["and", "or"] as const) {
    const parts = filter[key];
    if (parts === undefined) continue;
    if (!Array.isArray(parts) || parts.length === 0) return fail("invalidProperty", `${path}/${key}`, `${key} must be a non-empty array of filters`);
    const compiled = parts.map((part, i) => compileSearch(part, rules, `${path}/${key}/${i}`));
    return key === "and" ? (item) => compiled.every((p) => p(item)) : (item) => compiled.some((p) => p(item));
  }
  // `/*` (the route and action searches' all-category search) matches when any of the other properties does.
  if (filter.property === "/*" && rules.properties.includes("/*")) {
    const each = rules.properties.filter((p) => p !== "/*").map((property) => compileSearch({ ...filter, property }, rules, path));
    return (item) => each.some((p) => p(item));
  }
  const operator = filter.operator;
  if (typeof operator !== "string") return fail("missingProperty", `${path}/operator`, "operator is required");
  if (!rules.operators.includes(operator)) return fail("notInAllowedList", `${path}/operator`, `operator ${operator} is not supported; allowed: ${rules.operators.join(", ")}`, operator);
  const { operator: inner, negated } = evaluated(operator);
  const matches = compileFilter({ ...filter, operator: inner }, { ...rules, operators: EVALUATED }, path);
  return negated ? (item) => !matches(item) : matches;
}

/** Whether a filter names `property` anywhere: a search about /state also finds deleted objects. */
export function mentions(filter: Json | undefined, property: string): boolean {
  if (filter === null || typeof filter !== "object") return false;
  if (Array.isArray(filter)) return filter.some((f) => mentions(f, property));
  return filter.property === property || mentions(filter.and, property) || mentions(filter.or, property);
}
