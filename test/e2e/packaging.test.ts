// The published package, as a user gets it: packed with `npm pack`, installed from the tarball into an
// empty project without the network, and run from there. Also what the package declares about itself: its
// licence text and its version flags.

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string };

interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}

/**
 * The lock file of a project that depends on netform from `tarball`, with the versions netform's own lock
 * file pins. `npm install --offline` then needs only the packages `npm ci` put in npm's cache; without a
 * lock file it would also need the registry's package listings, which `npm ci` never fetches.
 */
function consumerLock(tarball: string): object {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const { version, license, dependencies, bin, engines } = lock.packages[""]!;
  const installed = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && !entry.dev);
  return {
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { dependencies: { netform: tarball } },
      "node_modules/netform": { version, resolved: tarball, license, dependencies, bin, engines },
      ...Object.fromEntries(installed),
    },
  };
}

function sh(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return spawnSync("sh", ["-c", command], { ...options, encoding: "utf8" });
}

let work: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "netform-package-"));
  // --ignore-scripts: dist is already built, and rebuilding it would rewrite files other tests are running.
  const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = packed[0]!.filename;
  files = packed[0]!.files.map((file) => file.path);
}, 60_000);

describe("the package", () => {
  it("holds the command line, schemas, examples, docs, licence and readme, and no tests or sources", () => {
    for (const needed of ["dist/cli/main.js", "dist/cli/netform.cjs", "dist/cli/program.cjs", "dist/cli/simulator.cjs", "dist/cli/http.cjs", "dist/cli/package.json", "schemas/netform.schema.json", "schemas/plan.schema.json", "examples/quickstart/netform.yaml", "docs/configuration.md", "LICENSE", "README.md", "package.json"]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((file) => /^(test|src|bench|\.ci)\//.test(file) || /\.test\./.test(file))).toEqual([]);
    // The code caches the command line saves as it runs are V8's compiled code for this machine's Node.
    expect(files.filter((file) => file.startsWith("dist/cli/compile-cache/"))).toEqual([]);
  });

  it("holds everything the README links to", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
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

describe("installed from the packed tarball", () => {
  /** The project the tarball was installed into. */
  let project: string;
  const bin = () => join(project, "node_modules/.bin/netform");

  beforeAll(() => {
    project = join(work, "project");
    mkdirSync(project);
    const dependency = `file:../${tarball}`;
    writeFileSync(join(project, "package.json"), JSON.stringify({ private: true, dependencies: { netform: dependency } }));
    writeFileSync(join(project, "package-lock.json"), JSON.stringify(consumerLock(dependency)));
    const install = spawnSync("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: project, encoding: "utf8" });
    expect(install.status, `npm install --offline of the packed tarball failed: its dependencies must be in npm's cache, which npm ci fills.\n${install.stderr}`).toBe(0);
  }, 120_000);

  it("prints its version with -v, --version and -V, and shows -v in its help", () => {
    for (const flag of ["-v", "--version", "-V"]) {
      const result = spawnSync(bin(), [flag], { encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${pkg.version}\n`);
    }
    expect(spawnSync(bin(), ["--help"], { encoding: "utf8" }).stdout).toMatch(/^ {2}-v, --version +print the version$/m);
  });

  it("validates an example it ships", () => {
    const result = spawnSync(bin(), ["validate", "-c", "node_modules/netform/examples/quickstart"], { cwd: project, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("Valid: 5 resources in 1 file");
  });

  it("as a command on the PATH, the demo's closing commands name it and run from any folder", { timeout: 120_000 }, () => {
    const commands = join(work, "bin");
    mkdirSync(commands);
    symlinkSync(join(project, "node_modules/netform/dist/cli/main.js"), join(commands, "netform"));
    // Offline: a command that fell through to the registry would fail here instead of fetching.
    const env = { PATH: `${commands}:${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? "", NO_COLOR: "1", npm_config_offline: "true" };
    const demo = sh("netform demo", { cwd: work, env });
    expect(demo.status, demo.stderr).toBe(0);
    const explore = /^Explore: (cd \S+ && netform state list)$/m.exec(demo.stdout)?.[1];
    const cleanUp = /^Clean up: (cd \S+ && netform destroy --auto-approve)$/m.exec(demo.stdout)?.[1];
    expect(explore, demo.stdout).toBeDefined();
    expect(cleanUp, demo.stdout).toBeDefined();

    const elsewhere = mkdtempSync(join(tmpdir(), "netform-user-"));
    const list = sh(explore!, { cwd: elsewhere, env });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(5);
    const destroy = sh(cleanUp!, { cwd: elsewhere, env });
    expect(destroy.status, destroy.stderr).toBe(0);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
  });
});
