// The documented JSON of orders (amounts as decimal strings plus raw integers), shared by the
// CLI's --json output and the library's return values, so a bot and a script read one shape.
import { formatUnits, parseUnits, priceFromWire, rawFromWire } from '../money.js';
import { UsageError } from '../errors.js';
import type { LineResult } from './batch.js';
import type { CancelOutcome, OpenOrder, OrderView, Placed, StatusResult } from './place.js';
import type { OrderType, Outcome, Side } from './terms.js';
import { parsePlaced } from './place.js';

/** A side as the exchange writes it (BUY/SELL, or 0/1), else null. */
export function sideOf(v: unknown): Side | null {
  return v === 0 || v === 'BUY' || v === 'buy' ? 'BUY' : v === 1 || v === 'SELL' || v === 'sell' ? 'SELL' : null;
}

/** An outcome as the exchange writes it (YES/NO), else null. */
export function outcomeOf(v: unknown): Outcome | null {
  const u = typeof v === 'string' ? v.toUpperCase() : '';
  return u === 'YES' ? 'YES' : u === 'NO' ? 'NO' : null;
}

/** An order type as the exchange writes it (GTC/FOK/FAK), else null. */
function orderTypeOf(v: unknown): OrderType | null {
  const u = typeof v === 'string' ? v.toUpperCase() : '';
  return u === 'GTC' || u === 'FOK' || u === 'FAK' ? u : null;
}

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
export type OrderTerms = Pick<OrderView, 'side' | 'outcome' | 'price' | 'size' | 'amount'> & { type: OrderType | null };

/** How an order executed: matched at once, its settlement, the fill. */
export type ExecutionJson = { matched: boolean; settlementStatus: string; reason: string | null; filled: FilledJson; makerMatches: number };

/** One placed order as `pm --json order place` prints it. */
export type PlacedJson = { orderId: string; clientOrderId: string; market: string } & OrderTerms & {
    /** `size` and `amount` in raw units (6 decimals), as every amount in pm's JSON has beside it. */
    sizeRaw: string | null;
    amountRaw: string | null;
  } & ExecutionJson & {
    alreadyPlaced: boolean;
    /** The order's status as the exchange gave it (LIVE, MATCHED, CANCELED, UNMATCHED…; a re-run: as it stands now). */
    status: string | null;
  };

/** A decimal amount's raw units as a string (null for none, or for text that is not a decimal). */
function rawOfDecimal(d: string | null): string | null {
  if (d === null || !/^\d+(\.\d{1,6})?$/.test(d)) return null;
  return parseUnits(d).toString();
}

/**
 * The documented JSON of one placed order (amounts as decimal strings plus raw integers).
 * The order's fields are the exchange's (`p.order`), never the request's: a re-run reports
 * the order that exists.
 */
export function placedJson(p: Placed): PlacedJson {
  const t = p.totals;
  const avg = t.contractsGross > 0n ? formatUnits((t.usdGross * 1_000_000n) / t.contractsGross) : null;
  const v = p.order;
  return {
    orderId: p.orderId,
    clientOrderId: p.clientOrderId,
    market: p.marketSlug,
    side: v.side,
    outcome: v.outcome,
    type: orderTypeOf(v.type),
    price: v.price,
    size: v.size,
    sizeRaw: rawOfDecimal(v.size),
    amount: v.amount,
    amountRaw: rawOfDecimal(v.amount),
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
    // (For one that already existed, the order as it stands now: a re-run may find it cancelled or filled.)
    status: p.status,
  };
}

/** One order of `pm order list --json` (and the library's `orders.list`). */
export interface OpenOrderJson {
  id: string;
  clientOrderId: string | null;
  market: string;
  side: Side | null;
  outcome: Outcome | null;
  type: OrderType | null;
  /** The limit price, as a decimal. */
  price: string | null;
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
    side: sideOf(o.side),
    outcome: outcomeOf(o.outcome),
    type: orderTypeOf(o.type),
    price: o.price === '' ? null : o.price,
    size: formatUnits(o.originalSize),
    sizeRaw: o.originalSize.toString(),
    remaining: formatUnits(o.remainingSize),
    remainingRaw: o.remainingSize.toString(),
    status: o.status,
    createdAt: o.createdAt,
  };
}

