// The official API descriptions (shared/reference/openapi), loaded once per test worker and indexed
// by path template and method, so that a response can be matched to the schema the real service
// documents for it. Parsing 2 MB of YAML is slow, so the parsed documents are cached as JSON under
// node_modules/.cache, keyed by the source file's size and modification time.

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
export const REFERENCE_DIR = resolve(here, "../../../shared/reference/openapi");
const CACHE_DIR = resolve(here, "../../node_modules/.cache/netform-openapi");

export type Doc = Record<string, unknown>;

export function loadYaml(file: string): Doc {
  const stat = statSync(file);
  const key = `${file.replace(/[^a-zA-Z0-9]+/g, "_")}-${stat.size}-${Math.floor(stat.mtimeMs)}.json`;
  const cached = join(CACHE_DIR, key);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as Doc;
  const doc = parse(readFileSync(file, "utf8"), { maxAliasCount: -1 }) as Doc;
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(cached, JSON.stringify(doc));
  return doc;
}

/** One operation's documented responses: status -> JSON pointer (within `fileUrl`) of the response schema. */
export interface Operation {
  /** The description it comes from, e.g. "fabricv4.yaml". */
  source: string;
  template: string;
  method: string;
  /** The file that holds the schemas (for multi-file descriptions, the path file). */
  fileUrl: string;
  responses: Record<string, string | null>;
}

interface Description {
  source: string;
  /** Prefix the description's paths are served under (its server URL's path). */
  prefix: string;
  kind: "oas3" | "swagger2";
  file: string;
  /** Only these path templates (for the bare-metal API, of which the simulator serves the API-key part). */
  only?: string[];
}

const DESCRIPTIONS: Description[] = [
  { source: "fabricv4.yaml", prefix: "", kind: "oas3", file: join(REFERENCE_DIR, "fabricv4.yaml") },
  { source: "accesstokenv1.yaml", prefix: "", kind: "oas3", file: join(REFERENCE_DIR, "accesstokenv1.yaml") },
  { source: "networkedgev1.yaml", prefix: "", kind: "swagger2", file: join(REFERENCE_DIR, "networkedgev1.yaml") },
  {
    source: "metalv1",
    prefix: "/metal/v1",
    kind: "oas3",
    file: join(REFERENCE_DIR, "metalv1/openapi3.yaml"),
    only: ["/api-keys/{id}", "/projects/{id}/api-keys", "/user/api-keys", "/user/api-keys/{id}"],
  },
];

const METHODS = ["get", "post", "put", "patch", "delete"];
const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

function responseSchemas(kind: Description["kind"], op: Doc, base: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Doc>)) {
    const at = `${base}/responses/${escapePointer(status)}`;
    if (kind === "swagger2") {
      out[status] = response.schema ? `${at}/schema` : null;
      continue;
    }
    const content = (response.content ?? {}) as Record<string, Doc>;
    const jsonType = Object.keys(content).find((t) => t.includes("json"));
    out[status] = jsonType && content[jsonType]!.schema ? `${at}/content/${escapePointer(jsonType)}/schema` : null;
  }
  return out;
}

export interface LoadedDocument {
  url: string;
  doc: Doc;
}

let cache: { operations: Operation[]; documents: LoadedDocument[] } | undefined;

/** Every operation of every description, and every document the schemas live in (for the validator). */
export function loadOperations(): { operations: Operation[]; documents: LoadedDocument[] } {
  if (cache) return cache;
  const operations: Operation[] = [];
  const documents = new Map<string, LoadedDocument>();
  const addDocument = (file: string): Doc => {
    const url = pathToFileURL(file).href;
    const existing = documents.get(url);
    if (existing) return existing.doc;
    const doc = loadYaml(file);
    documents.set(url, { url, doc });
    // Multi-file descriptions: bring in every file a $ref names, so the validator can resolve it.
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) {
          const target = resolve(dirname(file), v.split("#")[0]!);
          if (!documents.has(pathToFileURL(target).href)) addDocument(target);
        } else visit(v);
      }
    };
    if (file.includes("metalv1")) visit(doc);
    return doc;
  };

  for (const d of DESCRIPTIONS) {
    const doc = loadYaml(d.file);
    const paths = (doc.paths ?? {}) as Record<string, Doc>;
    for (const [template, item] of Object.entries(paths)) {
      if (d.only && !d.only.includes(template)) continue;
      let pathItem = item;
      let fileUrl = pathToFileURL(d.file).href;
      let base = `#/paths/${escapePointer(template)}`;
      if (typeof item.$ref === "string") {
        const target = resolve(dirname(d.file), item.$ref);
        pathItem = addDocument(target);
        fileUrl = pathToFileURL(target).href;
        base = "#";
      } else {
        addDocument(d.file);
      }
      for (const method of METHODS) {
        const op = pathItem[method] as Doc | undefined;
        if (!op) continue;
        operations.push({
          source: d.source,
          template: `${d.prefix}${template}`,
          method: method.toUpperCase(),
          fileUrl,
          responses: responseSchemas(d.kind, op, base === "#" ? `#/${method}` : `${base}/${method}`),
        });
      }
    }
  }
  cache = { operations, documents: [...documents.values()] };
  return cache;
}

const templateRegex = new Map<string, RegExp>();

/** The operation a concrete request path and method belong to; literal segments win over parameters. */
export function findOperation(method: string, path: string): Operation | undefined {
  const { operations } = loadOperations();
  const candidates = operations.filter((op) => {
    if (op.method !== method) return false;
    let re = templateRegex.get(op.template);
    if (!re) {
      re = new RegExp(`^${op.template.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
      templateRegex.set(op.template, re);
    }
    return re.test(path);
  });
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  return candidates.sort((a, b) => params(a.template) - params(b.template))[0];
}
