// The run's hold on the state lock. Another run may take the lock away (force-unlock) while this one is
// paused or slow; from then on the backend refuses every write this one makes (each names its lock). The
// fence is asked right before every change to the service, and told of every refusal: once the lock is
// lost, the run stops as on an interrupt (no step starts, waits end, calls already sent are answered),
// writes nothing more, and ends saying what it created (with the commands to import it) and what the
// state does not record: the state now belongs to the run that took the lock, and is never overwritten.

import { NetformError } from "../diag/index.js";
import { isLockLost, type HeldLock, type StateStore, type UnsavedResource } from "../state/index.js";

export class RunFence {
  private readonly stop = new AbortController();
  private lostBy: NetformError | undefined;
  /** Per address, the ID of an object this run created. */
  private readonly createdIds = new Map<string, string>();
  /** The backend's answer on its way, which the changes that ask meanwhile share. */
  private asking: Promise<void> | undefined;

  constructor(private readonly lock: HeldLock) {}

  /** Aborted once the lock is lost. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** The backend's refusal, once the lock is lost. */
  get lost(): NetformError | undefined {
    return this.lostBy;
  }

  /**
   * Right before a change to the service: rejects, and stops the run, once the lock is not this run's.
   * Changes go out side by side, and the backend's answer is the same for all that ask while it is on its
   * way: they share it, and so do those that ask in the same turn of the event loop once it came (a wave
   * of answers releases many changes at once). One question, not one per change: a file's stat (local), a
   * query on the lock's session, which answers one at a time (postgres), a LOCK request (http).
   */
  check(): Promise<void> {
    if (this.lostBy) return Promise.reject(this.lostBy);
    this.asking ??= this.ask().finally(() => setImmediate(() => (this.asking = undefined)));
    return this.asking;
  }

  private async ask(): Promise<void> {
    try {
      await this.lock.check();
    } catch (error) {
      this.notice(error);
      throw error;
    }
  }

  /** Stops the run when `error` is a backend's refusal of a lock no longer this run's. */
  notice(error: unknown): void {
    if (this.lostBy || !isLockLost(error)) return;
    this.lostBy = error;
    this.stop.abort(error);
  }

  /** The service accepted a create of this run's: named in the report, should the lock be lost. */
  created(address: string, id: string): void {
    this.createdIds.set(address, id);
  }

  /**
   * How the run ends once the lock is lost: the refusal; the objects this run created, each with its
   * import command, for the state another run writes now may not record them; and what this run did
   * that the state it last stored does not record.
   */
  report(store: StateStore): NetformError {
    const lost = this.lostBy!;
    const created = [...this.createdIds];
    const unsaved = store.unsaved();
    const unstored = new Set(unsaved.map((u) => u.address));
    const unrecorded = unsaved.filter((u) => !this.createdIds.has(u.address)).flatMap(describe);
    const said = [
      `${lost.message}. This run stopped before its next change to the service and wrote nothing more to the state.`,
      created.length > 0 ? `It created: ${created.map(([address, id]) => `${address} (${id}${unstored.has(address) ? ", not in the state it last stored" : ""})`).join("; ")}.` : "It created nothing.",
      ...(unrecorded.length > 0 ? [`The state it last stored does not record either: ${unrecorded.join("; ")}.`] : []),
    ];
    const imports = created.map(([address, id]) => `netform import ${address} ${id}`).join("; ");
    return new NetformError({
      code: lost.code,
      message: said.join(" "),
      hint:
        created.length > 0
          ? `once no other run holds the lock, run netform state list: an object above that it does not list is on the service and tracked by no state; import it (${imports}) before the next apply creates it again`
          : "once no other run holds the lock, run netform plan: it starts from the state as the other run left it",
    });
  }
}

/** A resource the state does not record as this run left it; nothing for one whose call was never sent. */
function describe({ address, resource }: UnsavedResource): string[] {
  if (!resource) return [`${address} (gone from the service)`];
  if (!resource.id) return [];
  const under = resource.pending ? `, its ${resource.pending.operation} under way` : "";
  return [`${address} (${resource.id}${under})`];
}
