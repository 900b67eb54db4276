// The sandbox's event log: every state change, in order, with a monotonic sequence number.
// The trading path records its events as it commits them (reducer.commit → record); other
// collections (tokens, profiles, API keys, identity tokens, the server key) are compared at
// each commit and logged as whole-record "put" events by the same append path. `commit` then
// appends the batch to disk (fsync) before the caller answers, and hands it to in-process
// subscribers (the future socket.io streams are projections of this log).
import { attachRecorder, recordKey } from './reducer.js';
import { encode, slimProfile, slimToken, type StateStore } from './persist.js';
import type { LogEntry, PutCollection, SandboxState, StateEvent } from './types.js';

const COLLECTIONS: readonly PutCollection[] = ['profiles', 'tokens', 'apiKeys', 'identityTokens'];
const SCALARS = ['serverKey', 'nextProfileId'] as const;

export type LogListener = (e: LogEntry) => void;

/** A record as logged: no dev key, no derivable token secret. */
function logged(state: SandboxState, coll: PutCollection, rec: unknown): unknown {
  if (coll === 'tokens') return slimToken(state, rec as SandboxState['tokens'][number]);
  if (coll === 'profiles') return slimProfile(rec as SandboxState['profiles'][number]);
  return rec;
}

/** What a change is judged by: a token's lastUsedAt (set by every request) alone is no change. */
function fingerprint(coll: PutCollection, value: unknown): string {
  if (coll !== 'tokens') return encode(value);
  const { lastUsedAt: _volatile, ...rest } = value as Record<string, unknown>;
  return encode(rest);
}

/** A record's own fields as last checked (arrays of primitives copied), with its coll|key. */
interface Checked {
  fields: Record<string, unknown>;
  count: number;
  id: string;
}

/** A copy of the record's own fields, or null when one holds anything but a primitive or an array of them. */
function snapshot(rec: Record<string, unknown>): { fields: Record<string, unknown>; count: number } | null {
  const fields: Record<string, unknown> = {};
  let count = 0;
  for (const k in rec) {
    const v = rec[k];
    count++;
    if (v !== null && typeof v === 'object') {
      if (!Array.isArray(v) || v.some((x) => x !== null && typeof x === 'object')) return null;
      fields[k] = v.slice();
    } else fields[k] = v;
  }
  return { fields, count };
}

/** Are the record's own fields those of the snapshot? (No allocation: this runs for every record at every commit.) */
function unchanged(c: Checked, rec: Record<string, unknown>): boolean {
  let count = 0;
  for (const k in rec) {
    count++;
    const v = rec[k];
    const was = c.fields[k];
    if (v === was) continue;
    if (!Array.isArray(v) || !Array.isArray(was) || v.length !== was.length) return false;
    for (let i = 0; i < v.length; i++) if (v[i] !== was[i]) return false;
  }
  return count === c.count;
}

export class EventLog {
  private pending: LogEntry[] = [];
  private recent: LogEntry[] = [];
  private readonly listeners = new Set<LogListener>();
  private known = new Map<string, string>(); // coll|key → logged JSON
  /** Each record as last checked: an unchanged one is not encoded again. */
  private checked = new WeakMap<object, Checked>();
  private scalars = new Map<string, string>();
  private state: SandboxState | null = null;

  /**
   * @param seq the last sequence number already in the log
   * @param store the data dir, or null for an in-memory sandbox
   * @param keep how many recent events stay in memory for subscribe(fromSeq)
   */
  constructor(
    public seq: number,
    private readonly store: StateStore | null,
    private readonly keep = 50_000,
    history: readonly LogEntry[] = [],
  ) {
    this.recent = history.slice(-keep);
  }

  /** Watches a (new) live state: its committed events and its record collections. */
  watch(state: SandboxState): void {
    if (this.state && this.state !== state) attachRecorder(this.state, () => undefined); // a replaced state logs nothing
    this.state = state;
    attachRecorder(state, (ev) => this.record(ev));
    this.known = new Map();
    this.checked = new WeakMap();
    for (const coll of COLLECTIONS)
      for (const rec of state[coll])
        this.known.set(
          `${coll}|${recordKey(coll, rec as unknown as Record<string, unknown>)}`,
          fingerprint(coll, logged(state, coll, rec)),
        );
    this.scalars = new Map(SCALARS.map((f) => [f, encode(state[f] ?? null)]));
  }

  /** Queues an event that has just been applied to the live state. */
  record(ev: StateEvent): void {
    this.seq += 1;
    this.pending.push({ ...ev, seq: this.seq } as LogEntry);
  }

  /** Logs whole-record changes made outside the reducer (tokens, profiles, keys…). */
  private captureRecords(): void {
    const state = this.state;
    if (!state) return;
    for (const f of SCALARS) {
      const now = encode(state[f] ?? null);
      if (this.scalars.get(f) !== now) {
        this.scalars.set(f, now);
        this.record({ type: 'set', field: f, value: structuredClone(state[f] ?? null) });
      }
    }
    // Every record is looked at (they change outside the reducer), but one whose own fields are
    // those of the last check is not encoded again: a commit costs O(records) field comparisons,
    // not O(records) serialisations (and token-secret HMACs). Keys are unique in a collection.
    let records = 0;
    let added = false;
    for (const coll of COLLECTIONS) {
      for (const rec of state[coll]) {
        records++;
        const obj = rec as unknown as Record<string, unknown>;
        const last = this.checked.get(obj);
        if (last && unchanged(last, obj) && this.known.has(last.id)) continue;
        const key = recordKey(coll, obj);
        const id = `${coll}|${key}`;
        const snap = snapshot(obj);
        if (snap) this.checked.set(obj, { ...snap, id });
        else this.checked.delete(obj);
        const value = logged(state, coll, rec);
        const text = fingerprint(coll, value);
        const before = this.known.get(id);
        if (before === text) continue;
        if (before === undefined) added = true;
        this.known.set(id, text);
        this.record({ type: 'put', coll, key, value: structuredClone(value) });
      }
    }
    // Every record's id is known now; as many known ids as records means none was deleted.
    if (!added && records === this.known.size) return;
    const seen = new Set<string>();
    for (const coll of COLLECTIONS)
      for (const rec of state[coll]) seen.add(`${coll}|${recordKey(coll, rec as unknown as Record<string, unknown>)}`);
    for (const id of [...this.known.keys()]) {
      if (seen.has(id)) continue;
      this.known.delete(id);
      const [coll, ...rest] = id.split('|');
      this.record({ type: 'del', coll: coll as PutCollection, key: rest.join('|') });
    }
  }

  /**
   * Commits everything recorded since the last call: appends it to disk with fsync (when
   * persistent), then tells subscribers. Returns the committed entries.
   */
  commit(): LogEntry[] {
    this.captureRecords();
    if (this.pending.length === 0) return [];
    const batch = this.pending;
    // A failed append (disk full…) throws to the caller, which answers 5xx; the events stay
    // queued in order and go out with the next commit, so the log never skips one.
    if (this.store && this.state) this.store.append(batch, this.state);
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
