// Loading a configuration: read one file or a directory's *.yaml / *.yml, merge them (the same address, the
// provider block or a variable declared twice is an error naming both places), resolve variables and
// expressions, apply defaults, validate every resource and the references between them, and return the
// configuration with every problem found.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { parse as parseYamlText } from "yaml";
import type { z } from "zod";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Diagnostic } from "../diag/index.js";
import { fileProblem, sortDiagnostics } from "../diag/index.js";
import { address as makeAddress, compareAddresses, formatPath, NAME_PATTERN, parseAddress, parsePath, type Address, type FieldPath } from "./address.js";
import type { KindCatalog } from "./catalog.js";
import { collapseInstanceDiagnostics, expandForEach, instanceName, type RawResource } from "./for-each.js";
import { hasOwnKeys, isPlainObject, mapValues, readPath } from "./json.js";
import { interpolate, newResult, type InterpolationResult, type InterpolationScope, type MissingValues } from "./interpolate.js";
import { parseYaml, type FileIndex, type NodeSpan, type ParsedFile, type PositionIndex, type SourcePosition } from "./positions.js";
import { conditionAddresses, dependencyEdges, findCycles, parentReferenceProblems } from "./references.js";
import { readConditions } from "./conditions.js";
import { buildOutputs, OUTPUTS_SECTION, type RawOutputs } from "./outputs.js";
import { buildRefactoring, MOVED_SECTION, REMOVED_SECTION, type RawRefactoring } from "./moves.js";
import { buildLookup, collectLookups, isLookupAddress, LOOKUPS_SECTION, type ConfigLookup, type LookupCatalog, type LookupSchema, type RawLookup } from "./lookups.js";
import { backendSchema, DEFAULT_WORKSPACE, MAX_DEPENDS_ON, META_KEYS, providerSchema, VARIABLE_NAME, variableSchema, type VariableType } from "./schema-meta.js";
import { PARSE_WITHOUT_COMPILING } from "./schema-common.js";
import { SecretPaths } from "./secret-paths.js";
import { isSensitive, reveal, Sensitive } from "./sensitive.js";
import { didYouMean } from "../diag/suggest.js";
import type { BackendConfig, Configuration, ConfigResource, DependencyEdge, Lifecycle, ProviderConfig } from "./types.js";
import { placeDiagnostic, specHasField, validateSpec } from "./validate.js";
import { isUnknown, Template, Unresolved } from "./values.js";
import { resolveVariables, type VariableDeclaration } from "./variables.js";

export interface LoadOptions {
  /** The kinds a configuration may declare: the registry's. */
  kinds: KindCatalog;
  /** --var NAME=VALUE pairs. */
  vars?: Readonly<Record<string, string>>;
  /** --var-file paths. */
  varFiles?: readonly string[];
  /** The environment for ${env.X}, ${secret.X}, NETFORM_VAR_X and NETFORM_ENDPOINT; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * "error" (plan, apply): a variable, environment variable or secret without a value is an error.
   * "unknown" (validate): it is left Unresolved, with a warning, and its uses are not checked.
   */
  missing?: MissingValues;
  /** The lookup kinds the `lookups:` section may use: the lookup registry's; without it there is no such section. */
  lookups?: LookupCatalog;
  /** File names in diagnostics are relative to this directory when inside it; default the working directory. */
  baseDir?: string;
  /** The workspace the configuration is read for: the value of ${workspace}; default "default". */
  workspace?: string;
  /**
   * What the list lookups found, by address (`{ count, items }`), once the engine has read them: a forEach
   * over one (`forEach: ${lookups.dc-ports}`) has an instance per object. Without it those instances are
   * not known yet.
   */
  lookupValues?: ReadonlyMap<string, unknown>;
}

export interface LoadResult {
  config: Configuration;
  /** Sorted by file and position; errors and warnings. */
  diagnostics: Diagnostic[];
}

export interface Source {
  file: string;
  text: string;
}

export const DEFAULT_PARALLELISM = 10;

/** How long the engine waits for each kind's objects to become ready, unless provider.timeouts says otherwise. */
export const defaultTimeouts = (kinds: KindCatalog): Record<string, number> => Object.fromEntries([...kinds.values()].map((k) => [k.name, k.timeoutMs]));

/** `1h30m`, `90m`, `45s` in milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^(?=\d)(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m) return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

/** Variable files (for --var-file) that may sit beside the configuration: a directory's loader skips them. */
const VAR_FILE_NAME = /\.vars\.ya?ml$/;

