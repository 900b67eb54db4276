// Market activity for demos (`pm sandbox start --simulate`): bob and a quoting bot keep bids
// and asks around a drifting fair price, two trading bots take liquidity now and then, so the
// streams and `pm book --watch` have something to show. Off by default.
//
// It is one actor (actors.ts): every change goes the way an order from POST /orders goes, through
// place.ts (the engine decides, ctx.apply commits, a matched trade settles), and its deposits
// and bots are events applied through ctx.apply. Nothing is written around it.
// Safety by construction:
// - quotes are post-only BUYs (a BUY NO at 1 − p is an ask at p), priced inside the current
//   spread or behind it, so a quote never executes against anyone, itself included;
// - takers send FAK orders only, so they never rest an order a bot could cross with itself; a
//   taker never trades when the best opposite order is its own (a second guard, never needed);
// - the engine refuses what a balance cannot pay (the action is skipped), and a bot whose free
//   USDC runs low gets a logged deposit, so balances and reservations stay valid.
// One clock (Ticker), cleared by stop(); a reset of the sandbox state (new state object) is
// noticed on the next tick and the bots are set up again.
import { type Actor, Ticker } from './actors.js';
import { levelOrders, sideBook } from './bookindex.js';
import { yesMidpoint } from './book.js';
import { type BotOrder, cancelOrder, placeBotOrder } from './place.js';
import { marketBySlug, orderById } from './indexes.js';
import { ONE, PRICE_TICK, SIZE_STEP } from './orders/amounts.js';
import { randomBytes } from 'node:crypto';
import type { Hex, MarketRecord, Profile, SandboxState } from './types.js';
import type { StateEvent } from './events.js';
import type { SandboxContext } from './handlers.js';

export interface SimulateOptions {
  /** Actions per second over all markets (default 4); each action touches one market. */
  rate?: number | undefined;
  /** Random source in [0, 1) (default Math.random), for reproducible runs. */
  random?: (() => number) | undefined;
}

/** An order the simulator places: what it decides, the rest follows from the owner and the price. */
type SimOrder = Omit<BotOrder, 'clientOrderId'>;

