#!/usr/bin/env node
// netform's entry point: builds the program from one registration per verb and runs it.

import { createRequire } from "node:module";
import { createProgram } from "./program.js";
import { registerDemo } from "./demo.js";
import { registerSchema } from "./schema.js";
import { registerSim } from "./sim.js";
import { registerValidate } from "./validate.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = createProgram(version);
registerSim(program);
registerValidate(program);
registerSchema(program);
registerDemo(program);

await program.parseAsync(process.argv);
