// The configuration's backend block: each backend's settings, interpolated from the environment, and each
// mistake placed at its file:line:col with what to write instead.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backendFromText, buildConfiguration } from "../../../src/config/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";

const repo = join(import.meta.dirname, "../../..");
const load = (text: string, env: Record<string, string> = {}) => buildConfiguration([{ file: join(repo, "netform.yaml"), text: `netform: 1\n${text}` }], { kinds: KIND_CATALOG, env, baseDir: repo });

describe("backend block", () => {
  it("reads a postgres backend, its URL from the environment and its schema defaulted", () => {
    const { config, diagnostics } = load(`backend:\n  postgres: { url: "\${env.PG}", name: prod }\n`, { PG: "postgres://u:p@db:5432/netform" });
    expect(diagnostics).toEqual([]);
    expect(config.backend).toEqual({ type: "postgres", url: "postgres://u:p@db:5432/netform", schema: "netform", name: "prod" });
  });

  it("reads an http backend and a local one; without a block there is none", () => {
    expect(load(`backend:\n  http: { address: https://state.example.net/s/prod, lockAddress: https://state.example.net/s/prod/lock }\n`).config.backend).toEqual({
      type: "http",
      address: "https://state.example.net/s/prod",
      lockAddress: "https://state.example.net/s/prod/lock",
    });
    expect(load(`backend:\n  local: { path: states/prod.json }\n`).config.backend).toEqual({ type: "local", path: "states/prod.json" });
    expect(load("").config.backend).toBeUndefined();
  });

  it("places each mistake: two backends, an unknown field, a URL that is not postgres", () => {
    const two = load(`backend:\n  local: {}\n  http: { address: https://x.example }\n`).diagnostics;
    expect(two).toEqual([expect.objectContaining({ severity: "error", line: 3, address: "backend", message: "backend takes exactly one of local, postgres, http" })]);
    const unknown = load(`backend:\n  postgress: { url: "postgres://db/x", name: prod }\n`).diagnostics;
    expect(unknown[0]).toMatchObject({ line: 3, column: 3, address: "backend", path: "postgress", message: 'unknown field "postgress"', hint: expect.stringContaining("postgres") });
    const url = load(`backend:\n  postgres:\n    url: mysql://db/x\n    name: prod\n`).diagnostics;
    expect(url[0]).toMatchObject({ line: 4, address: "backend", path: "postgres.url", message: expect.stringContaining("postgres:// connection URL") });
  });

  it("reads a backend given on the command line, or says what is wrong with it", () => {
    expect(backendFromText("local")).toEqual({ backend: { type: "local" } });
    expect(backendFromText("{postgres: {url: 'postgres://db/x', name: prod}}")).toEqual({ backend: { type: "postgres", url: "postgres://db/x", schema: "netform", name: "prod" } });
    expect(backendFromText("{postgres: {name: prod}}")).toEqual({ problem: expect.stringContaining("postgres.url") });
    expect(backendFromText("{s3: {}}")).toEqual({ problem: "unknown field s3" });
  });
});
