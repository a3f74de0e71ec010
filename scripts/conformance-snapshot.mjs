#!/usr/bin/env node
// Regenerates test/support/conformance-snapshot.json, the part of the official API descriptions that the
// conformance tests validate against: for every operation the simulator serves, the response schema of
// every documented status, with the schemas they reach gathered in one `definitions` table and every
// annotation (descriptions, examples, titles, extensions) dropped. The tests read only the snapshot, so a
// fresh clone needs no descriptions; this script is how the snapshot follows them.
//
//   npm run conformance:snapshot [-- --from DIR]   rewrite the snapshot from the descriptions in DIR
//   npm run conformance:snapshot -- --check        exit 1 when the committed snapshot is stale
//
// DIR defaults to $NETFORM_OPENAPI_DIR, then to the official descriptions kept beside the repository;
// `--out FILE` names another snapshot file (the script's own tests use it).

import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SNAPSHOT = join(root, "test/support/conformance-snapshot.json");
const DEFAULT_DIR = resolve(root, "../shared/reference/openapi");

/**
 * The descriptions the simulator is checked against. `prefix` is the path the description's server URL
 * puts before its paths; `only` keeps the paths the simulator serves when it serves a small part of a
 * large description (of the bare-metal API, the API keys).
 */
const DESCRIPTIONS = [
  { tag: "fabricv4", file: "fabricv4.yaml", prefix: "" },
  { tag: "accesstokenv1", file: "accesstokenv1.yaml", prefix: "" },
  { tag: "networkedgev1", file: "networkedgev1.yaml", prefix: "" },
  {
    tag: "metalv1",
    file: "metalv1/openapi3.yaml",
    prefix: "/metal/v1",
    only: ["/api-keys/{id}", "/projects/{id}/api-keys", "/user/api-keys", "/user/api-keys/{id}"],
  },
];

const METHODS = ["get", "post", "put", "patch", "delete"];

// Schema keywords, by what the validator does with them. A keyword in none of these lists stops the
// script, so that a new description cannot lose a constraint silently.
const KEPT_AS_IS = new Set([
  "type", "nullable", "format", "enum", "const", "pattern", "required",
  "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
]);
const ONE_SCHEMA = new Set(["not", "items", "additionalProperties", "additionalItems", "contains", "propertyNames"]);
const SCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties"]);
// Annotations: the validator is not configured to act on any of them (no defaults, no discriminator).
const DROPPED = new Set(["description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly", "discriminator", "xml", "externalDocs"]);

class UsageError extends Error {}

function parseArguments(argv) {
  const options = { check: false, from: undefined, out: SNAPSHOT };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--check") options.check = true;
    else if (arg === "--from" && argv[i + 1] !== undefined) options.from = argv[++i];
    else if (arg === "--out" && argv[i + 1] !== undefined) options.out = resolve(argv[++i]);
    else if (arg === "--from" || arg === "--out") throw new UsageError(`${arg} needs a value`);
    else throw new UsageError(`unknown argument ${arg}; usage: conformance-snapshot.mjs [--from DIR] [--out FILE] [--check]`);
  }
  return options;
}

const escapePointer = (s) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapePointer = (s) => s.replace(/~1/g, "/").replace(/~0/g, "~");

