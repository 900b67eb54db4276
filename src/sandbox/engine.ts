// The sandbox's matching engine: pure functions over SandboxState (no HTTP, no timers).
//
// One market has two books (YES and NO) that cross each other: a BUY YES at p matches a SELL YES
// at ≤ p directly, and a BUY NO at ≥ 1−p by minting a YES+NO pair (both buyers pay, 1 USDC per
// pair). A SELL YES at p matches a BUY YES at ≥ p directly, and a SELL NO at ≤ 1−p by merging a
// pair back into 1 USDC. Symmetric for NO. Candidates from both books are ranked by the price the
// taker effectively gets, then by seq; every fill executes at the maker's limit price (the taker
// gets the complement on mint/merge). Orders are planned first and committed only when every
// check passes, so a refused or killed order changes no balance.
import { randomUUID } from 'node:crypto';
import { ONE, SIZE_STEP, buyLock, formatRaw, priceNumber, takerFee } from './orders/amounts.js';
import { ledgerProblems } from './ledger.js';
import { takerTrade } from './orders/trades.js';
import { commit, marketBySlug, orderById } from './reducer.js';
import { levelOrders, sideBook, type Level, type SideBook } from './bookindex.js';
import type { MakerMatch, MarketRecord, OrderRecord, OrderType, Outcome, Position, SandboxEvent, SandboxState, Side } from './types.js';

/** What the engine needs to place one order; the route has already checked signature and grid. */
export interface SubmitInput {
  ownerId: number;
  marketSlug: string;
  tokenId: string;
  side: Side;
  orderType: OrderType;
  /** Limit price in micro-units for GTC/FAK; null for FOK. */
  price: bigint | null;
  /** Shares for GTC/FAK (ignored for FOK, which uses makerAmount). */
  size: bigint;
  /** For FOK: USDC to spend (BUY) or shares to sell (SELL). */
  makerAmount: bigint;
  takerAmount: bigint;
  postOnly: boolean;
  clientOrderId: string | null;
  feeRateBps: number;
  /** The order JSON as received (after delegated fill-in); kept for status reads. */
  signedOrder: Record<string, unknown>;
  /**
   * Self-trade prevention when the taker would cross its own resting order: cancel_maker (the
   * default) cancels that order and matches on; cancel_taker stops the taker there (what matched
   * before stands, the rest is cancelled, nothing rests); cancel_both does both.
   */
  stpPolicy?: StpPolicy;
  /** The EIP-712 hash of the signed order (POST /orders), recorded so that it is accepted once. */
  orderHash?: string;
  /** Overrides for deterministic tests and benches. */
  id?: string;
}

export const STP_POLICIES = ['cancel_maker', 'cancel_taker', 'cancel_both'] as const;
/** execution.reason (and the taker's EXECUTION event) when self-trade prevention stopped the taker. */
const STP_TAKER_REJECTED = 'STP_TAKER_REJECTED';
export type StpPolicy = (typeof STP_POLICIES)[number];

