// What `netform sim` prints when it starts: where it listens and the seeded credentials.

import { CLIENTS } from "../simulator/index.js";
import type { Output } from "./output.js";

export function renderSimulatorBanner(output: Output, info: { url: string; speed: number; dataFile?: string | undefined }): void {
  const { c } = output;
  output.out(`${c.bold("netform simulator")} listening on ${c.cyan(info.url)}`);
  output.out(`  speed x${info.speed}${info.dataFile ? `, world persisted in ${info.dataFile}` : ", world in memory"}`);
  output.out("  seeded credentials:");
  for (const [id, client] of Object.entries(CLIENTS)) {
    output.out(`    OAuth client ${c.bold(id)} / ${client.secret}, its user ${c.bold(client.principal.userName)} / ${client.userPassword} (password grant, with refresh tokens)`);
  }
  output.out(`    bare-metal API key ${c.bold("demo-metal-key")} (X-Auth-Token)`);
  output.out(`  control API: ${info.url}/__sim/health, /__sim/reset, /__sim/requests, /__sim/faults, /__sim/objects`);
  output.out(c.dim("  press Ctrl-C to stop"));
}
