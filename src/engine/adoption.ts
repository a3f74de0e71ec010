// Whether an object a lookup found may be adopted as the one a create made, when the create's outcome is
// unknown (a crash, a gateway's 502, a reset connection) or its record was lost. A name is not proof: another
// user, another pipeline or the portal may have made an object with the same name. Only an object that could
// be ours is adopted: created no earlier than our create began, by the identity we call the service as
// (where the service records its creator), agreeing on every field that cannot change in place, and held by
// no other address (the lookup already skips those).

import type { ConfigResource } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { provenanceOf, refKey } from "../kinds/common.js";
import type { Body, KindHandler, Observed } from "../kinds/index.js";
import { compareFields, notAdoptedText, type SecretHashes } from "../plan/diff.js";

export interface AdoptionWindow {
  /** When the create began (ISO 8601): an object created before it is not the one it made. */
  since: string;
  /** Who this run calls the service as; undefined when it cannot tell (a ready bearer token). */
  identity: string | undefined;
  /** The objects other addresses hold, by refKey. */
  owned: ReadonlySet<string>;
}

/** A hasher for which every secret matches: adoption leaves secrets out of the comparison. */
const SECRETS_NOT_COMPARED: SecretHashes = Object.assign(() => "", { matches: () => true });

/** Why `found` cannot be the object the create of `spec` made; undefined when it could be. */
export function whyNotOurs(kind: KindHandler, resource: Pick<ConfigResource, "secrets" | "lifecycle"> | undefined, spec: Body, found: Observed, window: AdoptionWindow): string | undefined {
  if (window.owned.has(refKey(found))) return "another address of the state holds it";
  const { createdAt, createdBy } = provenanceOf(found.body);
  if (createdAt !== undefined && Date.parse(createdAt) < Date.parse(window.since)) return `it was created at ${createdAt}, before this create began (${window.since})`;
  if (createdBy !== undefined && window.identity !== undefined && createdBy !== window.identity) return `it was created by ${createdBy}, not by ${window.identity}`;
  // Secrets are not compared: the service may not return them, and the lookup spec holds none. An address
  // no longer configured is deleted once adopted, whatever its fields: only when and by whom count then.
  if (!resource) return undefined;
  const differing = compareFields({ secrets: resource.secrets, lifecycle: { ...resource.lifecycle, ignoreChanges: [] } }, kind, spec, found.body, undefined, SECRETS_NOT_COMPARED)
    .changes.filter((c) => c.forcesReplacement && !c.sensitive && !c.unknown)
    .map((c) => c.path);
  if (differing.length > 0) return `its ${differing.join(", ")} differ${differing.length === 1 ? "s" : ""} from the configuration`;
  return undefined;
}

/** How a found object is named in messages: its name where it has one, and its id. */
export function describeFound(kind: KindHandler, found: Observed): string {
  const name = found.body.name ?? found.body.configName;
  return `${kind.noun} ${typeof name === "string" ? `"${name}" ` : ""}(${found.id})`;
}

/** The address cannot be resolved by netform alone: the one object found may belong to someone else. */
export function notAdopted(address: string, kind: KindHandler, found: Observed, why: string): NetformError {
  return new NetformError({ code: "apply.not-adopted", ...notAdoptedText(address, { id: found.id, description: describeFound(kind, found), why }) });
}
