// Per-trade records of orders: each trade keeps its own id, tx hash and settlement status, on
// the taker and on every maker it hit, so a maker hit by several takers loses none of them.
import { ONE, formatRaw } from './amounts.js';
import type { OrderRecord, OrderTrade, SettlementStatus } from '../types.js';

/** Appends a trade to an order's list (creating the list for orders from older state). */
export function addTrade(o: OrderRecord, t: Omit<OrderTrade, 'settlementStatus' | 'txHash'>): void {
  (o.trades ??= []).push({ ...t, settlementStatus: 'MATCHED', txHash: null });
}

/** The taker's own trade of one submission: total shares at the average price. */
export function takerTrade(tradeEventId: string, takerOrderId: string, contracts: bigint, usd: bigint, createdAt: string): OrderTrade {
  const price = contracts > 0n ? formatRaw((usd * ONE) / contracts) : '0';
  return {
    id: tradeEventId,
    role: 'taker',
    tradeEventId,
    takerOrderId,
    matchedSize: contracts.toString(),
    price,
    settlementStatus: 'MATCHED',
    txHash: null,
    createdAt,
  };
}

/**
 * Moves one trade of an order to `status`. The order-level settlementStatus and txHash follow
 * only the order's latest trade. Returns whether the order had that trade.
 */
export function settleTrade(o: OrderRecord, tradeEventId: string, status: SettlementStatus, txHash: string, nowIso: string): boolean {
  let found = false;
  for (const t of o.trades ?? []) {
    if (t.tradeEventId !== tradeEventId) continue;
    t.settlementStatus = status;
    t.txHash = txHash;
    found = true;
  }
  if (o.tradeEventId === tradeEventId) {
    o.settlementStatus = status;
    o.txHash = txHash;
    found = true;
  }
  if (found) o.updatedAt = nowIso;
  return found;
}

/** The trades of an order as the status batch and user-orders show them. */
export function tradesView(o: OrderRecord): Record<string, unknown>[] {
  return (o.trades ?? []).map((t) => ({ ...t }));
}
