// Per-token pacing of requests to the exchange, which allows per API token at most N requests
// in flight and M ms between request starts (N = 2, M = 300: wire-facts §5) and answers 429
// beyond that.
//
// What it guarantees, for all the pm processes of one PM_HOME using one token together:
// - at most N requests in flight: a request holds a slot from its reservation to its release;
// - starts at least M ms apart: each reservation is at least M ms after the last start
//   recorded, and a request that actually leaves later than it reserved (its process was
//   descheduled) records that later time, so the next start is spaced from it.
//
// How: `FileLimiter` keeps the shared record in PM_HOME/run/<name>.json, `{lastStart,
// inflight: [{pid, id, since, until}]}`, and changes it only under PM_HOME/run/<name>.lock, a
// file created with O_EXCL that holds its owner's pid and a random token. A reservation takes
// the lock, reads the record, reserves if both limits allow, writes the record (temp file and
// rename) and drops the lock at once; waiting never holds the lock. A waiter for a free slot
// wakes when the record changes (fs.watch), or after a short poll at the latest.
// Stale holders are detected, so no crash blocks the others for long:
// - a slot whose process is gone (signal 0 fails: killed, crashed) is dropped on the next
//   read, and so is one held past `until` (its request's timeout) even if its process lives;
// - a lock whose owner process is gone is broken at once; one older than `lockStaleMs` is
//   broken even if its owner lives (a lock is held for well under a millisecond);
// - a `lastStart` ahead of the clock by more than M (the clock went back) is taken as now.
// If PM_HOME/run cannot be written, pacing falls back to this process only.
//
// `TokenLimiter` is the same policy inside one process, in memory; it sits in front of the
// shared limiter, so one process never queues more than N waiters on the lock. The clock is
// injectable (tests); waits are real timers either way. test/unit/limiter.test.ts checks the
// guarantees with several limiters and several processes on one directory.
import { readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { sleep } from './retry.js';
import { join } from 'node:path';
import { LockFile, processAlive } from './filelock.js';

/**
 * Gives the slot back; calling it more than once is harmless. `started`, when present, marks
 * the moment the request actually leaves (a process may be descheduled between the
 * reservation and the send; the next start is then spaced from the later time).
 */
export interface Release {
  (): void;
  started?: (() => void) | undefined;
}

export interface Limiter {
  /** Waits for a slot (rejects with the signal's reason when aborted meanwhile). */
  acquire(signal?: AbortSignal): Promise<Release>;
}

function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : Object.assign(new Error('aborted'), { name: 'AbortError' });
}

function once(fn: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

interface Waiter {
  grant: () => void;
  signal?: AbortSignal | undefined;
  onAbort?: () => void;
}

/** Limits requests per API token inside this process; optionally also through a shared limiter. */
export class TokenLimiter implements Limiter {
  private inFlight = 0;
  private lastStart = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly concurrency: number,
    private readonly minIntervalMs: number,
    /** When another process last started a request with this token (cross-process pacing). */
    lastStartMs = 0,
    private readonly onStart?: (t: number) => void,
    /** A limiter shared with other processes, asked after this one grants a slot. */
    private readonly shared?: Limiter,
    /** The clock (tests). */
    private readonly now: () => number = Date.now,
  ) {
    this.lastStart = lastStartMs;
  }

  /** Waits for a slot; call the returned function when the request finishes. */
  async acquire(signal?: AbortSignal): Promise<Release> {
    const local = await this.acquireLocal(signal);
    if (!this.shared) return local;
    try {
      const remote = await this.shared.acquire(signal);
      const both = once(() => {
        remote();
        local();
      });
      both.started = remote.started;
      return both;
    } catch (e) {
      local();
      throw e;
    }
  }

  private acquireLocal(signal?: AbortSignal): Promise<Release> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const w: Waiter = {
        signal,
        grant: () => {
          if (w.onAbort) signal?.removeEventListener('abort', w.onAbort);
          this.inFlight++;
          this.lastStart = this.now();
          this.onStart?.(this.lastStart);
          resolve(
            once(() => {
              this.inFlight--;
              this.pump();
            }),
          );
        },
      };
      if (signal) {
        w.onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortReason(signal));
          this.pump();
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.queue.push(w);
      this.pump();
    });
  }

  /** Requests waiting for a slot in this process. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    if (this.queue.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.timer || this.queue.length === 0 || this.inFlight >= this.concurrency) return;
    const wait = this.lastStart + this.minIntervalMs - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
      return;
    }
    const next = this.queue.shift();
    next?.grant();
    this.pump();
  }
}

export interface SharedEntry {
  pid: number;
  id: string;
  since: number;
  /** After this time the entry is dropped even if its process lives (a request's timeout). */
  until: number;
}

export interface SharedState {
  lastStart: number;
  inflight: SharedEntry[];
}

export interface FileLimiterOptions {
  /** Directory for the lock and state files (PM_HOME/run). */
  dir: string;
  /** File name stem, one per token (e.g. limit-<hash of the token id>). */
  name: string;
  concurrency: number;
  minIntervalMs: number;
  /** How long a request may hold a slot at most (its timeout); older entries are dropped. */
  maxHoldMs: number;
  /** A lock older than this is broken even if its holder lives (default 3 s). */
  lockStaleMs?: number;
  /** Fallback poll while all slots are taken (default 50 ms; changes wake waiters earlier). */
  pollMs?: number;
  /** Called with the time of each reservation this process makes (diagnostics, tests). */
  onReserve?: (t: number) => void;
  /** The clock (default Date.now; tests). */
  now?: () => number;
}

