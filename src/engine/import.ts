// `netform import ADDR UUID`: adopt an object that exists on the service under an address the
// configuration declares, recording it in the state without changing it. The next plan shows what an
// apply would change to make it match the configuration.

import { NetformError } from "../diag/index.js";
import { configGraph, resourceAt } from "../config/index.js";
import { updatableBy } from "../plan/diff.js";
import { lookupFrom, resolveSpec } from "../plan/resolve.js";
import { isUnknownValue } from "../plan/values.js";
import type { ObjectRef } from "../kinds/index.js";
import type { Run } from "./run.js";
import { Recorder } from "./records.js";

export async function importObject(run: Run, address: string, id: string): Promise<ObjectRef> {
  const resource = resourceAt(run.config, address);
  if (!resource) {
    throw new NetformError({ code: "import.undeclared", message: `${address} is not declared in the configuration`, hint: `declare it first (its fields as the object has them), then run: netform import ${address} ${id}` });
  }
  const state = run.store.snapshot();
  const existing = state.resources[address];
  if (existing) {
    throw new NetformError({ code: "import.managed", message: `${address} is already managed (${existing.id ?? "create pending"})`, hint: `to manage another object under this address, first run: netform state rm ${address}` });
  }
  const owner = Object.entries(state.resources).find(([, r]) => r.kind === resource.kind && r.id === id);
  if (owner) throw new NetformError({ code: "import.duplicate", message: `${id} is already managed as ${owner[0]}`, hint: "an object can be managed under one address only" });

  const kind = run.session.kinds.get(resource.kind)!;
  let parent: string | undefined;
  if (kind.parentField) {
    const { spec } = resolveSpec(resource.spec, lookupFrom(state));
    const value = spec[kind.parentField];
    if (typeof value !== "string" || isUnknownValue(value)) {
      throw new NetformError({ code: "import.parent", message: `${address}: its ${kind.parentField} is not known yet`, hint: `import or apply the ${kind.parentField} it refers to first` });
    }
    parent = value;
  }
  const ref: ObjectRef = { id, ...(parent ? { parent } : {}) };
  const body = await kind.observe(run.session.ctx, ref);
  if (!body) throw new NetformError({ code: "import.missing", message: `there is no ${kind.noun} ${id}${parent ? ` under ${parent}` : ""} on the service`, hint: "check the uuid (and, for nested kinds, the parent the configuration names)" });
  const declared = { spec: resolveSpec(resource.spec, lookupFrom(state)).spec, fixed: (path: string) => !updatableBy(kind, path) };
  await new Recorder(run.store, run.hash).imported(resource, ref, body, configGraph(run.config).dependenciesOf(address).sort(), declared);
  // Stored before the import is said to be done.
  await run.store.flushAll();
  return ref;
}