/** Reads a configuration file, or every *.yaml / *.yml file of a directory but *.vars.yaml, and builds the configuration. */
export function loadConfiguration(path: string, options: LoadOptions): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const absolute = resolve(path);
  let directory = absolute;
  const sources: Source[] = [];
  try {
    if (statSync(absolute).isDirectory()) {
      const names = readdirSync(absolute)
        .filter((n) => /\.ya?ml$/.test(n) && !n.startsWith(".") && !VAR_FILE_NAME.test(n))
        .sort();
      if (names.length === 0) diagnostics.push({ severity: "error", code: "config.no-files", file: path, message: "no *.yaml or *.yml files in this directory", hint: "-c takes a configuration file or a directory of them" });
      for (const n of names) sources.push({ file: join(absolute, n), text: readFileSync(join(absolute, n), "utf8") });
    } else {
      directory = dirname(absolute);
      sources.push({ file: absolute, text: readFileSync(absolute, "utf8") });
    }
  } catch (e) {
    diagnostics.push({ severity: "error", code: "config.unreadable", file: path, message: `cannot read the configuration ${path}: ${fileProblem(e)}`, hint: "-c takes a configuration file or a directory; the default is the current directory" });
  }
  const result = buildConfiguration(sources, options, directory);
  return { config: result.config, diagnostics: sortDiagnostics([...diagnostics, ...result.diagnostics]) };
}

const where = (p: SourcePosition | undefined): Pick<Diagnostic, "file" | "line" | "column"> => (p ? { file: p.file, line: p.line, column: p.column } : {});
const at = (p: SourcePosition): string => `${p.file}:${p.line}:${p.column}`;


