// Connection rules that involve several fields: which fields each access point type takes, the link
// protocol's tags (single tags, or ranges for connections that start at a virtual device, 2.5), the
// endpoints a connection type needs and the ports it may take whole (the official description's
// examples), a secondary's redundancy group, and the recipient limit across all notification entries
// (section 8). The simulator's connection-rules.ts says the same from the service's side.

import type { FieldPath } from "../../config/index.js";
import type { RuleContext } from "../../config/index.js";
import {
  ACCESS_POINT_TYPES,
  ENDPOINT_TYPES,
  LINK_PROTOCOL_TYPES,
  MAX_CONNECTION_RECIPIENTS,
  PORT_BASED_TYPES,
  type AccessPointType,
  type ConnectionType,
  type LinkProtocolType,
} from "./spec.js";

/** Fields that belong to one access point type; the value is the types that take the field. */
const FIELD_TYPES: Record<string, readonly AccessPointType[]> = {
  port: ["COLO"],
  linkProtocol: ["COLO", "VD"],
  virtualDevice: ["VD"],
  interface: ["VD"],
  profile: ["SP"],
  // A port's metro may be stated on a COLO access point; the service checks it against the port.
  location: ["COLO", "SP"],
  network: ["NETWORK"],
  router: ["CLOUD_ROUTER"],
};

/** What each access point type needs; a port-based connection may leave a port's link protocol out. */
function requiredFields(type: AccessPointType, portBased: boolean): readonly string[] {
  switch (type) {
    case "COLO":
      return portBased ? ["port"] : ["port", "linkProtocol"];
    case "VD":
      return ["virtualDevice"];
    case "SP":
      return ["profile"];
    case "NETWORK":
      return ["network"];
    case "CLOUD_ROUTER":
      return ["router"];
    case "CHAINGROUP":
    case "VG":
    case "IGW":
    case "SUBNET":
    case "METAL_NETWORK":
    case "VPIC_INTERFACE":
    case "APP_LINK":
    case "XF_IC":
      return [];
    default: {
      const never: never = type;
      return never;
    }
  }
}

const TAGS = ["vlanTag", "vlanSTag", "vlanCTag", "vlanTagMin", "vlanTagMax", "vlanCTagMin", "vlanCTagMax"] as const;

/** Which tags a link protocol type takes. */
function allowedTags(type: LinkProtocolType): readonly string[] {
  switch (type) {
    case "DOT1Q":
      return ["vlanTag", "vlanTagMin", "vlanTagMax"];
    case "QINQ":
      return ["vlanSTag", "vlanCTag", "vlanCTagMin", "vlanCTagMax"];
    case "UNTAGGED":
    case "EVPN_VXLAN":
    case "VXLAN":
      return [];
    default: {
      const never: never = type;
      return never;
    }
  }
}

/** The connection types that join a network: one per network type. */
const NETWORK_CONNECTION_TYPES = ["EVPLAN_VC", "EPLAN_VC", "IPWAN_VC", "EVPTREE_VC", "EPTREE_VC"];

/**
 * Each end's access point type is one the connection type takes, as the simulator's rule says: a cloud router is
 * only ever the a-side, of IP_VC or IPWAN_VC connections; a network takes only the network types; and the official
 * description's examples fix the ends of the router and network types (ENDPOINT_TYPES).
 */
function endpointTypeRules(r: RuleContext): void {
  const type = r.get(["type"]);
  if (r.get(["zSide", "accessPoint", "type"]) === "CLOUD_ROUTER") {
    r.report({ path: ["zSide", "accessPoint", "type"], code: "rule.cloud-router", message: "a cloud router is the a-side of its connections", hint: "put the router in aSide" });
  }
  if (typeof type === "string" && r.get(["aSide", "accessPoint", "type"]) === "CLOUD_ROUTER" && type !== "IP_VC" && type !== "IPWAN_VC") {
    r.report({ path: ["type"], code: "rule.cloud-router", message: `a connection from a cloud router is an IP_VC (or an IPWAN_VC to an IPWAN network), not ${type}` });
  }
  const toNetwork = ["aSide", "zSide"].some((s) => r.get([s, "accessPoint", "type"]) === "NETWORK");
  if (typeof type === "string" && toNetwork && !NETWORK_CONNECTION_TYPES.includes(type)) {
    r.report({ path: ["type"], code: "rule.network-type", message: `a connection joins a network as ${NETWORK_CONNECTION_TYPES.join(", ")} (the network's type), not ${type}` });
  }
  for (const side of ["aSide", "zSide"] as const) {
    const allowed = typeof type === "string" ? ENDPOINT_TYPES[type as ConnectionType]?.[side] : undefined;
    const apType = r.get([side, "accessPoint", "type"]);
    if (allowed && typeof apType === "string" && !(allowed as readonly string[]).includes(apType)) {
      r.report({ path: [side, "accessPoint", "type"], code: "rule.endpoint", message: `${type as string} needs a ${allowed.join(" or ")} access point as its ${side}, not ${apType}` });
    }
  }
}

