// The sandbox's event log: every state change, in order, with a monotonic sequence number.
// Every change is a named event applied through ctx.apply (context.ts), which records it here;
// nothing else is logged and nothing is found by comparing states. `commit` appends the batch
// to disk (fsync) before the caller answers, and hands it to in-process subscribers (the
// socket.io streams are projections of this log).
import type { StateStore } from './store.js';
import type { SandboxState } from './types.js';
import type { LogEntry, StateEvent } from './events.js';

export type LogListener = (e: LogEntry) => void;

export class EventLog {
  private pending: LogEntry[] = [];
  private recent: LogEntry[] = [];
  private readonly listeners = new Set<LogListener>();

  /**
   * @param seq the last sequence number already in the log
   * @param store the data dir, or null for an in-memory sandbox
   * @param state the live state the events were applied to (the store snapshots it)
   * @param keep how many recent events stay in memory for subscribe(fromSeq)
   */
  constructor(
    public seq: number,
    private readonly store: StateStore | null,
    private readonly state: () => SandboxState,
    private readonly keep = 50_000,
    history: readonly LogEntry[] = [],
  ) {
    this.recent = history.slice(-keep);
  }

  /** Queues an event that has just been applied to the live state. */
  record(ev: StateEvent): void {
    this.seq += 1;
    this.pending.push({ ...ev, seq: this.seq } as LogEntry);
  }

  /**
   * Commits everything recorded since the last call: appends it to disk with fsync (when
   * persistent), then tells subscribers. Returns the committed entries.
   */
  commit(): LogEntry[] {
    if (this.pending.length === 0) return [];
    const batch = this.pending;
    // A failed append (disk full…) throws to the caller, which answers 5xx; the events stay
    // queued in order and go out with the next commit, so the log never skips one.
    this.store?.append(batch, this.state());
    this.pending = [];
    for (const e of batch) this.recent.push(e);
    if (this.recent.length > this.keep * 1.5) this.recent = this.recent.slice(-this.keep);
    for (const e of batch)
      for (const fn of this.listeners) {
        try {
          fn(e);
        } catch {
          // a subscriber's failure is its own
        }
      }
    return batch;
  }

  /** The committed entries with seq ≥ fromSeq still held in memory. */
  since(fromSeq: number): LogEntry[] {
    const first = this.recent[0]?.seq ?? this.seq + 1;
    if (fromSeq < first && fromSeq <= this.seq)
      throw new RangeError(`events before seq ${first} are no longer in memory (they are in the snapshot)`);
    return this.recent.filter((e) => e.seq >= fromSeq);
  }

  /** Calls `cb` with every committed entry from `fromSeq` on (history first, then live). */
  subscribe(fromSeq: number, cb: LogListener): () => void {
    for (const e of this.since(fromSeq)) cb(e);
    const fn: LogListener = (e) => {
      if (e.seq >= fromSeq) cb(e);
    };
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
