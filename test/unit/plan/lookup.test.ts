// References resolve against what is known of each object through one lookup, for every caller (plan,
// apply, drift, import, saved plans). A reference may read a dotted path into an attribute: before this
// lookup was shared, four of six copies read only top-level attributes, so drift and import took
// `${connections.dc.aSide.accessPoint.port.uuid}` for unknown.

import { describe, expect, it } from "vitest";
import { Reference } from "../../../src/config/index.js";
import { lookupFrom, resolveSpec, UNKNOWN_MARK, type Refreshed } from "../../../src/plan/index.js";

const PORT = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const state = {
  resources: {
    "connections.dc": { kind: "connections", id: "conn-1", attributes: { uuid: "conn-1", aSide: { accessPoint: { port: { uuid: PORT } } } }, sensitiveHashes: {}, dependencies: [] },
  },
};
const dotted = new Reference("connections.dc", "connections", "dc", "aSide.accessPoint.port.uuid", ["port"], false);

describe("lookupFrom", () => {
  it("reads a dotted attribute from the state", () => {
    expect(lookupFrom(state)("connections.dc", "aSide.accessPoint.port.uuid")).toEqual({ value: PORT });
    expect(resolveSpec({ port: dotted }, lookupFrom(state)).spec).toEqual({ port: PORT });
  });

  it("prefers what the refresh just read, dotted paths included", () => {
    const refreshed = new Map<string, Refreshed>([["connections.dc", { status: "present", id: "conn-1", body: { uuid: "conn-1", aSide: { accessPoint: { port: { uuid: "moved" } } } } }]]);
    expect(resolveSpec({ port: dotted }, lookupFrom(state, refreshed)).spec).toEqual({ port: "moved" });
  });

  it("leaves what nothing records unknown", () => {
    const { spec, waitingFor } = resolveSpec({ port: new Reference("connections.other", "connections", "other", "uuid", ["port"], false) }, lookupFrom(state));
    expect(spec.port).toBe(UNKNOWN_MARK);
    expect([...waitingFor]).toEqual(["connections.other"]);
  });
});
