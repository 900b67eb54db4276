// Settlement lifecycle of a matched trade: MATCHED (at match time, in the HTTP answer) → MINED
// (txHash set) → CONFIRMED, each step one logged event, which the streams announce as a SETTLEMENT
// orderEvent to the taker and every maker of the trade. The delays come from ctx.settlement. A trade is driven by
// its taker order's execution; each order involved keeps the trade in its own `trades` list, so
// an order that trades again (as maker or taker) never stalls or overwrites an earlier trade.
import { keccak256, toHex } from 'viem';
import { orderById } from './indexes.js';
import type { Hex, OrderRecord, SettlementStatus } from './types.js';
import type { SandboxContext } from './handlers.js';

const RANK: Partial<Record<SettlementStatus, number>> = { MATCHED: 1, MINED: 2, CONFIRMED: 3 };

/** The fake but stable transaction hash of a trade: keccak256 of its trade id. */
export function txHashForTrade(tradeEventId: string): Hex {
  return keccak256(toHex(`pm-sandbox-trade:${tradeEventId}`));
}

/** The trade an order made as taker (from its execution), or null. */
function takerTradeId(o: OrderRecord): string | null {
  const id = o.execution['tradeEventId'];
  return typeof id === 'string' && id !== '' ? id : null;
}

function takerStatus(o: OrderRecord): SettlementStatus {
  return (o.execution['settlementStatus'] as SettlementStatus | undefined) ?? o.settlementStatus;
}

function advance(ctx: SandboxContext, takerOrderId: string, to: 'MINED' | 'CONFIRMED'): boolean {
  // Read ctx.state at fire time: a reset may have replaced the state since scheduling.
  const state = ctx.state;
  const taker = orderById(state, takerOrderId);
  const tradeId = taker ? takerTradeId(taker) : null;
  if (!taker || tradeId === null) return false;
  if ((RANK[takerStatus(taker)] ?? 0) >= (RANK[to] ?? 0)) return false;
  const market = state.markets.find((m) => m.slug === taker.marketSlug);
  if (!market) return false;
  const makerIds = new Set(taker.makerMatches.map((m) => m.orderId));
  const makers = [...makerIds].map((id) => orderById(state, id)).filter((o): o is OrderRecord => o !== undefined);
  // Each order's record of this trade advances; order-level fields follow only its latest trade.
  ctx.apply({
    type: 'settlement',
    at: ctx.now(),
    tradeEventId: tradeId,
    takerOrderId: taker.id,
    makerOrderIds: makers.map((o) => o.id),
    to,
    txHash: txHashForTrade(tradeId),
  });
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
    if (takerTradeId(o) === null) continue;
    const status = takerStatus(o);
    if (status === 'MATCHED') scheduleSettlement(ctx, o.id);
    else if (status === 'MINED') scheduleConfirmation(ctx, o.id);
  }
}
