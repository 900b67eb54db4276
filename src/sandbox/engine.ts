// The sandbox's matching engine: pure decisions over SandboxState (no HTTP, no timers, no
// writes). It answers either a refusal (a reason and a message; routes turn reasons into HTTP
// statuses) or the event that carries the decision out (order.placed, order.cancelled), which
// the caller hands to ctx.apply. Orders are planned first (match.ts) and decided only when
// every check passes, so a refused or killed order changes no balance.
import { randomUUID } from 'node:crypto';
import { ONE, buyLock, formatRaw } from './orders/amounts.js';
import { takerTrade } from './orders/trades.js';
import { ledgerProblems } from './ledger.js';
import { type MatchInput, type Plan, type PlannedFill, type Totals, outcomeOf, planOrder, sumTotals } from './match.js';
import { marketBySlug, orderById } from './indexes.js';
import type { MakerMatch, MarketRecord, OrderRecord, Outcome, Position, SandboxState } from './types.js';
import type { Fill, OrderPlaced, StateEvent } from './events.js';

/** What the engine needs to place one order; the route has already checked signature and grid. */
export interface SubmitInput extends MatchInput {
  marketSlug: string;
  takerAmount: bigint;
  postOnly: boolean;
  clientOrderId: string | null;
  feeRateBps: number;
  /** The order JSON as received (after delegated fill-in); kept for status reads. */
  signedOrder: Record<string, unknown>;
  /** The EIP-712 hash of the signed order (POST /orders), recorded so that it is accepted once. */
  orderHash?: string;
  /** Overrides for deterministic tests and benches. */
  id?: string;
}

/** Why the engine refuses; routes answer MARKET_NOT_FOUND and ORDER_NOT_FOUND with 404, the rest with 400. */
export type RefusalReason =
  | 'MARKET_NOT_FOUND'
  | 'INVALID_ORDER'
  | 'POST_ONLY_WOULD_EXECUTE'
  | 'INSUFFICIENT_BALANCE'
  | 'ORDER_NOT_FOUND'
  | 'ORDER_NOT_LIVE';

export interface Refusal {
  ok: false;
  reason: RefusalReason;
  message: string;
}

/** execution.reason (and the taker's EXECUTION event) when self-trade prevention stopped the taker. */
export const STP_TAKER_REJECTED = 'STP_TAKER_REJECTED';

const refuse = (reason: RefusalReason, message: string): Refusal => ({ ok: false, reason, message });

/** The event that cancels a LIVE order (releases its reservation, marks it CANCELED). */
export function cancelEvent(o: OrderRecord, now: number): StateEvent {
  return { type: 'order.cancelled', at: now, orderId: o.id };
}

/** Cancelling one order for `profileId` (the owner or acting-for profile): the event, or why not. */
export function decideCancel(
  state: SandboxState,
  orderId: string,
  profileId: number,
  now: number,
): { ok: true; order: OrderRecord; event: StateEvent } | Refusal {
  const o = orderById(state, orderId);
  if (!o || o.ownerId !== profileId) return refuse('ORDER_NOT_FOUND', `Order ${orderId} not found`);
  if (o.status !== 'LIVE') return refuse('ORDER_NOT_LIVE', `Order ${orderId} cannot be canceled: its status is ${o.status}`);
  return { ok: true, order: o, event: cancelEvent(o, now) };
}

/** What an order was decided to do: its plan, the fills kept and the shares left to rest. */
interface Decision {
  market: MarketRecord;
  outcome: Outcome;
  plan: Plan;
  fills: PlannedFill[];
  totals: Totals;
  rest: bigint;
}

