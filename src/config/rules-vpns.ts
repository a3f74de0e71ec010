// VPN rules across fields (4.7): the remote ASN differs from the local one, for the primary tunnel and for
// the secondary's.

import type { RuleContext } from "./rules-context.js";

export function vpnRules(r: RuleContext): void {
  for (const at of [[], ["secondary"]] as const) {
    if (at.length > 0 && !r.has(at)) continue;
    const remote = r.num([...at, "remoteAsn"]);
    const local = r.num([...at, "localAsn"]);
    if (remote !== undefined && local !== undefined && remote === local) {
      r.report({ path: [...at, "remoteAsn"], code: "rule.vpn-asn", message: `remoteAsn must differ from localAsn (both ${remote})` });
    }
  }
}