/** A path's text up to its first "." or "[": what every path under it, and every path it lies under, begins with. */
const headOf = (path: string): string => {
  const end = path.search(/[.[]/);
  return end < 0 ? path : path.slice(0, end);
};

/** A file's index grouped by the head of each path, in the index's order. */
interface IndexByHead {
  root: Map<string, [string, NodeSpan][]>;
  scopes: Map<string, [string, PositionIndex][]>;
}

const indexesByHead = new WeakMap<FileIndex, IndexByHead>();

/** The grouping blockIndex reads, made once per file: a block is looked for among its own section's paths, not every resource's. */
function indexByHead(index: FileIndex): IndexByHead {
  let grouped = indexesByHead.get(index);
  if (!grouped) {
    grouped = { root: new Map(), scopes: new Map() };
    const add = <T>(groups: Map<string, [string, T][]>, path: string, value: T) => {
      const head = headOf(path);
      const group = groups.get(head);
      if (group) group.push([path, value]);
      else groups.set(head, [[path, value]]);
    };
    for (const [k, v] of index.root) add(grouped.root, k, v);
    for (const [scope, positions] of index.scopes) add(grouped.scopes, scope, positions);
    indexesByHead.set(index, grouped);
  }
  return grouped;
}

/** Positions of a top-level block (provider, variables.NAME...) relative to it, across the file's scopes. */
function blockIndex(index: FileIndex, prefix: FieldPath): PositionIndex {
  const out: PositionIndex = new Map();
  const p = formatPath(prefix);
  const rel = (k: string, base: string): string => (k === base ? "" : k.slice(base.length + (k[base.length] === "[" ? 0 : 1)));
  const under = (k: string, base: string) => k === base || k.startsWith(`${base}.`) || k.startsWith(`${base}[`);
  // Only paths with the block's head can be under it, or have it under them.
  const grouped = indexByHead(index);
  const head = headOf(p);
  for (const [k, v] of grouped.root.get(head) ?? []) if (under(k, p)) out.set(rel(k, p), v);
  for (const [scope, positions] of grouped.scopes.get(head) ?? []) {
    if (under(scope, p)) {
      const r = rel(scope, p);
      for (const [k, v] of positions) out.set(k === "" ? r : r === "" ? k : k.startsWith("[") ? `${r}${k}` : `${r}.${k}`, v);
    } else if (under(p, scope)) {
      const r = rel(p, scope);
      for (const [k, v] of positions) if (under(k, r)) out.set(rel(k, r), v);
    }
  }
  return out;
}

/** Builds a configuration from sources already read (tests and benchmarks use it directly). */
export function buildConfiguration(sources: readonly Source[], options: LoadOptions, directory = process.cwd()): LoadResult {
  const { kinds } = options;
  const kindNames = [...kinds.keys()];
  const topLevel = ["netform", "provider", "backend", "variables", ...(options.lookups ? [LOOKUPS_SECTION] : []), MOVED_SECTION, REMOVED_SECTION, OUTPUTS_SECTION, ...kindNames];
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const display = (file: string): string => {
    const rel = relative(baseDir, resolve(file));
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
  };
  const env = options.env ?? process.env;
  const missing = options.missing ?? "error";
  const diagnostics: Diagnostic[] = [];
  const parsed: ParsedFile[] = sources.map((s) => parseYaml(display(s.file), s.text, kinds));
  for (const p of parsed) for (const d of p.diagnostics) diagnostics.push(d);
  const empty: Configuration = {
    kinds,
    files: parsed.map((p) => p.file),
    directory,
    provider: { parallelism: DEFAULT_PARALLELISM, timeouts: defaultTimeouts(kinds) },
    variables: new Map(),
    resources: new Map(),
    lookups: new Map(),
    forEachLookups: new Map(),
    edges: [],
    moves: [],
    removals: [],
    outputs: new Map(),
  };
  // What a parser recovers from a syntax error is a guess; checking it would bury the one real problem.
  if (diagnostics.some((d) => d.severity === "error")) return { config: empty, diagnostics: sortDiagnostics(diagnostics) };

  let versionSeen = false;
  let provider: { value: unknown; file: ParsedFile; span: NodeSpan } | undefined;
  let backend: { value: unknown; file: ParsedFile; span: NodeSpan } | undefined;
  const declarations = new Map<string, VariableDeclaration>();
  const raws = new Map<Address, RawResource>();
  const rawLookups = new Map<Address, RawLookup>();
  const rawRefactorings: RawRefactoring[] = [];
  const rawOutputs: RawOutputs[] = [];

  for (const file of parsed) {
    const v = file.value;
    if (v === null || v === undefined) continue;
    if (!isPlainObject(v)) {
      diagnostics.push({ severity: "error", code: "config.shape", file: file.file, line: 1, column: 1, message: "a configuration file is a mapping of netform, provider, variables and the kinds" });
      continue;
    }
    for (const [key, value] of Object.entries(v)) {
      const span = file.index.root.get(key) as NodeSpan;
      if (key === "netform") {
        versionSeen = true;
        if (value !== 1) diagnostics.push({ severity: "error", code: "config.version", ...where(span.value), path: "netform", message: `unsupported format version ${JSON.stringify(value)}; this netform reads version 1` });
      } else if (key === "provider") {
        if (provider) diagnostics.push({ severity: "error", code: "config.duplicate", ...where(span.key), path: "provider", message: `provider is declared twice: ${at(provider.span.key ?? provider.span.value)} and ${at(span.key ?? span.value)}`, hint: "keep one provider block, in one of the files" });
        else provider = { value, file, span };
      } else if (key === "backend") {
        if (backend) diagnostics.push({ severity: "error", code: "config.duplicate", ...where(span.key), path: "backend", message: `backend is declared twice: ${at(backend.span.key ?? backend.span.value)} and ${at(span.key ?? span.value)}`, hint: "keep one backend block, in one of the files" });
        else backend = { value, file, span };
      } else if (key === "variables") {
        collectVariables(file, value, declarations, diagnostics);
      } else if (key === LOOKUPS_SECTION && options.lookups) {
        collectLookups(file, value, rawLookups, diagnostics);
      } else if (key === MOVED_SECTION || key === REMOVED_SECTION) {
        rawRefactorings.push({ section: key, value, positions: blockIndex(file.index, [key]), ...(span.key ? { position: span.key } : {}) });
      } else if (key === OUTPUTS_SECTION) {
        rawOutputs.push({ value, positions: blockIndex(file.index, [key]), ...(span.key ? { position: span.key } : {}) });
      } else if (kinds.has(key)) {
        if (value === null) continue;
        if (!isPlainObject(value)) {
          diagnostics.push({ severity: "error", code: "config.shape", ...where(span.value), path: key, message: `${key} is a mapping of resource names to their fields` });
          continue;
        }
        for (const [name, body] of Object.entries(value)) {
          const path = `${key}.${name}`;
          const rspan = file.index.root.get(path) as NodeSpan;
          const addr = makeAddress(key, name);
          if (!NAME_PATTERN.test(name)) {
            diagnostics.push({ severity: "error", code: "config.name", address: addr, ...where(rspan.key), message: `resource name "${name}" must be lowercase letters, digits, "-" and "_", starting with a letter or digit`, hint: `e.g. ${name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+/, "") || "my-resource"}` });
          }
          const first = raws.get(addr);
          if (first) {
            diagnostics.push({ severity: "error", code: "config.duplicate", address: addr, ...where(rspan.key), message: `${addr} is declared twice: ${at(first.span.key ?? first.span.value)} and ${at(rspan.key ?? rspan.value)}`, hint: "rename one of them, or remove the one not meant" });
            continue;
          }
          raws.set(addr, { kind: kinds.get(key)!, name, body, file: file.file, span: rspan, positions: file.index.scopes.get(path) ?? new Map([["", rspan]]) });
        }
      } else {
        // A file without "netform:" may be variable values read as configuration: say how to keep it beside it.
        const varFileHint = "netform" in v ? undefined : `if ${file.file} holds variable values, name it *.vars.yaml (a directory's configuration skips those) and pass it with --var-file`;
        diagnostics.push({ severity: "error", code: "config.unknown-key", ...where(span.key), path: key, message: `unknown top-level key "${key}"`, hint: didYouMean(key, topLevel) ?? varFileHint ?? `top-level keys: ${topLevel.join(", ")}` });
      }
    }
  }
  if (!versionSeen && parsed.length > 0) {
    diagnostics.push({ severity: "error", code: "config.version", file: parsed[0]?.file ?? "", line: 1, column: 1, message: 'missing "netform: 1" (the format version)', hint: "add the line  netform: 1  at the top of the file" });
  }

  const values = resolveVariables(declarations, { ...(options.vars ? { vars: options.vars } : {}), ...(options.varFiles ? { varFiles: options.varFiles } : {}), env, display }, diagnostics);
  if (missing === "unknown") {
    for (const [name, v] of values) {
      const d = declarations.get(name);
      if (v === undefined && d) diagnostics.push({ severity: "warning", code: "variables.unset", ...where(d.position), path: `variables.${name}`, message: `variable "${name}" has no value; the fields that use it are checked at plan time` });
    }
  }
  const scope: InterpolationScope = { variables: values, env, missing, kinds, addresses: undefined, workspace: options.workspace ?? DEFAULT_WORKSPACE, warned: new Set() };

  const providerConfig = buildProvider(provider, scope, env, kinds, diagnostics);
  // The backend says where every workspace's state is: it cannot depend on which workspace is selected.
  const { workspace: _selected, ...backendScope } = scope;
  const backendConfig = backend && backend.value !== null ? buildBackend(backend, backendScope, diagnostics) : undefined;
  const lookups = new Map<Address, ConfigLookup>();
  // A lookup in error is still declared (undefined): its uses are not reported again.
  const lookupSchemas = new Map<string, LookupSchema | undefined>();
  for (const [addr, raw] of rawLookups) {
    const lookup = options.lookups ? buildLookup(addr, raw, options.lookups, scope, diagnostics) : undefined;
    if (lookup) lookups.set(addr, lookup);
    const schema = lookup ? options.lookups?.get(lookup.kind) : undefined;
    lookupSchemas.set(addr, schema && lookup?.many ? { ...schema, many: true } : schema);
  }
  const catalog = options.lookups;
  const expansion = expandForEach(raws, scope, diagnostics, { lookups, sensitive: (kind) => catalog?.get(kind)?.sensitive, ...(options.lookupValues ? { values: options.lookupValues } : {}) });
  const resourceScope: InterpolationScope = { ...scope, addresses: new Set(expansion.resources.keys()), lookups: lookupSchemas, forEach: expansion.keys };
  const resources = new Map<Address, ConfigResource>();
  for (const [addr, raw] of expansion.resources) {
    const r = buildResource(addr, raw, raw.each ? { ...resourceScope, each: raw.each } : resourceScope, providerConfig, kindNames, diagnostics);
    if (r) resources.set(addr, r);
  }

  // Each kind's resources, in address order, for its ordering and cross-resource rules.
  const byKind = new Map<string, ConfigResource[]>();
  for (const r of [...resources.values()].sort((x, y) => compareAddresses(x.address, y.address))) {
    const own = byKind.get(r.kind);
    if (own) own.push(r);
    else byKind.set(r.kind, [r]);
  }

  const edges: DependencyEdge[] = [];
  // Element by element: a spread of a resource's edges as arguments overflows the stack on a long dependsOn.
  for (const r of resources.values()) for (const e of dependencyEdges(r)) edges.push(e);
  for (const [name, own] of byKind) {
    for (const e of kinds.get(name)?.ordering?.(own, resources) ?? []) edges.push({ from: e.from as Address, to: e.to as Address, via: "ordering", path: "" });
  }
  for (const { cycle, edge } of findCycles(resources.keys(), edges)) {
    const from = resources.get(edge.from);
    const names = [...cycle, cycle[0]].join(" -> ");
    diagnostics.push(placeDiagnostic({ address: edge.from, ...(from ? { positions: from.positions } : {}) }, { path: parsePath(edge.path), code: "reference.cycle", message: `dependency cycle: ${names}`, hint: "break the cycle: a resource cannot depend, directly or not, on itself" }));
  }
  for (const [name, own] of byKind) for (const d of kinds.get(name)?.crossRules?.(own, resources) ?? []) diagnostics.push(d);

  const { moves, removals } = buildRefactoring(rawRefactorings, kinds, new Set(raws.keys()), diagnostics);
  const outputs = buildOutputs(rawOutputs, resourceScope, diagnostics);

  const variables = new Map([...declarations].map(([n, d]) => [n, { declaration: d, value: values.get(n) }]));
  return {
    config: { kinds, files: parsed.map((p) => p.file), directory, provider: providerConfig, ...(backendConfig ? { backend: backendConfig } : {}), variables, resources, lookups, forEachLookups: expansion.fromLookups, edges, moves, removals, outputs },
    diagnostics: sortDiagnostics(collapseInstanceDiagnostics(diagnostics)),
  };
}

function collectVariables(file: ParsedFile, value: unknown, declarations: Map<string, VariableDeclaration>, diagnostics: Diagnostic[]): void {
  if (value === null) return;
  const span = file.index.root.get("variables") as NodeSpan;
  if (!isPlainObject(value)) {
    diagnostics.push({ severity: "error", code: "config.shape", ...where(span.value), path: "variables", message: "variables is a mapping of variable names to { type, default, description, sensitive }" });
    return;
  }
  for (const [name, decl] of Object.entries(value)) {
    const positions = blockIndex(file.index, ["variables", name]);
    const keyPos = positions.get("")?.key ?? span.value;
    if (!VARIABLE_NAME.test(name)) {
      diagnostics.push({ severity: "error", code: "variables.name", ...where(keyPos), path: `variables.${name}`, message: `variable name "${name}" must be letters, digits and "_", not starting with a digit` });
      continue;
    }
    const first = declarations.get(name);
    if (first) {
      diagnostics.push({ severity: "error", code: "config.duplicate", ...where(keyPos), path: `variables.${name}`, message: `variables.${name} is declared twice: ${at(first.position)} and ${at(keyPos)}`, hint: "keep one declaration, in one of the files" });
      continue;
    }
    const body = decl ?? {};
    const parsedDecl = variableSchema().safeParse(body, PARSE_WITHOUT_COMPILING);
    if (!parsedDecl.success) {
      for (const issue of parsedDecl.error.issues) {
        const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
        const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
        for (const k of keys) {
          const d = placeDiagnostic({ address: "", positions }, {
            path: k === undefined ? path : [...path, k],
            code: k === undefined ? "variables.declaration" : "schema.unknown-field",
            message: k === undefined ? (issue.code === "invalid_value" ? `type must be one of string, number, boolean, list, map` : `invalid declaration: ${issue.message}`) : `unknown field "${k}"`,
            hint: k === undefined ? undefined : didYouMean(k, ["type", "default", "description", "sensitive"]),
            atKey: k !== undefined,
          });
          delete d.address;
          diagnostics.push({ ...d, path: `variables.${name}${d.path ? `.${d.path}` : ""}` });
        }
      }
      continue;
    }
    const b = parsedDecl.data;
    const defaultPos = positions.get("default")?.value;
    declarations.set(name, {
      name,
      ...(b.type ? { type: b.type as VariableType } : {}),
      ...(b.default !== undefined ? { default: b.default } : {}),
      ...(b.description ? { description: b.description } : {}),
      sensitive: b.sensitive ?? false,
      position: keyPos,
      ...(defaultPos ? { defaultPosition: defaultPos } : {}),
    });
  }
}

function buildProvider(
  provider: { value: unknown; file: ParsedFile; span: NodeSpan } | undefined,
  scope: InterpolationScope,
  env: Readonly<Record<string, string | undefined>>,
  kinds: KindCatalog,
  diagnostics: Diagnostic[],
): ProviderConfig {
  const config: ProviderConfig = { parallelism: DEFAULT_PARALLELISM, timeouts: defaultTimeouts(kinds) };
  const schema = providerSchema([...kinds.keys()]);
  let value: Record<string, unknown> = {};
  let loc: Parameters<typeof placeDiagnostic>[0] | undefined;
  if (provider && provider.value !== null) {
    const positions = blockIndex(provider.file.index, ["provider"]);
    loc = { address: "provider", positions };
    if (!isPlainObject(provider.value)) {
      diagnostics.push({ severity: "error", code: "config.shape", ...where(provider.span.value), path: "provider", message: "provider is a mapping: endpoint, projectId, accountNumber, parallelism, timeouts" });
    } else {
      const out: InterpolationResult = newResult();
      value = interpolate(provider.value, [], scope, out) as Record<string, unknown>;
      for (const p of out.problems) diagnostics.push(placeDiagnostic(loc, p));
      const result = schema.safeParse(revealAll(value), PARSE_WITHOUT_COMPILING);
      if (!result.success) {
        for (const issue of result.error.issues) {
          const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
          if (issue.code === "unrecognized_keys") {
            for (const k of issue.keys) diagnostics.push(placeDiagnostic(loc, { path: [...path, k], code: "schema.unknown-field", message: `unknown field "${k}"`, hint: didYouMean(k, path.length === 0 ? Object.keys(schema.shape) : [...kinds.keys()]), atKey: true }));
          } else if (!isUnknown(readPath(value, path)) && !out.problems.some((p) => formatPath(p.path) === formatPath(path))) {
            // A field whose expression is in error is reported above: the schema's "expected string,
            // received undefined" would only say it again, less helpfully.
            diagnostics.push(placeDiagnostic(loc, { path, code: `schema.${issue.code.replaceAll("_", "-")}`, message: issue.message }));
          }
        }
      }
    }
  }
  const text = (v: unknown): string | undefined => {
    const raw = reveal(v);
    return typeof raw === "string" || typeof raw === "number" ? String(raw) : undefined;
  };
  const endpoint = env.NETFORM_ENDPOINT || text(value.endpoint);
  if (endpoint) config.endpoint = endpoint;
  const projectId = text(value.projectId);
  if (projectId) config.projectId = projectId;
  const account = text(value.accountNumber);
  if (account && /^\d+$/.test(account)) config.accountNumber = account;
  const parallelism = reveal(value.parallelism);
  if (typeof parallelism === "number" && Number.isInteger(parallelism) && parallelism >= 1 && parallelism <= 100) config.parallelism = parallelism;
  if (isPlainObject(value.timeouts)) {
    for (const [k, v] of Object.entries(value.timeouts)) {
      const ms = typeof v === "string" ? parseDuration(v) : undefined;
      if (kinds.has(k) && ms !== undefined && ms > 0) config.timeouts[k] = ms;
    }
  }
  const retryCap = reveal(value.maxRetryAfter);
  const maxRetryAfter = typeof retryCap === "string" ? parseDuration(retryCap) : undefined;
  if (maxRetryAfter !== undefined) config.maxRetryAfterMs = maxRetryAfter;
  const notices = reveal(value.maintenanceNotices);
  if (Array.isArray(notices) && notices.length > 0) {
    config.maintenanceNotices = notices.flatMap((written: unknown, i) => {
      const id = reveal(written);
      if (typeof id !== "string" || id === "") return [];
      const at: Partial<Diagnostic> = loc ? placeDiagnostic(loc, { path: ["maintenanceNotices", i], code: "", message: "" }) : {};
      return [{ id, ...(at.file !== undefined ? { file: at.file, line: at.line, column: at.column } : {}) }];
    });
  }
  return config;
}

/** The backend block, interpolated and checked; undefined (with diagnostics) when it is not valid. */
function buildBackend(backend: { value: unknown; file: ParsedFile; span: NodeSpan }, scope: InterpolationScope, diagnostics: Diagnostic[]): BackendConfig | undefined {
  const loc = { address: "backend", positions: blockIndex(backend.file.index, ["backend"]) };
  if (!isPlainObject(backend.value)) {
    diagnostics.push({ severity: "error", code: "config.shape", ...where(backend.span.value), path: "backend", message: "backend is a mapping with one of local, postgres, http" });
    return undefined;
  }
  const out: InterpolationResult = newResult();
  const interpolated = interpolate(backend.value, [], scope, out);
  const unknown = unknownLeaves(interpolated, []);
  // An unset input is said once, by the backend's warning below, which names what to set.
  const saidBelow = new Set(unknown.map(([path]) => formatPath(path)));
  for (const p of out.problems) if (!(p.severity === "warning" && /^(env|secret)\.unset$/.test(p.code) && saidBelow.has(formatPath(p.path)))) diagnostics.push(placeDiagnostic(loc, p));
  // Left out, an unknown value would leave an optional field to its default: another state than the one meant.
  for (const [path, expression, leaf] of unknown) {
    diagnostics.push(
      placeDiagnostic(loc, {
        path,
        code: "backend.unset",
        severity: "warning",
        message: `${expression} has no value here, so the state's place is not known`,
        hint: leaf instanceof Unresolved ? `${settingHint(leaf)}, for every command that reads the state` : "give the backend's inputs to every command that reads the state: --var, --var-file, NETFORM_VAR_<NAME> or the environment variable",
      }),
    );
  }
  const value = revealAll(interpolated);
  const result = backendSchema().safeParse(value, PARSE_WITHOUT_COMPILING);
  if (!result.success) {
    // "exactly one backend" says nothing more when a field under the block is itself wrong.
    const specific = result.error.issues.filter((i) => i.code !== "custom");
    for (const issue of specific.length > 0 ? specific : result.error.issues) {
      const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
      if (issue.code === "unrecognized_keys") {
        for (const k of issue.keys) diagnostics.push(placeDiagnostic(loc, { path: [...path, k], code: "schema.unknown-field", message: `unknown field "${k}"`, hint: didYouMean(k, path.length === 0 ? ["local", "postgres", "http"] : []), atKey: true }));
      } else if (!isUnknown(readPath(interpolated, path)) && !out.problems.some((p) => formatPath(p.path) === formatPath(path))) {
        // A field whose expression has no value (or is in error) is reported above, with what to set: the
        // schema's "expected string, received undefined" would only say it again, less helpfully.
        diagnostics.push(placeDiagnostic(loc, { path, code: `schema.${issue.code.replaceAll("_", "-")}`, message: issue.message }));
      }
    }
    return undefined;
  }
  // A value in error is left out of the block: what it would have said is not known.
  return out.problems.some((p) => p.severity !== "warning") ? undefined : toBackendConfig(result.data);
}

function toBackendConfig({ local, postgres, http }: z.infer<ReturnType<typeof backendSchema>>): BackendConfig {
  if (postgres) return { type: "postgres", url: postgres.url, schema: postgres.schema ?? "netform", name: postgres.name, ...(postgres.createTables !== undefined ? { createTables: postgres.createTables } : {}) };
  if (http) {
    const { retryWaitMin, retryWaitMax, ...given } = http;
    return { type: "http", ...given, retryWaitMinMs: retryWaitMin === undefined ? undefined : parseDuration(retryWaitMin), retryWaitMaxMs: retryWaitMax === undefined ? undefined : parseDuration(retryWaitMax) };
  }
  return { type: "local", ...(local?.path ? { path: local.path } : {}) };
}

/**
 * A backend written on the command line as YAML (`local`, or `{postgres: {url: ..., name: prod}}`), for
 * `state migrate --to`. A message when it is not one.
 */
export function backendFromText(text: string): { backend: BackendConfig } | { problem: string } {
  let value: unknown;
  try {
    value = text.trim() === "local" ? { local: {} } : parseYamlText(text);
  } catch (e) {
    return { problem: `not YAML: ${(e as Error).message.split("\n")[0]}` };
  }
  const result = backendSchema().safeParse(value, PARSE_WITHOUT_COMPILING);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join(".");
    return { problem: issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}${path ? ` in ${path}` : ""}` : `${path ? `${path}: ` : ""}${issue.message}` };
  }
  return { backend: toBackendConfig(result.data) };
}

/** The values known only once an input is given, with the expressions they wait for. */
/** What to set for an input that has no value: the environment variable, or the variable's ways in. */
function settingHint(input: Unresolved): string {
  return input.source === "var" ? `set variable ${input.name}: --var ${input.name}=VALUE, a --var-file or NETFORM_VAR_${input.name}` : `set the environment variable: export ${input.name}=...`;
}

function unknownLeaves(v: unknown, path: (string | number)[]): [FieldPath, string, unknown][] {
  // An Invalid value is reported already, where it is written.
  if (v instanceof Unresolved || v instanceof Template) return [[path, String(v), v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => unknownLeaves(x, [...path, i]));
  if (isPlainObject(v)) return Object.entries(v).flatMap(([k, x]) => unknownLeaves(x, [...path, k]));
  return [];
}

function revealAll(v: unknown): unknown {
  if (isSensitive(v)) return revealAll(v.reveal());
  if (isUnknown(v)) return undefined;
  if (Array.isArray(v)) return v.map(revealAll);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revealAll(x)]));
  return v;
}

/** Wraps the kind's secret fields written as literals, and warns: a secret belongs in the environment. */
function markSecrets(secrets: SecretPaths, spec: Record<string, unknown>, found: Set<string>, literals: FieldPath[]): Record<string, unknown> {
  if (secrets.empty) return spec;
  // The path is pushed and popped along the walk, and copied only for a literal found.
  const path: (string | number)[] = [];
  // `formatted` is formatPath(path), grown one segment at a time.
  const mark = (value: unknown, formatted: string): unknown => {
    // Only descend where a secret field may be: the walk is on every resource's load path.
    if (path.length > 0 && !secrets.mayHold(formatted)) return value;
    if (path.length > 0 && secrets.covers(formatted)) {
      found.add(formatted);
      if (typeof value === "string" || typeof value === "number") {
        literals.push([...path]);
        return new Sensitive(value);
      }
      return value;
    }
    if (Array.isArray(value)) return value.map((x, i) => below(i, x, `${formatted}[${i}]`));
    if (isPlainObject(value)) return mapValues(value, (x, k) => below(k, x, formatted === "" ? k : `${formatted}.${k}`));
    return value;
  };
  const below = (segment: string | number, value: unknown, formatted: string): unknown => {
    path.push(segment);
    const marked = mark(value, formatted);
    path.pop();
    return marked;
  };
  return mark(spec, "") as Record<string, unknown>;
}

const META_KEY_SET: ReadonlySet<string> = new Set(META_KEYS);

function buildResource(addr: Address, raw: RawResource, scope: InterpolationScope, provider: ProviderConfig, kindNames: readonly string[], diagnostics: Diagnostic[]): ConfigResource | undefined {
  const kind = raw.kind;
  const loc = { address: addr, positions: raw.positions };
  const body = raw.body ?? {};
  if (!isPlainObject(body)) {
    diagnostics.push(placeDiagnostic(loc, { path: [], code: "config.shape", message: `${addr} must be a mapping of fields` }));
    return undefined;
  }
  // Conditions are expressions of their own (conditions.ts), whose ${self.x} is no interpolation.
  const { preconditions, postconditions } = body;
  const out = newResult();
  const spec: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  for (const k of Object.keys(body)) {
    if (k === "preconditions" || k === "postconditions") continue;
    (META_KEY_SET.has(k) ? meta : spec)[k] = interpolate(body[k], [k], scope, out);
  }
  for (const p of out.problems) diagnostics.push(placeDiagnostic(loc, p));
  const references = out.references.filter((ref) => {
    const head = ref.path[0];
    if (typeof head === "string" && META_KEY_SET.has(head)) {
      diagnostics.push(placeDiagnostic(loc, { path: ref.path, code: "reference.not-allowed", message: `references are not allowed in ${head}`, hint: head === "dependsOn" ? `write the address itself: ${ref.address}` : undefined }));
      return false;
    }
    return true;
  });

  const defaulted = new Set<string>();
  const setDefault = (path: string, value: unknown) => {
    const keys = path.split(".");
    let parent: Record<string, unknown> = spec;
    for (const key of keys.slice(0, -1)) {
      const next = parent[key];
      if (!isPlainObject(next)) return;
      parent = parent[key] = { ...next };
    }
    const last = keys[keys.length - 1]!;
    if (parent[last] === undefined || parent[last] === null) {
      parent[last] = value;
      defaulted.add(path);
    }
  };
  const serviceName = raw.each ? instanceName(raw.name, raw.each.key) : raw.name;
  if (kind.displayName) setDefault(kind.displayName, serviceName);
  const report = (path: string, message: string, hint?: string) => diagnostics.push(placeDiagnostic(loc, { path: path.split("."), code: "config.field", message, hint }));
  kind.defaults?.({ name: serviceName, provider, spec, set: setDefault, file: raw.file, report });

  const literals: FieldPath[] = [];
  const marked = markSecrets(kind.sensitive, spec, out.sensitive, literals);
  for (const p of literals) {
    diagnostics.push(placeDiagnostic(loc, { path: p, code: "sensitive.literal", severity: "warning", message: `${formatPath(p)} is a secret written in the file`, hint: "read it from the environment: ${secret.NAME}" }));
  }

  // The meta keys are validated after the spec's fields; a resource without any (most) is validated as its spec.
  const validated = hasOwnKeys(meta) ? { ...marked, ...meta } : marked;
  for (const item of validateSpec(kind, validated, { address: addr, positions: raw.positions, defaulted, withMetaFor: kindNames })) diagnostics.push(item);

  const resource: ConfigResource = {
    kind: kind.name,
    name: raw.name,
    ...(raw.each ? { key: raw.each.key } : {}),
    address: addr,
    spec: marked,
    file: raw.file,
    position: raw.span.key ?? raw.span.value,
    positions: raw.positions,
    references,
    dependsOn: [],
    dependencies: [],
    lifecycle: lifecycleOf(meta.lifecycle),
    secrets: kind.sensitive.with(out.sensitive),
    writeOnly: kind.writeOnly ?? [],
    defaulted,
  };
  if (typeof meta.import === "string") resource.import = meta.import;
  for (const p of parentReferenceProblems(kind, resource)) diagnostics.push(placeDiagnostic(loc, p));

  // A list over the limit is refused by the schema, located; its entries are not followed.
  if (Array.isArray(meta.dependsOn) && meta.dependsOn.length <= MAX_DEPENDS_ON) {
    meta.dependsOn.forEach((d, i) => {
      if (typeof d !== "string" || !scope.addresses) return;
      const parsed = parseAddress(d, { has: (k) => kindNames.includes(k) });
      // The schema already reports what is not an address at all.
      if (!parsed) return;
      const target = makeAddress(parsed.kind, parsed.name, parsed.key);
      const blockKeys = scope.forEach?.get(makeAddress(parsed.kind, parsed.name));
      // A whole forEach block: every one of its instances.
      if (parsed.key === undefined && Array.isArray(blockKeys)) {
        for (const k of blockKeys) resource.dependsOn.push(makeAddress(parsed.kind, parsed.name, k));
      }
      else if (scope.addresses.has(target)) resource.dependsOn.push(target);
      // A block whose forEach is unknown or in error has nothing more to say.
      else if (blockKeys === undefined || Array.isArray(blockKeys)) {
        const hint = parsed.key !== undefined && Array.isArray(blockKeys) ? `${makeAddress(parsed.kind, parsed.name)} has the keys ${blockKeys.slice(0, 5).map((k) => JSON.stringify(k)).join(", ")}${blockKeys.length > 5 ? " and more" : ""}` : didYouMean(d, scope.addresses);
        diagnostics.push(placeDiagnostic(loc, { path: ["dependsOn", i], code: "reference.undeclared", message: `dependsOn names undeclared ${d}`, hint }));
      }
    });
  }
  for (const [i, p] of resource.lifecycle.ignoreChanges.entries()) {
    if (!specHasField(kind, parsePath(p))) {
      diagnostics.push(placeDiagnostic(loc, { path: ["lifecycle", "ignoreChanges", i], code: "lifecycle.ignore-changes", message: `ignoreChanges names "${p}", which is not a field of ${kind.name}` }));
    }
  }
  const conditionScope = { address: addr, positions: raw.positions, ...(scope.addresses ? { addresses: scope.addresses } : {}), variables: new Set(scope.variables.keys()), kindNames };
  const pre = readConditions("preconditions", preconditions, conditionScope, diagnostics);
  const post = readConditions("postconditions", postconditions, conditionScope, diagnostics);
  if (pre.length > 0) resource.preconditions = pre;
  if (post.length > 0) resource.postconditions = post;
  // A lookup is resolved before the plan: nothing waits for it.
  resource.dependencies = [...new Set([...references.filter((r) => !isLookupAddress(r.address)).map((r) => r.address), ...resource.dependsOn, ...conditionAddresses(resource)])].sort();
  return resource;
}

function lifecycleOf(v: unknown): Lifecycle {
  const l = isPlainObject(v) ? v : {};
  return {
    preventDestroy: l.preventDestroy === true,
    ignoreChanges: Array.isArray(l.ignoreChanges) ? l.ignoreChanges.filter((x): x is string => typeof x === "string") : [],
    createBeforeDestroy: l.createBeforeDestroy === true,
  };
}