/** The checks before matching and the balance checks after planning: a decision, or why not. */
function decide(state: SandboxState, input: SubmitInput): Decision | Refusal {
  const market = marketBySlug(state, input.marketSlug);
  if (!market) return refuse('MARKET_NOT_FOUND', `Market ${input.marketSlug} not found`);
  const outcome = outcomeOf(market, input.tokenId);
  if (!outcome) return refuse('INVALID_ORDER', `tokenId ${input.tokenId} is not a position of market ${market.slug}`);
  if (input.orderType !== 'FOK' && (input.price === null || input.price <= 0n || input.price > ONE))
    return refuse('INVALID_ORDER', 'price must be in (0, 1]');
  if (input.postOnly && input.orderType !== 'GTC') return refuse('INVALID_ORDER', 'postOnly is only supported for GTC orders');
  const acct = state.accounts[String(input.ownerId)] ?? { profileId: input.ownerId, usdc: 0n, lockedUsdc: 0n, positions: {} };
  const pos: Position = acct.positions[input.tokenId] ?? { shares: 0n, locked: 0n, cost: 0n, realisedPnl: 0n };
  const plan = planOrder(state, market, input);
  // Post-only never executes and never cancels: crossing any resting order, own or not, refuses it.
  if (input.postOnly && (plan.fills.length > 0 || plan.stp.length > 0 || plan.takerRejected))
    return refuse('POST_ONLY_WOULD_EXECUTE', 'Post-only order would execute immediately');
  // Reservations the taker's own crossing orders hold come back before the balance checks.
  let stpUsd = 0n;
  let stpShares = 0n;
  for (const o of plan.stp) {
    if (o.side === 'BUY') stpUsd += buyLock(o.remainingSize, o.price ?? 0n);
    else if (o.tokenId === input.tokenId) stpShares += o.remainingSize;
  }
  if (input.side === 'SELL') {
    const need = input.orderType === 'FOK' ? input.makerAmount : input.size;
    if (pos.shares - pos.locked + stpShares < need) return refuse('INSUFFICIENT_BALANCE', 'Insufficient conditional token balance');
  }
  const fills = input.orderType === 'FOK' && !plan.complete ? [] : plan.fills;
  const totals = sumTotals(fills, input.side, input.feeRateBps);
  // A taker stopped by self-trade prevention never rests (a FOK stopped so is killed whole).
  const rest = input.orderType === 'GTC' && !plan.takerRejected ? plan.remaining : 0n;
  if (input.side === 'BUY') {
    const need = totals.usdNet + (rest > 0n && input.price !== null ? buyLock(rest, input.price) : 0n);
    if (acct.usdc - acct.lockedUsdc + stpUsd < need) return refuse('INSUFFICIENT_BALANCE', 'Insufficient collateral balance');
  }
  return { market, outcome, plan, fills, totals, rest };
}

/**
 * Places an order, as a decision: matches it against resting liquidity and rests a GTC
 * remainder. Returns the order.placed event (balances, positions, maker orders, market stats
 * and the feed change when ctx.apply applies it), or the refusal; `state` is not changed.
 * @example decideOrder(state, { ownerId: 1, marketSlug: 'btc-100k', tokenId, side: 'BUY', orderType: 'GTC', price: 420_000n, size: 10_000_000n, … }, Date.now())
 */
export function decideOrder(state: SandboxState, input: SubmitInput, now: number): { ok: true; event: OrderPlaced } | Refusal {
  const d = decide(state, input);
  if ('ok' in d) return d;
  const nowIso = new Date(now).toISOString();
  const fills: Fill[] = d.fills.map(({ maker, ...f }) => ({ ...f, makerOrderId: maker.id, matchId: randomUUID() }));
  const makerMatches: MakerMatch[] = fills.map((f, i) => ({
    id: f.matchId,
    createdAt: nowIso,
    matchedSize: f.size.toString(),
    orderId: f.makerOrderId,
    price: formatRaw(f.makerPrice),
    ownerId: d.fills[i]?.maker.ownerId ?? 0,
  }));
  const stpCanceled = input.orderType === 'FOK' && !d.plan.complete ? [] : d.plan.stp;
  const order = orderRecord(state, input, d, makerMatches, stpCanceled, nowIso);
  return {
    ok: true,
    event: {
      type: 'order.placed',
      at: now,
      order,
      fills,
      stpCanceled: stpCanceled.map((o) => o.id),
      totals: { contracts: d.totals.contractsGross, usdGross: d.totals.usdGross, usdFee: d.totals.usdFee, usdNet: d.totals.usdNet },
      feed: order.tradeEventId !== null ? feedEntry(state, input, d, nowIso) : null,
    },
  };
}

