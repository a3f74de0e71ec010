// Validate Connection (official operationId validateConnections, POST /fabric/v4/connections/validate): what a
// connection create would say about one of its ends, without making it. The request is a filter of `=`
// expressions naming either a port and the VLAN tags a side would take on it (the description's Dot1q and
// Qinq examples), or a service profile and the seller's authorisation key (its cloud examples). The rules are
// the create's own (connection-rules.ts), so that a validated end is one a create accepts.

import { fail } from "../core/errors.js";
import { rejectUnknownQuery, readObject } from "../core/http.js";
import type { SimApp } from "../core/context.js";
import { getPointer, type Json, type JsonObject, type World } from "../core/world.js";
import { asString, checkAuthenticationKey, checkVlanFree, claimOnPort, referenced, type RuleContext } from "./connection-rules.js";

const SIDES = ["aSide", "zSide"] as const;
type Side = (typeof SIDES)[number];

/** What each kind of validation reads, under `/{side}/accessPoint`. */
const VLAN_PROPERTIES = ["port/uuid", "linkProtocol/vlanTag", "linkProtocol/vlanSTag", "linkProtocol/vlanCTag"] as const;
const KEY_PROPERTIES = ["authenticationKey", "profile/uuid", "sellerRegion"] as const;

/** The message of each kind's answer, as the description's examples word it. */
const VLAN_AVAILABLE = "vlanTag(s) provided is available";
const KEY_VALID = "Authorization key provided is valid";

/** The filter's expressions as one side's access point fields (`port/uuid` -> value); every expression is `=` with one value. */
function readFilter(body: JsonObject): { side: Side; fields: Map<string, string> } {
  const and = getPointer(body, "/filter/and");
  if (!Array.isArray(and) || and.length === 0) return fail("missingProperty", "/filter/and", "filter.and must list the properties to validate");
  let side: Side | undefined;
  const fields = new Map<string, string>();
  and.forEach((raw, i) => {
    const at = `/filter/and/${i}`;
    const expression = (raw ?? {}) as JsonObject;
    const property = asString(expression.property, `${at}/property`)!;
    const match = /^\/(aSide|zSide)\/accessPoint\/(.+)$/.exec(property);
    const field = match?.[2];
    if (!match || !field || ![...VLAN_PROPERTIES, ...KEY_PROPERTIES].includes(field as never)) {
      fail("unsupportedSearchProperty", `${at}/property`, `validation reads /zSide/accessPoint (or /aSide/accessPoint) ${[...VLAN_PROPERTIES, ...KEY_PROPERTIES].join(", ")}`, property);
    }
    if (side !== undefined && match![1] !== side) fail("invalidProperty", `${at}/property`, "every property must be of the same side", property);
    side = match![1] as Side;
    if (expression.operator !== "=") fail("notInAllowedList", `${at}/operator`, "the operator is =", JSON.stringify(expression.operator ?? null));
    const values = expression.values;
    if (!Array.isArray(values) || values.length !== 1 || typeof values[0] !== "string") return fail("invalidProperty", `${at}/values`, "values must hold one string");
    if (fields.has(field!)) fail("invalidProperty", `${at}/property`, `${property} is named twice`, property);
    fields.set(field!, values[0]);
  });
  return { side: side!, fields };
}

function tag(fields: Map<string, string>, field: string, path: string): number | undefined {
  const text = fields.get(field);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) return fail("invalidProperty", path, `${field} must be an integer`, text);
  return Number(text);
}

