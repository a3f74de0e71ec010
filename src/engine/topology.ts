// The whole network for `netform graph --topology`, from the configuration and what the state records:
// a declared object the state does not hold yet is added, one the state holds and the configuration no
// longer declares is removed, the rest as they are. No API call: endpoints come from the references the
// configuration writes, and from the uuids the state records.

import { formatPath, type Configuration } from "../config/index.js";
import { buildTopology, type Topology, type TopologyObject } from "../plan/topology.js";
import type { StateFile } from "../state/index.js";

export function configurationTopology(config: Configuration, state: StateFile | undefined): Topology {
  const recorded = state?.resources ?? {};
  const objects: TopologyObject[] = [...config.resources.values()].map((r) => {
    const prior = recorded[r.address];
    return {
      address: r.address,
      kind: r.kind,
      status: prior ? "unchanged" : "added",
      body: r.spec,
      ...(prior?.id ? { id: prior.id } : {}),
      dependencies: r.dependencies,
      references: new Map(r.references.map((ref) => [formatPath(ref.path), ref.address])),
    };
  });
  for (const [address, prior] of Object.entries(recorded)) {
    if (config.resources.has(address as `${string}.${string}`)) continue;
    objects.push({ address, kind: prior.kind, status: "removed", body: prior.attributes, ...(prior.id ? { id: prior.id } : {}), dependencies: prior.dependencies });
  }
  return buildTopology(objects, [...config.lookups.values()].map((l) => ({ address: l.address, kind: l.kind })));
}
