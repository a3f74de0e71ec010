// The release artifact, as a user gets it: packed with `npm pack`, installed with the README's one command
// (`npm install -g ./netform-<version>.tgz`) into an empty prefix with an empty npm cache and no network,
// and run from other folders; and the same tarball run through `npx`. Also what the package declares about
// itself: what it holds, that it needs no package at run time, its licence text and its version flags.

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNTS } from "../../src/simulator/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  license: string;
  files: string[];
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const readme = readFileSync(join(root, "README.md"), "utf8");
const tarballName = `${pkg.name}-${pkg.version}.tgz`;

/** The bundles of scripts/bundle.mjs: the whole program as installed. */
const BUNDLE = ["dist/cli/main.js", "dist/cli/netform.cjs", "dist/cli/program.cjs", "dist/cli/simulator.cjs", "dist/cli/http.cjs", "dist/cli/pg.cjs", "dist/cli/package.json"];

let work: string;
let tarball: string;
let files: string[];
/** A fresh, empty npm cache and no network: whatever an install needed from a registry would fail it. */
let offline: NodeJS.ProcessEnv;

function sh(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return spawnSync("sh", ["-c", command], { ...options, encoding: "utf8" });
}

/** The bytes of every file under `dir`. */
function sizeOf(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).reduce((sum, entry) => (entry.isFile() ? sum + statSync(join(entry.parentPath, entry.name)).size : sum), 0);
}

/** The README's command in a ```sh block that starts with `prefix`, with `<version>` filled in. */
function readmeCommand(prefix: string): string {
  const line = readme.split("\n").find((l) => l.startsWith(prefix));
  expect(line, `the README shows a command starting with ${prefix}`).toBeDefined();
  return line!.replace(/\s+#.*$/, "").replaceAll("<version>", pkg.version);
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "netform-package-"));
  // --ignore-scripts: dist is already built, and rebuilding it would rewrite files other tests are running.
  const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = packed[0]!.filename;
  files = packed[0]!.files.map((file) => file.path);
  offline = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", npm_config_cache: mkdtempSync(join(tmpdir(), "netform-npm-cache-")), npm_config_offline: "true", npm_config_update_notifier: "false" };
}, 60_000);