/** A port's VLAN tags are free: as a COLO end of a create would take them, checked against the same claims. */
function validateVlan(ctx: RuleContext, side: Side, fields: Map<string, string>): JsonObject {
  const path = `/${side}/accessPoint`;
  const vlanTag = tag(fields, "linkProtocol/vlanTag", `${path}/linkProtocol/vlanTag`);
  const vlanSTag = tag(fields, "linkProtocol/vlanSTag", `${path}/linkProtocol/vlanSTag`);
  const vlanCTag = tag(fields, "linkProtocol/vlanCTag", `${path}/linkProtocol/vlanCTag`);
  if (vlanTag !== undefined && (vlanSTag !== undefined || vlanCTag !== undefined)) fail("invalidProperty", `${path}/linkProtocol/vlanTag`, "vlanTag (DOT1Q) and vlanSTag/vlanCTag (QINQ) do not go together");
  if (vlanCTag !== undefined && vlanSTag === undefined) fail("missingProperty", `${path}/linkProtocol/vlanSTag`, "an inner tag (vlanCTag) needs its outer tag (vlanSTag)");
  if (vlanTag === undefined && vlanSTag === undefined) fail("missingProperty", `${path}/linkProtocol/vlanTag`, "name the VLAN: vlanTag (DOT1Q), or vlanSTag with or without vlanCTag (QINQ)");
  const linkProtocol: JsonObject = vlanTag !== undefined ? { type: "DOT1Q", vlanTag } : { type: "QINQ", vlanSTag: vlanSTag!, ...(vlanCTag === undefined ? {} : { vlanCTag }) };
  const { claim } = claimOnPort(ctx, fields.get("port/uuid"), linkProtocol, path, false);
  checkVlanFree(ctx.world, claim, `${path}/linkProtocol`);
  return { additionalInfo: [{ key: "message", value: VLAN_AVAILABLE }] };
}

/**
 * The connections already made with the key, as the description's Azure examples list them: their
 * bandwidth, redundancy and ends (only those the caller can see; the key binds all of them alike).
 */
function madeWithKey(connection: JsonObject): JsonObject {
  const end = (side: Side): JsonObject | undefined => {
    const ap = getPointer(connection, `/${side}/accessPoint`) as JsonObject | undefined;
    if (!ap) return undefined;
    const keep = ["type", "port", "profile", "location", "peeringType", "linkProtocol", "sellerRegion"].filter((k) => ap[k] !== undefined);
    return { accessPoint: Object.fromEntries(keep.map((k) => [k, ap[k]!])) };
  };
  const sides = Object.fromEntries(SIDES.map((s) => [s, end(s)] as const).filter((e): e is [Side, JsonObject] => e[1] !== undefined));
  return { uuid: connection.uuid ?? null, bandwidth: connection.bandwidth ?? null, redundancy: connection.redundancy ?? {}, ...sides };
}

/** A seller's authorisation key for a service profile: as a create with it would accept it. */
function validateKey(ctx: RuleContext, side: Side, fields: Map<string, string>, visible: (connection: JsonObject) => boolean): JsonObject {
  const path = `/${side}/accessPoint`;
  const key = fields.get("authenticationKey");
  const profileUuid = fields.get("profile/uuid");
  if (key === undefined) return fail("missingProperty", `${path}/authenticationKey`, "name the authorisation key to validate");
  if (profileUuid === undefined) return fail("missingProperty", `${path}/profile/uuid`, "name the service profile the key is for");
  const profile = ctx.world.view(referenced(ctx, "serviceProfiles", profileUuid, `${path}/profile/uuid`));
  const made = checkAuthenticationKey(ctx.world, profile, key, fields.get("sellerRegion"), `${path}/authenticationKey`).filter(visible);
  return { additionalInfo: [{ key: "message", value: KEY_VALID }], ...(made.length > 0 ? { data: made.map(madeWithKey) } : {}) };
}

export function connectionValidateRoutes(app: SimApp, world: World): void {
  app.post("/fabric/v4/connections/validate", async (c) => {
    rejectUnknownQuery(c, []);
    const principal = c.get("principal");
    const ctx: RuleContext = { world, principal };
    const { side, fields } = readFilter(await readObject(c));
    const aboutVlan = VLAN_PROPERTIES.some((p) => fields.has(p));
    const aboutKey = KEY_PROPERTIES.some((p) => fields.has(p));
    if (aboutVlan && aboutKey) fail("invalidProperty", "/filter/and", "validate either a port's VLAN tags or an authorisation key, not both at once");
    const visible = (connection: JsonObject): boolean => principal.projectIds.includes(String(getPointer(connection, "/project/projectId")));
    const answer: Json = aboutVlan ? validateVlan(ctx, side, fields) : validateKey(ctx, side, fields, visible);
    return c.json(answer, 200);
  });
}
