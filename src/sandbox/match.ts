// Matching, read-only: which resting orders a taker would hit and at what prices.
//
// One market has two books (YES and NO) that cross each other: a BUY YES at p matches a SELL YES
// at ≤ p directly, and a BUY NO at ≥ 1−p by minting a YES+NO pair (both buyers pay, 1 USDC per
// pair). A SELL YES at p matches a BUY YES at ≥ p directly, and a SELL NO at ≤ 1−p by merging a
// pair back into 1 USDC. Symmetric for NO. Candidates from both books are ranked by the price the
// taker effectively gets, then by seq; every fill executes at the maker's limit price (the taker
// gets the complement on mint/merge). The engine (engine.ts) decides from the plan.
import { ONE, SIZE_STEP, takerFee } from './orders/amounts.js';
import { levelOrders, sideBook, type Level, type SideBook } from './bookindex.js';
import type { MarketRecord, OrderRecord, OrderType, Outcome, SandboxState, Side } from './types.js';
import type { Fill } from './events.js';

type FillKind = Fill['kind'];

export const STP_POLICIES = ['cancel_maker', 'cancel_taker', 'cancel_both'] as const;
/**
 * Self-trade prevention when the taker would cross its own resting order: cancel_maker (the
 * default) cancels that order and matches on; cancel_taker stops the taker there (what matched
 * before stands, the rest is cancelled, nothing rests); cancel_both does both.
 */
export type StpPolicy = (typeof STP_POLICIES)[number];

/** What matching needs of an order. */
export interface MatchInput {
  ownerId: number;
  tokenId: string;
  side: Side;
  orderType: OrderType;
  /** Limit price in micro-units for GTC/FAK; null for FOK. */
  price: bigint | null;
  /** Shares for GTC/FAK (ignored for FOK, which uses makerAmount). */
  size: bigint;
  /** For FOK: USDC to spend (BUY) or shares to sell (SELL). */
  makerAmount: bigint;
  stpPolicy?: StpPolicy;
}

/** The taker's totals, as in execution.totalsRaw. */
export interface Totals {
  contractsGross: bigint;
  contractsFee: bigint;
  contractsNet: bigint;
  usdGross: bigint;
  usdFee: bigint;
  /** BUY: USDC paid including fee; SELL: USDC received after fee. */
  usdNet: bigint;
}

interface Candidate {
  order: OrderRecord;
  price: bigint; // the maker's limit
  eff: bigint; // what the taker pays or receives per share
  kind: FillKind;
}

/** YES or NO for a token of a market; null when the token is not one of its positions. */
export function outcomeOf(market: MarketRecord, tokenId: string): Outcome | null {
  if (!market.positionIds) return null;
  if (market.positionIds[0] === tokenId) return 'YES';
  if (market.positionIds[1] === tokenId) return 'NO';
  return null;
}

function otherToken(market: MarketRecord, tokenId: string): string {
  const ids = market.positionIds;
  if (!ids) return '';
  return ids[0] === tokenId ? ids[1] : ids[0];
}

/** One book walked from its best level for a taker: the levels in order, each FIFO. */
function* bookStream(state: SandboxState, book: SideBook, kind: FillKind, side: Side, limit: bigint | null): Generator<Candidate> {
  const levels = book.levels;
  // Direct fills take the cheapest asks (BUY) or the highest bids (SELL) at their own price; the
  // complement book's effective price is 1 − p, so its best levels are at the other end.
  const ascending = kind === 'direct' ? side === 'BUY' : side === 'SELL';
  // Levels may leave the array while the caller consumes (they do not: planning is read-only),
  // so walking by position is safe.
  for (let i = 0; i < levels.length; i++) {
    const level = levels[ascending ? i : levels.length - 1 - i] as Level;
    const eff = kind === 'direct' ? level.price : ONE - level.price;
    if (limit !== null && (side === 'BUY' ? eff > limit : eff < limit)) return;
    for (const o of levelOrders(state, level)) yield { order: o, price: level.price, eff, kind };
  }
}

/**
 * Resting liquidity a taker could hit, from both books, best effective price first then oldest
 * (lazily: the caller stops at its size, so only the levels it touches are read).
 */