/** One row of `pm order status --json` (and `orders.status`): the order as placedJson shows it, or why it was not found. */
export type StatusJson =
  | ({ found: true } & Omit<PlacedJson, 'status'> & {
        status: string | null;
        /**
         * Shares filled so far, at placement or later as a maker (the order's size less what
         * remains); `filled` is its placement's immediate execution only.
         */
        filledTotal: { shares: string; sharesRaw: string };
      })
  | { found: false; status: string; orderId: string | null; clientOrderId: string | null; error: string | null };

export function statusJson(r: StatusResult): StatusJson {
  if (r.status !== 'found' || !r.data)
    return { found: false, status: r.status, orderId: r.orderId, clientOrderId: r.clientOrderId, error: r.error };
  const order = (r.data['order'] ?? {}) as Record<string, unknown>;
  const market = (order['market'] ?? {}) as Record<string, unknown>;
  const slug = typeof market['slug'] === 'string' ? market['slug'] : '';
  const { status: _s, ...placed } = placedJson(parsePlaced(r.data, r.clientOrderId ?? '', slug, false, 0));
  // (A FOK/FAK has no size left to rest: its fills are its placement's.)
  const original = typeof order['originalSize'] === 'string' && /^\d+$/.test(order['originalSize']) ? BigInt(order['originalSize']) : null;
  const remaining =
    typeof order['remainingSize'] === 'string' && /^\d+$/.test(order['remainingSize']) ? BigInt(order['remainingSize']) : null;
  const total = original !== null && remaining !== null && remaining <= original ? original - remaining : null;
  const immediate = BigInt(placed.filled.sharesRaw);
  const later = total !== null && total > immediate;
  return {
    found: true,
    ...placed,
    ...(later ? { matched: true } : {}),
    settlementStatus: later && typeof order['settlementStatus'] === 'string' ? order['settlementStatus'] : placed.settlementStatus,
    status: typeof order['status'] === 'string' ? order['status'] : null,
    filledTotal: later
      ? { shares: formatUnits(total), sharesRaw: total.toString() }
      : { shares: placed.filled.shares, sharesRaw: placed.filled.sharesRaw },
  };
}

/**
 * What the library's `orders.place` returns (docs/library.md), in the vocabulary every order call
 * of the library shares: `clientId`, `status`, `alreadyPlaced`, `order.id`.
 */
export type PlaceResult = {
  /** The client id the order was placed under (given, or generated). */
  clientId: string;
  /** The order's status as the exchange gave it: LIVE, MATCHED, CANCELED, UNMATCHED… ('UNKNOWN' when it did not say). */
  status: string;
  /** An earlier call (or run) had placed this order: nothing new was placed. */
  alreadyPlaced: boolean;
  /** The order's terms; `size` and `amount` with their raw units beside them, as in `pm --json order place`. */
  order: { id: string; market: string } & OrderTerms & Pick<PlacedJson, 'sizeRaw' | 'amountRaw'>;
  execution: ExecutionJson;
};

/** placedJson's fields in the library's vocabulary (`r.order.id`, `r.clientId`, `r.status`, `r.execution`, `r.alreadyPlaced`). */
export function placeResult(j: PlacedJson): PlaceResult {
  return {
    clientId: j.clientOrderId,
    status: j.status ?? 'UNKNOWN',
    alreadyPlaced: j.alreadyPlaced,
    order: {
      id: j.orderId,
      market: j.market,
      side: j.side,
      outcome: j.outcome,
      type: j.type,
      price: j.price,
      size: j.size,
      sizeRaw: j.sizeRaw,
      amount: j.amount,
      amountRaw: j.amountRaw,
    },
    execution: {
      matched: j.matched,
      settlementStatus: j.settlementStatus,
      reason: j.reason,
      filled: j.filled,
      makerMatches: j.makerMatches,
    },
  };
}

/**
 * One order of a cancel, in the library's vocabulary. Not found (filled, cancelled before, or
 * never this account's) is an entry with status NOT_FOUND, in every call: never an exception.
 */
export interface CancelEntry {
  order: { id: string; market: string | null };
  /** The order's client id, when the call knew it (the exchange's cancel answers name ids only). */
  clientId: string | null;
  status: 'CANCELLED' | 'NOT_FOUND' | 'FAILED';
  /** Cancelled before this call (an earlier cancel whose outcome was unknown ended it): nothing left to do. */
  alreadyCancelled?: true;
  /** Why not: the exchange's reason code (ORDER_NOT_FOUND…) and message; null when cancelled. */
  error: { code: string; message: string } | null;
}

