// `netform sim`: runs the embedded simulator in the foreground until interrupted.

import type { Command } from "commander";
import { NetformError } from "../diag/index.js";
import type { SimulatorOptions } from "../simulator/index.js";
import { run } from "./program.js";

interface SimFlags {
  host: string;
  port: string;
  data?: string;
  speed: string;
  seed: string;
  faults?: string;
}

function number(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) {
    throw new NetformError({ code: "usage", message: `${flag} must be a number of at least ${min}, got "${value}"`, hint: `e.g. ${flag} ${Math.max(min, 1)}` });
  }
  return n;
}

export function registerSim(program: Command): void {
  program
    .command("sim")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 picks a free one)", "8787")
    .option("--data <file>", "persist the simulated world in FILE and continue from it on the next start")
    .option("--speed <x>", "divide every transition's duration by X (e.g. 60: a minute takes a second)", "1")
    .option("--seed <n>", "seed for identifiers and fault dice", "1")
    .option("--faults <spec>", "inject faults, e.g. errorRate=0.2,seed=7 or rateLimit.every=5,rateLimit.retryAfterS=1")
    .action(
      run(async ({ output }, flags: SimFlags) => {
        // Loaded only for this command: other commands should not pay for the simulator at start-up.
        const { CLIENTS, parseFaultSpec, startSimulator } = await import("../simulator/index.js");
        const { renderSimulatorBanner } = await import("../views/simulator.js");
        const options: SimulatorOptions = {
          host: flags.host,
          port: number(flags.port, "--port", 0),
          speed: number(flags.speed, "--speed", Number.MIN_VALUE),
          seed: number(flags.seed, "--seed", 0),
          ...(flags.data ? { dataFile: flags.data } : {}),
        };
        if (flags.faults) {
          try {
            options.faults = parseFaultSpec(flags.faults);
          } catch (e) {
            throw new NetformError({ code: "usage", message: `--faults: ${(e as Error).message}`, hint: "e.g. --faults errorRate=0.2,seed=7" });
          }
        }
        let sim;
        try {
          sim = await startSimulator(options);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === "EADDRINUSE") throw new NetformError({ code: "sim.port", message: `port ${flags.port} on ${flags.host} is already in use`, hint: "choose another with --port, or --port 0 for a free one" });
          throw e;
        }
        const clients = Object.entries(CLIENTS).map(([id, client]) => ({ id, secret: client.secret, user: client.principal.userName, password: client.userPassword }));
        renderSimulatorBanner(output, { url: sim.url, speed: options.speed ?? 1, dataFile: flags.data, clients });
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        await sim.close();
        return 0;
      }),
    );
}