export function rules(r: RuleContext): void {
  endpointTypeRules(r);
  const startsAtDevice = r.get(["aSide", "accessPoint", "type"]) === "VD";
  const type = r.get(["type"]) as ConnectionType | undefined;
  const portBased = type !== undefined && PORT_BASED_TYPES.includes(type);
  for (const side of ["aSide", "zSide"] as const) {
    if (!r.has([side])) continue;
    const hasToken = r.has([side, "serviceToken"]);
    const hasAccessPoint = r.has([side, "accessPoint"]);
    if (!hasToken && !hasAccessPoint) r.report({ path: [side, "accessPoint"], code: "rule.endpoint", message: `${side} needs an accessPoint or a serviceToken` });
    if (hasToken && hasAccessPoint) r.report({ path: [side, "serviceToken"], code: "rule.endpoint", message: `${side} takes either an accessPoint or a serviceToken, not both`, atKey: true });
    if (hasAccessPoint) accessPointRules(r, [side, "accessPoint"], startsAtDevice, portBased);
  }

  if (r.get(["redundancy", "priority"]) === "SECONDARY" && !r.has(["redundancy", "group"])) {
    r.report({
      path: ["redundancy", "group"],
      code: "rule.redundancy",
      message: "a SECONDARY connection joins its primary's redundancy group, and needs its name",
      hint: "set redundancy.group to the primary's, e.g. ${connections.<primary>.redundancy.group}",
    });
  }

  const notifications = r.get(["notifications"]);
  if (Array.isArray(notifications)) {
    const recipients = new Set<string>();
    for (const n of notifications) {
      const emails = (n as { emails?: unknown } | null)?.emails;
      if (Array.isArray(emails)) for (const e of emails) if (typeof e === "string") recipients.add(e.toLowerCase());
    }
    if (recipients.size > MAX_CONNECTION_RECIPIENTS && notifications.every((n) => ((n as { emails?: unknown[] } | null)?.emails?.length ?? 0) <= MAX_CONNECTION_RECIPIENTS)) {
      r.report({ path: ["notifications"], code: "rule.notification-recipients", message: `a connection takes up to ${MAX_CONNECTION_RECIPIENTS} notification email addresses in all (${recipients.size} given)` });
    }
  }
}

function accessPointRules(r: RuleContext, at: FieldPath, startsAtDevice: boolean, portBased: boolean): void {
  const type = r.get([...at, "type"]);
  if (typeof type !== "string" || !(ACCESS_POINT_TYPES as readonly string[]).includes(type)) return;
  const apType = type as AccessPointType;
  for (const f of requiredFields(apType, portBased)) {
    if (!r.has([...at, f])) r.report({ path: [...at, f], code: "rule.access-point", message: `an access point of type ${apType} needs ${f}` });
  }
  for (const [field, types] of Object.entries(FIELD_TYPES)) {
    if (r.has([...at, field]) && !types.includes(apType)) {
      r.report({ path: [...at, field], code: "rule.access-point", message: `${field} applies only to access points of type ${types.join(" or ")}, not ${apType}`, atKey: true });
    }
  }
  if (r.has([...at, "linkProtocol"]) && FIELD_TYPES.linkProtocol?.includes(apType)) linkProtocolRules(r, [...at, "linkProtocol"], apType, startsAtDevice);
}

function linkProtocolRules(r: RuleContext, at: FieldPath, apType: AccessPointType, startsAtDevice: boolean): void {
  const type = r.get([...at, "type"]);
  if (typeof type !== "string" || !(LINK_PROTOCOL_TYPES as readonly string[]).includes(type)) return;
  const lpType = type as LinkProtocolType;
  const allowed = allowedTags(lpType);
  for (const tag of TAGS) {
    if (r.has([...at, tag]) && !allowed.includes(tag)) r.report({ path: [...at, tag], code: "rule.link-protocol", message: `${tag} does not apply to link protocol ${lpType}`, atKey: true });
  }
  const range = (single: string, min: string, max: string, what: string) => {
    const hasSingle = r.has([...at, single]);
    const hasMin = r.has([...at, min]);
    const hasMax = r.has([...at, max]);
    if ((hasMin || hasMax) && !startsAtDevice) {
      r.report({ path: [...at, hasMin ? min : max], code: "rule.tag-range", message: `tag ranges (${min}, ${max}) apply only to connections that start at a virtual device`, hint: `use ${single}, or make aSide.accessPoint.type VD`, atKey: true });
      if (!hasSingle) return;
    }
    if (hasSingle && (hasMin || hasMax)) {
      r.report({ path: [...at, hasMin ? min : max], code: "rule.tag-range", message: `${min} and ${max} replace ${single}; give one or the other`, atKey: true });
      return;
    }
    if (hasSingle) return;
    if (!hasMin && !hasMax) {
      r.report({ path: [...at, single], code: "rule.link-protocol", message: startsAtDevice ? `${lpType} needs ${single}, or ${min} and ${max}` : `${lpType} needs ${single} (${what})` });
      return;
    }
    if (!hasMin || !hasMax) {
      r.report({ path: [...at, hasMin ? max : min], code: "rule.tag-range", message: `${hasMin ? max : min} is required with ${hasMin ? min : max} when ${single} is absent` });
      return;
    }
    const lo = r.num([...at, min]);
    const hi = r.num([...at, max]);
    if (lo !== undefined && hi !== undefined && lo > hi) r.report({ path: [...at, min], code: "rule.tag-range", message: `${min} (${lo}) must not be greater than ${max} (${hi})` });
  };
  switch (lpType) {
    case "DOT1Q":
      range("vlanTag", "vlanTagMin", "vlanTagMax", "the VLAN tag");
      break;
    case "QINQ":
      if (!r.has([...at, "vlanSTag"])) r.report({ path: [...at, "vlanSTag"], code: "rule.link-protocol", message: "QINQ needs vlanSTag (the outer tag)" });
      // On a port the outer tag alone is a whole S-tag: every inner tag under it belongs to the connection.
      if (apType === "COLO" && !r.has([...at, "vlanCTag"]) && !r.has([...at, "vlanCTagMin"]) && !r.has([...at, "vlanCTagMax"])) break;
      range("vlanCTag", "vlanCTagMin", "vlanCTagMax", "the inner tag");
      break;
    case "UNTAGGED":
    case "EVPN_VXLAN":
    case "VXLAN":
      break;
    default: {
      const never: never = lpType;
      throw new Error(`unhandled link protocol ${String(never)}`);
    }
  }
}
