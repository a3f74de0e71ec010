// Routing protocol rules that depend on the type (4.6): DIRECT takes interface addresses, BGP takes
// sessions, an ASN and the BGP options; a field of the other type is an error rather than silently sent.

import type { RuleContext } from "../../config/index.js";
import { ROUTING_PROTOCOL_TYPES, type RoutingProtocolType } from "./spec.js";

const DIRECT_ONLY = ["directIpv4", "directIpv6"] as const;
const BGP_ONLY = ["bgpIpv4", "bgpIpv6", "customerAsn", "bgpAuthKey", "asOverrideEnabled", "bfd"] as const;

export function rules(r: RuleContext): void {
  const type = r.get(["type"]);
  if (typeof type !== "string" || !(ROUTING_PROTOCOL_TYPES as readonly string[]).includes(type)) return;
  const t = type as RoutingProtocolType;
  const misplaced = (fields: readonly string[]) => {
    for (const f of fields) if (r.has([f])) r.report({ path: [f], code: "rule.routing-protocol-type", message: `${f} applies only to type ${t === "BGP" ? "DIRECT" : "BGP"}`, atKey: true });
  };
  switch (t) {
    case "DIRECT":
      misplaced(BGP_ONLY);
      if (!r.has(["directIpv4"]) && !r.has(["directIpv6"])) r.report({ path: ["directIpv4"], code: "rule.routing-protocol-type", message: "DIRECT needs directIpv4 or directIpv6 (equinixIfaceIp)" });
      break;
    case "BGP":
      misplaced(DIRECT_ONLY);
      if (!r.has(["customerAsn"])) r.report({ path: ["customerAsn"], code: "rule.routing-protocol-type", message: "BGP needs customerAsn" });
      if (!r.has(["bgpIpv4"]) && !r.has(["bgpIpv6"])) r.report({ path: ["bgpIpv4"], code: "rule.bgp-session", severity: "warning", message: "BGP has neither bgpIpv4 nor bgpIpv6, so no session will be configured" });
      break;
    default: {
      const never: never = t;
      throw new Error(`unhandled routing protocol type ${String(never)}`);
    }
  }
}
