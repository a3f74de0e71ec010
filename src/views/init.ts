// What `netform init` found, said in a few lines: the configuration, the workspace, the backend and its
// state, the service and who it knows the client as, and the object each lookup found.

import type { InitReport } from "../engine/index.js";
import type { LookupResult } from "../plan/types.js";
import type { Colors } from "./output.js";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A lookup's object in a few words: its name and uuid where it has them, else its first scalar values. */
function foundText(lookup: LookupResult): string {
  const { name, uuid } = lookup.value;
  const named = [typeof name === "string" ? name : undefined, typeof uuid === "string" ? uuid : undefined].filter((x) => x !== undefined);
  if (named.length === 2) return `${named[0]} (${named[1]})`;
  if (named.length === 1) return named[0]!;
  const scalars = Object.entries(lookup.value).filter(([, v]) => ["string", "number", "boolean"].includes(typeof v));
  return scalars.slice(0, 3).map(([k, v]) => `${k}=${String(v)}`).join(", ") || "an object";
}

function backendLine(report: InitReport, c: Colors): string {
  const backend = report.backend;
  if (!backend) return `Backend:       ${c.yellow("not checked")} (--backend=false)`;
  const state = backend.state ? `state serial ${backend.state.serial}, ${plural(backend.state.resources, "object")}` : "no state yet: the first apply makes it";
  return `Backend:       ${backend.type}, ${backend.location} (${state})`;
}

function serviceLine(report: InitReport): string {
  const { service } = report;
  if (service.embedded) return "Service:       the embedded simulator (provider.endpoint: embedded), signed in with its demo client";
  if (!service.reached) return `Service:       ${service.endpoint}, not called: a ready token (NETFORM_TOKEN) is checked by the first request that needs it`;
  const who = service.credentials === "token" ? "a ready token (NETFORM_TOKEN)" : `client credentials${service.identity ? ` as ${service.identity}` : ""}`;
  return `Service:       ${service.endpoint}, reached, signed in with ${who}`;
}

export function renderInitReport(report: InitReport, c: Colors): string {
  const { configuration } = report;
  const lines = [
    `Configuration: valid, ${plural(configuration.resources, "resource")}, ${plural(configuration.lookups, "lookup")}, ${plural(configuration.outputs, "output")} in ${plural(configuration.files, "file")}`,
    `Workspace:     ${report.workspace}`,
    backendLine(report, c),
    serviceLine(report),
  ];
  if (report.lookups.length > 0) {
    lines.push("Lookups:");
    for (const lookup of report.lookups) lines.push(`  ${lookup.address} (${lookup.kind}): found ${foundText(lookup)}`);
  }
  lines.push("", `${c.green(c.bold("netform has been successfully initialized!"))} Run netform plan to see what would change.`);
  return lines.join("\n");
}