/** One executed fill, seen from the taker. */
export interface Fill {
  maker: OrderRecord;
  /** direct: same token, opposite side; mint: both BUY; merge: both SELL. */
  kind: 'direct' | 'mint' | 'merge';
  size: bigint;
  makerPrice: bigint;
  /** Price per share the taker pays (BUY) or receives (SELL). */
  takerPrice: bigint;
  makerUsd: bigint;
  takerUsd: bigint;
  matchId: string;
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

export type SubmitResult =
  | {
      ok: true;
      order: OrderRecord;
      fills: Fill[];
      totals: Totals;
      /** The taker's own resting orders cancelled by self-trade prevention (cancel_maker). */
      stpCanceled: OrderRecord[];
      events: SandboxEvent[];
    }
  | { ok: false; status: number; message: string };

export type CancelResult = { ok: true; order: OrderRecord; events: SandboxEvent[] } | { ok: false; status: number; message: string };

interface Candidate {
  order: OrderRecord;
  price: bigint; // the maker's limit
  eff: bigint; // what the taker pays or receives per share
  kind: Fill['kind'];
}

const EMPTY_POSITION = (): Position => ({ shares: 0n, locked: 0n, cost: 0n, realisedPnl: 0n });

/** YES or NO for a token of a market; null when the token is not one of its positions. */
function outcomeOf(market: MarketRecord, tokenId: string): Outcome | null {
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
function* bookStream(state: SandboxState, book: SideBook, kind: Fill['kind'], side: Side, limit: bigint | null): Generator<Candidate> {
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
function fillUsd(kind: Fill['kind'], size: bigint, makerPrice: bigint): { makerUsd: bigint; takerUsd: bigint } {
  const makerUsd = (size * makerPrice) / ONE;
  return { makerUsd, takerUsd: kind === 'direct' ? makerUsd : size - makerUsd };
}

interface Plan {
  fills: Omit<Fill, 'matchId'>[];
  stp: OrderRecord[];
  /** The taker met its own order under cancel_taker or cancel_both and stopped there. */
  takerRejected: boolean;
  remaining: bigint; // shares not filled (GTC/FAK/FOK SELL)
  complete: boolean; // the whole order filled (FOK BUY: budget spent down to dust)
}

function planOrder(state: SandboxState, market: MarketRecord, input: SubmitInput): Plan {
  const fokBuy = input.orderType === 'FOK' && input.side === 'BUY';
  const limit = input.orderType === 'FOK' ? null : input.price;
  const fills: Omit<Fill, 'matchId'>[] = [];
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

function sumTotals(fills: readonly Omit<Fill, 'matchId'>[], side: Side, feeRateBps: number): Totals {
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

function tokenWord(o: OrderRecord): Outcome {
  return o.outcome;
}

/** Average price per share of the taker's fills, or the limit price when nothing filled. */
function displayPrice(o: OrderRecord, totals?: Totals): number {
  if (o.price !== null) return priceNumber(o.price);
  if (totals && totals.contractsGross > 0n) return priceNumber((totals.usdGross * ONE) / totals.contractsGross);
  return 0;
}

let eventCounter = 0;

/** An OME orderEvent payload (wire-facts §6) for one order. */
export function omeEvent(
  type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION',
  o: OrderRecord,
  market: MarketRecord,
  nowIso: string,
  extra: Record<string, unknown> = {},
): SandboxEvent {
  eventCounter += 1;
  const payload: Record<string, unknown> = {
    source: 'OME',
    type,
    eventId: type === 'EXECUTION' ? `terminal:${o.id}` : `${o.id}:${eventCounter}`,
    marketId: String(market.id),
    marketSlug: market.slug,
    orderId: o.id,
    price: displayPrice(o),
    remainingSize: Number(o.remainingSize),
    side: o.side,
    timestamp: nowIso,
    token: tokenWord(o),
    userId: o.ownerId,
    ...extra,
  };
  if (o.clientOrderId !== null) payload['clientOrderId'] = o.clientOrderId;
  return { type: 'orderEvent', profileId: o.ownerId, payload };
}

/** Cancels a LIVE order: releases its reservation and marks it CANCELED (one logged event). */
export function cancelLive(state: SandboxState, o: OrderRecord, now: number): void {
  commit(state, { type: 'order.cancelled', at: now, orderId: o.id });
}

/**
 * Cancels one order on behalf of `profileId` (the owner or acting-for profile).
 * 404 when the order does not exist or belongs to someone else; 400 when it is no longer LIVE.
 */
export function cancelOrder(state: SandboxState, orderId: string, profileId: number, now: number): CancelResult {
  const o = orderById(state, orderId);
  if (!o || o.ownerId !== profileId) return { ok: false, status: 404, message: `Order ${orderId} not found` };
  if (o.status !== 'LIVE') {
    return { ok: false, status: 400, message: `Order ${orderId} cannot be canceled: its status is ${o.status}` };
  }
  cancelLive(state, o, now);
  const market = state.markets.find((m) => m.slug === o.marketSlug);
  const events: SandboxEvent[] = [];
  if (market) {
    events.push(omeEvent('CANCELLATION', o, market, o.updatedAt));
    events.push({ type: 'orderbook', slug: market.slug });
  }
  return { ok: true, order: o, events };
}

function refuse(status: number, message: string): SubmitResult {
  return { ok: false, status, message };
}

/**
 * Places an order: matches it against resting liquidity, rests a GTC remainder, and updates
 * balances, positions, maker orders, market stats and the feed. Mutates `state` only on success.
 * @example submitOrder(state, { ownerId: 1, marketSlug: 'btc-100k', tokenId, side: 'BUY', orderType: 'GTC', price: 420_000n, size: 10_000_000n, … }, Date.now())
 */
export function submitOrder(state: SandboxState, input: SubmitInput, now: number): SubmitResult {
  const market = marketBySlug(state, input.marketSlug);
  if (!market) return refuse(404, `Market ${input.marketSlug} not found`);
  const outcome = outcomeOf(market, input.tokenId);
  if (!outcome) return refuse(400, `tokenId ${input.tokenId} is not a position of market ${market.slug}`);
  if (input.orderType !== 'FOK' && (input.price === null || input.price <= 0n || input.price > ONE)) {
    return refuse(400, 'price must be in (0, 1]');
  }
  if (input.postOnly && input.orderType !== 'GTC') return refuse(400, 'postOnly is only supported for GTC orders');
  const acct = state.accounts[String(input.ownerId)] ?? { profileId: input.ownerId, usdc: 0n, lockedUsdc: 0n, positions: {} };
  const pos = acct.positions[input.tokenId] ?? EMPTY_POSITION();

  const plan = planOrder(state, market, input);
  // Post-only never executes and never cancels: crossing any resting order, own or not, refuses it.
  if (input.postOnly && (plan.fills.length > 0 || plan.stp.length > 0 || plan.takerRejected))
    return refuse(400, 'Post-only order would execute immediately');
  // Reservations the taker's own crossing orders hold come back before the balance checks.
  let stpUsd = 0n;
  let stpShares = 0n;
  for (const o of plan.stp) {
    if (o.side === 'BUY') stpUsd += buyLock(o.remainingSize, o.price ?? 0n);
    else if (o.tokenId === input.tokenId) stpShares += o.remainingSize;
  }
  if (input.side === 'SELL') {
    const need = input.orderType === 'FOK' ? input.makerAmount : input.size;
    if (pos.shares - pos.locked + stpShares < need) return refuse(400, 'Insufficient conditional token balance');
  }

  const killedFok = input.orderType === 'FOK' && !plan.complete;
  const fills = killedFok ? [] : plan.fills;
  const totals = sumTotals(fills, input.side, input.feeRateBps);
  // A taker stopped by self-trade prevention never rests (a FOK stopped so is killed whole).
  const rejected = plan.takerRejected;
  const rest = input.orderType === 'GTC' && !plan.takerRejected ? plan.remaining : 0n;
  if (input.side === 'BUY') {
    const need = totals.usdNet + (rest > 0n && input.price !== null ? buyLock(rest, input.price) : 0n);
    if (acct.usdc - acct.lockedUsdc + stpUsd < need) return refuse(400, 'Insufficient collateral balance');
  }

  // ---- the event (no refusals past this point): decided here, applied by the reducer ----
  const nowIso = new Date(now).toISOString();
  const stpCanceled = killedFok ? [] : plan.stp;
  const orderId = input.id ?? randomUUID();
  const tradeEventId = fills.length > 0 ? randomUUID() : null;
  const doneFills: Fill[] = fills.map((f) => ({ ...f, matchId: randomUUID() }));
  const makerMatches: MakerMatch[] = doneFills.map((f) => ({
    id: f.matchId,
    createdAt: nowIso,
    matchedSize: f.size.toString(),
    orderId: f.maker.id,
    price: formatRaw(f.makerPrice),
    ownerId: f.maker.ownerId,
  }));

  const isFok = input.orderType === 'FOK';
  let originalSize: bigint;
  let remainingSize: bigint;
  if (isFok) {
    originalSize = input.side === 'BUY' ? totals.contractsGross : input.makerAmount;
    remainingSize = input.side === 'BUY' ? 0n : input.makerAmount - totals.contractsGross;
  } else {
    originalSize = input.size;
    remainingSize = input.size - totals.contractsGross;
  }
  const matched = totals.contractsGross > 0n;
  const status: OrderRecord['status'] =
    rest > 0n ? 'LIVE' : matched ? 'MATCHED' : rejected ? 'CANCELED' : input.orderType === 'GTC' ? 'LIVE' : 'UNMATCHED';
  const settlementStatus = matched ? 'MATCHED' : rejected ? 'CANCELED' : 'UNMATCHED';
  const seq = state.nextSeq;
  const execution: Record<string, unknown> = {
    matched,
    settlementStatus,
    txHash: null,
    feeRateBps: input.feeRateBps,
    effectiveFeeBps: input.feeRateBps,
    totalsRaw: {
      contractsGross: totals.contractsGross.toString(),
      contractsFee: totals.contractsFee.toString(),
      contractsNet: totals.contractsNet.toString(),
      usdGross: totals.usdGross.toString(),
      usdFee: totals.usdFee.toString(),
      usdNet: totals.usdNet.toString(),
    },
  };
  if (tradeEventId !== null) execution['tradeEventId'] = tradeEventId;
  if (input.clientOrderId !== null) execution['clientOrderId'] = input.clientOrderId;
  if (stpCanceled.length > 0) execution['stpMakerCancels'] = stpCanceled.map((o) => o.id);
  if (rejected) execution['reason'] = STP_TAKER_REJECTED;

  const draft: OrderRecord = {
    id: orderId,
    clientOrderId: input.clientOrderId,
    marketSlug: market.slug,
    ownerId: input.ownerId,
    tokenId: input.tokenId,
    outcome,
    side: input.side,
    orderType: input.orderType,
    price: isFok ? null : input.price,
    originalSize,
    remainingSize,
    makerAmount: input.makerAmount,
    takerAmount: input.takerAmount,
    postOnly: input.postOnly,
    status,
    settlementStatus,
    createdAt: nowIso,
    updatedAt: nowIso,
    seq,
    signedOrder: input.signedOrder,
    makerMatches,
    execution,
    tradeEventId,
    txHash: null,
    trades: tradeEventId !== null ? [takerTrade(tradeEventId, orderId, totals.contractsGross, totals.usdGross, nowIso)] : [],
    ...(input.orderHash !== undefined ? { orderHash: input.orderHash } : {}),
  };
  let feed: Record<string, unknown> | null = null;
  if (matched) {
    const owner = state.profiles.find((p) => p.id === input.ownerId);
    feed = {
      eventType: 'NEW_TRADE',
      timestamp: nowIso,
      marketSlug: market.slug,
      user: {
        id: input.ownerId,
        account: owner?.address ?? null,
        name: owner?.displayName ?? owner?.name ?? '',
        rankName: 'Bronze',
        points: '0',
      },
      data: {
        title: market.title,
        strategy: input.side === 'BUY' ? 'Buy' : 'Sell',
        outcome,
        address: owner?.address ?? null,
        contracts: formatRaw(totals.contractsGross),
        tradeAmount: formatRaw(totals.usdGross),
        tradeAmountUSD: formatRaw(totals.usdGross),
        marketId: market.id,
      },
    };
  }
  commit(state, {
    type: 'order.placed',
    at: now,
    order: draft,
    fills: doneFills.map((f) => ({
      makerOrderId: f.maker.id,
      kind: f.kind,
      size: f.size,
      makerPrice: f.makerPrice,
      takerPrice: f.takerPrice,
      makerUsd: f.makerUsd,
      takerUsd: f.takerUsd,
      matchId: f.matchId,
    })),
    stpCanceled: stpCanceled.map((o) => o.id),
    totals: { contracts: totals.contractsGross, usdGross: totals.usdGross, usdFee: totals.usdFee, usdNet: totals.usdNet },
    feed,
  });
  const order = state.orders[state.orders.length - 1] ?? draft;

  // ---- what the sockets hear, from the state as it now stands ----
  const events: SandboxEvent[] = [];
  for (const o of stpCanceled) events.push(omeEvent('CANCELLATION', o, market, nowIso, { reason: 'STP_MAKER_CANCELLED' }));
  const touched = new Set<string>(); // profileId:tokenId for position events
  for (const f of doneFills) {
    const m = f.maker;
    touched.add(`${m.ownerId}:${m.tokenId}`);
    events.push(
      m.remainingSize === 0n ? omeEvent('EXECUTION', m, market, nowIso, { status: 'FILLED' }) : omeEvent('UPDATE', m, market, nowIso),
    );
  }
  if (matched) touched.add(`${input.ownerId}:${input.tokenId}`);
  if (status === 'LIVE') {
    events.push(omeEvent('PLACEMENT', order, market, nowIso));
  } else {
    const st = !matched ? 'KILLED' : remainingSize === 0n ? 'FILLED' : 'PARTIALLY_FILLED';
    events.push(
      omeEvent('EXECUTION', order, market, nowIso, {
        status: st,
        price: displayPrice(order, totals),
        ...(rejected && { reason: STP_TAKER_REJECTED }),
      }),
    );
  }
  if (matched)
    events.push(
      ...settlementEvents(
        'MATCHED',
        order,
        market,
        nowIso,
        doneFills.map((f) => f.maker),
      ),
    );

  for (const key of touched) {
    const [pid, tokenId] = key.split(':');
    events.push({ type: 'position', profileId: Number(pid), tokenId: tokenId ?? '' });
  }
  if (status === 'LIVE' || matched || stpCanceled.length > 0) events.push({ type: 'orderbook', slug: market.slug });

  return { ok: true, order, fills: doneFills, totals, stpCanceled, events };
}

/**
 * SETTLEMENT orderEvents for one taker order's trade: one for the taker and one per maker
 * order, each addressed to that order's owner (makers report fee 0).
 */
export function settlementEvents(
  type: 'MATCHED' | 'MINED' | 'CONFIRMED' | 'FAILED',
  taker: OrderRecord,
  market: MarketRecord,
  nowIso: string,
  makers: readonly OrderRecord[] = [],
): SandboxEvent[] {
  const totals = (taker.execution['totalsRaw'] ?? {}) as Record<string, string>;
  const base = {
    source: 'SETTLEMENT',
    type,
    marketSlug: market.slug,
    tradeEventId: taker.tradeEventId,
    takerOrderId: taker.id,
    timestamp: nowIso,
    ...(taker.txHash ? { txHash: taker.txHash } : {}),
    ...(type === 'MATCHED' ? { isEstimate: true } : {}),
  };
  const out: SandboxEvent[] = [
    {
      type: 'orderEvent',
      profileId: taker.ownerId,
      payload: {
        ...base,
        eventId: `${taker.tradeEventId ?? taker.id}:${type}:${taker.id}`,
        orderId: taker.id,
        ...(taker.clientOrderId !== null ? { clientOrderId: taker.clientOrderId } : {}),
        side: taker.side,
        token: taker.outcome,
        tokenId: taker.tokenId,
        price: taker.price !== null ? formatRaw(taker.price) : undefined,
        amountContracts: totals['contractsGross'] ?? '0',
        amountCollateral: totals['usdGross'] ?? '0',
        feeAmountCollateral: totals['usdFee'] ?? '0',
        feeAmountContracts: '0',
        configuredFeeRateBps: taker.execution['feeRateBps'],
        effectiveFeeBps: taker.execution['effectiveFeeBps'],
        makerMatches: taker.makerMatches.map((mm) => ({
          account: '',
          matchedSize: mm.matchedSize,
          orderId: mm.orderId,
          price: mm.price,
        })),
      },
    },
  ];
  const makerById = new Map(makers.map((m) => [m.id, m]));
  for (const mm of taker.makerMatches) {
    const m = makerById.get(mm.orderId);
    out.push({
      type: 'orderEvent',
      profileId: mm.ownerId,
      payload: {
        ...base,
        eventId: `${taker.tradeEventId ?? taker.id}:${type}:${mm.orderId}`,
        orderId: mm.orderId,
        ...(m && m.clientOrderId !== null ? { clientOrderId: m.clientOrderId } : {}),
        ...(m ? { side: m.side, token: m.outcome, tokenId: m.tokenId } : {}),
        price: mm.price,
        amountContracts: mm.matchedSize,
        feeAmountCollateral: '0',
        feeAmountContracts: '0',
      },
    });
  }
  return out;
}

/**
 * Checks the reservation invariants: lockedUsdc = Σ LIVE BUY ceil(remaining·price) and
 * position.locked = Σ LIVE SELL remaining, plus no negative balance, and that the ledgers'
 * projection (projectAccount) agrees with the balances and positions. Returns what is wrong.
 */
export function auditState(state: SandboxState): string[] {
  const problems: string[] = [];
  const wantUsd = new Map<number, bigint>();
  const wantShares = new Map<string, bigint>();
  for (const o of state.orders) {
    if (o.status !== 'LIVE') continue;
    if (o.side === 'BUY') wantUsd.set(o.ownerId, (wantUsd.get(o.ownerId) ?? 0n) + buyLock(o.remainingSize, o.price ?? 0n));
    else wantShares.set(`${o.ownerId}:${o.tokenId}`, (wantShares.get(`${o.ownerId}:${o.tokenId}`) ?? 0n) + o.remainingSize);
  }
  for (const acct of Object.values(state.accounts)) {
    const w = wantUsd.get(acct.profileId) ?? 0n;
    if (acct.lockedUsdc !== w) problems.push(`profile ${acct.profileId}: lockedUsdc ${acct.lockedUsdc} != ${w}`);
    if (acct.usdc < acct.lockedUsdc) problems.push(`profile ${acct.profileId}: usdc ${acct.usdc} < locked ${acct.lockedUsdc}`);
    for (const [tokenId, pos] of Object.entries(acct.positions)) {
      const ws = wantShares.get(`${acct.profileId}:${tokenId}`) ?? 0n;
      if (pos.locked !== ws) problems.push(`profile ${acct.profileId} token ${tokenId}: locked ${pos.locked} != ${ws}`);
      if (pos.shares < pos.locked) problems.push(`profile ${acct.profileId} token ${tokenId}: shares ${pos.shares} < locked`);
    }
  }
  problems.push(...ledgerProblems(state));
  return problems;
}
