// The documented JSON of orders (amounts as decimal strings plus raw integers), shared by the
// CLI's --json output and the library's return values, so a bot and a script read one shape.
import { formatUnits, priceFromWire, rawFromWire } from '../money.js';
import type { LineResult, OpenOrder, OrderSummary, OrderView, Placed, StatusResult } from './index.js';
import { parsePlaced } from './place.js';

/** What an order has filled, every amount a decimal string plus its raw integer string. */
export type FilledJson = {
  shares: string;
  sharesRaw: string;
  averagePrice: string | null;
  usd: string;
  usdRaw: string;
  fee: string;
  feeRaw: string;
  net: string;
  netRaw: string;
};

/** An order's terms as the exchange holds them (decimal strings). */
type OrderTerms = Pick<OrderView, 'side' | 'outcome' | 'type' | 'price' | 'size' | 'amount'>;

/** How an order executed: matched at once, its settlement, the fill. */
type ExecutionJson = { matched: boolean; settlementStatus: string; reason: string | null; filled: FilledJson; makerMatches: number };

/** One placed order as `pm --json order place` prints it. */
export type PlacedJson = { orderId: string; clientOrderId: string; market: string } & OrderTerms &
  ExecutionJson & { alreadyPlaced: boolean; status?: string };

/**
 * The documented JSON of one placed order (amounts as decimal strings plus raw integers).
 * The order's fields are the exchange's (`p.order`), never the request's: a re-run reports
 * the order that exists.
 */
export function placedJson(p: Placed, _s: OrderSummary | null = null): PlacedJson {
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
    // The order as it stands now, for one that already existed (a re-run may find it cancelled or filled).
    ...(p.alreadyPlaced && p.status !== null ? { status: p.status } : {}),
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

/** What the library's `orders.place` returns (docs/architecture.md §1b): the order, its execution, and whether a re-send found it. */
export type PlaceResult = {
  order: { id: string; clientOrderId: string; market: string } & OrderTerms;
  execution: ExecutionJson;
  alreadyPlaced: boolean;
};

/** placedJson's fields in the shape of docs/architecture.md §1b (`r.order.id`, `r.execution`, `r.alreadyPlaced`). */
export function placeResult(p: Placed): PlaceResult {
  const j = placedJson(p);
  return {
    order: {
      id: j.orderId,
      clientOrderId: j.clientOrderId,
      market: j.market,
      side: j.side,
      outcome: j.outcome,
      type: j.type,
      price: j.price,
      size: j.size,
      amount: j.amount,
    },
    execution: {
      matched: j.matched,
      settlementStatus: j.settlementStatus,
      reason: j.reason,
      filled: j.filled,
      makerMatches: j.makerMatches,
    },
    alreadyPlaced: j.alreadyPlaced,
  };
}

/** One live order of the portfolio (every market) in the shape of `pm order list --json`. */
export function liveOrderJson(o: Record<string, unknown>): Omit<OpenOrderJson, 'price'> & { price: string | null } {
  const size = rawFromWire(o['originalSize']);
  const remaining = rawFromWire(o['remainingSize']);
  const price = priceFromWire(o['price']);
  return {
    id: String(o['id'] ?? ''),
    clientOrderId: typeof o['clientOrderId'] === 'string' ? o['clientOrderId'] : null,
    market: String(o['market'] ?? ''),
    side: String(o['side'] ?? ''),
    outcome: String(o['token'] ?? ''),
    type: String(o['type'] ?? ''),
    price: price === null ? null : formatUnits(price),
    size: formatUnits(size),
    sizeRaw: size.toString(),
    remaining: formatUnits(remaining),
    remainingRaw: remaining.toString(),
    status: String(o['status'] ?? ''),
    createdAt: String(o['createdAt'] ?? ''),
  };
}

/** One result line of `pm --json order place --file` (and of the library's `orders.placeBatch`). */
export function batchLineJson(r: LineResult): Record<string, unknown> {
  if ('dryRun' in r) return { line: r.line, dryRun: true, body: r.body };
  if (r.ok) {
    const j = { line: r.line, ok: true, ...(r.skipped ? { skipped: true } : {}), ...placedJson(r.placed, r.summary) };
    // Only the request is known (the exchange could not be asked): no claim about the fill.
    return r.skipped && r.known === 'journal' ? { ...j, matched: null, filled: null } : j;
  }
  return {
    line: r.line,
    ok: false,
    ...(r.clientOrderId ? { clientOrderId: r.clientOrderId } : {}),
    sent: r.sent,
    error: { code: r.error.code, message: r.error.shortMessage, ...(r.error.status !== undefined ? { status: r.error.status } : {}) },
  };
}
