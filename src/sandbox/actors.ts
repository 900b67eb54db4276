// Actors: sources of market activity that act through the engine and the event log like any
// client does (orders through place.ts, deposits and profiles through ctx.apply), never around
// them. The simulator (`--simulate`, simulate.ts) is one; a replay of a recorded market
// (`--replay FILE`) is meant to be another, started and stopped the same way.

/** One actor of a running sandbox. */
export interface Actor {
  /** Sets up what it needs (profiles, funding) and starts acting on its own clock. */
  start(): void;
  /** One step of activity (its clock calls it; tests may too). */
  tick(): void;
  /** Stops for good: no state change happens after it returns. */
  stop(): void;
  /** Whether its clock is still armed. */
  readonly running: boolean;
}

/**
 * The clock of an actor that acts every `intervalMs`: calls `tick` until stopped. A tick that
 * throws (a failed commit: disk full…) is skipped; the next one runs on time.
 */
export class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly tick: () => void,
  ) {}

  start(): void {
    if (!this.stopped && this.timer === null) this.timer = setTimeout(() => this.fire(), this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  get running(): boolean {
    return this.timer !== null && !this.stopped;
  }

  private fire(): void {
    this.timer = null;
    if (this.stopped) return;
    try {
      this.tick();
    } catch {
      // skip this step, try the next one
    }
    if (!this.stopped) this.timer = setTimeout(() => this.fire(), this.intervalMs);
  }
}
