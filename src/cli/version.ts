// `netform version`, as `terraform version`: the version with the platform and the Node.js release that run
// it, as text or as one JSON object (`--json`, as `output` and `cost` take it). `--version` prints the bare
// number, for scripts that compare it.

import type { Command } from "commander";
import { renderVersion } from "../views/index.js";
import { run } from "./program.js";

export function registerVersion(program: Command): void {
  program
    .command("version")
    .option("--json", "one JSON object: version, platform, node")
    .action(
      run(({ output }, flags: { json?: boolean }) => {
        const info = { version: program.version() ?? "", platform: `${process.platform}_${process.arch}`, node: process.versions.node };
        renderVersion(output, info, flags.json ? "json" : "text");
        return 0;
      }),
    );
}
