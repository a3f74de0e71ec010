// Refresh-only and drift as a Terraform user reads them: after an out-of-band change, a refresh-only plan
// shows each field the state would record and exits 2 under --detailed-exitcode; its apply says what it
// recorded; drift tells both who changed the service and what apply would change back.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { netform, simEnv, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml } from "./service.js";

const t = useSimulator({ speed: 500 });

const CONFIG = `${CONFIG_HEADER}connections:
${dcConnectionYaml("dc", 1600, 1600, 100)}`;

async function appliedThenChangedOutside() {
  const ws = workspace(CONFIG);
  const env = simEnv(t.url);
  expect((await netform(["apply", "--auto-approve"], { cwd: ws.dir, env })).code).toBe(0);
  const id = ws.state().resources["connections.dc"]!.id!;
  await t.call("PATCH", `/__sim/objects/${id}`, { body: { bandwidth: 200 } });
  return { dir: ws.dir, env, state: () => ws.state() };
}

describe("refresh-only", () => {
  it("shows each field the refresh would record, and exits 2 under --detailed-exitcode", async () => {
    const { dir, env, state } = await appliedThenChangedOutside();
    const serial = state().serial;
    const plan = await netform(["plan", "--refresh-only", "--detailed-exitcode"], { cwd: dir, env });
    expect(plan.code).toBe(2);
    expect(plan.stdout).not.toContain("No changes");
    expect(plan.stdout).toContain("# connections.dc has changed outside of netform");
    expect(plan.stdout).toMatch(/~ bandwidth\s+= 100 -> 200/);
    expect(plan.stdout).toContain("Refresh-only plan: 1 to update in the state");
    expect(state().serial).toBe(serial);

    const json = JSON.parse((await netform(["plan", "--refresh-only", "--format", "json"], { cwd: dir, env })).stdout);
    expect(json.drifted).toEqual(["connections.dc"]);
    expect(json.resourceChanges[0]).toMatchObject({ address: "connections.dc", actions: ["no-op"], changes: [expect.objectContaining({ path: "bandwidth", before: 100, after: 200 })] });
  });

  it("says what apply --refresh-only recorded, and records nothing when nothing changed", async () => {
    const { dir, env, state } = await appliedThenChangedOutside();
    const applied = await netform(["apply", "--refresh-only", "--auto-approve"], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("updated in the state: connections.dc");
    expect(state().resources["connections.dc"]!.attributes.bandwidth).toBe(200);

    const serial = state().serial;
    const again = await netform(["apply", "--refresh-only", "--auto-approve"], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes. The state matches the service.");
    expect(state().serial).toBe(serial);
  });
});

describe("drift", () => {
  it("reports both who changed the service and, once a refresh-only recorded it, what apply would change back", async () => {
    const { dir, env } = await appliedThenChangedOutside();
    const before = JSON.parse((await netform(["drift", "--format", "json"], { cwd: dir, env })).stdout);
    expect(before.entries).toEqual([expect.objectContaining({ address: "connections.dc", status: "changed", differsFromConfiguration: true, fields: [{ path: "bandwidth", before: 100, after: 200 }] })]);

    expect((await netform(["apply", "--refresh-only", "--auto-approve"], { cwd: dir, env })).code).toBe(0);
    const after = await netform(["drift"], { cwd: dir, env });
    expect(after.code).toBe(2);
    expect(after.stdout).not.toContain("No drift");
    expect(after.stdout).toContain("connections.dc matches the state but not the configuration");
    expect(after.stdout).toContain("bandwidth: 200 -> 100");
    expect(after.stdout).toContain("netform apply would change it back to the configuration");
    const plan = await netform(["plan", "--detailed-exitcode"], { cwd: dir, env });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/~ bandwidth\s+= 200 -> 100/);
  });
});
