// What `netform init` says it found: golden text for each way a run can be set up, and no colour when
// colour is off.

import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { InitReport } from "../../../src/engine/index.js";
import { renderInitReport } from "../../../src/views/init.js";
import { ANSI, expectGolden } from "./golden.js";

const plain = pc.createColors(false);

const base: InitReport = {
  configuration: { files: 2, resources: 3, lookups: 2, outputs: 1 },
  workspace: "prod",
  backend: { type: "postgres", location: "postgres state prod/prod (schema netform)", state: { serial: 12, resources: 3 } },
  service: { endpoint: "https://api.example.net", embedded: false, credentials: "client", identity: "netops-ci", reached: true },
  lookups: [
    { address: "lookups.primary", kind: "port", value: { name: "216504-DC1-CX-PRI-01", uuid: "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee", metroCode: "DC" }, changes: [] },
    { address: "lookups.cloud", kind: "serviceProfile", value: { type: "L2_PROFILE", visibility: "PUBLIC" }, changes: [] },
  ],
};

describe("renderInitReport", () => {
  it.each<[string, InitReport]>([
    ["shared-backend", base],
    ["fresh-local", { configuration: { files: 1, resources: 1, lookups: 0, outputs: 0 }, workspace: "default", backend: { type: "local", location: "netform.state.json" }, service: { endpoint: "embedded", embedded: true, credentials: "embedded", reached: true }, lookups: [] }],
    ["no-backend-token", { ...base, backend: undefined, service: { endpoint: "https://api.example.net", embedded: false, credentials: "token", reached: true } } as InitReport],
    ["token-not-called", { ...base, lookups: [], service: { endpoint: "https://api.example.net", embedded: false, credentials: "token", reached: false } }],
  ])("%s", (name, report) => {
    const text = renderInitReport(report, plain);
    expect(text).not.toMatch(ANSI);
    expectGolden(`init-${name}`, `${text}\n`);
  });
});
