// The one writer of state records, and the owner of the crash-safety protocol (DESIGN.md): before every
// mutating call a `pending` record says what is being attempted; the answer is recorded as soon as it is
// known (accepted: the id), and the record settles (pending cleared) once the object is ready. A refused
// create puts back what was recorded before; a create-before-destroy replacement deposes the old object
// while its successor is made. Apply, import and refresh-only all record through here, so an interrupted
// run always leaves what the next run needs to finish without creating anything twice.
//
// What crash safety needs stored before the run goes on is stored `now`: a pending record before its
// call, a refusal that puts a record back, a move. The rest — an answer, a settled object, a removal, what
// the service reports — the next run can learn again from the service, led there by the pending record:
// it is stored `later` (StateStore), which on a backend that keeps every write saves a version per step.

import type { ConfigResource, SecretPaths } from "../config/index.js";
import type { Body, ObjectRef, Operation } from "../kinds/index.js";
import { hashesUnder } from "../plan/index.js";
import type { LookupState, OutputState, ResourceState, StateStore } from "../state/index.js";
import { NEVER_APPLIED, scrubbed } from "./secrets.js";
import { withSample } from "./transition-times.js";

export { NEVER_APPLIED } from "./secrets.js";

/** Where a create-before-destroy replacement keeps the object it replaces until that one is deleted. */
export const deposedAddress = (address: string): string => `${address}~deposed`;

/** What a create put aside, so that a refusal can put it back. */
export interface CreateBegun {
  before: ResourceState | undefined;
}

const now = () => new Date().toISOString();
const refOf = (ref: ObjectRef) => ({ id: ref.id, ...(ref.parent ? { parent: ref.parent } : {}) });

export class Recorder {
  /** `hash` keys the secret hashes of settled records; a recorder that only forgets needs none. */
  constructor(
    private readonly store: StateStore,
    private readonly hash: (value: unknown) => string = () => {
      throw new Error("this recorder records no secrets");
    },
  ) {}

  recorded(address: string): ResourceState | undefined {
    return this.store.resource(address);
  }

  /** When the change under way at `address` began, as its pending record says. */
  pendingSince(address: string): string | undefined {
    return this.store.peek(address)?.pending?.startedAt;
  }

  /**
   * Before a create: the pending record, with what the object can be found by (its spec, secrets removed),
   * written before the call so that a run that dies before the answer lets the next one look it up, and the
   * hashes of the secrets sent, so that an object adopted that way is waited for rather than updated again.
   * With `depose`, the object it replaces is set aside first.
   */
  async beginCreate(resource: ConfigResource, spec: Body, dependencies: string[], depose: boolean): Promise<CreateBegun> {
    const address = resource.address;
    const old = this.store.resource(address);
    if (depose && old) {
      await this.store.update(
        (s) => {
          s.resources[deposedAddress(address)] = old;
          delete s.resources[address];
        },
        [address, deposedAddress(address)],
      );
    }
    const before = this.store.resource(address);
    await this.store.setResource(address, {
      kind: resource.kind,
      attributes: {},
      sensitiveHashes: resource.secrets.hashes(spec, this.hash),
      dependencies,
      pending: { operation: "create", startedAt: now(), lookup: scrubbed(spec, resource.secrets) },
    });
    return { before };
  }

  /**
   * The service refused the create: nothing was made, so what was recorded before comes back (for a
   * create-before-destroy replacement, the deposed object is current again).
   */
  async refused(address: string, begun: CreateBegun): Promise<void> {
    const deposed = this.store.resource(deposedAddress(address));
    await this.store.update(
      (s) => {
        delete s.resources[address];
        if (begun.before) s.resources[address] = begun.before;
        else if (deposed) {
          s.resources[address] = deposed;
          delete s.resources[deposedAddress(address)];
        }
      },
      [address, deposedAddress(address)],
    );
  }

  /** The service accepted a create (or an update): the object as it answered, still pending `operation`. */
  accepted(resource: ConfigResource, ref: ObjectRef, body: Body, spec: Body, dependencies: string[], operation: Operation): Promise<void> {
    return this.store.setResource(
      resource.address,
      {
        ...this.observedRecord(resource, ref, body, spec, dependencies),
        pending: { operation, startedAt: now() },
      },
      "later",
    );
  }

  /** The object is ready: recorded as the service reports it, with the hashes of the secrets sent, nothing pending. */
  settled(resource: ConfigResource, ref: ObjectRef, body: Body, spec: Body, dependencies: string[]): Promise<void> {
    return this.store.setResource(resource.address, this.observedRecord(resource, ref, body, spec, dependencies), "later");
  }

