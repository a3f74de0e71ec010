// The prefix rules of a route filter (`/fabric/v4/routeFilters/{id}/routeFilterRules`) and of a route
// aggregation (`/fabric/v4/routeAggregations/{id}/routeAggregationRules`), which the official description
// gives the same shape: create one, create many (`bulk`), list, search, get, replace (PUT), patch, delete,
// and the change records of each rule. One implementation serves both, configured per parent.
//
// Choices where the description is silent (README, Simulator):
// - A rule's prefix must be of its parent's family and have no host bits set; IPv6 prefixes are kept in
//   RFC 5952 form. A parent holds one rule per prefix, and at most MAX_RULES rules.
// - Rules are added and changed only while the parent is PROVISIONED (or REPROVISIONING a rename).
// - A bulk create is all or nothing: every rule is checked before any is made, and a refusal names the
//   offending item (`/data/{i}/prefix`).
// - Deleting the parent deletes its rules with it (`deleteRulesWith`).
// - A deleted rule stays readable by GET as DEPROVISIONED; lists and searches leave it out, unless the
//   search asks about /state.
// - `GET .../{ruleId}` answers 200; the description lists 202, a copy of the create's.

import type { Context } from "hono";
import { canSee, findVisible, type SimApp, type SimEnv } from "../core/context.js";
import { fail, SimError, type ProblemDetail } from "../core/errors.js";
import {
  bodyPage,
  changeLogUpdate,
  compileFilter,
  newChangeLog,
  paginate,
  pageLink,
  queryPage,
  readArray,
  readObject,
  rejectUnknownQuery,
  sortBy,
  type Actor,
} from "../core/http.js";
import type { Json, JsonObject, SimObject, World } from "../core/world.js";
import { changeOf, changesOf, startChange, stateOf, type PolicyState } from "./change-records.js";
import { mentionsState } from "./policy-requests.js";
import { parsePrefix, type Family } from "./prefixes.js";

/** Lists of this family page with a default of 20 and at most 100 (the official Pagination description). */
const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;

/** The most rules one filter or aggregation holds (the description names no limit; prefix lists run to hundreds). */
export const MAX_RULES = 1000;

/** Simulated durations: a rule is one line of the parent's configuration. */
const PROVISION_MS = 3_000;
const REPROVISION_MS = 2_000;
const DEPROVISION_MS = 3_000;

const PREFIX_MATCHES = ["exact", "orlonger"] as const;
const DEFAULT_PREFIX_MATCH = "orlonger";

/** Parent states in which rules can be added, changed and deleted. */
const PARENT_OPEN: readonly PolicyState[] = ["PROVISIONED", "REPROVISIONING"];
/** Rule states in which a rule can be changed or deleted. */
const RULE_SETTLED: readonly PolicyState[] = ["PROVISIONED", "NOT_PROVISIONED", "NOT_DEPROVISIONED"];

export interface PrefixRulesConfig {
  /** The world kind of the rules: "routeFilterRules". */
  kind: string;
  /** The world kind of their parent: "routeFilters". */
  parentKind: string;
  /** The parent's collection path: "/fabric/v4/routeFilters". */
  parentBase: string;
  /** The rules' segment under a parent: "routeFilterRules". */
  segment: string;
  /** Path parameter names, as the description spells them. */
  parentParam: string;
  ruleParam: string;
  noun: string;
  parentNoun: string;
  eventType: string;
  /** Whether rules carry prefixMatch (filter rules do; aggregation rules do not). */
  prefixMatch: boolean;
  /** Route filter rules carry the action PERMIT (what a rule of a DENY-by-default filter does). */
  action?: string;
  /** What else must admit `added` more rules on the parent (a filter's rules are routes of the cloud routers it filters). */
  checkGrowth?(world: World, parent: SimObject, added: number, path: string): void;
  /** The rule type and prefix family for a parent of this type, or why the parent takes no rules. */
  ruleTypeFor(parentType: string): { type: string; family: Family } | { refused: string };
}

/** A rule's request fields, checked and in the service's spelling. */
interface RuleFields {
  prefix: string;
  name?: string;
  description?: string;
  prefixMatch?: string;
}

export interface PrefixRules {
  define(world: World): void;
  routes(app: SimApp, world: World): void;
  /** Rules of the parent that are not deleted. */
  liveRulesOf(world: World, parentUuid: string): SimObject[];
  /** Starts the deletion of the parent's rules that are not being or already deleted, with the parent's. */
  deleteRulesWith(world: World, parent: SimObject, actor: Actor): void;
}

