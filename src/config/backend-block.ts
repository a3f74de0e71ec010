// Switching a configuration to another backend (`state migrate`): the backend block set in the file
// that holds it (else the first file), the rest of that file, comments included, kept as it was. The
// block is written as the user gave it, so an ${env.NAME} in it stays an expression, never its value.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseDocument } from "yaml";

function configurationFiles(path: string): string[] {
  const absolute = resolve(path);
  if (!statSync(absolute).isDirectory()) return [absolute];
  return readdirSync(absolute)
    .filter((n) => /\.ya?ml$/.test(n) && !n.startsWith("."))
    .sort()
    .map((n) => join(absolute, n));
}

/** Sets the configuration's backend block to `block` (YAML, or `local`); returns the file written. */
export function writeBackendBlock(configPath: string, block: string): string {
  const documents = configurationFiles(configPath).map((file) => ({ file, doc: parseDocument(readFileSync(file, "utf8")) }));
  const target = documents.find(({ doc }) => doc.has("backend")) ?? documents[0];
  if (!target) throw new Error(`no configuration file in ${configPath}`);
  target.doc.set("backend", parseDocument(block.trim() === "local" ? "{ local: {} }" : block).contents);
  writeFileSync(target.file, target.doc.toString());
  return target.file;
}
