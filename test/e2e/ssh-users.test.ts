// SSH users end to end, beyond the lifecycle row: a user on both devices of a running pair, changed in place
// (its password, a device more) without any change to the devices, and gone from the service once
// destroyed; and a device's own sshUsers, which the order reads once, never replacing the device, while an
// sshUsers resource adds a user to it.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace, type CliResult } from "./cli.js";
import { ACCOUNT, C8000V_DC_FIELDS, CONFIG_HEADER, idOf, out, runner } from "./service.js";

// Devices take minutes of simulated time: a fast clock.
const t = useSimulator({ speed: 2000 });

const SECRETS = { OPS_PASSWORD: "ops-first-Pw1", OPS_ROTATED: "ops-second-Pw2", AUDIT_PASSWORD: "audit-Pw3" };

const expectNoSecrets = (r: CliResult, stateText: string) => {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(`${r.stdout}\n${r.stderr}`.includes(value), `the output holds ${name}`).toBe(false);
    expect(stateText.includes(value), `the state holds ${name}`).toBe(false);
  }
};

const pairAndUser = (devices: string[], password = "OPS_PASSWORD") => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  edge:
${C8000V_DC_FIELDS}
    secondary:
      metroCode: DC
      notifications: [netops@example.com]
  branch:
${C8000V_DC_FIELDS}
sshUsers:
  ops:
    username: netops
    password: \${secret.${password}}
    deviceUuids: [${devices.map((d) => `"${d}"`).join(", ")}]
`;

const PAIR = ["${devices.edge.uuid}", "${devices.edge.redundantUuid}"];

describe("an SSH user on a running pair", () => {
  it("is made on both devices, changes in place with no change to any device, and is gone once destroyed", { timeout: 180_000 }, async () => {
    const ws = workspace(pairAndUser(PAIR));
    const base = runner(t, ws, SECRETS);
    const run = async (...args: string[]) => {
      const result = await base(...args);
      expectNoSecrets(result, ws.stateText());
      return result;
    };

    const created = await run("apply", "--auto-approve");
    expect(created.code, out(created)).toBe(0);
    expect(created.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 replaced, 0 destroyed.");
    const [edge, branch, user] = [idOf(ws, "devices.edge"), idOf(ws, "devices.branch"), idOf(ws, "sshUsers.ops")];
    const secondary = (await t.call("GET", `/ne/v1/devices/${edge}`)).body.redundantUuid as string;
    const read = async () => (await t.call("GET", `/ne/v1/sshUsers/${user}`)).body;
    expect(await read()).toMatchObject({ uuid: user, username: "netops", metroStatusMap: { DC: { status: "ACTIVE" } } });
    expect(((await read()).deviceUuids as string[]).sort()).toEqual([edge, secondary].sort());
    const clean = await run("plan", "--detailed-exitcode");
    expect(clean.code, out(clean)).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    // A new password: the user changes in place, the devices do not.
    ws.write(pairAndUser(PAIR, "OPS_ROTATED"));
    const rotated = await run("plan", "--detailed-exitcode");
    expect(rotated.code, out(rotated)).toBe(2);
    expect(rotated.stdout).toContain("# sshUsers.ops will be updated in place");
    expect(rotated.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    expect(rotated.stdout).not.toMatch(/# devices\./);
    await t.call("DELETE", "/__sim/requests");
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const putCalls = ((await t.call("GET", "/__sim/requests")).body as Array<{ method: string; path: string }>).filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth2"));
    expect(putCalls.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /ne/v1/sshUsers/${user}`]);
    expect(t.sim.world.get(user, "sshUsers")!.meta.password).toBe(SECRETS.OPS_ROTATED);

    // A device more: associated in place, and no device is touched.
    ws.write(pairAndUser([...PAIR, "${devices.branch.uuid}"], "OPS_ROTATED"));
    const added = await run("plan", "--detailed-exitcode");
    expect(added.code, out(added)).toBe(2);
    expect(added.stdout).toContain("# sshUsers.ops will be updated in place");
    expect(added.stdout).toContain("0 to add, 1 to change, 0 to replace, 0 to destroy");
    expect(added.stdout).not.toMatch(/# devices\./);
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    expect(((await read()).deviceUuids as string[]).sort()).toEqual([edge, secondary, branch].sort());
    expect([idOf(ws, "devices.edge"), idOf(ws, "devices.branch"), idOf(ws, "sshUsers.ops")]).toEqual([edge, branch, user]);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    const destroyed = await run("destroy", "--auto-approve");
    expect(destroyed.code, out(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain("Destroy complete! Resources: 3 destroyed.");
    expect((await t.call("GET", `/ne/v1/sshUsers/${user}`)).status).toBe(404);
    expect((await t.call("GET", "/ne/v1/sshUsers?username=netops")).body.data).toEqual([]);
  });
});

const orderedWithUsers = (users: string[], extra = "") => `${CONFIG_HEADER}  accountNumber: ${ACCOUNT}
devices:
  edge:
${C8000V_DC_FIELDS}
    sshUsers: [${users.map((u) => `{ sshUsername: ${u}, sshPassword: "\${secret.OPS_PASSWORD}" }`).join(", ")}]
${extra}`;

const AUDIT = `sshUsers:
  audit:
    password: \${secret.AUDIT_PASSWORD}
    deviceUuids: ["\${devices.edge.uuid}"]
`;

describe("a device's own sshUsers", () => {
  it("are read by the order alone: a user added there replaces nothing and points to sshUsers, which adds it in place", { timeout: 180_000 }, async () => {
    const ws = workspace(orderedWithUsers(["netops"]));
    const base = runner(t, ws, SECRETS);
    const run = async (...args: string[]) => {
      const result = await base(...args);
      expectNoSecrets(result, ws.stateText());
      return result;
    };
    expect((await run("apply", "--auto-approve")).code).toBe(0);
    const edge = idOf(ws, "devices.edge");
    expect((await t.call("GET", "/ne/v1/sshUsers?username=netops")).body.data).toEqual([expect.objectContaining({ deviceUuids: [edge] })]);
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);

    ws.write(orderedWithUsers(["netops", "audit"]));
    const warned = await run("plan", "--detailed-exitcode");
    expect(warned.code, out(warned)).toBe(0);
    expect(warned.stdout).toContain("No changes.");
    expect(warned.stderr).toMatch(/devices\.edge\.sshUsers {2}warning: sshUsers changed, but the service reads it only when the object is made/);
    expect(warned.stderr).toContain("SSH users are sshUsers resources");
    expect(warned.stderr).not.toContain("--replace devices.edge");

    // As the warning says: the device's list as it was ordered, and a resource for the new user.
    ws.write(orderedWithUsers(["netops"], AUDIT));
    const plan = await run("plan", "--detailed-exitcode");
    expect(plan.code, out(plan)).toBe(2);
    expect(plan.stdout).toContain("+ sshUsers.audit");
    expect(plan.stdout).toContain("1 to add, 0 to change, 0 to replace, 0 to destroy");
    expect(plan.stdout).not.toMatch(/# devices\.edge/);
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, out(applied)).toBe(0);
    expect(applied.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 replaced, 0 destroyed.");
    expect(idOf(ws, "devices.edge")).toBe(edge);
    expect((await t.call("GET", `/ne/v1/sshUsers/${idOf(ws, "sshUsers.audit")}`)).body).toMatchObject({ username: "audit", deviceUuids: [edge] });
    expect((await run("plan", "--detailed-exitcode")).code).toBe(0);
  });
});
