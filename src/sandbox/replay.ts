// The replay of a recorded market (`pm sandbox start --replay FILE`): one actor (actors.ts),
// beside the simulator. It creates the recorded markets (same slugs and titles; the sandbox's
// own venue and position ids), then plays the recording's lines in order on recorded time
// scaled by `speed` ('max': as fast as the engine goes): book states move the replay maker's
// orders, trades go through the users' orders they reached, a resolution resolves (replaybook.ts
// says how). Every action goes through the engine and ctx.apply; where the replay stands is a
// logged event (replay.progress), committed with each trade's order, so a restart after a
// kill -9 continues from the log. A recorded slug the sandbox already has (a recording of a
// sandbox) is taken over: its resting orders are cancelled when the replay first starts.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Actor, Ticker } from './actors.js';
import { chainOf } from './chainref.js';
import { cancelOrders } from './place.js';
import { ONE } from './orders/amounts.js';
import { clobMarket } from './seedmarkets.js';
import { replayable, syncBook, tradeThrough, type ReplayIds } from './replaybook.js';
import type { Level, Recording, RecordedLine } from './recording.js';
import type { Hex, Profile, ReplayProgress, SandboxState } from './types.js';
import type { StateEvent } from './events.js';
import type { SandboxContext } from './handlers.js';

export interface ReplayOptions {
  /** Recorded time scale: 1 real time, 10 ten times faster; 'max' as fast as the engine goes (default 1). */
  speed?: number | 'max' | undefined;
  /** Start at this recorded time (epoch ms) or this far after the recording's start. */
  from?: { at: number } | { offsetMs: number } | undefined;
  /** Start over at the end (a recorded resolution is then not applied). */
  loop?: boolean | undefined;
}

/** GET /__sandbox/replay: where the replay stands. */
export interface ReplayStatus {
  file: string;
  /** Recorded time reached (ISO 8601). */
  recordedTime: string;
  /** Lines after the header applied in this pass, of `total`. */
  applied: number;
  total: number;
  /** How far the replay is behind the scaled recorded time, in wall ms (0 at speed max). */
  behindMs: number;
  done: boolean;
  speed: number | 'max';
  passes: number;
  markets: string[];
  /** Lag of each line applied behind its due time, in wall ms (speed N only). */
  lagMs: { p50: number; p99: number; samples: number };
}

