import { describe, expect, it } from "vitest";
import { Masks, SENSITIVE, UNKNOWN } from "../../../src/views/values.js";

describe("masks", () => {
  const body = { name: "vpn", links: [{ authKey: "k1", id: 1 }, { authKey: "k2", id: 2 }], auth: { psk: "s", mode: "PSK" }, uuid: "u" };

  it.each([
    ["a list's element field, written with [*]", ["links[*].authKey"]],
    ["a list's element field, written with []", ["links[].authKey"]],
    ["a list's element field, written with an index", ["links.0.authKey"]],
    ["a list's element field, written with [0]", ["links[0].authKey"]],
  ])("hide %s in every element", (_, paths) => {
    const masked = new Masks(paths).mask(body, [], false) as typeof body;
    expect(masked.links).toEqual([{ authKey: SENSITIVE, id: 1 }, { authKey: SENSITIVE, id: 2 }]);
    expect(masked.auth).toEqual({ psk: "s", mode: "PSK" });
  });

  it("hide everything below a path, and leave the value they were given unchanged", () => {
    const masked = new Masks(["auth"], ["uuid"]).mask(body, [], true) as Record<string, unknown>;
    expect(masked).toEqual({ name: "vpn", links: body.links, auth: SENSITIVE, uuid: UNKNOWN });
    expect(body.auth.psk).toBe("s");
  });

  it("mark unknowns only when asked to, and never over a secret", () => {
    const masks = new Masks(["auth.psk"], ["auth", "uuid"]);
    expect(masks.mask(body, [], false)).toMatchObject({ uuid: "u", auth: { psk: SENSITIVE, mode: "PSK" } });
    expect(masks.mask(body, [], true)).toMatchObject({ uuid: UNKNOWN, auth: UNKNOWN });
    expect(masks.mask("s", ["auth", "psk"], true)).toBe(SENSITIVE);
  });

  it("mask a value given below the top from its path", () => {
    const masks = new Masks(["links[*].authKey"]);
    expect(masks.mask({ authKey: "k", id: 3 }, ["links", "4"], false)).toEqual({ authKey: SENSITIVE, id: 3 });
    expect(masks.isSensitive(["links", "4", "authKey", "deeper"])).toBe(true);
    expect(masks.isSensitive(["links", "4"])).toBe(false);
  });

  it("hide the engine's own placeholders wherever they are", () => {
    expect(new Masks([]).mask({ a: ["(sensitive)", "x"] }, [], false)).toEqual({ a: [SENSITIVE, "x"] });
  });
});
