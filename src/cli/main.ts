#!/usr/bin/env node
// netform's entry point: builds the program from one registration per verb and runs it.

import { createRequire } from "node:module";
import { registerApply } from "./apply.js";
import { registerCompletion } from "./completion.js";
import { registerDemo } from "./demo.js";
import { registerDrift } from "./drift.js";
import { registerFmt } from "./fmt.js";
import { registerGraph } from "./graph.js";
import { registerImport } from "./import.js";
import { registerPlan } from "./plan.js";
import { createProgram } from "./program.js";
import { registerSchema } from "./schema.js";
import { registerShow } from "./show.js";
import { registerSim } from "./sim.js";
import { registerForceUnlock, registerState } from "./state.js";
import { registerValidate } from "./validate.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = createProgram(version);
registerValidate(program);
registerFmt(program);
registerPlan(program);
registerApply(program);
registerDrift(program);
registerShow(program);
registerImport(program);
registerState(program);
registerGraph(program);
registerForceUnlock(program);
registerSim(program);
registerSchema(program);
registerDemo(program);
registerCompletion(program);

await program.parseAsync(process.argv);
