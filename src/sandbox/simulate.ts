// Market activity for demos (`pm sandbox start --simulate`): bob and a quoting bot keep bids
// and asks around a drifting fair price, two trading bots take liquidity now and then, so the
// streams and `pm book --watch` have something to show. Off by default.
//
// Every change goes the way an order from POST /orders goes: the engine decides (submitOrder /
// cancelOrder, which commit an event to the reducer), the log is committed (ctx.persist), the
// internal events are emitted and matched trades are settled. Nothing is written around it.
// Safety by construction:
// - quotes are post-only BUYs (a BUY NO at 1 − p is an ask at p), priced inside the current
//   spread or behind it, so a quote never executes against anyone, itself included;
// - takers send FAK orders only, so they never rest an order a bot could cross with itself; a
//   taker never trades when the best opposite order is its own (a second guard, never needed);
// - the engine refuses what a balance cannot pay (the action is skipped), and a bot whose free
//   USDC runs low gets a logged deposit, so balances and reservations stay valid.
// One timer, cleared by stop(); a reset of the sandbox state (new state object) is noticed on
// the next tick and the bots are set up again.
import { cancelOrder, submitOrder, type SubmitInput } from './engine.js';
import { levelOrders, sideBook } from './bookindex.js';
import { yesMidpoint } from './book.js';
import { commit, marketBySlug, orderById } from './reducer.js';
import { scheduleSettlement } from './settlement.js';
import { ONE, PRICE_TICK, SIZE_STEP, buyLock } from './orders/amounts.js';
import { randomBytes } from 'node:crypto';
import type { Hex, MarketRecord, Profile, SandboxContext, SandboxState } from './types.js';

export interface SimulateOptions {
  /** Actions per second over all markets (default 4); each action touches one market. */
  rate?: number | undefined;
  /** Random source in [0, 1) (default Math.random), for reproducible runs. */
  random?: (() => number) | undefined;
}

export interface Simulator {
  readonly rate: number;
  /** The simulated accounts (bob and the bots) by name and profile id. */
  readonly accounts: { name: string; profileId: number; role: 'quoter' | 'taker' }[];
  /** Actions taken so far (orders placed or cancelled). */
  readonly actions: number;
  /** Whether the timer is still armed. */
  readonly running: boolean;
  /** Stops for good: clears the timer; no state change happens after it returns. */
  stop(): void;
}

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