/** The replay's profiles (dev mnemonic indexes 12 and 13, public addresses only: they never sign). */
export const REPLAY_BOTS: readonly { id: number; name: string; address: Hex }[] = [
  { id: 1951, name: 'replay-maker', address: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a' },
  { id: 1952, name: 'replay-taker', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec' },
];
const IDS: ReplayIds = { maker: 1951, taker: 1952 };
const FUNDING = 10_000_000n * ONE;
const LOW_WATER = 1_000_000n * ONE;
/** A tick applies due lines for at most this long, so requests are served between ticks. */
const TICK_BUDGET_MS = 20;
const MAX_LAG_SAMPLES = 100_000;

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;

/** The replay actor. */
export class Replay implements Actor {
  readonly speed: number | 'max';
  private readonly clock: Ticker;
  private state: SandboxState | null = null;
  /** Index of the next line to apply; the pass; recorded time reached. */
  private next = 0;
  private passes = 0;
  private recordedTime: number;
  private done = false;
  /** Recorded time `recAnchor` plays at wall time `wallAnchor`. */
  private wallAnchor = 0;
  private recAnchor = 0;
  private dirty = false;
  private behind = 0;
  private readonly lags: number[] = [];

  constructor(
    private readonly ctx: SandboxContext,
    private readonly rec: Recording,
    private readonly opts: ReplayOptions = {},
  ) {
    this.speed = opts.speed ?? 1;
    if (this.speed !== 'max' && !(this.speed > 0 && this.speed <= 10_000))
      throw new RangeError(`replay speed must be in (0, 10000] or max, got ${this.speed}`);
    this.recordedTime = rec.startedAt;
    this.clock = new Ticker(this.speed === 'max' ? 0 : 10, () => this.tick());
  }

  get running(): boolean {
    return this.clock.running;
  }

  /** Whether the recording's torn last line (cut short by a crash) was left out. */
  get torn(): boolean {
    return this.rec.torn;
  }

  start(): void {
    this.setUp();
    this.clock.start();
  }

  stop(): void {
    this.clock.stop();
  }

  /** Applies the lines that are due (all of them at speed max, within the tick's time budget). */
  tick(): void {
    if (this.state !== this.ctx.state) this.setUp(); // a reset: the replay starts over
    if (this.done) return;
    const started = performance.now();
    const lines = this.rec.lines;
    while (this.next < lines.length && performance.now() - started < TICK_BUDGET_MS) {
      const line = lines[this.next] as RecordedLine;
      const late = this.ctx.now() - this.dueAt(line.t);
      if (late < 0) break;
      this.apply(line);
      if (this.speed !== 'max' && this.lags.length < MAX_LAG_SAMPLES) this.lags.push(late);
    }
    if (this.next >= lines.length) this.finishPass();
    if (this.dirty) this.commit();
    const pending = lines[this.next];
    this.behind = this.done || this.speed === 'max' || !pending ? 0 : Math.max(0, this.ctx.now() - this.dueAt(pending.t));
  }

  status(): ReplayStatus {
    const sorted = [...this.lags].sort((a, b) => a - b);
    const pct = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return {
      file: this.rec.file,
      recordedTime: new Date(this.recordedTime).toISOString(),
      applied: this.next,
      total: this.rec.lines.length,
      behindMs: this.behind,
      done: this.done,
      speed: this.speed,
      passes: this.passes,
      markets: this.rec.markets.map((m) => m.slug),
      lagMs: { p50: pct(0.5), p99: pct(0.99), samples: sorted.length },
    };
  }

  /** When a recorded time plays, in wall ms (now at speed max). */
  private dueAt(t: number): number {
    if (this.speed === 'max') return Number.NEGATIVE_INFINITY;
    return this.wallAnchor + (t - this.recAnchor) / this.speed;
  }

  private progress(): ReplayProgress {
    return { file: this.rec.file, applied: this.next, recordedTime: this.recordedTime, passes: this.passes, done: this.done };
  }

  private progressEvent(): StateEvent {
    return { type: 'replay.progress', at: this.ctx.now(), progress: this.progress() };
  }

  private commit(): void {
    this.dirty = false;
    this.ctx.apply(this.progressEvent());
  }

  /** Profiles, funding, markets; then where to start: the logged progress, else --from. */
  private setUp(): void {
    const s = this.ctx.state;
    this.state = s;
    this.wallAnchor = this.ctx.now();
    const p = s.replay;
    if (p && p.file === this.rec.file) {
      // A restart: continue after the last line the log says was applied.
      this.next = p.applied;
      this.passes = p.passes;
      this.recordedTime = p.recordedTime;
      this.done = p.done;
      this.recAnchor = this.rec.lines[p.applied]?.t ?? p.recordedTime;
      return;
    }
    this.createBots();
    this.createMarkets();
    this.next = 0;
    this.passes = 0;
    this.done = false;
    this.recordedTime = this.rec.startedAt;
    this.recAnchor = this.rec.lines[0]?.t ?? this.rec.startedAt;
    this.skipTo(this.fromTime());
    this.commit();
  }

  private createBots(): void {
    const at = this.ctx.now();
    const events: StateEvent[] = [];
    for (const b of REPLAY_BOTS) {
      if (this.ctx.state.profiles.some((p) => p.id === b.id)) continue;
      const profile: Profile = {
        id: b.id,
        name: b.name,
        role: b.id === IDS.maker ? 'market_maker' : 'trader',
        address: b.address,
        feeRateBps: 0,
        displayName: b.name,
        createdAt: new Date(at).toISOString(),
      };
      events.push({ type: 'profile.created', at, profile });
      events.push({ type: 'funds.deposited', at, profileId: b.id, amount: FUNDING, txHash: txHash() });
    }
    if (events.length > 0) this.ctx.apply(...events);
  }

  /** The bots' USDC stays far above what the recorded levels reserve. */
  private topUp(): void {
    for (const b of REPLAY_BOTS) {
      const a = this.ctx.state.accounts[String(b.id)];
      if (a && a.usdc - a.lockedUsdc < LOW_WATER)
        this.ctx.apply({ type: 'funds.deposited', at: this.ctx.now(), profileId: b.id, amount: FUNDING, txHash: txHash() });
    }
  }

  /** Each recorded market: created like any sandbox market, or (same slug already here) taken over. */
  private createMarkets(): void {
    for (const rm of this.rec.markets) {
      const s = this.ctx.state;
      const here = s.markets.find((m) => m.slug === rm.slug);
      if (here) {
        cancelOrders(
          this.ctx,
          s.orders.filter((o) => o.marketSlug === rm.slug && o.status === 'LIVE'),
        );
        continue;
      }
      const at = this.ctx.now();
      const id = Math.max(0, ...s.markets.map((m) => m.id)) + 1;
      const market = clobMarket(rm.slug, rm.title, id, at);
      const settings = (market.extra['settings'] ?? {}) as Record<string, unknown>;
      market.extra = { ...market.extra, settings: { ...settings, minSize: String(rm.minSize ?? 1_000_000n) }, replayOf: this.rec.file };
      this.ctx.apply({ type: 'market.created', at, market });
    }
  }

  private fromTime(): number | null {
    const f = this.opts.from;
    if (!f) return null;
    return 'at' in f ? f.at : this.rec.startedAt + f.offsetMs;
  }

  /** --from: lines before `from` are passed over (trades not traded); each market gets its last book state, resolutions apply. */
  private skipTo(from: number | null): void {
    if (from === null) return;
    const books = new Map<string, { bids: Level[]; asks: Level[] }>();
    const lines = this.rec.lines;
    while (this.next < lines.length && (lines[this.next] as RecordedLine).t < from) {
      const line = lines[this.next] as RecordedLine;
      if (line.kind === 'book') books.set(line.market, { bids: line.bids, asks: line.asks });
      if (line.kind === 'resolved' && !this.opts.loop) this.resolve(line.market, line.winner, []);
      this.recordedTime = line.t;
      this.next += 1;
    }
    for (const [slug, b] of books) {
      const m = replayable(this.ctx.state, slug);
      if (m) syncBook(this.ctx, m, b.bids, b.asks, IDS, `replay-${this.passes}-${this.next}`);
    }
    this.recAnchor = Math.max(from, this.recordedTime);
  }

  /** One line: the action and the progress after it (committed with a trade's order, else at the tick's end). */
  private apply(line: RecordedLine): void {
    const index = this.next;
    this.next += 1;
    this.recordedTime = line.t;
    this.dirty = true;
    if (line.kind === 'other') return;
    if (line.kind === 'resolved') {
      if (!this.opts.loop) this.resolve(line.market, line.winner, [this.progressEvent()]);
      return;
    }
    const m = replayable(this.ctx.state, line.market);
    if (!m) return;
    this.topUp();
    const tag = `replay-${this.passes}-${index}`;
    if (line.kind === 'book') syncBook(this.ctx, m, line.bids, line.asks, IDS, tag);
    else if (tradeThrough(this.ctx, m, line, IDS, tag, [this.progressEvent()])) this.dirty = false;
  }

  /** Resolves a recorded market as recorded (its LIVE orders cancelled), with `also` in the same commit. */
  private resolve(slug: string, winner: 0 | 1, also: StateEvent[]): void {
    const m = replayable(this.ctx.state, slug);
    if (!m) return;
    const canceled = this.ctx.state.orders.filter((o) => o.marketSlug === slug && o.status === 'LIVE').map((o) => o.id);
    this.ctx.apply(
      { type: 'market.resolved', at: this.ctx.now(), slug, winningOutcomeIndex: winner, payoutPosted: true, txHash: txHash(), canceled },
      ...also,
    );
    this.dirty = also.length === 0;
    chainOf(this.ctx)
      ?.postPayout(m, winner)
      .catch(() => undefined);
  }

  /** The end of the recording: done (markets stay as recorded), or with --loop another pass. */
  private finishPass(): void {
    this.dirty = true;
    if (!this.opts.loop || this.rec.lines.length === 0) {
      this.done = true;
      return;
    }
    this.passes += 1;
    this.next = 0;
    this.wallAnchor = this.ctx.now();
    this.recAnchor = this.rec.lines[0]?.t ?? this.rec.startedAt;
  }
}

/** Starts a replay of a parsed recording on a running sandbox context. */
export function startReplay(ctx: SandboxContext, rec: Recording, opts: ReplayOptions = {}): Replay {
  const r = new Replay(ctx, rec, opts);
  r.start();
  return r;
}