  /** Before an update or a delete of an object the state records. */
  async begin(address: string, operation: "update" | "delete"): Promise<ResourceState> {
    const recorded = this.store.resource(address);
    if (!recorded?.id) throw new Error(`${address} has no recorded id`);
    await this.store.setResource(address, { ...recorded, pending: { operation, startedAt: now() } });
    return recorded;
  }

  /** A transition an earlier run started has finished: the object as reported, nothing pending, hashes kept. */
  async caughtUp(address: string, body: Body | undefined, secrets: SecretPaths): Promise<void> {
    const recorded = this.store.resource(address);
    if (!recorded) return;
    await this.store.setResource(address, { ...recorded, attributes: scrubbed(body ?? recorded.attributes, secrets), pending: undefined }, "later");
  }

  /**
   * What the service reports now, for an object the state records (refresh-only, or a create an earlier
   * run left unfinished that the refresh found): pending kept, hashes kept.
   */
  async observed(address: string, found: ObjectRef & { body: Body }, secrets: SecretPaths): Promise<void> {
    const recorded = this.store.resource(address);
    if (!recorded) return;
    await this.store.setResource(address, { ...recorded, ...refOf(found), attributes: scrubbed(found.body, secrets) }, "later");
  }

  /**
   * An object adopted as it is (import): until netform applies them, its secrets are unknown, so they are
   * recorded as never applied, and the next plan sends them. A secret no call can change (`fixed`: a licence
   * token, an upload's content) is recorded as declared instead: sending it would replace the very object
   * just adopted.
   */
  imported(resource: ConfigResource, ref: ObjectRef, body: Body, dependencies: string[], declared: { spec: Body; fixed(path: string): boolean }): Promise<void> {
    const hashes = resource.secrets.hashes(declared.spec, this.hash);
    for (const path of Object.keys(hashes)) if (!declared.fixed(path)) hashes[path] = NEVER_APPLIED;
    return this.store.setResource(
      resource.address,
      {
        kind: resource.kind,
        ...refOf(ref),
        attributes: scrubbed(body, resource.secrets),
        sensitiveHashes: hashes,
        dependencies,
      },
      "later",
    );
  }

  /** Secret hashes corrected without any change on the service (reconciledHashes): saved with the next write. */
  rehashed(address: string, sensitiveHashes: Record<string, string>): void {
    this.store.amend((s) => {
      const recorded = s.resources[address];
      if (recorded) recorded.sensitiveHashes = { ...sensitiveHashes };
    });
  }

  /**
   * How long the service took to finish an operation on an object (by its timing key: its kind, or its
   * kind's variant), folded into the state's
   * learned times (transition-times.ts); saved with the step's own record, which follows at once.
   */
  timed(key: string, operation: Operation, seconds: number): void {
    this.store.amend((s) => {
      const ofKind = ((s.timings ??= {})[key] ??= {});
      ofKind[operation] = withSample(ofKind[operation], seconds);
    });
  }

  /** The object is gone (deleted, or a create that never reached the service): the record goes. */
  forget(address: string): Promise<void> {
    return this.store.removeResource(address, "later");
  }

  /**
   * The object keeps its id under another address (a `moved` block, `state mv`): nothing on the service
   * changes. The records that depend on it name the new address, so that deletes stay ordered.
   */
  moved(from: string, to: string): Promise<void> {
    return this.store.update((s) => {
      const recorded = s.resources[from];
      if (!recorded) return;
      delete s.resources[from];
      s.resources[to] = recorded;
      for (const other of Object.values(s.resources)) other.dependencies = other.dependencies.map((d) => (d === from ? to : d));
    });
  }

  /** The outputs as this apply leaves them, replacing those of the last one. */
  outputs(values: Readonly<Record<string, OutputState>>): Promise<void> {
    return this.store.update(
      (s) => {
        s.outputs = { ...values };
      },
      undefined,
      "later",
    );
  }

  /** The lookups' values this apply works from, replacing those of the last one. */
  lookups(values: Readonly<Record<string, LookupState>>): Promise<void> {
    return this.store.setLookups(values, "later");
  }

  private observedRecord(resource: ConfigResource, ref: ObjectRef, body: Body, spec: Body, dependencies: string[]): ResourceState {
    const recorded = this.store.peek(resource.address);
    // Write-only fields stay as they were sent when the object was made: an update does not send them.
    const made = !recorded || recorded.pending?.operation === "create";
    const writeOnlyHashes = made ? hashesUnder(spec, resource.writeOnly, this.hash) : recorded.writeOnlyHashes;
    return {
      kind: resource.kind,
      ...refOf(ref),
      attributes: scrubbed(body, resource.secrets),
      sensitiveHashes: resource.secrets.hashes(spec, this.hash),
      ...(writeOnlyHashes && Object.keys(writeOnlyHashes).length > 0 ? { writeOnlyHashes } : {}),
      dependencies,
    };
  }
}
