import { describe, expect, it } from "vitest";
import { parsePrefix } from "../../../src/config/index.js";

describe("route prefixes", () => {
  it.each([
    ["10.1.2.0/24", { family: 4, text: "10.1.2.0/24" }],
    ["10.1.2.3/24", { family: 4, text: "10.1.2.3/24", network: "10.1.2.0/24" }],
    ["192.168.255.255/16", { family: 4, text: "192.168.255.255/16", network: "192.168.0.0/16" }],
    ["255.255.255.255/32", { family: 4, text: "255.255.255.255/32" }],
    ["128.0.0.1/1", { family: 4, text: "128.0.0.1/1", network: "128.0.0.0/1" }],
    ["10.0.0.1/0", { family: 4, text: "10.0.0.1/0", network: "0.0.0.0/0" }],
    ["0.0.0.0/0", { family: 4, text: "0.0.0.0/0" }],
    [" 10.0.0.0/08 ", { family: 4, text: "10.0.0.0/8" }],
    ["2001:DB8:0:0::1/64", { family: 6, text: "2001:db8::1/64", network: "2001:db8::/64" }],
    ["2001:db8::/32", { family: 6, text: "2001:db8::/32" }],
  ])("%s reads as the service spells it, with its network when host bits are set", (text, expected) => {
    expect(parsePrefix(text)).toEqual(expected);
  });

  it.each(["10.0.0.0/33", "10.0.0/24", "010.0.0.0/8", "10.0.0.0", "2001:db8::/129", "host/24"])("%s is not a prefix", (text) => {
    expect(parsePrefix(text)).toBeUndefined();
  });
});
