// Routing protocol instances on a connection (4.6 create body). DIRECT and BGP share one flat shape; which
// fields belong to which type is checked in rules.ts.

import { z } from "zod";
import { cidr4, cidr6, customerAsn, ipv4, ipv6, lazily, med, uuid } from "../../config/index.js";

export const ROUTING_PROTOCOL_TYPES = ["BGP", "DIRECT"] as const;
export type RoutingProtocolType = (typeof ROUTING_PROTOCOL_TYPES)[number];

/** Section 8: 0 disables prepending; 1, 3 and 5 are the only other counts. */
export const AS_PREPEND_COUNTS = [0, 1, 3, 5] as const;

const prependCount = lazily(() => z.int().refine((v) => (AS_PREPEND_COUNTS as readonly number[]).includes(v), { error: "outboundASPrependCount must be one of 0, 1, 3, 5" }));

const bgpSession = (peer: z.ZodType<string>) =>
  z.strictObject({
    customerPeerIp: peer,
    enabled: z.boolean().optional(),
    outboundASPrependCount: prependCount().optional(),
    inboundMED: med().optional(),
    outboundMED: med().optional(),
    routesMax: z.int().min(1, { error: "routesMax must be a positive integer" }).optional().describe("maximum prefixes accepted from the peer"),
  });

export const schema = lazily(() =>
  z.strictObject({
    connection: uuid().describe("the connection's uuid, normally ${connections.NAME.uuid}"),
    type: z.enum(ROUTING_PROTOCOL_TYPES),
    name: z.string().min(1).optional(),
    directIpv4: z.strictObject({ equinixIfaceIp: cidr4() }).optional().describe("DIRECT: the provider's interface address"),
    directIpv6: z.strictObject({ equinixIfaceIp: cidr6() }).optional().describe("DIRECT: the provider's interface address"),
    bgpIpv4: bgpSession(ipv4("an IPv4 address (the customer's BGP peer)")).optional().describe("BGP: the IPv4 session"),
    bgpIpv6: bgpSession(ipv6("an IPv6 address (the customer's BGP peer)")).optional().describe("BGP: the IPv6 session"),
    customerAsn: customerAsn().optional().describe("BGP: the customer's ASN (required for BGP)"),
    asOverrideEnabled: z.boolean().optional(),
    bgpAuthKey: z.string().max(80, { error: "bgpAuthKey must be at most 80 characters" }).optional().describe("BGP: the session key (sensitive); use ${secret.NAME}"),
    bfd: z
      .strictObject({
        enabled: z.boolean().optional(),
        interval: z.int().min(100, { error: "bfd.interval must be 100 to 1000 ms" }).max(1000, { error: "bfd.interval must be 100 to 1000 ms" }).optional(),
      })
      .optional(),
  }),
);
