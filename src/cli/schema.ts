// `netform schema`: prints the JSON Schema of the configuration format (regenerate the committed copy with
// `netform schema > schemas/netform.schema.json`).

import type { Command } from "commander";
import { configurationSchemaText } from "../engine/index.js";
import { renderSchema } from "../views/index.js";
import { run } from "./program.js";

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .action(
      run(({ output }) => {
        renderSchema(output, configurationSchemaText());
        return 0;
      }),
    );
}