/** What `orders.cancel` returns: one entry per order asked for. */
export interface CancelResult {
  results: CancelEntry[];
}

/** A cancel answer as entries (the ids asked for that the exchange names in neither list are FAILED: it did not say). */
export function cancelEntries(r: CancelOutcome, market: string | null, asked: string[] = []): CancelEntry[] {
  const entries: CancelEntry[] = [
    ...r.canceled.map((id) => ({ order: { id, market }, clientId: null, status: 'CANCELLED' as const, error: null })),
    ...(r.alreadyCanceled ?? []).map((id) => ({
      order: { id, market },
      clientId: null,
      status: 'CANCELLED' as const,
      alreadyCancelled: true as const,
      error: null,
    })),
    ...r.failed.map((f) => ({
      order: { id: f.orderId, market },
      clientId: null,
      status: f.reason === 'ORDER_NOT_FOUND' ? ('NOT_FOUND' as const) : ('FAILED' as const),
      error: { code: f.reason || 'FAILED', message: f.message },
    })),
  ];
  for (const id of asked)
    if (!entries.some((e) => e.order.id === id))
      entries.push({
        order: { id, market },
        clientId: null,
        status: 'FAILED',
        error: { code: 'UNKNOWN', message: 'the exchange did not say' },
      });
  return entries;
}

/** One result of `orders.placeBatch`, in the vocabulary of `orders.place`. */
export type BatchResult =
  | ({ line: number; ok: true; skipped: boolean } & Omit<PlaceResult, 'execution'> & {
        /** null: a line an earlier run placed, known from the journal only (the exchange could not be asked). */
        execution: ExecutionJson | null;
      })
  | {
      line: number;
      ok: false;
      clientId: string | null;
      /** Whether the line's request reached the exchange: yes, no, or unknown (send it again under its clientId). */
      sent: 'yes' | 'no' | 'unknown';
      error: { code: string; message: string; status?: number };
    };

export function batchResult(r: LineResult): BatchResult {
  if ('dryRun' in r) throw new UsageError('a dry run has no batch result');
  if (!r.ok)
    return {
      line: r.line,
      ok: false,
      clientId: r.clientOrderId ?? null,
      sent: r.sent,
      error: { code: r.error.code, message: r.error.shortMessage, ...(r.error.status !== undefined ? { status: r.error.status } : {}) },
    };
  const p = placeResult(placedJson(r.placed));
  return { line: r.line, ok: true, skipped: r.skipped === true, ...p, execution: r.skipped && r.known === 'journal' ? null : p.execution };
}

/** One live order of the portfolio (every market) in the shape of `pm order list --json`. */
export function liveOrderJson(o: Record<string, unknown>): OpenOrderJson {
  const size = rawFromWire(o['originalSize']);
  const remaining = rawFromWire(o['remainingSize']);
  const price = priceFromWire(o['price']);
  return {
    id: String(o['id'] ?? ''),
    clientOrderId: typeof o['clientOrderId'] === 'string' ? o['clientOrderId'] : null,
    market: String(o['market'] ?? ''),
    side: sideOf(o['side']),
    outcome: outcomeOf(o['token']),
    type: orderTypeOf(o['type']),
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
export type BatchLineJson =
  | { line: number; dryRun: true; body: unknown }
  | ({ line: number; ok: true; skipped?: true } & (PlacedJson | (Omit<PlacedJson, 'matched' | 'filled'> & { matched: null; filled: null })))
  | {
      line: number;
      ok: false;
      clientOrderId?: string;
      /** Whether the line's request reached the exchange: yes, no, or unknown (look it up by its client id). */
      sent: 'yes' | 'no' | 'unknown';
      error: { code: string; message: string; status?: number };
    };

export function batchLineJson(r: LineResult): BatchLineJson {
  if ('dryRun' in r) return { line: r.line, dryRun: true, body: r.body };
  if (r.ok) {
    const j = { line: r.line, ok: true as const, ...(r.skipped ? { skipped: true as const } : {}), ...placedJson(r.placed) };
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