let seq = 0;

/**
 * A slot reservation shared by processes: under a lock file created with O_EXCL, read the
 * state `{lastStart, inflight}`, drop entries of dead processes and of expired requests, and
 * reserve when both limits allow; release removes the entry. Waiting never holds the lock.
 */
export class FileLimiter implements Limiter {
  readonly lockFile: string;
  readonly stateFile: string;
  private readonly lockStaleMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly lock: LockFile;
  private watcher: FSWatcher | null = null;
  private readonly wakers = new Set<() => void>();

  constructor(private readonly o: FileLimiterOptions) {
    this.lockFile = join(o.dir, `${o.name}.lock`);
    this.stateFile = join(o.dir, `${o.name}.json`);
    this.lockStaleMs = o.lockStaleMs ?? 3000;
    this.pollMs = o.pollMs ?? 50;
    this.now = o.now ?? Date.now;
    this.lock = new LockFile(this.lockFile, this.lockStaleMs, this.now);
  }

  async acquire(signal?: AbortSignal): Promise<Release> {
    const id = `${process.pid}-${++seq}`;
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      let wait: number;
      let full = false;
      let token: string | null;
      try {
        token = this.tryLock();
      } catch {
        // PM_HOME/run is not writable (read-only home…): pace within this process only.
        return () => {};
      }
      if (token === null) {
        wait = 2 + Math.random() * 2; // another process holds it for well under a millisecond
      } else {
        try {
          const now = this.now();
          const s = this.read(now);
          const next = s.lastStart + this.o.minIntervalMs;
          if (s.inflight.length < this.o.concurrency && now >= next) {
            s.lastStart = now;
            s.inflight.push({ pid: process.pid, id, since: now, until: now + this.o.maxHoldMs });
            try {
              this.write(s);
            } catch {
              return () => {};
            }
            this.o.onReserve?.(now);
            const release: Release = once(() => this.update((st) => this.drop(st, id)));
            release.started = () => {
              const t = this.now();
              if (t - now > 1) this.update((st) => this.stamp(st, id, t));
            };
            return release;
          }
          full = s.inflight.length >= this.o.concurrency;
          wait = full ? this.pollMs : next - now;
        } finally {
          this.unlock(token);
        }
      }
      await (full ? this.waitForChange(wait, signal) : sleep(wait, signal));
    }
  }

  /** The state as stored (pruned), for tests and diagnostics. */
  peek(): SharedState {
    return this.read(this.now());
  }

  private drop(s: SharedState, id: string): boolean {
    const before = s.inflight.length;
    s.inflight = s.inflight.filter((e) => e.id !== id);
    return s.inflight.length !== before;
  }

  private stamp(s: SharedState, id: string, t: number): boolean {
    if (t <= s.lastStart) return false;
    s.lastStart = t;
    const e = s.inflight.find((x) => x.id === id);
    if (e) e.since = t;
    return true;
  }

  /** Applies `change` under the lock, at once or, when contended, shortly without blocking. */
  private update(change: (s: SharedState) => boolean): void {
    const attempt = (n: number): void => {
      let token: string | null;
      try {
        token = this.tryLock();
      } catch {
        return;
      }
      if (token === null) {
        if (n < 2000) setTimeout(() => attempt(n + 1), 1 + Math.random()).unref();
        return; // gave up: an entry expires with its process or its deadline
      }
      try {
        const s = this.read(this.now());
        if (change(s)) this.write(s);
      } catch {
        // unwritable: an entry expires with its process or its deadline
      } finally {
        this.unlock(token);
      }
    };
    attempt(0);
  }

  private read(now: number): SharedState {
    let s: SharedState = { lastStart: 0, inflight: [] };
    try {
      const raw = JSON.parse(readFileSync(this.stateFile, 'utf8')) as Partial<SharedState>;
      s = { lastStart: Number(raw.lastStart) || 0, inflight: Array.isArray(raw.inflight) ? raw.inflight : [] };
    } catch {
      // missing or unreadable: no request in flight
    }
    // A clock that went back must not stall every process for the difference.
    if (s.lastStart > now + this.o.minIntervalMs) s.lastStart = now;
    s.inflight = s.inflight.filter((e) => e && typeof e.pid === 'number' && e.until > now && processAlive(e.pid));
    return s;
  }

  private write(s: SharedState): void {
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(s), { mode: 0o600 });
    renameSync(tmp, this.stateFile);
  }

  /** Takes the lock (returns its token) or null when another live process holds it. */
  private tryLock(): string | null {
    return this.lock.tryLock();
  }

  private unlock(token: string): void {
    this.lock.unlock(token);
  }

  /** Waits until the state file changes (a release) or `ms` pass. */
  private waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const done = (err?: Error): void => {
        clearTimeout(t);
        signal?.removeEventListener('abort', onAbort);
        this.wakers.delete(wake);
        if (this.wakers.size === 0) this.stopWatching();
        if (err) reject(err);
        else resolve();
      };
      const wake = (): void => done();
      const onAbort = (): void => done(abortReason(signal as AbortSignal));
      const t = setTimeout(wake, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wakers.add(wake);
      this.startWatching();
    });
  }

  private startWatching(): void {
    if (this.watcher) return;
    try {
      const base = `${this.o.name}.json`;
      this.watcher = watch(this.o.dir, { persistent: false }, (_event, file) => {
        if (file !== null && file !== base) return;
        for (const w of [...this.wakers]) w();
      });
      this.watcher.on('error', () => this.stopWatching());
    } catch {
      this.watcher = null; // no watching here: the poll still wakes waiters
    }
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}
