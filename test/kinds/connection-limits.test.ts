// netform's plan-time bandwidth maximum of a connection, read from the metros the service returns, held to
// the simulator's own rule (remoteVcBandwidthMax, which checkBandwidth applies to every order) for local
// connections and for each pair of connected metros: a bandwidth plan accepts is one the service accepts.

import { expect, it } from "vitest";
import { bandwidthMaximum } from "../../src/kinds/connections/service-limits.js";
import { remoteVcBandwidthMax } from "../../src/simulator/core/metros-data.js";
import { useSimulator } from "../support/sim.js";
import { useKindContext } from "./kind-harness.js";

const t = useSimulator();
const kindCtx = useKindContext(t);

it("gives the maximum the service enforces, for a local connection and for every connected metro", async () => {
  const disagreements: string[] = [];
  let pairs = 0;
  for (const code of ["DC", "SV", "LD", "SG", "SY"]) {
    const metro = await kindCtx.ctx.api.call<Record<string, unknown>>("GET", `/fabric/v4/metros/${code}`);
    const others = [code, ...(metro.connectedMetros as Array<{ code: string }>).map((m) => m.code)];
    for (const other of others) {
      pairs++;
      const plan = bandwidthMaximum(metro, other)?.max;
      if (plan !== remoteVcBandwidthMax(code, other)) disagreements.push(`${code}-${other}: netform ${String(plan)}, service ${remoteVcBandwidthMax(code, other)}`);
    }
  }
  expect(disagreements).toEqual([]);
  expect(pairs).toBeGreaterThan(20);
});

it("names which maximum it is", () => {
  const metro = { code: "DC", localVCBandwidthMax: 50000, connectedMetros: [{ code: "SV", remoteVCBandwidthMax: 10000 }] };
  expect(bandwidthMaximum(metro, "DC")).toEqual({ max: 50000, scope: "a local connection in DC (localVCBandwidthMax)" });
  expect(bandwidthMaximum(metro, "SV")).toEqual({ max: 10000, scope: "a connection between DC and SV (remoteVCBandwidthMax)" });
  expect(bandwidthMaximum(metro, "TY")).toBeUndefined();
});
