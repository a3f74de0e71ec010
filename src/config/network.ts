// Address forms the service accepts: IPv4 and IPv6 addresses, and interface addresses in CIDR notation.

import { isIPv4, isIPv6 } from "node:net";

export type Family = 4 | 6;

export function ipFamily(text: string): Family | undefined {
  if (isIPv4(text)) return 4;
  if (isIPv6(text)) return 6;
  return undefined;
}

/** `192.168.100.1/30`, `2001:db8::1/126`: an address and a prefix length valid for its family. */
export function cidrFamily(text: string): Family | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const family = ipFamily(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  if (family === undefined || !/^\d{1,3}$/.test(prefix)) return undefined;
  return Number(prefix) <= (family === 4 ? 32 : 128) ? family : undefined;
}
