// `netform fmt`: the canonical text of a configuration file. Keys in the order of the schema (top-level
// sections as the format lists them, each resource's fields as its kind declares them, meta keys last),
// two-space indentation, flow mappings padded as `{ a: 1 }` and flow sequences not (`[a, b]`), long lines
// left alone, and every comment kept: it works on the yaml package's Document, which carries comments on
// the nodes they belong to, so they move with their keys.

import { CST, isMap, isPair, isScalar, isSeq, parseDocument, Parser, visit, type Document, type Pair, type YAMLMap } from "yaml";
import type { z } from "zod";
import type { Diagnostic } from "../diag/index.js";
import type { KindCatalog } from "./catalog.js";
import { LOOKUPS_SECTION } from "./lookups.js";
import { parseYaml } from "./positions.js";
import { backendSchema, META_KEYS, providerSchema, variableSchema } from "./schema-meta.js";

export type FormatResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

/** The order of the keys of a mapping, and of the mappings under each key. */
interface KeyOrder {
  keys: readonly string[];
  under(key: string): KeyOrder | undefined;
}

/** The canonical text of `text` (the content of `file`), or the syntax errors that leave it unformatted. */
export function formatConfiguration(file: string, text: string, kinds: KindCatalog): FormatResult {
  const parsed = parseYaml(file, text, kinds);
  const errors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return { ok: false, diagnostics: errors };
  const doc = parseDocument(text);
  keepKeyLineComments(doc, text);
  if (isMap(doc.contents)) sortMap(doc.contents, topLevelOrder(kinds));
  return { ok: true, text: unpadFlowSequences(doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, flowCollectionPadding: true })) };
}

/**
 * Whether a YAML text found in a directory is netform's: a mapping of netform's sections only. A directory
 * holds other YAML too (a pipeline's, an editor's), which fmt leaves alone.
 */
export function isConfigurationText(text: string, kinds: KindCatalog): boolean {
  const doc = parseDocument(text);
  // A file that does not parse may be either: fmt names its mistake rather than skip it unseen.
  if (doc.errors.length > 0) return true;
  const sections = new Set(topLevelOrder(kinds).keys);
  return isMap(doc.contents) && doc.contents.items.length > 0 && doc.contents.items.every((pair) => isScalar(pair.key) && sections.has(String(pair.key.value)));
}

function topLevelOrder(kinds: KindCatalog): KeyOrder {
  const kindNames = [...kinds.keys()];
  const resourceOrder = (kind: string): KeyOrder => ({ keys: [...Object.keys(kinds.get(kind)!.spec.shape), ...META_KEYS], under: (key) => schemaOrder(kinds.get(kind)!.spec.shape[key]) });
  const sections: Record<string, KeyOrder | undefined> = {
    variables: { keys: [], under: () => schemaOrder(variableSchema()) },
    provider: schemaOrder(providerSchema(kindNames)),
    backend: schemaOrder(backendSchema()),
    [LOOKUPS_SECTION]: { keys: [], under: () => ({ keys: ["kind", "where"], under: () => undefined }) },
    ...Object.fromEntries(kindNames.map((k) => [k, { keys: [], under: () => resourceOrder(k) }])),
  };
  return { keys: ["netform", "variables", "provider", "backend", LOOKUPS_SECTION, ...kindNames], under: (key) => sections[key] };
}

interface SchemaNode {
  _zod: { def: { type: string; innerType?: SchemaNode; in?: SchemaNode; element?: SchemaNode; shape?: Record<string, SchemaNode> } };
}

/** The key order an object schema declares, through optional, default and array wrappers; undefined for anything else. */
function schemaOrder(schema: z.ZodType | SchemaNode | undefined): KeyOrder | undefined {
  let node = schema as SchemaNode | undefined;
  for (let depth = 0; node && depth < 10; depth++) {
    const def = node._zod.def;
    if (def.type === "object" && def.shape) {
      const shape = def.shape;
      return { keys: Object.keys(shape), under: (key) => schemaOrder(shape[key]) };
    }
    node = def.innerType ?? def.in ?? def.element;
  }
  return undefined;
}

/** Orders a mapping's pairs as `order` lists their keys, those it does not list after them as written; then the mappings under them. */
function sortMap(map: YAMLMap, order: KeyOrder): void {
  const rank = (pair: Pair) => {
    const i = isScalar(pair.key) ? order.keys.indexOf(String(pair.key.value)) : -1;
    return i < 0 ? order.keys.length : i;
  };
  // The first pair's comment above it heads the mapping, whatever pair comes first.
  const first = map.items[0];
  const heading = first && isScalar(first.key) ? first.key.commentBefore : undefined;
  if (first && isScalar(first.key)) first.key.commentBefore = undefined;
  map.items = map.items.map((pair, index) => ({ pair, index })).sort((a, b) => rank(a.pair) - rank(b.pair) || a.index - b.index).map(({ pair }) => pair);
  const now = map.items[0];
  if (heading !== undefined && now && isScalar(now.key)) now.key.commentBefore = now.key.commentBefore ? `${heading}\n${now.key.commentBefore}` : heading;
  for (const pair of map.items) {
    const inner = isScalar(pair.key) ? order.under(String(pair.key.value)) : undefined;
    if (!inner) continue;
    if (isMap(pair.value)) sortMap(pair.value, inner);
    else if (isSeq(pair.value)) for (const item of pair.value.items) if (isMap(item)) sortMap(item, inner);
  }
}

/**
 * A comment written after `key:` on the key's own line, above a nested mapping, is read as the comment
 * before that mapping's first line and would be printed below the key: it stays on the key's line.
 */
function keepKeyLineComments(doc: Document, text: string): void {
  visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range || !(isMap(pair.value) || isSeq(pair.value)) || !pair.value.commentBefore) return;
      const lineEnd = text.indexOf("\n", pair.key.range[1]);
      const onKeyLine = /^\s*:\s*#(.*)$/.exec(text.slice(pair.key.range[1], lineEnd < 0 ? undefined : lineEnd));
      const [firstLine, ...rest] = pair.value.commentBefore.split("\n");
      if (!onKeyLine || firstLine !== onKeyLine[1]) return;
      pair.key.comment = firstLine;
      pair.value.commentBefore = rest.length > 0 ? rest.join("\n") : undefined;
    },
  });
}

/** `[ a, b ]` as `[a, b]`: the yaml package pads both kinds of flow collection alike. */
function unpadFlowSequences(text: string): string {
  const drop = new Set<number>();
  for (const token of new Parser().parse(text)) {
    if (token.type !== "document") continue;
    CST.visit(token, ({ value }) => {
      if (value?.type !== "flow-collection" || value.start.source !== "[") return;
      const end = value.end.find((t) => t.type === "flow-seq-end");
      if (text[value.start.offset + 1] === " ") drop.add(value.start.offset + 1);
      if (end && text[end.offset - 1] === " ") drop.add(end.offset - 1);
    });
  }
  let out = "";
  let from = 0;
  for (const at of [...drop].sort((a, b) => a - b)) {
    out += text.slice(from, at);
    from = at + 1;
  }
  return out + text.slice(from);
}