/** Builds the snapshot from the descriptions in `dir`. */
function buildSnapshot(dir) {
  const files = new Map();
  const read = (file) => {
    let entry = files.get(file);
    if (!entry) {
      if (!existsSync(file)) throw new UsageError(`${file}: missing; the descriptions folder ${dir} is incomplete`);
      const text = readFileSync(file);
      let doc;
      try {
        doc = parse(text.toString("utf8"), { maxAliasCount: -1 });
      } catch (error) {
        throw new UsageError(`${file}: not a YAML description (${error.message})`);
      }
      entry = { doc, sha256: createHash("sha256").update(text).digest("hex") };
      files.set(file, entry);
    }
    return entry.doc;
  };
  const where = (file, pointer) => `${relative(dir, file).split(sep).join("/")}#${pointer}`;

  const definitions = new Map();
  const pending = [];

  /** The definition name a `$ref` found in `file` stands for; queues the target the first time. */
  const definitionFor = (ref, file, tag) => {
    const [filePart, pointer = ""] = ref.split("#");
    const target = filePart ? resolve(dirname(file), filePart) : file;
    const named = /^\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(pointer);
    let name;
    if (named) name = `${tag}.${unescapePointer(named[1])}`;
    else if (pointer === "" && filePart) name = `${tag}.${basename(target).replace(/\.ya?ml$/, "")}`;
    else throw new UsageError(`${where(file, "")}: $ref ${ref} is neither a named schema nor a schema file; teach scripts/conformance-snapshot.mjs its form`);
    const key = where(target, pointer);
    const known = definitions.get(name);
    if (known && known.key !== key) throw new UsageError(`${key} and ${known.key} would both be definition ${name}`);
    if (!known) {
      definitions.set(name, { key, schema: undefined });
      pending.push({ name, file: target, pointer, tag });
    }
    return `#/definitions/${escapePointer(name)}`;
  };

  const at = (doc, pointer) =>
    pointer
      .split("/")
      .slice(1)
      .map(unescapePointer)
      .reduce((node, key) => (node !== null && typeof node === "object" ? node[key] : undefined), doc);

  /** The schema with only what the validator checks, its `$ref`s pointing into `definitions`. */
  const reduce = (schema, file, pointer, tag) => {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
    const out = {};
    for (const [keyword, value] of Object.entries(schema)) {
      const inner = `${pointer}/${escapePointer(keyword)}`;
      if (keyword === "$ref") out.$ref = definitionFor(value, file, tag);
      else if (KEPT_AS_IS.has(keyword)) out[keyword] = value;
      else if (ONE_SCHEMA.has(keyword)) {
        out[keyword] = Array.isArray(value) ? value.map((s, i) => reduce(s, file, `${inner}/${i}`, tag)) : reduce(value, file, inner, tag);
      } else if (SCHEMA_LIST.has(keyword)) out[keyword] = value.map((s, i) => reduce(s, file, `${inner}/${i}`, tag));
      else if (SCHEMA_MAP.has(keyword)) {
        out[keyword] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, reduce(s, file, `${inner}/${escapePointer(k)}`, tag)]));
      } else if (!DROPPED.has(keyword) && !keyword.startsWith("x-")) {
        throw new UsageError(`${where(file, inner)}: schema keyword "${keyword}" is unknown to scripts/conformance-snapshot.mjs; say whether the validator uses it`);
      }
    }
    return out;
  };

  /**
   * A documented response's JSON schema (null when the description documents no JSON body), and its media
   * type when the description spells it otherwise than application/json (with a charset, say).
   */
  const responseSchema = (response, file, pointer, tag, swagger2) => {
    if (typeof response.$ref === "string") {
      const [filePart, target = ""] = response.$ref.split("#");
      const targetFile = filePart ? resolve(dirname(file), filePart) : file;
      return responseSchema(at(read(targetFile), target), targetFile, target, tag, swagger2);
    }
    if (swagger2) return { schema: response.schema ? reduce(response.schema, file, `${pointer}/schema`, tag) : null };
    const content = response.content ?? {};
    const jsonType = Object.keys(content).find((t) => t.includes("json"));
    if (!jsonType || !content[jsonType].schema) return { schema: null };
    const schema = reduce(content[jsonType].schema, file, `${pointer}/content/${escapePointer(jsonType)}/schema`, tag);
    return jsonType === "application/json" ? { schema } : { schema, mediaType: jsonType };
  };

  const operations = [];
  for (const d of DESCRIPTIONS) {
    const file = join(dir, d.file);
    const doc = read(file);
    const swagger2 = typeof doc.swagger === "string";
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      if (d.only && !d.only.includes(template)) continue;
      let itemFile = file;
      let itemPointer = `/paths/${escapePointer(template)}`;
      let pathItem = item;
      if (typeof item.$ref === "string") {
        itemFile = resolve(dirname(file), item.$ref);
        itemPointer = "";
        pathItem = read(itemFile);
      }
      for (const method of METHODS) {
        const op = pathItem[method];
        if (!op) continue;
        const responses = {};
        const mediaTypes = {};
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const { schema, mediaType } = responseSchema(response, itemFile, `${itemPointer}/${method}/responses/${escapePointer(status)}`, d.tag, swagger2);
          responses[status] = schema;
          if (mediaType !== undefined) mediaTypes[status] = mediaType;
        }
        const documented = Object.keys(mediaTypes).length > 0 ? { mediaTypes } : {};
        operations.push({ method: method.toUpperCase(), template: `${d.prefix}${template}`, responses, ...documented });
      }
    }
    if (d.only) {
      const missing = d.only.filter((t) => !(t in (doc.paths ?? {})));
      if (missing.length) throw new UsageError(`${d.file}: no path ${missing.join(", ")}; the simulator serves it, so the description should have it`);
    }
  }

  while (pending.length) {
    const { name, file, pointer, tag } = pending.shift();
    const node = at(read(file), pointer);
    if (node === undefined) throw new UsageError(`${where(file, pointer)}: a $ref points here, but there is nothing`);
    definitions.get(name).schema = reduce(node, file, pointer, tag);
  }

  const sources = Object.fromEntries(
    [...files.entries()].map(([file, { sha256 }]) => [relative(dir, file).split(sep).join("/"), sha256]).sort(([a], [b]) => a.localeCompare(b)),
  );
  const sortedDefinitions = [...definitions.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, { schema }]) => [name, schema]);
  return { sources, operations, definitions: Object.fromEntries(sortedDefinitions) };
}