function* candidates(state: SandboxState, market: MarketRecord, tokenId: string, side: Side, limit: bigint | null): Generator<Candidate> {
  const other = otherToken(market, tokenId);
  const opposite: Side = side === 'BUY' ? 'SELL' : 'BUY';
  // Direct: same token, opposite side. Complement: other token, same side (mint for BUY, merge for SELL).
  const a = bookStream(state, sideBook(state, market.slug, tokenId, opposite), 'direct', side, limit);
  const b = bookStream(state, sideBook(state, market.slug, other, side), side === 'BUY' ? 'mint' : 'merge', side, limit);
  let x = a.next();
  let y = b.next();
  const better = (p: Candidate, q: Candidate): boolean => {
    if (p.eff !== q.eff) return side === 'BUY' ? p.eff < q.eff : p.eff > q.eff;
    return p.order.seq < q.order.seq;
  };
  while (!x.done || !y.done) {
    if (y.done || (!x.done && better(x.value, y.value))) {
      yield x.value as Candidate;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}

/**
 * USDC legs of a fill of `size` against a maker at `makerPrice`. Direct fills move one amount;
 * mint/merge split exactly `size` USDC (one pair per share) between the two sides, so no USDC is
 * created or lost even off the grid.
 */
function fillUsd(kind: FillKind, size: bigint, makerPrice: bigint): { makerUsd: bigint; takerUsd: bigint } {
  const makerUsd = (size * makerPrice) / ONE;
  return { makerUsd, takerUsd: kind === 'direct' ? makerUsd : size - makerUsd };
}

/** A fill as planned: against a resting order, before it has a match id. */
export interface PlannedFill extends Omit<Fill, 'makerOrderId' | 'matchId'> {
  maker: OrderRecord;
}

/** What matching an order would do, decided on the state as it stands (nothing changes). */
export interface Plan {
  fills: PlannedFill[];
  stp: OrderRecord[];
  /** The taker met its own order under cancel_taker or cancel_both and stopped there. */
  takerRejected: boolean;
  remaining: bigint; // shares not filled (GTC/FAK/FOK SELL)
  complete: boolean; // the whole order filled (FOK BUY: budget spent down to dust)
}

export function planOrder(state: SandboxState, market: MarketRecord, input: MatchInput): Plan {
  const fokBuy = input.orderType === 'FOK' && input.side === 'BUY';
  const limit = input.orderType === 'FOK' ? null : input.price;
  const fills: PlannedFill[] = [];
  const stp: OrderRecord[] = [];
  let remaining = input.orderType === 'FOK' ? (fokBuy ? 0n : input.makerAmount) : input.size;
  let budget = fokBuy ? input.makerAmount : 0n;
  let stoppedByBudget = false;
  let lastEff: bigint | null = null;
  let takerRejected = false;
  const policy = input.stpPolicy ?? 'cancel_maker';
  for (const c of candidates(state, market, input.tokenId, input.side, limit)) {
    if (c.order.ownerId === input.ownerId) {
      // Self-trade prevention: cancel_maker (the exchange's default) cancels the resting order and
      // matches on; cancel_taker stops the taker; cancel_both does both.
      if (policy !== 'cancel_taker') stp.push(c.order);
      if (policy === 'cancel_maker') continue;
      takerRejected = true;
      break;
    }
    let size: bigint;
    if (fokBuy) {
      const byBudget = c.eff === 0n ? c.order.remainingSize : ((budget * ONE) / c.eff / SIZE_STEP) * SIZE_STEP;
      size = byBudget < c.order.remainingSize ? byBudget : c.order.remainingSize;
      if (size === 0n) {
        stoppedByBudget = true;
        break;
      }
    } else {
      size = remaining < c.order.remainingSize ? remaining : c.order.remainingSize;
    }
    const { makerUsd, takerUsd } = fillUsd(c.kind, size, c.price);
    fills.push({ maker: c.order, kind: c.kind, size, makerPrice: c.price, takerPrice: c.eff, makerUsd, takerUsd });
    lastEff = c.eff;
    if (fokBuy) {
      budget -= takerUsd;
      if (budget === 0n) {
        stoppedByBudget = true;
        break;
      }
    } else {
      remaining -= size;
      if (remaining === 0n) break;
    }
  }
  let complete: boolean;
  if (fokBuy) {
    // Leftover budget too small to buy one more size step counts as spent (dust).
    complete = fills.length > 0 && (stoppedByBudget || (lastEff !== null && budget * ONE < lastEff * SIZE_STEP));
  } else {
    complete = remaining === 0n;
  }
  return { fills, stp, takerRejected, remaining, complete };
}

export function sumTotals(fills: readonly PlannedFill[], side: Side, feeRateBps: number): Totals {
  let contracts = 0n;
  let usd = 0n;
  for (const f of fills) {
    contracts += f.size;
    usd += f.takerUsd;
  }
  const fee = takerFee(usd, feeRateBps);
  return {
    contractsGross: contracts,
    contractsFee: 0n,
    contractsNet: contracts,
    usdGross: usd,
    usdFee: fee,
    usdNet: side === 'BUY' ? usd + fee : usd - fee,
  };
}
