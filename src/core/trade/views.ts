// The documented JSON of orders (amounts as decimal strings plus raw integers), shared by the
// CLI's --json output and the library's return values, so a bot and a script read one shape.
import { formatUnits } from '../money.js';
import type { OpenOrder, OrderSummary, Placed, StatusResult } from './index.js';
import { parsePlaced } from './place.js';

/**
 * The documented JSON of one placed order (amounts as decimal strings plus raw integers).
 * The order's fields are the exchange's (`p.order`), never the request's: a re-run reports
 * the order that exists.
 */
export function placedJson(p: Placed, _s: OrderSummary | null = null): Record<string, unknown> {
  const t = p.totals;
  const avg = t.contractsGross > 0n ? formatUnits((t.usdGross * 1_000_000n) / t.contractsGross) : null;
  const v = p.order;
  return {
    orderId: p.orderId,
    clientOrderId: p.clientOrderId,
    market: p.marketSlug,
    side: v.side,
    outcome: v.outcome,
    type: v.type,
    price: v.price,
    size: v.size,
    amount: v.amount,
    matched: p.matched,
    settlementStatus: p.settlementStatus,
    reason: p.reason,
    filled: {
      shares: formatUnits(t.contractsNet),
      sharesRaw: t.contractsNet.toString(),
      averagePrice: avg,
      usd: formatUnits(t.usdGross),
      usdRaw: t.usdGross.toString(),
      fee: formatUnits(t.usdFee),
      feeRaw: t.usdFee.toString(),
      net: formatUnits(t.usdNet),
      netRaw: t.usdNet.toString(),
    },
    makerMatches: p.makerMatches,
    alreadyPlaced: p.alreadyPlaced,
  };
}

export interface OpenOrderJson {
  id: string;
  clientOrderId: string | null;
  market: string;
  side: string;
  outcome: string;
  type: string;
  price: string;
  size: string;
  sizeRaw: string;
  remaining: string;
  remainingRaw: string;
  status: string;
  createdAt: string;
}

/** One open (or, with all statuses, any) order of `pm order list --json`. */
export function openOrderJson(o: OpenOrder, market: string): OpenOrderJson {
  return {
    id: o.id,
    clientOrderId: o.clientOrderId,
    market,
    side: o.side,
    outcome: o.outcome,
    type: o.type,
    price: o.price,
    size: formatUnits(o.originalSize),
    sizeRaw: o.originalSize.toString(),
    remaining: formatUnits(o.remainingSize),
    remainingRaw: o.remainingSize.toString(),
    status: o.status,
    createdAt: o.createdAt,
  };
}

/** One row of `pm order status --json`: the order as placedJson shows it, or why it was not found. */
export function statusJson(r: StatusResult): Record<string, unknown> {
  if (r.status !== 'found' || !r.data)
    return { found: false, status: r.status, orderId: r.orderId, clientOrderId: r.clientOrderId, error: r.error };
  const order = (r.data['order'] ?? {}) as Record<string, unknown>;
  const market = (order['market'] ?? {}) as Record<string, unknown>;
  const slug = typeof market['slug'] === 'string' ? market['slug'] : '';
  return {
    found: true,
    ...placedJson(parsePlaced(r.data, r.clientOrderId ?? '', slug, false, 0), null),
    status: typeof order['status'] === 'string' ? order['status'] : null,
  };
}