/** One entry a line, so that a change to the descriptions shows as a readable diff. */
function serialise(snapshot) {
  const lines = (entries) => entries.join(",\n");
  return [
    "{",
    `"sources": {\n${lines(Object.entries(snapshot.sources).map(([file, sha256]) => `${JSON.stringify(file)}: ${JSON.stringify(sha256)}`))}\n},`,
    `"operations": [\n${lines(snapshot.operations.map((op) => JSON.stringify(op)))}\n],`,
    `"definitions": {\n${lines(Object.entries(snapshot.definitions).map(([name, schema]) => `${JSON.stringify(name)}: ${JSON.stringify(schema)}`))}\n}`,
    "}",
    "",
  ].join("\n");
}

function staleness(shown, committedText, fresh, freshText) {
  if (committedText === undefined) return [`${shown} does not exist`];
  if (committedText === freshText) return [];
  let committed;
  try {
    committed = JSON.parse(committedText);
  } catch {
    return [`${shown} is not valid JSON`];
  }
  const before = committed.sources ?? {};
  const changed = [...new Set([...Object.keys(before), ...Object.keys(fresh.sources)])]
    .filter((file) => before[file] !== fresh.sources[file])
    .map((file) => (before[file] === undefined ? `${file} is now read` : fresh.sources[file] === undefined ? `${file} is no longer read` : `${file} changed (sha256 ${before[file].slice(0, 12)}… -> ${fresh.sources[file].slice(0, 12)}…)`));
  return changed.length ? changed : ["the descriptions are unchanged, but the snapshot regenerated from them differs (was the generator or the snapshot edited?)"];
}

const say = (line) => process.stdout.write(`${line}\n`);
const complain = (line) => process.stderr.write(`${line}\n`);

function main() {
  const options = parseArguments(process.argv.slice(2));
  const shown = relative(process.cwd(), options.out) || options.out;
  const origin = options.from !== undefined ? "--from" : process.env.NETFORM_OPENAPI_DIR ? "NETFORM_OPENAPI_DIR" : "the default";
  const dir = resolve(options.from ?? process.env.NETFORM_OPENAPI_DIR ?? DEFAULT_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    if (options.check) {
      say(`conformance snapshot: descriptions not at hand; skipped (${dir}, from ${origin}, is not a folder)`);
      return 0;
    }
    throw new UsageError(`${dir} (from ${origin}) is not a folder; give the official API descriptions with --from DIR or NETFORM_OPENAPI_DIR`);
  }
  const snapshot = buildSnapshot(dir);
  const text = serialise(snapshot);
  if (!options.check) {
    writeFileSync(options.out, text);
    say(`${shown}: ${snapshot.operations.length} operations, ${Object.keys(snapshot.definitions).length} definitions, ${Math.round(text.length / 1024)} KiB, from ${dir}`);
    return 0;
  }
  const reasons = staleness(shown, existsSync(options.out) ? readFileSync(options.out, "utf8") : undefined, snapshot, text);
  if (reasons.length === 0) {
    say(`conformance snapshot: ${shown} is up to date with ${dir}`);
    return 0;
  }
  complain(`conformance snapshot: ${shown} is stale against ${dir}:\n  ${reasons.join("\n  ")}\nRun \`npm run conformance:snapshot\` and commit the result (then run the tests: the simulator may need to follow).`);
  return 1;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  complain(`conformance snapshot: ${error.message}`);
  process.exitCode = 2;
}