const FAMILY_NAME: Record<Family, string> = { 4: "IPv4", 6: "IPv6" };

/** The index of rules by their parent, so that a parent's are found without reading every rule. */
export const RULES_BY_PARENT = "parent";

export function prefixRules(config: PrefixRulesConfig): PrefixRules {
  const parentOf = (rule: SimObject) => String(rule.meta.parentUuid);
  const ruleHref = (parentUuid: string, uuid: string) => `${config.parentBase}/${parentUuid}/${config.segment}/${uuid}`;

  const rulesOf = (world: World, parentUuid: string): SimObject[] => world.lookup(config.kind, RULES_BY_PARENT, parentUuid);
  const liveRulesOf = (world: World, parentUuid: string) => rulesOf(world, parentUuid).filter((r) => stateOf(world, r) !== "DEPROVISIONED");

  /** The request fields a change record shows as the rule after the change. */
  const baseOf = (view: JsonObject): JsonObject => {
    const base: JsonObject = { prefix: view.prefix ?? null };
    for (const field of ["name", "description", ...(config.prefixMatch ? ["prefixMatch"] : [])]) {
      if (typeof view[field] === "string") base[field] = view[field];
    }
    return base;
  };

  // ── checks ───────────────────────────────────────────────────────────────────────────────

  function ruleType(world: World, parent: SimObject): { type: string; family: Family } {
    const typed = config.ruleTypeFor(String(world.view(parent).type));
    if ("refused" in typed) return fail("invalidProperty", config.parentParam, typed.refused, String(world.view(parent).type));
    return typed;
  }

  function requireOpenParent(world: World, parent: SimObject): void {
    const state = stateOf(world, parent);
    if (!PARENT_OPEN.includes(state)) {
      fail("invalidProperty", config.parentParam, `${config.parentNoun} ${parent.uuid} is ${state}; its rules can change only while it is PROVISIONED`, state);
    }
  }

  function requireSettledRule(world: World, rule: SimObject, action: string): void {
    const state = stateOf(world, rule);
    if (!RULE_SETTLED.includes(state)) fail("routeRuleTransient", config.ruleParam, `${config.noun} ${rule.uuid} is ${state}; it can be ${action} once that change has completed`, state);
  }

  /**
   * Problems found in a request, as additionalInfo entries (a bulk create reports every item's); a bad
   * prefix or prefixMatch is the family's "invalid argument value" (EQ-3044013), anything else EQ-2010010.
   */
  interface Problems {
    details: ProblemDetail[];
    invalidValue: boolean;
  }
  const noProblems = (): Problems => ({ details: [], invalidValue: false });
  const badValue = (problems: Problems, detail: ProblemDetail): undefined => {
    problems.details.push(detail);
    problems.invalidValue = true;
    return undefined;
  };

  function readString(body: JsonObject, field: string, at: string, problems: Problems): string | undefined {
    const value = body[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") {
      problems.details.push({ property: `${at}${field}`, reason: `${field} must be a string`, value: JSON.stringify(value) });
      return undefined;
    }
    return value;
  }

  function readPrefix(value: Json | undefined, family: Family, property: string, problems: Problems): string | undefined {
    if (value === undefined || value === null) return badValue(problems, { property, reason: "prefix is required, e.g. 192.168.0.0/24" });
    const prefix = typeof value === "string" ? parsePrefix(value) : undefined;
    if (!prefix) return badValue(problems, { property, reason: "prefix must be an address and a prefix length in CIDR notation, e.g. 192.168.0.0/24 or 2001:db8::/32", value: String(value) });
    if (prefix.family !== family) {
      return badValue(problems, { property, reason: `prefix ${String(value)} is ${FAMILY_NAME[prefix.family]}; this ${config.parentNoun} takes ${FAMILY_NAME[family]} prefixes only`, value: String(value) });
    }
    if (prefix.network) return badValue(problems, { property, reason: `prefix ${String(value)} has host bits set; write ${prefix.network}`, value: String(value) });
    return prefix.text;
  }

  function readPrefixMatch(value: Json | undefined, property: string, problems: Problems): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || !(PREFIX_MATCHES as readonly string[]).includes(value)) {
      return badValue(problems, { property, reason: `prefixMatch must be one of ${PREFIX_MATCHES.join(", ")}`, value: String(value) });
    }
    return value;
  }

  /** A rule body (create, replace, one bulk item); `at` prefixes the property names ("/data/3/"). */
  function readRule(raw: Json | undefined, family: Family, at: string, problems: Problems): RuleFields | undefined {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      problems.details.push({ property: at || "body", reason: "a rule must be an object {prefix, name, description}" });
      return undefined;
    }
    const before = problems.details.length;
    const prefix = readPrefix(raw.prefix, family, `${at}prefix`, problems);
    const name = readString(raw, "name", at, problems);
    const description = readString(raw, "description", at, problems);
    const prefixMatch = config.prefixMatch ? readPrefixMatch(raw.prefixMatch, `${at}prefixMatch`, problems) : undefined;
    if (problems.details.length > before || prefix === undefined) return undefined;
    return {
      prefix,
      ...(name === undefined ? {} : { name }),
      ...(description === undefined ? {} : { description }),
      ...(config.prefixMatch ? { prefixMatch: prefixMatch ?? DEFAULT_PREFIX_MATCH } : {}),
    };
  }

  function throwProblems(problems: Problems): void {
    if (problems.details.length > 0) throw new SimError(problems.invalidValue ? "routeRuleInvalidValue" : "invalidProperty", problems.details);
  }

  /** One rule per prefix in a parent: `prefixes` are those asked for now, with where each is asked. */
  function requireUnusedPrefixes(world: World, parent: SimObject, prefixes: Array<{ prefix: string; property: string }>, except?: string): void {
    const existing = new Map(liveRulesOf(world, parent.uuid).filter((r) => r.uuid !== except).map((r) => [String(world.view(r).prefix), r.uuid]));
    const problems = noProblems();
    const asked = new Map<string, string>();
    for (const { prefix, property } of prefixes) {
      const taken = existing.get(prefix);
      const twice = asked.get(prefix);
      if (taken) badValue(problems, { property, reason: `${config.parentNoun} ${parent.uuid} already has a rule for ${prefix} (${taken}); change that rule instead`, value: prefix });
      else if (twice) badValue(problems, { property, reason: `${prefix} is asked for twice (also at ${twice})`, value: prefix });
      asked.set(prefix, property);
    }
    throwProblems(problems);
    const total = existing.size + prefixes.length;
    if (except === undefined && total > MAX_RULES) {
      fail("invalidProperty", config.parentParam, `${config.parentNoun} ${parent.uuid} would hold ${total} rules; it holds at most ${MAX_RULES}`, total);
    }
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────

  function createRule(world: World, parent: SimObject, type: string, fields: RuleFields, actor: Actor): JsonObject {
    const uuid = world.uuid();
    const rule = world.create(
      config.kind,
      {
        href: ruleHref(parent.uuid, uuid),
        type,
        uuid,
        ...fields,
        ...(config.action ? { action: config.action } : {}),
        changeLog: newChangeLog(actor, world.nowIso()),
      },
      { uuid, ...(parent.projectId === undefined ? {} : { projectId: parent.projectId }), meta: { parentUuid: parent.uuid } },
    );
    return startChange(world, rule, actor, "CREATION", { op: "add", path: "/" }, {}, PROVISION_MS, baseOf);
  }

  function deleteRule(world: World, rule: SimObject, actor: Actor): JsonObject {
    const stamp = { ...changeLogUpdate(actor, world.nowIso()), ...changeLogUpdate(actor, world.nowIso(), true) };
    return startChange(world, rule, actor, "DELETION", { op: "remove", path: "/" }, stamp, DEPROVISION_MS, baseOf);
  }

  function deleteRulesWith(world: World, parent: SimObject, actor: Actor): void {
    for (const rule of liveRulesOf(world, parent.uuid)) {
      if (stateOf(world, rule) !== "DEPROVISIONING") deleteRule(world, rule, actor);
    }
  }

  // ── routes ───────────────────────────────────────────────────────────────────────────────

  const SEARCH_RULES = {
    properties: ["/type", "/name", "/uuid", "/state", "/prefix", ...(config.prefixMatch ? ["/prefixMatch"] : [])],
    operators: ["=", "!=", "IN", "NOT IN", "LIKE", "NOT LIKE", "ILIKE"],
  } as const;
  const SORT_PROPERTIES = ["/type", "/uuid", "/name", "/state", "/prefix", ...(config.prefixMatch ? ["/prefixMatch"] : []), "/changeLog/createdDateTime", "/changeLog/updatedDateTime"];
  const DEFAULT_SORT: Json = [{ property: "/changeLog/updatedDateTime", direction: "DESC" }];

  function routes(app: SimApp, world: World): void {
    const base = `${config.parentBase}/:${config.parentParam}/${config.segment}`;
    const one = `${base}/:${config.ruleParam}`;
    const parentIn = (c: Context<SimEnv>) => findVisible(world, c.get("principal"), config.parentKind, c.req.param(config.parentParam) ?? "", config.parentParam);
    const ruleIn = (c: Context<SimEnv>, parent: SimObject) => {
      const rule = world.get(c.req.param(config.ruleParam) ?? "", config.kind);
      if (!rule || parentOf(rule) !== parent.uuid || !canSee(c.get("principal"), rule)) {
        return fail("notFound", config.ruleParam, `${config.parentNoun} ${parent.uuid} has no rule ${c.req.param(config.ruleParam) ?? ""}`);
      }
      return rule;
    };
    const liveViews = (parent: SimObject) => liveRulesOf(world, parent.uuid).map((r) => world.view(r));

    app.get(base, (c) => {
      rejectUnknownQuery(c, ["offset", "limit"]);
      const page = queryPage(c, LIST_LIMITS);
      return c.json(paginate(liveViews(parentIn(c)), page, pageLink(c)));
    });

    app.post(base, async (c) => {
      rejectUnknownQuery(c, []);
      const body = await readObject(c);
      const parent = parentIn(c);
      const { type, family } = ruleType(world, parent);
      const problems = noProblems();
      const fields = readRule(body, family, "", problems);
      throwProblems(problems);
      requireOpenParent(world, parent);
      requireUnusedPrefixes(world, parent, [{ prefix: fields!.prefix, property: "prefix" }]);
      config.checkGrowth?.(world, parent, 1, "prefix");
      return c.json(createRule(world, parent, type, fields!, c.get("principal")), 202);
    });

    app.post(`${base}/bulk`, async (c) => {
      rejectUnknownQuery(c, []);
      const body = await readObject(c);
      const parent = parentIn(c);
      const { type, family } = ruleType(world, parent);
      if (!Array.isArray(body.data) || body.data.length === 0) return fail("missingProperty", "/data", "data must be a non-empty array of rules");
      const problems = noProblems();
      const all = body.data.map((raw, i) => readRule(raw, family, `/data/${i}/`, problems));
      throwProblems(problems);
      const rules = all as RuleFields[];
      requireOpenParent(world, parent);
      requireUnusedPrefixes(world, parent, rules.map((r, i) => ({ prefix: r.prefix, property: `/data/${i}/prefix` })));
      config.checkGrowth?.(world, parent, rules.length, "/data");
      const principal = c.get("principal");
      const data = rules.map((fields) => createRule(world, parent, type, fields, principal));
      return c.json({ pagination: { offset: 0, limit: data.length, total: data.length }, data }, 202);
    });

    app.post(`${base}/search`, async (c) => {
      rejectUnknownQuery(c, []);
      const body = await readObject(c);
      const parent = parentIn(c);
      const matches = compileFilter(body.filter, SEARCH_RULES);
      const page = bodyPage(body.pagination, LIST_LIMITS);
      const views = mentionsState(body.filter) ? rulesOf(world, parent.uuid).map((r) => world.view(r)) : liveViews(parent);
      const sorted = sortBy(views.filter(matches), body.sort ?? DEFAULT_SORT, SORT_PROPERTIES);
      return c.json(paginate(sorted, page, pageLink(c)));
    });

    // The official description documents 202 for reading one rule (the specification is silent), and so
    // the simulator answers.
    app.get(one, (c) => {
      rejectUnknownQuery(c, []);
      return c.json(world.view(ruleIn(c, parentIn(c))), 202);
    });

    app.put(one, async (c) => {
      rejectUnknownQuery(c, []);
      const body = await readObject(c);
      const parent = parentIn(c);
      const rule = ruleIn(c, parent);
      const { family } = ruleType(world, parent);
      const problems = noProblems();
      const fields = readRule(body, family, "", problems);
      throwProblems(problems);
      requireOpenParent(world, parent);
      requireSettledRule(world, rule, "replaced");
      requireUnusedPrefixes(world, parent, [{ prefix: fields!.prefix, property: "prefix" }], rule.uuid);
      const principal = c.get("principal");
      // A replacement is complete: the optional fields it leaves out are removed.
      world.settle(rule);
      world.edit(rule, (stored) => {
        for (const field of ["name", "description"]) delete stored[field];
      });
      const set = { ...Object.fromEntries(Object.entries(fields!).map(([k, v]) => [`/${k}`, v])), ...changeLogUpdate(principal, world.nowIso()) };
      return c.json(startChange(world, rule, principal, "UPDATE", { op: "replace", path: "/" }, set, REPROVISION_MS, baseOf), 202);
    });

    app.patch(one, async (c) => {
      rejectUnknownQuery(c, []);
      const operations = await readArray(c);
      const parent = parentIn(c);
      const rule = ruleIn(c, parent);
      const { family } = ruleType(world, parent);
      const replacements = readReplacements(operations, family);
      requireOpenParent(world, parent);
      requireSettledRule(world, rule, "changed");
      const prefix = replacements.find((r) => r.path === "/prefix");
      if (prefix) requireUnusedPrefixes(world, parent, [{ prefix: prefix.value, property: "/0/value" }], rule.uuid);
      const principal = c.get("principal");
      const set = { ...Object.fromEntries(replacements.map((r) => [r.path, r.value])), ...changeLogUpdate(principal, world.nowIso()) };
      const last = replacements[replacements.length - 1]!;
      return c.json(startChange(world, rule, principal, "UPDATE", { op: "replace", path: last.path }, set, REPROVISION_MS, baseOf), 202);
    });

    app.delete(one, (c) => {
      rejectUnknownQuery(c, []);
      const parent = parentIn(c);
      const rule = ruleIn(c, parent);
      if (stateOf(world, rule) === "DEPROVISIONED") fail("notFound", config.ruleParam, `${config.noun} ${rule.uuid} is already deleted`);
      requireSettledRule(world, rule, "deleted");
      return c.json(deleteRule(world, rule, c.get("principal")), 202);
    });

    app.get(`${one}/changes`, (c) => {
      rejectUnknownQuery(c, ["offset", "limit"]);
      const page = queryPage(c, LIST_LIMITS);
      return c.json(paginate(changesOf(world, ruleIn(c, parentIn(c))), page, pageLink(c)));
    });

    app.get(`${one}/changes/:changeId`, (c) => {
      rejectUnknownQuery(c, []);
      return c.json(changeOf(world, ruleIn(c, parentIn(c)), c.req.param("changeId"), config.noun));
    });
  }

  /** The replacements a PATCH asks for: `replace` of /prefix, /prefixMatch (filter rules), /name or /description. */
  function readReplacements(operations: Json[], family: Family): Array<{ path: string; value: string }> {
    const paths = ["/prefix", ...(config.prefixMatch ? ["/prefixMatch"] : []), "/name", "/description"];
    if (operations.length === 0) fail("missingProperty", "body", "the patch must hold at least one operation");
    const problems = noProblems();
    const replacements = operations.map((raw, i) => {
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return fail("invalidProperty", `/${i}`, "each operation must be an object {op, path, value}");
      for (const field of ["op", "path", "value"]) {
        if (raw[field] === undefined || raw[field] === null) fail("missingProperty", `/${i}/${field}`, `${field} is required`);
      }
      const supported = `Only replace of ${paths.join(", ")} is supported.`;
      if (raw.op !== "replace") fail("routeFilterInvalidOperation", `/${i}/op`, supported, String(raw.op));
      if (typeof raw.path !== "string" || !paths.includes(raw.path)) fail("routeFilterInvalidOperation", `/${i}/path`, supported, String(raw.path));
      const path = raw.path as string;
      const at = `/${i}/value`;
      const value =
        path === "/prefix"
          ? readPrefix(raw.value, family, at, problems)
          : path === "/prefixMatch"
            ? readPrefixMatch(raw.value, at, problems)
            : readString({ value: raw.value ?? null }, "value", `/${i}/`, problems);
      return { path, value: value ?? "" };
    });
    throwProblems(problems);
    return replacements;
  }

  return {
    define(world) {
      world.defineKind(config.kind, { statePath: "/state", eventType: config.eventType, subject: (o) => String(o.body.href) });
      world.defineIndex(config.kind, RULES_BY_PARENT, (_body, rule) => [parentOf(rule)]);
    },
    routes,
    liveRulesOf,
    deleteRulesWith,
  };
}
