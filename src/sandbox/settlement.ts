// Settlement lifecycle of a matched trade: MATCHED (at match time, in the HTTP answer) → MINED
// (txHash set) → CONFIRMED, each step persisted and announced as a SETTLEMENT orderEvent to the
// taker and every maker of the trade. The delays come from ctx.settlement.
import { keccak256, toHex } from 'viem';
import { settlementEvents } from './engine.js';
import { commit, orderById } from './reducer.js';
import type { Hex, OrderRecord, SandboxContext, SettlementStatus } from './types.js';

const RANK: Partial<Record<SettlementStatus, number>> = { MATCHED: 1, MINED: 2, CONFIRMED: 3 };

/** The fake but stable transaction hash of a trade: keccak256 of its trade id. */
export function txHashForTrade(tradeEventId: string): Hex {
  return keccak256(toHex(`pm-sandbox-trade:${tradeEventId}`));
}

function isTakerOfTrade(o: OrderRecord): boolean {
  return o.tradeEventId !== null && o.execution['tradeEventId'] === o.tradeEventId;
}

function advance(ctx: SandboxContext, takerOrderId: string, to: 'MINED' | 'CONFIRMED'): boolean {
  // Read ctx.state at fire time: a reset may have replaced the state since scheduling.
  const state = ctx.state;
  const taker = orderById(state, takerOrderId);
  if (!taker || !isTakerOfTrade(taker) || taker.tradeEventId === null) return false;
  if ((RANK[taker.settlementStatus] ?? 0) >= (RANK[to] ?? 0)) return false;
  const market = state.markets.find((m) => m.slug === taker.marketSlug);
  if (!market) return false;
  const tradeId = taker.tradeEventId;
  const hash = txHashForTrade(tradeId);
  const at = ctx.now();
  const nowIso = new Date(at).toISOString();
  const makerIds = new Set(taker.makerMatches.map((m) => m.orderId));
  // A maker that traded again since then follows its newer trade instead.
  const makers = [...makerIds].map((id) => orderById(state, id)).filter((o): o is OrderRecord => o !== undefined && o.tradeEventId === tradeId);
  commit(state, { type: 'settlement', at, takerOrderId: taker.id, makerOrderIds: makers.map((o) => o.id), to, txHash: hash });
  ctx.persist();
  for (const e of settlementEvents(to, taker, market, nowIso, makers)) ctx.emit(e);
  return true;
}

/** Schedules MINED then CONFIRMED for the trade a just-matched taker order made. */
export function scheduleSettlement(ctx: SandboxContext, takerOrderId: string): void {
  ctx.later(ctx.settlement.minedAfterMs, () => {
    if (advance(ctx, takerOrderId, 'MINED')) scheduleConfirmation(ctx, takerOrderId);
  });
}

function scheduleConfirmation(ctx: SandboxContext, takerOrderId: string): void {
  ctx.later(ctx.settlement.confirmedAfterMs, () => {
    advance(ctx, takerOrderId, 'CONFIRMED');
  });
}

/** Re-schedules trades left MATCHED or MINED by a restart (call once after loading state). */
export function resumeSettlement(ctx: SandboxContext): void {
  for (const o of ctx.state.orders) {
    if (!isTakerOfTrade(o)) continue;
    if (o.settlementStatus === 'MATCHED') scheduleSettlement(ctx, o.id);
    else if (o.settlementStatus === 'MINED') scheduleConfirmation(ctx, o.id);
  }
}
