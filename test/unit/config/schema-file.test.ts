// The committed JSON Schema is the one the zod schemas generate, and it accepts the examples and refuses
// what validation refuses, so editors agree with `netform validate`.

import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { LOOKUP_CATALOG } from "../../../src/lookups/index.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { configurationJsonSchemaText } from "../../../src/config/index.js";

const repo = join(import.meta.dirname, "../../..");
const committed = readFileSync(join(repo, "schemas/netform.schema.json"), "utf8");

describe("schemas/netform.schema.json", () => {
  it("is current (regenerate with: node dist/cli/main.js schema > schemas/netform.schema.json)", () => {
    expect(committed).toBe(configurationJsonSchemaText(KIND_CATALOG, LOOKUP_CATALOG));
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(JSON.parse(committed) as object);

  for (const example of readdirSync(join(repo, "examples"))) {
    for (const file of readdirSync(join(repo, "examples", example)).filter((f) => f.endsWith(".yaml"))) {
      it(`accepts examples/${example}/${file}`, () => {
        const ok = validate(parse(readFileSync(join(repo, "examples", example, file), "utf8")));
        expect(validate.errors ?? []).toEqual([]);
        expect(ok).toBe(true);
      });
    }
  }

  it("refuses unknown fields, bad enumerations and out-of-range values", () => {
    const base = { netform: 1, routeFilters: { f: { type: "BGP_IPv4_PREFIX_FILTER" } } };
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, routeFilters: { f: { type: "BGP_IPv4_PREFIX_FILTER", nmae: "x" } } })).toBe(false);
    expect(validate({ ...base, routeFilters: { f: { type: "IPv4" } } })).toBe(false);
    expect(validate({ ...base, routeFilters: { F: { type: "BGP_IPv4_PREFIX_FILTER" } } })).toBe(false);
    expect(validate({ ...base, unknownKind: {} })).toBe(false);
  });

  it("completes and checks lookups: each kind with the where it takes", () => {
    const lookups = (entry: Record<string, unknown>) => validate({ netform: 1, lookups: { dc: entry } });
    expect(lookups({ kind: "port", where: { metroCode: "DC", priority: "PRIMARY" } })).toBe(true);
    expect(lookups({ kind: "edgeAccount", where: { metroCode: "${var.metro}" } })).toBe(true);
    expect(lookups({ kind: "port", where: { accountName: "x" } })).toBe(false);
    expect(lookups({ kind: "port", where: { priority: "FIRST" } })).toBe(false);
    expect(lookups({ kind: "harbour", where: { name: "x" } })).toBe(false);
  });

  it("accepts an expression wherever a value is constrained", () => {
    const rp = { connection: "${connections.c.uuid}", type: "BGP", customerAsn: "${var.asn}", bfd: { interval: "${var.bfd}" } };
    expect(validate({ netform: 1, routingProtocols: { r: rp } })).toBe(true);
    expect(validate({ netform: 1, routingProtocols: { r: { ...rp, customerAsn: "65000" } } })).toBe(false);
  });
});