/** Starts the simulator on a running sandbox context. */
export function startSimulator(ctx: SandboxContext, opts: SimulateOptions = {}): Simulator {
  const rate = opts.rate ?? DEFAULT_SIMULATE_RATE;
  if (!(rate > 0 && rate <= 1000)) throw new RangeError(`simulate rate must be in (0, 1000] actions per second, got ${rate}`);
  const rnd = opts.random ?? Math.random;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length) % xs.length] as T;
  const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const quoters = [BOB, ...SIM_BOTS.filter((b) => b.role === 'quoter').map((b) => b.id)];
  const takers = SIM_BOTS.filter((b) => b.role === 'taker').map((b) => b.id);

  let state: SandboxState | null = null;
  let fair = new Map<string, bigint>();
  let quotes = new Map<string, string[]>(); // `${owner}|${slug}|YES|NO` → live order ids, oldest first
  let cursor = 0;
  let seq = 0;
  let actions = 0;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tag = Date.now().toString(36);

  /** Bots exist and have USDC (on start and after a reset): profiles plus logged deposits. */
  const setUp = (s: SandboxState): void => {
    state = s;
    fair = new Map();
    quotes = new Map();
    const at = ctx.now();
    for (const b of SIM_BOTS) {
      if (!s.profiles.some((p) => p.id === b.id)) {
        const p: Profile = {
          id: b.id,
          name: b.name,
          role: b.role === 'quoter' ? 'market_maker' : 'trader',
          address: b.address,
          feeRateBps: b.role === 'quoter' ? 0 : 300,
          displayName: b.name,
          createdAt: new Date(at).toISOString(),
        };
        commit(s, { type: 'profile.created', at, profile: p });
        commit(s, { type: 'funds.deposited', at, profileId: b.id, amount: BOT_FUNDING, txHash: fundingTx() });
      }
    }
    ctx.persist();
  };

  const topUp = (s: SandboxState, profileId: number): void => {
    const a = s.accounts[String(profileId)];
    if (profileId === BOB || !a || a.usdc - a.lockedUsdc >= LOW_WATER) return;
    commit(s, { type: 'funds.deposited', at: ctx.now(), profileId, amount: BOT_FUNDING, txHash: fundingTx() });
  };

  const place = (
    s: SandboxState,
    input: Omit<SubmitInput, 'signedOrder' | 'makerAmount' | 'takerAmount' | 'clientOrderId' | 'feeRateBps' | 'postOnly'> & {
      postOnly?: boolean;
    },
  ): string | null => {
    const owner = s.profiles.find((p) => p.id === input.ownerId);
    if (!owner || input.price === null) return null;
    const collateral = input.side === 'BUY' ? buyLock(input.size, input.price) : (input.size * input.price) / ONE;
    const makerAmount = input.side === 'BUY' ? collateral : input.size;
    const takerAmount = input.side === 'BUY' ? input.size : collateral;
    seq += 1;
    const r = submitOrder(
      s,
      {
        ...input,
        postOnly: input.postOnly ?? false,
        makerAmount,
        takerAmount,
        clientOrderId: `sim-${tag}-${seq}`,
        feeRateBps: owner.feeRateBps,
        signedOrder: {
          maker: owner.address,
          signer: owner.address,
          tokenId: input.tokenId,
          makerAmount: makerAmount.toString(),
          takerAmount: takerAmount.toString(),
          side: input.side === 'BUY' ? 0 : 1,
          price: Number(input.price) / 1e6,
          feeRateBps: owner.feeRateBps,
          signatureType: 0,
          signature: null,
          simulated: true,
        },
      },
      ctx.now(),
    );
    if (!r.ok) return null; // refused (balance, post-only would cross…): nothing changed
    actions += 1;
    ctx.persist();
    for (const e of r.events) ctx.emit(e);
    if (r.order.tradeEventId !== null) scheduleSettlement(ctx, r.order.id);
    return r.order.status === 'LIVE' ? r.order.id : null;
  };

  const cancel = (s: SandboxState, profileId: number, orderId: string): void => {
    const r = cancelOrder(s, orderId, profileId, ctx.now());
    if (!r.ok) return;
    actions += 1;
    ctx.persist();
    for (const e of r.events) ctx.emit(e);
  };

  /** A quoter refreshes one side of one market: cancels its oldest quote there when it has enough, posts a new one. */
  const quote = (s: SandboxState, m: MarketRecord, f: bigint): void => {
    const [yes, no] = m.positionIds ?? ['', ''];
    const owner = pick(quoters);
    const bid = rnd() < 0.5;
    const key = `${owner}|${m.slug}|${bid ? 'YES' : 'NO'}`;
    const live = (quotes.get(key) ?? []).filter((id) => orderById(s, id)?.status === 'LIVE');
    if (live.length >= QUOTES_PER_SIDE) {
      const oldest = live.shift();
      if (oldest !== undefined) cancel(s, owner, oldest);
    }
    // Inside the spread at most, never through it: post-only would refuse a crossing quote anyway.
    const mid = yesMidpoint(s, m.slug) ?? f;
    const off = BigInt(between(1, 6)) * PRICE_TICK;
    let yesPrice = clampPrice(bid ? f - off : f + off);
    if (bid && yesPrice >= mid + 5n * PRICE_TICK) yesPrice = clampPrice(mid - PRICE_TICK);
    if (!bid && yesPrice <= mid - 5n * PRICE_TICK) yesPrice = clampPrice(mid + PRICE_TICK);
    const size = BigInt(between(5, 60)) * ONE;
    // A bid is a BUY YES at p; an ask is a BUY NO at 1 − p: quoters need USDC only.
    const id = place(s, {
      ownerId: owner,
      marketSlug: m.slug,
      tokenId: bid ? yes : no,
      side: 'BUY',
      orderType: 'GTC',
      price: bid ? yesPrice : ONE - yesPrice,
      size,
      postOnly: true,
    });
    if (id !== null) live.push(id);
    quotes.set(key, live);
  };

  /** A taker buys at the best ask (or sells what it holds at the best bid) with a FAK order. */
  const take = (s: SandboxState, m: MarketRecord, f: bigint): void => {
    const [yes, no] = m.positionIds ?? ['', ''];
    const owner = pick(takers);
    topUp(s, owner);
    const acct = s.accounts[String(owner)];
    const held = (t: string): bigint => {
      const p = acct?.positions[t];
      return p ? p.shares - p.locked : 0n;
    };
    const outcomeYes = rnd() < 0.5;
    const token = outcomeYes ? yes : no;
    const tokenFair = outcomeYes ? f : ONE - f;
    const sell = held(token) >= ONE && rnd() < 0.45;
    let size = BigInt(between(1, 25)) * ONE;
    if (sell && size > held(token)) size = (held(token) / SIZE_STEP) * SIZE_STEP;
    if (size <= 0n) return;
    // Never against itself: takers rest nothing, and the top of the book must be someone else's.
    const best = topOwner(s, m, token, sell ? 'SELL' : 'BUY');
    if (best === owner) return;
    const slack = BigInt(between(2, 12)) * PRICE_TICK;
    const limit = clampPrice(sell ? tokenFair - slack : tokenFair + slack);
    const before = m.lastTradePrice;
    place(s, { ownerId: owner, marketSlug: m.slug, tokenId: token, side: sell ? 'SELL' : 'BUY', orderType: 'FAK', price: limit, size });
    // The fair price follows the trades a little, and wanders.
    const last = marketBySlug(s, m.slug)?.lastTradePrice ?? before;
    const drift = BigInt(between(-2, 2)) * PRICE_TICK;
    const next = last !== null && last !== before ? (f * 3n + last) / 4n + drift : f + drift;
    fair.set(m.slug, clampPrice((next / PRICE_TICK) * PRICE_TICK));
  };

  const tick = (): void => {
    timer = null;
    if (stopped) return;
    try {
      if (state !== ctx.state) setUp(ctx.state);
      const s = ctx.state;
      const now = ctx.now();
      const markets = s.markets.filter((m) => tradable(m, now));
      if (markets.length > 0) {
        const m = markets[cursor % markets.length] as MarketRecord;
        cursor += 1;
        const f = fair.get(m.slug) ?? clampPrice(((yesMidpoint(s, m.slug) ?? m.lastTradePrice ?? ONE / 2n) / PRICE_TICK) * PRICE_TICK);
        fair.set(m.slug, f);
        if (rnd() < 0.55) quote(s, m, f);
        else take(s, m, f);
      }
    } catch {
      // A failed commit (disk full…) or a state mid-reset: skip this action, try the next one.
    }
    if (!stopped) timer = setTimeout(tick, 1000 / rate);
  };

  setUp(ctx.state);
  timer = setTimeout(tick, 1000 / rate);
  return {
    rate,
    accounts: [{ name: 'bob', profileId: BOB, role: 'quoter' }, ...SIM_BOTS.map((b) => ({ name: b.name, profileId: b.id, role: b.role }))],
    get actions() {
      return actions;
    },
    get running() {
      return timer !== null && !stopped;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** The owner of the first resting order a taker on `token`/`side` would hit in the direct book, or null. */
function topOwner(s: SandboxState, m: MarketRecord, token: string, side: 'BUY' | 'SELL'): number | null {
  const levels = sideBook(s, m.slug, token, side === 'BUY' ? 'SELL' : 'BUY').levels;
  const level = side === 'BUY' ? levels[0] : levels[levels.length - 1];
  if (!level) return null;
  for (const o of levelOrders(s, level)) return o.ownerId;
  return null;
}
