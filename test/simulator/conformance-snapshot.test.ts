// The conformance snapshot stands in for the official API descriptions in every conformance check, so
// it must be whole (every $ref resolves inside it, every operation documents its responses) and, where
// the descriptions are at hand, be what regenerating it from them gives. The script that makes it is
// specified here on a small description tree of its own.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILY_ERRORS, STATUS_EXCEPTIONS } from "../support/conformance-exceptions.js";
import { findOperationByKey, loadSnapshot, type Snapshot } from "../support/openapi.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SCRIPT = join(root, "scripts/conformance-snapshot.mjs");

function runScript(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: root, env, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, found));
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

const definitionName = (ref: string) => /^#\/definitions\/(.+)$/.exec(ref)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~");

describe("the committed conformance snapshot", () => {
  const snapshot = loadSnapshot();

  it("resolves every $ref inside itself, and holds only definitions that some response reaches", () => {
    const unresolved = refsIn([snapshot.operations, snapshot.definitions]).filter((ref) => {
      const name = definitionName(ref);
      return name === undefined || !(name in snapshot.definitions);
    });
    expect(unresolved).toEqual([]);

    const reached = new Set<string>();
    const queue = refsIn(snapshot.operations).map((ref) => definitionName(ref)!);
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      if (reached.has(name)) continue;
      reached.add(name);
      queue.push(...refsIn(snapshot.definitions[name]).map((ref) => definitionName(ref)!));
    }
    expect(Object.keys(snapshot.definitions).filter((name) => !reached.has(name))).toEqual([]);
  });

  it("documents responses for every operation, and each method and path once", () => {
    expect(snapshot.operations.length).toBeGreaterThan(300);
    expect(snapshot.operations.filter((op) => Object.keys(op.responses).length === 0)).toEqual([]);
    const keys = snapshot.operations.map((op) => `${op.method} ${op.template}`);
    expect(keys.length).toBe(new Set(keys).size);
    for (const expected of ["POST /oauth2/v1/token", "POST /oauth2/v1/refreshaccesstoken", "GET /fabric/v4/connections/{connectionId}", "GET /ne/v1/devices/{uuid}", "GET /metal/v1/user/api-keys"]) {
      expect(keys).toContain(expected);
    }
  });

  it("records the SHA-256 of every description file it was made from", () => {
    for (const entry of ["fabricv4.yaml", "accesstokenv1.yaml", "networkedgev1.yaml", "metalv1/openapi3.yaml", "metalv1/components/schemas/AuthToken.yaml"]) {
      expect(snapshot.sources[entry]).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("has every operation, sibling and schema that the conformance exceptions name", () => {
    const keys = snapshot.operations.map((op) => `${op.method} ${op.template}`);
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    for (const exception of STATUS_EXCEPTIONS) {
      for (const pattern of exception.operations) expect(keys.some((key) => glob(pattern).test(key)), `${exception.name}: ${pattern}`).toBe(true);
      if (typeof exception.body === "object") {
        const like = findOperationByKey(exception.body.like);
        for (const status of exception.statuses) expect(like?.responses[String(status)], `${exception.name}: ${exception.body.like} ${status}`).toBeTruthy();
      }
    }
    for (const { schema } of FAMILY_ERRORS) expect(snapshot.definitions[schema], schema).toBeDefined();
  });

  it("is what the official descriptions give, wherever they are at hand (npm run conformance:snapshot -- --check)", () => {
    const check = runScript(["--check"]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/is up to date with|descriptions not at hand; skipped/);
  });
});

// A description tree with one of each thing the script must handle: OAS3 components, Swagger 2
// definitions, the bare-metal API's path and schema files, annotations to drop, a path to leave out.
const TREE: Record<string, string> = {
  "fabricv4.yaml": `
openapi: 3.0.3
paths:
  /fabric/v4/things/{id}:
    get:
      summary: Get a thing
      responses:
        "200":
          description: the thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
        "204":
          description: nothing to say
  /fabric/v4/things:
    get:
      responses:
        "200":
          content:
            application/json; charset=UTF-8:
              schema:
                $ref: '#/components/schemas/Thing'
components:
  schemas:
    Thing:
      type: object
      description: A thing
      x-internal: true
      required: [state]
      properties:
        description: { type: string, maxLength: 30, description: a property named like an annotation }
        state: { $ref: '#/components/schemas/State' }
    State:
      type: string
      enum: [ON, OFF]
      example: ON
    Unused:
      type: string
`,
  "accesstokenv1.yaml": "openapi: 3.0.1\npaths: {}\n",
  "networkedgev1.yaml": `
swagger: "2.0"
paths:
  /ne/v1/widgets:
    get:
      responses:
        "200":
          description: widgets
          schema: { $ref: '#/definitions/Widgets' }
definitions:
  Widgets: { type: object, title: Widgets, properties: { data: { type: array, items: { type: string, pattern: '^w' } } } }
`,
  "metalv1/openapi3.yaml": `
openapi: 3.0.0
paths:
  /api-keys/{id}: { $ref: ./paths/api-keys/id.yaml }
  /projects/{id}/api-keys: { $ref: ./paths/projects/id/api-keys.yaml }
  /user/api-keys: { $ref: ./paths/user/api-keys.yaml }
  /user/api-keys/{id}: { $ref: ./paths/user/api-keys/id.yaml }
  /devices: { $ref: ./paths/devices.yaml }
`,
  "metalv1/paths/api-keys/id.yaml": "delete:\n  responses:\n    '204': { description: deleted }\n",
  "metalv1/paths/projects/id/api-keys.yaml": "delete:\n  responses:\n    '204': { description: deleted }\n",
  "metalv1/paths/user/api-keys/id.yaml": "delete:\n  responses:\n    '204': { description: deleted }\n",
  "metalv1/paths/user/api-keys.yaml": `
get:
  responses:
    "200":
      content:
        application/json:
          schema: { $ref: '../../components/schemas/AuthTokenList.yaml' }
`,
  "metalv1/components/schemas/AuthTokenList.yaml": "properties:\n  api_keys: { type: array, items: { $ref: './AuthToken.yaml' } }\n",
  "metalv1/components/schemas/AuthToken.yaml": "properties:\n  token: { type: string }\n  read_only: { type: boolean, default: false }\n",
};

function descriptionTree(): { dir: string; out: string; write(file: string, text: string): void } {
  const base = mkdtempSync(join(tmpdir(), "netform-snapshot-"));
  const dir = join(base, "openapi");
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  for (const [file, text] of Object.entries(TREE)) write(file, text);
  return { dir, out: join(base, "snapshot.json"), write };
}

describe("npm run conformance:snapshot", () => {
  it("keeps each documented response's facts (a media type other than application/json among them), drops the prose, and gathers what they reach in one table", () => {
    const tree = descriptionTree();
    const made = runScript(["--from", tree.dir, "--out", tree.out]);
    expect(made.code, made.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(tree.out, "utf8")) as Snapshot;

    expect(snapshot.operations).toEqual([
      { method: "GET", template: "/fabric/v4/things/{id}", responses: { "200": { $ref: "#/definitions/fabricv4.Thing" }, "204": null } },
      { method: "GET", template: "/fabric/v4/things", responses: { "200": { $ref: "#/definitions/fabricv4.Thing" } }, mediaTypes: { "200": "application/json; charset=UTF-8" } },
      { method: "GET", template: "/ne/v1/widgets", responses: { "200": { $ref: "#/definitions/networkedgev1.Widgets" } } },
      { method: "DELETE", template: "/metal/v1/api-keys/{id}", responses: { "204": null } },
      { method: "DELETE", template: "/metal/v1/projects/{id}/api-keys", responses: { "204": null } },
      { method: "GET", template: "/metal/v1/user/api-keys", responses: { "200": { $ref: "#/definitions/metalv1.AuthTokenList" } } },
      { method: "DELETE", template: "/metal/v1/user/api-keys/{id}", responses: { "204": null } },
    ]);
    expect(snapshot.definitions).toEqual({
      "fabricv4.State": { type: "string", enum: ["ON", "OFF"] },
      "fabricv4.Thing": { type: "object", required: ["state"], properties: { description: { type: "string", maxLength: 30 }, state: { $ref: "#/definitions/fabricv4.State" } } },
      "metalv1.AuthToken": { properties: { token: { type: "string" }, read_only: { type: "boolean" } } },
      "metalv1.AuthTokenList": { properties: { api_keys: { type: "array", items: { $ref: "#/definitions/metalv1.AuthToken" } } } },
      "networkedgev1.Widgets": { type: "object", properties: { data: { type: "array", items: { type: "string", pattern: "^w" } } } },
    });
    expect(Object.keys(snapshot.sources)).not.toContain("metalv1/paths/devices.yaml");
    expect(snapshot.sources["fabricv4.yaml"]).toBe(createHash("sha256").update(TREE["fabricv4.yaml"]!).digest("hex"));
  });

  it("--check passes on a fresh snapshot and fails, naming the file, once a description changes", () => {
    const tree = descriptionTree();
    runScript(["--from", tree.dir, "--out", tree.out]);
    expect(runScript(["--check", "--from", tree.dir, "--out", tree.out]).code).toBe(0);

    tree.write("fabricv4.yaml", TREE["fabricv4.yaml"]!.replace("enum: [ON, OFF]", "enum: [ON, OFF, BROKEN]"));
    const stale = runScript(["--check", "--from", tree.dir, "--out", tree.out]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/is stale against .*\n\s+fabricv4\.yaml changed \(sha256 /);
    expect(stale.stderr).toContain("Run `npm run conformance:snapshot` and commit the result");
  });

  it("--check fails when the snapshot was edited by hand, though the descriptions are unchanged", () => {
    const tree = descriptionTree();
    runScript(["--from", tree.dir, "--out", tree.out]);
    writeFileSync(tree.out, readFileSync(tree.out, "utf8").replace('"maxLength":30', '"maxLength":300'));
    const stale = runScript(["--check", "--from", tree.dir, "--out", tree.out]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("the descriptions are unchanged, but the snapshot regenerated from them differs");
  });

  it("--check skips, saying so, when the descriptions are not at hand", () => {
    const tree = descriptionTree();
    const skipped = runScript(["--check"], { ...process.env, NETFORM_OPENAPI_DIR: join(tree.dir, "absent") });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toMatch(/descriptions not at hand; skipped \(.*absent, from NETFORM_OPENAPI_DIR, is not a folder\)/);
  });

  it("stops at a schema keyword it does not know, rather than lose a constraint", () => {
    const tree = descriptionTree();
    tree.write("networkedgev1.yaml", TREE["networkedgev1.yaml"]!.replace("pattern: '^w'", "if: { type: string }"));
    const refused = runScript(["--from", tree.dir, "--out", tree.out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('networkedgev1.yaml#/definitions/Widgets/properties/data/items/if: schema keyword "if" is unknown');
  });
});