/** The new order as it stands after matching (status, sizes, execution, maker matches). */
function orderRecord(
  state: SandboxState,
  input: SubmitInput,
  d: Decision,
  makerMatches: MakerMatch[],
  stpCanceled: readonly OrderRecord[],
  nowIso: string,
): OrderRecord {
  const { totals, rest, market } = d;
  const rejected = d.plan.takerRejected;
  const orderId = input.id ?? randomUUID();
  const tradeEventId = makerMatches.length > 0 ? randomUUID() : null;
  const isFok = input.orderType === 'FOK';
  const originalSize = isFok ? (input.side === 'BUY' ? totals.contractsGross : input.makerAmount) : input.size;
  const remainingSize = isFok
    ? input.side === 'BUY'
      ? 0n
      : input.makerAmount - totals.contractsGross
    : input.size - totals.contractsGross;
  const matched = totals.contractsGross > 0n;
  const status: OrderRecord['status'] =
    rest > 0n ? 'LIVE' : matched ? 'MATCHED' : rejected ? 'CANCELED' : input.orderType === 'GTC' ? 'LIVE' : 'UNMATCHED';
  const settlementStatus = matched ? 'MATCHED' : rejected ? 'CANCELED' : 'UNMATCHED';
  const execution: Record<string, unknown> = {
    matched,
    settlementStatus,
    txHash: null,
    feeRateBps: input.feeRateBps,
    effectiveFeeBps: input.feeRateBps,
    totalsRaw: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v.toString()])),
  };
  if (tradeEventId !== null) execution['tradeEventId'] = tradeEventId;
  if (input.clientOrderId !== null) execution['clientOrderId'] = input.clientOrderId;
  if (stpCanceled.length > 0) execution['stpMakerCancels'] = stpCanceled.map((o) => o.id);
  if (rejected) execution['reason'] = STP_TAKER_REJECTED;
  return {
    id: orderId,
    clientOrderId: input.clientOrderId,
    marketSlug: market.slug,
    ownerId: input.ownerId,
    tokenId: input.tokenId,
    outcome: d.outcome,
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
    seq: state.nextSeq,
    signedOrder: input.signedOrder,
    makerMatches,
    execution,
    tradeEventId,
    txHash: null,
    trades: tradeEventId !== null ? [takerTrade(tradeEventId, orderId, totals.contractsGross, totals.usdGross, nowIso)] : [],
    ...(input.orderHash !== undefined ? { orderHash: input.orderHash } : {}),
  };
}

/** The NEW_TRADE feed entry of a matched order. */
function feedEntry(state: SandboxState, input: SubmitInput, d: Decision, nowIso: string): Record<string, unknown> {
  const owner = state.profiles.find((p) => p.id === input.ownerId);
  return {
    eventType: 'NEW_TRADE',
    timestamp: nowIso,
    marketSlug: d.market.slug,
    user: {
      id: input.ownerId,
      account: owner?.address ?? null,
      name: owner?.displayName ?? owner?.name ?? '',
      rankName: 'Bronze',
      points: '0',
    },
    data: {
      title: d.market.title,
      strategy: input.side === 'BUY' ? 'Buy' : 'Sell',
      outcome: d.outcome,
      address: owner?.address ?? null,
      contracts: formatRaw(d.totals.contractsGross),
      tradeAmount: formatRaw(d.totals.usdGross),
      tradeAmountUSD: formatRaw(d.totals.usdGross),
      marketId: d.market.id,
    },
  };
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
