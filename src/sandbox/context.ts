// The context every handler, timer and actor writes through: ctx.apply(...events) is the one
// write path (reducer, then the event log: appended to disk and fsynced before it returns, then
// handed to the log's subscribers, the streams; inside ctx.batch, an actor's synchronous step,
// the commit waits for the step's end: one append and one fsync for all of it), and ctx.later
// the one way to schedule work (cleared on reset and close).
import { EventLog } from './log.js';
import { apply } from './reducer.js';
import type { StateStore } from './store.js';
import type { SandboxState } from './types.js';
import type { LogEntry, StateEvent } from './events.js';
import type { SandboxContext } from './handlers.js';

export interface Core {
  ctx: SandboxContext;
  log: EventLog;
  /** Clears every timer scheduled with ctx.later. */
  clearTimers(): void;
  /** From now on nothing is committed or scheduled (close). */
  shut(): void;
}

export interface CoreOptions {
  /** The state loaded from the data dir at `seq`, or null to start from a fresh seed. */
  loaded: { state: SandboxState; seq: number; replayed: LogEntry[] } | null;
  store: StateStore | null;
  /** The data dir's key (or an in-memory one): a fresh seed gets it (reducer.ts, its header). */
  serverKey: string;
  now: () => number;
  settlement: SandboxContext['settlement'];
}

/** The context of one sandbox: its state, its log, its timers. */
export function createCore(o: CoreOptions): Core {
  const timers = new Set<NodeJS.Timeout>();
  let shut = false;
  let held = 0; // ctx.batch depth: commits wait for its end
  // A fresh seed is where a state is born (the reducer makes it from nothing); it is logged first.
  let seed: StateEvent | null = null;
  let initial: SandboxState;
  if (o.loaded) initial = o.loaded.state;
  else {
    seed = { type: 'seed', at: o.now() };
    initial = apply(null, seed);
    initial.serverKey = o.serverKey;
  }
  const ctx: SandboxContext = {
    state: initial,
    now: o.now,
    settlement: o.settlement,
    apply: (...events) => {
      for (const ev of events) {
        ctx.state = apply(ctx.state, ev);
        log.record(ev);
      }
      if (!shut && held === 0) log.commit();
    },
    batch: (fn) => {
      held += 1;
      try {
        fn();
      } finally {
        held -= 1;
        if (!shut && held === 0) log.commit();
      }
    },
    later: (ms, fn) => {
      if (shut) return;
      const t = setTimeout(() => {
        timers.delete(t);
        if (!shut) fn();
      }, ms);
      timers.add(t);
    },
  };
  const log = new EventLog(o.loaded?.seq ?? 0, o.store, () => ctx.state, 50_000, o.loaded?.replayed ?? []);
  if (seed) {
    log.record(seed);
    log.commit();
  }
  return {
    ctx,
    log,
    clearTimers: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
    shut: () => {
      shut = true;
    },
  };
}
