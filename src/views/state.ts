// `netform state list` and `state show`: the addresses the state records, and one object as recorded;
// `state rekey`: what it rewrote; `state ddl`: the postgres backend's SQL, as a DBA runs it.

import type { BackendDdl, Rekeyed } from "../engine/index.js";
import type { ResourceState, StateFile, StoredVersion } from "../state/index.js";
import type { Output } from "./output.js";

export function renderStateList(output: Output, state: StateFile): void {
  const addresses = Object.keys(state.resources).sort();
  if (addresses.length === 0) {
    output.err("The state is empty.");
    return;
  }
  for (const a of addresses) {
    const r = state.resources[a]!;
    output.out(r.pending ? `${a}  ${output.c.yellow(`(${r.pending.operation} pending)`)}` : a);
  }
}

export function renderStateResource(output: Output, address: string, resource: ResourceState): void {
  const { c } = output;
  output.out(`${c.bold(`# ${address}`)}`);
  output.out(`kind: ${resource.kind}`);
  output.out(`id: ${resource.id ?? "(not known yet)"}`);
  if (resource.parent) output.out(`parent: ${resource.parent}`);
  if (resource.dependencies.length) output.out(`depends on: ${resource.dependencies.join(", ")}`);
  if (resource.pending) output.out(c.yellow(`pending: ${resource.pending.operation} started ${resource.pending.startedAt}`));
  const secrets = Object.keys(resource.sensitiveHashes);
  if (secrets.length) output.out(`secrets (stored as keyed hashes only): ${secrets.join(", ")}`);
  output.out("attributes:");
  output.out(
    JSON.stringify(resource.attributes, null, 2)
      .split("\n")
      .map((l) => `  ${l}`)
      .join("\n"),
  );
}

/** `show` without a plan: every recorded object, as text or as a markdown table. */
export function renderStateText(state: StateFile, format: "text" | "markdown", c: Output["c"]): string {
  const addresses = Object.keys(state.resources).sort();
  if (format === "markdown") {
    const rows = addresses.map((a) => {
      const r = state.resources[a]!;
      return `| \`${a}\` | ${r.kind} | ${r.id ? `\`${r.id}\`` : "(pending)"} |`;
    });
    return [`### netform state: ${addresses.length} objects (serial ${state.serial})`, "", "| address | kind | id |", "|---|---|---|", ...rows].join("\n");
  }
  const lines = addresses.map((a) => {
    const r = state.resources[a]!;
    return `${c.bold(a)}  ${c.dim(r.id ?? "(create pending)")}${r.pending ? c.yellow(`  ${r.pending.operation} pending`) : ""}`;
  });
  return [...lines, c.dim(`${addresses.length} objects, state serial ${state.serial}, lineage ${state.lineage}`)].join("\n");
}

/** `show --format json` without a plan: the state document (it never holds a secret). */
export const renderStateDocument = (state: StateFile): string => JSON.stringify(state, null, 2);

/** `netform state history`: the versions a backend keeps, newest first. */
export function renderStateHistory(output: Output, versions: readonly StoredVersion[]): void {
  if (versions.length === 0) {
    output.err("The backend keeps no version of this state yet.");
    return;
  }
  output.out(output.c.bold("SERIAL  WRITTEN                   BY                    LINEAGE"));
  for (const v of versions) output.out(`${String(v.serial).padEnd(6)}  ${v.writtenAt.padEnd(24)}  ${(v.writtenBy ?? "").padEnd(20)}  ${v.lineage}`);
}

/** Plain SQL on standard output, for `psql -f -`: comments say what each part is for. */
export function renderBackendDdl(output: Output, ddl: BackendDdl): void {
  output.out(`-- netform's schema and tables for the postgres backend (schema ${ddl.schema}). Run as a user that may create`);
  output.out("-- them (the database's owner); the runners' configuration then says createTables: false.");
  for (const statement of ddl.statements) output.out(`${statement};`);
  if (ddl.grants.length === 0) return;
  output.out("-- The rights of the role netform runs as: data rights on these tables, nothing more.");
  for (const grant of ddl.grants) output.out(`${grant};`);
}

/** What `state rekey` did to the state, and to the earlier versions the backend keeps. */
export function renderRekeyed(output: Output, rekeyed: Rekeyed): void {
  const { from, to, serial, history } = rekeyed;
  output.out(`Rewrote the state as serial ${serial}: ${from ? `was encrypted with key ${from}` : "was not encrypted"}, now ${to ? `encrypted with key ${to}` : "not encrypted"}.`);
  const versions = (n: number) => `${n} earlier version${n === 1 ? "" : "s"}`;
  if ("pruned" in history) output.out(`Removed ${versions(history.pruned)} the backend kept: only the current version is left.`);
  else if ("resealed" in history) output.out(`Rewrote ${versions(history.resealed)} the backend keeps ${to ? `with key ${to}` : "unencrypted"}; every version it keeps is now ${to ? "sealed with that key" : "in clear"}.`);
  else output.out("The backend's server keeps its own earlier versions, which netform cannot reach: they stay as they were written, until removed there.");
}
