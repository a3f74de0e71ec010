// Checks the service makes that netform makes first, at validate, at the place in the configuration: the
// simulator refuses the same (its own tests hold it to that), so a plan that passes them is not refused later.

import { expect, it } from "vitest";
import { netform, workspace } from "./cli.js";
import { CONFIG_HEADER, dcConnectionYaml } from "./service.js";

async function validate(yaml: string) {
  const ws = workspace(yaml);
  const result = await netform(["validate"], { cwd: ws.dir, env: { NO_COLOR: "1" } });
  return { code: result.code, output: result.stdout + result.stderr };
}

it("refuses a bandwidth of 0 Mbps at its place", async () => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("dc", 1401, 1402, 0)}`);
  expect(result.code).toBe(1);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +connections\.dc\.bandwidth +bandwidth must be 1 to 100000 Mbps/);
});

it("refuses a VLAN two declared connections take on one port, naming the first", async () => {
  const result = await validate(`${CONFIG_HEADER}connections:\n${dcConnectionYaml("first", 1501, 1502)}${dcConnectionYaml("second", 1501, 1503)}`);
  expect(result.code).toBe(1);
  expect(result.output).toMatch(/netform\.yaml:\d+:\d+ +connections\.second\.aSide\.accessPoint\.linkProtocol\.vlanTag +VLAN 1501 on this port is already taken by connections\.first/);
  expect(result.output).toMatch(/Invalid: 1 error/);
});