describe("the package", () => {
  it("is named netform-<version>.tgz, as the README's install command says", () => {
    expect(tarball).toBe(tarballName);
  });

  it("holds the bundles, schemas, examples, docs, CI templates, licence and readme, and no tests, sources, compiled tree or source maps", () => {
    for (const needed of [...BUNDLE, "schemas/netform.schema.json", "schemas/plan.schema.json", "examples/quickstart/netform.yaml", "docs/configuration.md", "action.yml", "ci/gitlab/netform.gitlab-ci.yml", "LICENSE", "README.md", "package.json"]) {
      expect(files).toContain(needed);
    }
    // The bundles are the whole program: the compiled tree tsc writes beside them is for tests only.
    expect(files.filter((file) => file.startsWith("dist/")).sort()).toEqual([...BUNDLE].sort());
    // The bundles' maps name lines of sources the package does not hold.
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(files.filter((file) => /^(test|src|bench|scripts|\.ci)\//.test(file) || /\.test\./.test(file))).toEqual([]);
  });

  it("needs no package at run time: everything it loads is bundled, and pdfkit is an optional peer", () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(["pdfkit"]);
    expect(pkg.peerDependenciesMeta?.pdfkit?.optional).toBe(true);
    // The bundles require nothing from node_modules but pdfkit (the order summary's PDF) and the PostgreSQL
    // driver's optional native binding, which it loads only when asked to.
    for (const bundle of BUNDLE.filter((file) => /\.c?js$/.test(file))) {
      const required = [...readFileSync(join(root, bundle), "utf8").matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
      const packages = required.filter((name) => !name.startsWith("node:") && !name.startsWith("./") && !isBuiltin(name));
      expect(new Set(packages), bundle).toEqual(new Set(packages.filter((name) => name === "pdfkit" || name === "pg-native")));
    }
  });

  it("is not rebuilt on install: no install or prepare script, and `npm run release` builds and packs", () => {
    for (const script of ["prepare", "preinstall", "install", "postinstall", "prepack"]) expect(pkg.scripts[script], script).toBeUndefined();
    expect(pkg.scripts.release).toBe("npm run build && npm pack");
  });

  it("holds everything the README links to", () => {
    const local = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
    expect(local.length).toBeGreaterThan(0);
    for (const target of local) expect(files.some((file) => file === target || file.startsWith(`${target}/`)), target).toBe(true);
  });

  it("is licensed under the Apache License 2.0, whose standard text LICENSE is", () => {
    expect(pkg.license).toBe("Apache-2.0");
    const sha256 = createHash("sha256").update(readFileSync(join(root, "LICENSE"))).digest("hex");
    // The SHA-256 of https://www.apache.org/licenses/LICENSE-2.0.txt
    expect(sha256).toBe("cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30");
  });
});

describe("installed with the README's command into an empty prefix", () => {
  /** The prefix the tarball was installed into: its bin/ holds the command, its lib/node_modules the package. */
  let prefix: string;
  let env: NodeJS.ProcessEnv;
  const bin = () => join(prefix, "bin/netform");
  /** A folder that is neither the checkout nor the prefix. */
  const elsewhere = () => mkdtempSync(join(tmpdir(), "netform-user-"));

  beforeAll(() => {
    prefix = join(work, "empty-prefix");
    mkdirSync(prefix);
    // npm_config_prefix is where `npm install -g` installs: the README's command, run as written.
    const install = sh(readmeCommand("npm install -g ./"), { cwd: work, env: { ...offline, npm_config_prefix: prefix } });
    expect(install.status, `the README's install command failed without the network and with an empty npm cache:\n${install.stderr}`).toBe(0);
    env = { ...offline, PATH: `${join(prefix, "bin")}:${offline.PATH ?? ""}` };
  }, 120_000);

  it("installs netform alone, a few megabytes: no dependency, no pdfkit or fontkit", () => {
    expect(readdirSync(join(prefix, "lib/node_modules"))).toEqual(["netform"]);
    const installed = join(prefix, "lib/node_modules/netform");
    expect(readdirSync(installed)).not.toContain("node_modules");
    expect(sizeOf(installed)).toBeLessThan(8_000_000);
    expect(readdirSync(join(installed, "dist"))).toEqual(["cli"]);
  });

  it("prints its version with -v, --version and -V, and shows -v in its help", () => {
    for (const flag of ["-v", "--version", "-V"]) {
      const result = spawnSync(bin(), [flag], { cwd: elsewhere(), env, encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${pkg.version}\n`);
    }
    expect(spawnSync(bin(), ["--help"], { env, encoding: "utf8" }).stdout).toMatch(/^ {2}-v, --version +print the version$/m);
  });

  it("validates and plans a copy of the quick start from another folder, against the embedded simulator", { timeout: 120_000 }, () => {
    const config = join(elsewhere(), "quickstart");
    cpSync(join(root, "examples/quickstart"), config, { recursive: true });
    const cwd = elsewhere();
    const validate = sh(`netform validate -c ${config}`, { cwd, env });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toContain("Valid: 5 resources in 1 file");
    // --debug reads no source map (none is shipped) and changes nothing else.
    expect(sh(`netform validate --debug -c ${config}`, { cwd, env }).status).toBe(0);
    const plan = sh(`netform plan -c ${config} --detailed-exitcode`, { cwd, env });
    expect(plan.status, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("Plan: 5 to add, 0 to change, 0 to replace, 0 to destroy.");
  });

  it("as a command on the PATH, the demo's closing commands name it and run from any folder", { timeout: 120_000 }, () => {
    const demo = sh("netform demo", { cwd: elsewhere(), env });
    expect(demo.status, demo.stderr).toBe(0);
    const explore = /^Explore: (cd \S+ && netform state list)$/m.exec(demo.stdout)?.[1];
    const cleanUp = /^Clean up: (cd \S+ && netform destroy --auto-approve)$/m.exec(demo.stdout)?.[1];
    expect(explore, demo.stdout).toBeDefined();
    expect(cleanUp, demo.stdout).toBeDefined();

    const list = sh(explore!, { cwd: elsewhere(), env });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(5);
    const destroy = sh(cleanUp!, { cwd: elsewhere(), env });
    expect(destroy.status, destroy.stderr).toBe(0);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
  });

  describe("the simulator's order summary, a PDF", () => {
    const sims: ReturnType<typeof spawn>[] = [];
    afterAll(() => {
      for (const sim of sims) sim.kill();
    });

    /** Starts the installed `netform sim` on a free port and asks it for an order summary. */
    async function orderSummary(): Promise<Response> {
      const sim = spawn(bin(), ["sim", "--port", "0"], { cwd: elsewhere(), env, stdio: ["ignore", "pipe", "pipe"] });
      sims.push(sim);
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = "";
        sim.stdout!.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(out);
          if (found) resolveUrl(found[1]!);
        });
        sim.on("exit", (code) => reject(new Error(`netform sim exited ${code}: ${out}`)));
      });
      const token = await fetch(`${url}/oauth2/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" }) });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      return fetch(`${url}/ne/v1/orderSummaries?accountNumber=${ACCOUNTS.main.accountNumber}&metro=SV&vendorPackage=C8000V&softwarePackage=network-essentials`, { headers: { authorization: `Bearer ${access_token}` } });
    }

    it("without pdfkit, answers 503 saying that pdfkit is needed and how to install it", { timeout: 60_000 }, async () => {
      const summary = await orderSummary();
      const body = (await summary.json()) as { errorCode: string; errorMessage: string; status: string };
      expect(summary.status).toBe(503);
      expect(body.errorMessage).toContain("the PDF library pdfkit is not installed beside netform");
      expect(body.errorMessage).toContain("npm install -g pdfkit");
    });

    it("with pdfkit where `npm install -g pdfkit` puts it, beside netform, answers the PDF", { timeout: 60_000 }, async () => {
      // The checkout's pdfkit (a development dependency), linked where a global install of it would be.
      symlinkSync(join(root, "node_modules/pdfkit"), join(prefix, "lib/node_modules/pdfkit"));
      const summary = await orderSummary();
      expect(summary.status).toBe(200);
      expect(summary.headers.get("content-type")).toBe("application/pdf;charset=UTF-8");
      expect(Buffer.from(await summary.arrayBuffer()).toString("latin1").startsWith("%PDF-")).toBe(true);
    });
  });
});

describe("run through npx from the tarball, as the README says", () => {
  it("runs without the network and with an empty npm cache", { timeout: 120_000 }, () => {
    const result = sh(readmeCommand("npx --yes --package ./"), { cwd: work, env: offline });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${pkg.version}\n`);
  });
});