/** Bots of the dev mnemonic (indexes 8–10, public keys only: they never sign). */
export const SIM_BOTS: readonly { id: number; name: string; address: Hex; role: 'quoter' | 'taker' }[] = [
  { id: 1901, name: 'bot-quoter', address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', role: 'quoter' },
  { id: 1902, name: 'bot-taker-1', address: '0xBcd4042DE499D14e55001CcbB24a551F3b954096', role: 'taker' },
  { id: 1903, name: 'bot-taker-2', address: '0x71bE63f3384f5fb98995898A86B02Fb2426c5788', role: 'taker' },
];
const BOB = 1002;
const BOT_FUNDING = 20_000n * ONE;
/** A (simulated) transaction hash for a bot's funding. */
const fundingTx = (): string => `0x${randomBytes(32).toString('hex')}`;
const LOW_WATER = 2_000n * ONE;
/** Resting quotes a quoter keeps per market and side before it cancels its oldest. */
const QUOTES_PER_SIDE = 3;
const DEFAULT_SIMULATE_RATE = 4;

const clampPrice = (p: bigint): bigint => (p < 20n * PRICE_TICK ? 20n * PRICE_TICK : p > 980n * PRICE_TICK ? 980n * PRICE_TICK : p);

function tradable(m: MarketRecord, now: number): boolean {
  return (
    m.tradeType === 'clob' &&
    m.status === 'FUNDED' &&
    !m.expired &&
    m.expirationTimestamp > now &&
    m.positionIds !== null &&
    m.winningOutcomeIndex === null
  );
}

/** The market-activity simulator: bob and the bots quote and take on a clock. */
export class Simulator implements Actor {
  readonly rate: number;
  /** The simulated accounts (bob and the bots) by name and profile id. */
  readonly accounts: { name: string; profileId: number; role: 'quoter' | 'taker' }[] = [
    { name: 'bob', profileId: BOB, role: 'quoter' },
    ...SIM_BOTS.map((b) => ({ name: b.name, profileId: b.id, role: b.role })),
  ];
  /** Actions taken so far (orders placed or cancelled). */
  actions = 0;
  private readonly rnd: () => number;
  private readonly clock: Ticker;
  private readonly quoters = [BOB, ...SIM_BOTS.filter((b) => b.role === 'quoter').map((b) => b.id)];
  private readonly takers = SIM_BOTS.filter((b) => b.role === 'taker').map((b) => b.id);
  private readonly tag = Date.now().toString(36);
  private state: SandboxState | null = null;
  private fair = new Map<string, bigint>();
  private quotes = new Map<string, string[]>(); // `${owner}|${slug}|YES|NO` → live order ids, oldest first
  private cursor = 0;
  private seq = 0;

  constructor(
    private readonly ctx: SandboxContext,
    opts: SimulateOptions = {},
  ) {
    this.rate = opts.rate ?? DEFAULT_SIMULATE_RATE;
    if (!(this.rate > 0 && this.rate <= 1000))
      throw new RangeError(`simulate rate must be in (0, 1000] actions per second, got ${this.rate}`);
    this.rnd = opts.random ?? Math.random;
    this.clock = new Ticker(1000 / this.rate, () => this.tick());
  }

  get running(): boolean {
    return this.clock.running;
  }

  start(): void {
    this.setUp(this.ctx.state);
    this.clock.start();
  }

  stop(): void {
    this.clock.stop();
  }

  /** One action on the next tradable market: a quote (55%) or a take. */
  tick(): void {
    const ctx = this.ctx;
    if (this.state !== ctx.state) this.setUp(ctx.state);
    const s = ctx.state;
    const now = ctx.now();
    const markets = s.markets.filter((m) => tradable(m, now));
    if (markets.length === 0) return;
    const m = markets[this.cursor % markets.length] as MarketRecord;
    this.cursor += 1;
    const f = this.fair.get(m.slug) ?? clampPrice(((yesMidpoint(s, m.slug) ?? m.lastTradePrice ?? ONE / 2n) / PRICE_TICK) * PRICE_TICK);
    this.fair.set(m.slug, f);
    if (this.rnd() < 0.55) this.quote(s, m, f);
    else this.take(s, m, f);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length) % xs.length] as T;
  }

  private between(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }

  /** Bots exist and have USDC (on start and after a reset): profiles plus logged deposits. */
  private setUp(s: SandboxState): void {
    this.state = s;
    this.fair = new Map();
    this.quotes = new Map();
    const at = this.ctx.now();
    const events: StateEvent[] = [];
    for (const b of SIM_BOTS) {
      if (s.profiles.some((p) => p.id === b.id)) continue;
      const p: Profile = {
        id: b.id,
        name: b.name,
        role: b.role === 'quoter' ? 'market_maker' : 'trader',
        address: b.address,
        feeRateBps: b.role === 'quoter' ? 0 : 300,
        displayName: b.name,
        createdAt: new Date(at).toISOString(),
      };
      events.push({ type: 'profile.created', at, profile: p });
      events.push({ type: 'funds.deposited', at, profileId: b.id, amount: BOT_FUNDING, txHash: fundingTx() });
    }
    if (events.length > 0) this.ctx.apply(...events);
  }

  private topUp(s: SandboxState, profileId: number): void {
    const a = s.accounts[String(profileId)];
    if (profileId === BOB || !a || a.usdc - a.lockedUsdc >= LOW_WATER) return;
    this.ctx.apply({ type: 'funds.deposited', at: this.ctx.now(), profileId, amount: BOT_FUNDING, txHash: fundingTx() });
  }

  /** Places an order of a bot; its id when it rests. */
  private place(input: SimOrder): string | null {
    this.seq += 1;
    const r = placeBotOrder(this.ctx, { ...input, clientOrderId: `sim-${this.tag}-${this.seq}` });
    if (!r.ok) return null; // refused (balance, post-only would cross…): nothing changed
    this.actions += 1;
    return r.order.status === 'LIVE' ? r.order.id : null;
  }

  /** A quoter refreshes one side of one market: cancels its oldest quote there when it has enough, posts a new one. */
  private quote(s: SandboxState, m: MarketRecord, f: bigint): void {
    const [yes, no] = m.positionIds ?? ['', ''];
    const owner = this.pick(this.quoters);
    const bid = this.rnd() < 0.5;
    const key = `${owner}|${m.slug}|${bid ? 'YES' : 'NO'}`;
    const live = (this.quotes.get(key) ?? []).filter((id) => orderById(s, id)?.status === 'LIVE');
    if (live.length >= QUOTES_PER_SIDE) {
      const oldest = live.shift();
      if (oldest !== undefined && cancelOrder(this.ctx, oldest, owner).ok) this.actions += 1;
    }
    // Inside the spread at most, never through it: post-only would refuse a crossing quote anyway.
    const mid = yesMidpoint(s, m.slug) ?? f;
    const off = BigInt(this.between(1, 6)) * PRICE_TICK;
    let yesPrice = clampPrice(bid ? f - off : f + off);
    if (bid && yesPrice >= mid + 5n * PRICE_TICK) yesPrice = clampPrice(mid - PRICE_TICK);
    if (!bid && yesPrice <= mid - 5n * PRICE_TICK) yesPrice = clampPrice(mid + PRICE_TICK);
    const size = BigInt(this.between(5, 60)) * ONE;
    // A bid is a BUY YES at p; an ask is a BUY NO at 1 − p: quoters need USDC only.
    const tokenId = bid ? yes : no;
    const price = bid ? yesPrice : ONE - yesPrice;
    const id = this.place({ ownerId: owner, marketSlug: m.slug, tokenId, side: 'BUY', orderType: 'GTC', price, size, postOnly: true });
    if (id !== null) live.push(id);
    this.quotes.set(key, live);
  }

  /** A taker buys at the best ask (or sells what it holds at the best bid) with a FAK order. */
  private take(s: SandboxState, m: MarketRecord, f: bigint): void {
    const [yes, no] = m.positionIds ?? ['', ''];
    const owner = this.pick(this.takers);
    this.topUp(s, owner);
    const acct = s.accounts[String(owner)];
    const held = (t: string): bigint => {
      const p = acct?.positions[t];
      return p ? p.shares - p.locked : 0n;
    };
    const outcomeYes = this.rnd() < 0.5;
    const token = outcomeYes ? yes : no;
    const tokenFair = outcomeYes ? f : ONE - f;
    const sell = held(token) >= ONE && this.rnd() < 0.45;
    let size = BigInt(this.between(1, 25)) * ONE;
    if (sell && size > held(token)) size = (held(token) / SIZE_STEP) * SIZE_STEP;
    if (size <= 0n) return;
    // Never against itself: takers rest nothing, and the top of the book must be someone else's.
    if (topOwner(s, m, token, sell ? 'SELL' : 'BUY') === owner) return;
    const slack = BigInt(this.between(2, 12)) * PRICE_TICK;
    const limit = clampPrice(sell ? tokenFair - slack : tokenFair + slack);
    const before = m.lastTradePrice;
    this.place({
      ownerId: owner,
      marketSlug: m.slug,
      tokenId: token,
      side: sell ? 'SELL' : 'BUY',
      orderType: 'FAK',
      price: limit,
      size,
    });
    // The fair price follows the trades a little, and wanders.
    const last = marketBySlug(s, m.slug)?.lastTradePrice ?? before;
    const drift = BigInt(this.between(-2, 2)) * PRICE_TICK;
    const next = last !== null && last !== before ? (f * 3n + last) / 4n + drift : f + drift;
    this.fair.set(m.slug, clampPrice((next / PRICE_TICK) * PRICE_TICK));
  }
}

/** Starts the simulator on a running sandbox context. */
export function startSimulator(ctx: SandboxContext, opts: SimulateOptions = {}): Simulator {
  const sim = new Simulator(ctx, opts);
  sim.start();
  return sim;
}

/** The owner of the first resting order a taker on `token`/`side` would hit in the direct book, or null. */
function topOwner(s: SandboxState, m: MarketRecord, token: string, side: 'BUY' | 'SELL'): number | null {
  const levels = sideBook(s, m.slug, token, side === 'BUY' ? 'SELL' : 'BUY').levels;
  const level = side === 'BUY' ? levels[0] : levels[levels.length - 1];
  if (!level) return null;
  for (const o of levelOrders(s, level)) return o.ownerId;
  return null;
}
