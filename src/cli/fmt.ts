// `netform fmt [FILES...]`: rewrites configuration files in their canonical form (config/format.ts). With
// --check it only lists those that need it and exits 3 when any does, as terraform fmt -check does, for a
// pipeline to refuse them; --diff shows each change. It never reads the state nor calls the API, and never
// rewrites a file it cannot parse.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Command } from "commander";
import { fileProblem, NetformError, type Diagnostic } from "../diag/index.js";
import { formatConfigurationText, isConfigurationFile } from "../engine/index.js";
import { renderFmt, type FormattedFile } from "../views/index.js";
import { run } from "./program.js";

/** Exit code of --check when a file needs formatting: terraform fmt -check's. */
export const NEEDS_FORMATTING = 3;

interface FmtFlags {
  check?: boolean;
  diff?: boolean;
  recursive?: boolean;
}

const YAML_FILE = /\.ya?ml$/;

/** The files to format: those named, and in each directory named its configuration files (below it too, with -r). */
function filesOf(paths: readonly string[], recursive: boolean): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (recursive) walk(path);
      } else if (YAML_FILE.test(entry.name) && isConfigurationFile(readFileSync(path, "utf8"))) {
        files.push(path);
      }
    }
  };
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (e) {
      throw new NetformError({ code: "usage", message: `cannot read ${path}: ${fileProblem(e)}`, hint: "fmt takes configuration files and directories; the default is the current directory" });
    }
    if (isDirectory) walk(path);
    else files.push(path);
  }
  return [...new Set(files)];
}

export function registerFmt(program: Command): void {
  program
    .command("fmt [files...]")
    .option("--check", `change nothing: list the files that need formatting, and exit ${NEEDS_FORMATTING} when there are any`)
    .option("--diff", "show each change as a unified diff")
    .option("-r, --recursive", "also format the configuration files in subdirectories")
    .action(
      run(({ output }, paths: string[], flags: FmtFlags) => {
        const changed: FormattedFile[] = [];
        const problems: Diagnostic[] = [];
        for (const path of filesOf(paths.length > 0 ? paths : ["."], Boolean(flags.recursive))) {
          const file = relative(process.cwd(), path) || path;
          let before: string;
          try {
            before = readFileSync(path, "utf8");
          } catch (e) {
            problems.push({ severity: "error", code: "fmt.unreadable", file, message: `cannot read ${file}: ${fileProblem(e)}` });
            continue;
          }
          const formatted = formatConfigurationText(file, before);
          if (!formatted.ok) {
            for (const item of formatted.diagnostics) problems.push(item);
            continue;
          }
          if (formatted.text === before) continue;
          changed.push({ file, before, after: formatted.text });
          if (!flags.check) writeFileSync(path, formatted.text);
        }
        renderFmt(output, { changed, problems, check: Boolean(flags.check), diff: Boolean(flags.diff) });
        if (problems.length > 0) return 1;
        return flags.check && changed.length > 0 ? NEEDS_FORMATTING : 0;
      }),
    );
}
