// Whether a BGP peer address fits its DIRECT subnet: IPv4 is answered in arithmetic, and must say what the
// block lists of node:net (which still answer IPv6) say, for every prefix length and every kind of address.

import { BlockList, isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { peerProblem } from "../../../src/kinds/routing-protocols/service-rules.js";

/** The answer as block lists give it, for any family. */
function byBlockLists(subnet: string, peer: string): string | undefined {
  const [address = "", prefixText = ""] = subnet.split("/");
  const prefix = Number(prefixText);
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  if (isIP(address) === 0 || isIP(peer) !== isIP(address) || !Number.isInteger(prefix)) return undefined;
  const inside = new BlockList();
  inside.addSubnet(address, prefix, family);
  if (!inside.check(peer, family)) return "is not inside the subnet";
  const itself = new BlockList();
  itself.addAddress(address, family);
  if (itself.check(peer, family)) return "is the provider's interface address";
  if (family === "ipv4" && prefix <= 30) {
    const host = 2 ** (32 - prefix) - 1;
    const offset = peer.split(".").reduce((n, octet) => n * 256 + Number(octet), 0) % (host + 1);
    if (offset === 0 || offset === host) return "is the subnet's network or broadcast address";
  }
  return undefined;
}

const ipv4 = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");

describe("peerProblem", () => {
  it.each([
    ["10.0.0.1/30", "10.0.0.2"],
    ["10.0.0.1/30", "10.0.0.1"],
    ["10.0.0.1/30", "10.0.0.0"],
    ["10.0.0.1/30", "10.0.0.3"],
    ["10.0.0.1/30", "10.0.0.4"],
    ["10.0.0.1/31", "10.0.0.0"],
    ["10.0.0.1/32", "10.0.0.1"],
    ["10.0.0.1/32", "10.0.0.2"],
    ["10.0.0.1/0", "255.255.255.255"],
    ["10.0.0.1/0", "0.0.0.0"],
    ["255.255.255.254/24", "255.255.255.255"],
    ["192.168.100.1/24", "192.168.101.1"],
    ["10.0.0.1", "10.0.0.2"],
    ["10.0.0.1/ 30", "10.0.0.2"],
    ["10.0.0.1/30.5", "10.0.0.2"],
    ["10.0.0.1/30", "2001:db8::2"],
    ["2001:db8::1/126", "2001:db8::2"],
    ["2001:db8::1/126", "2001:db8::1"],
    ["2001:db8::1/126", "2001:db8::5"],
    ["not-an-address/30", "10.0.0.2"],
  ])("%s, peer %s", (subnet, peer) => {
    expect(peerProblem(subnet, peer)).toBe(byBlockLists(subnet, peer));
  });

  it.each([
    ["10.0.0.1/33", "10.0.0.2"],
    ["10.0.0.1/-1", "10.0.0.2"],
    ["2001:db8::1/129", "2001:db8::2"],
  ])("leaves a prefix out of range (%s) to the kind's own rules, which refuse it with its place", (subnet, peer) => {
    expect(peerProblem(subnet, peer)).toBeUndefined();
  });

  it("answers IPv4 as block lists do across prefix lengths and addresses", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let prefix = 0; prefix <= 32; prefix++) {
      for (let i = 0; i < 20; i++) {
        const address = Math.floor(next() * 2 ** 32);
        // Near the address (network, broadcast, neighbours) as often as anywhere.
        const peer = i % 2 === 0 ? Math.floor(next() * 2 ** 32) : Math.min(2 ** 32 - 1, Math.max(0, address - 3 + Math.floor(next() * 7)));
        const subnet = `${ipv4(address)}/${prefix}`;
        expect(peerProblem(subnet, ipv4(peer)), `${subnet} ${ipv4(peer)}`).toBe(byBlockLists(subnet, ipv4(peer)));
      }
    }
  });
});
