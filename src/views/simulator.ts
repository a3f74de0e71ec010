// What `netform sim` prints when it starts: where it listens and the seeded credentials.

import type { Output } from "./output.js";

export interface SimulatorBanner {
  url: string;
  speed: number;
  dataFile?: string | undefined;
  /** The seeded OAuth clients, each with its user for the password grant. */
  clients: ReadonlyArray<{ id: string; secret: string; user: string; password: string }>;
}

export function renderSimulatorBanner(output: Output, info: SimulatorBanner): void {
  const { c } = output;
  output.out(`${c.bold("netform simulator")} listening on ${c.cyan(info.url)}`);
  output.out(`  speed x${info.speed}${info.dataFile ? `, world persisted in ${info.dataFile}` : ", world in memory"}`);
  output.out("  seeded credentials:");
  for (const client of info.clients) {
    output.out(`    OAuth client ${c.bold(client.id)} / ${client.secret}, its user ${c.bold(client.user)} / ${client.password} (password grant, with refresh tokens)`);
  }
  output.out(`    bare-metal API key ${c.bold("demo-metal-key")} (X-Auth-Token)`);
  output.out(`  control API: ${info.url}/__sim/health, /__sim/reset, /__sim/requests, /__sim/faults, /__sim/objects`);
  output.out(c.dim("  press Ctrl-C to stop"));
}
