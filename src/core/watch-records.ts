// The library's stream records: each socket.io event of the exchange checked at the boundary
// into a typed record, a discriminated union on `event` (and, for order events, on `type`).
// Money and sizes become decimal strings plus …Raw (never the float the wire may carry); the
// payload stays whole in `raw`. An event pm does not know is `{ event: 'other', name, raw }`.
import { bookJson, parseOrderBook } from './market-wire.js';
import type { OrderBookJson } from './market-wire.js';
import { formatUnits, priceFromWire, rawFromWire } from './money.js';
import type { Lifecycle } from './stream.js';
import type { Outcome, Side } from './trade/terms.js';
import { outcomeOf, sideOf } from './trade/views.js';
import { isObj, textOrNull } from './wire.js';
import type { Json } from './wire.js';

/** The matching engine's steps of an order (source OME). */
export type OmeEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION';
/** The settlement steps of a fill (source SETTLEMENT). */
export type SettlementEventType = 'MATCHED' | 'MINED' | 'FAILED';

interface OrderEventBase {
  event: 'orderEvent';
  orderId: string;
  clientOrderId: string | null;
  marketSlug: string | null;
  side: Side | null;
  outcome: Outcome | null;
  /** The limit price (for EXECUTION the average fill; for settlement the fill's), as a decimal. */
  price: string | null;
  /** Absent on replayed records. */
  eventId: string | null;
  timestamp: string | null;
  /** Written by pm's gap fill after a reconnect (the latest state of the order), not live. */
  replayed: boolean;
  raw: Json;
}

/** An OME order event: placed, partly filled (UPDATE), cancelled, or ended (EXECUTION, with its status). */
export interface OmeOrderEvent extends OrderEventBase {
  source: 'OME';
  type: OmeEventType;
  /** Shares still resting, as a decimal plus raw. */
  remainingSize: string | null;
  remainingSizeRaw: string | null;
  /** EXECUTION: FILLED, PARTIALLY_FILLED or KILLED. */
  status: string | null;
  /** CANCELLATION: e.g. STP_MAKER_CANCELLED. */
  reason: string | null;
}

/** A settlement step of a fill: MATCHED (an estimate), MINED (with txHash) or FAILED. */
export interface SettlementOrderEvent extends OrderEventBase {
  source: 'SETTLEMENT';
  type: SettlementEventType;
  tradeEventId: string | null;
  shares: string;
  sharesRaw: string;
  usd: string;
  usdRaw: string;
  fee: string;
  feeRaw: string;
  txHash: string | null;
}

export type OrderEventRecord = OmeOrderEvent | SettlementOrderEvent;

/** One outcome's balance in a positions event. */
export interface PositionBalance {
  tokenId: string;
  outcome: Outcome | null;
  balance: string;
  balanceRaw: string;
  locked: string;
  lockedRaw: string;
}

export interface PositionsRecord {
  event: 'positions';
  marketSlug: string | null;
  account: string | null;
  positions: PositionBalance[];
  timestamp: string | null;
  raw: Json;
}

/** The book of one market (YES), whole, after each change. */
export interface OrderbookUpdateRecord {
  event: 'orderbookUpdate';
  marketSlug: string;
  book: OrderBookJson;
  version: number | null;
  timestamp: string | null;
  raw: Json;
}

export interface NewPriceDataRecord {
  event: 'newPriceData';
  marketSlug: string | null;
  /** YES and NO prices of each market of the update, as decimals. */
  prices: { marketId: string | null; yes: string | null; no: string | null }[];
  timestamp: string | null;
  raw: Json;
}

export interface MarketCreatedRecord {
  event: 'marketCreated';
  slug: string;
  title: string | null;
  raw: Json;
}

export interface MarketResolvedRecord {
  event: 'marketResolved';
  slug: string;
  winningOutcome: Outcome | null;
  raw: Json;
}

/** A connection change of the stream (connected, subscribed, disconnected, reconnected, resubscribed, retrying, caught-up, catch-up-failed). */
export type LifecycleRecord = { event: 'lifecycle' } & Lifecycle;

/** An event pm does not know (or whose shape it could not read), handed on as it came. */
export interface OtherRecord {
  event: 'other';
  name: string;
  raw: Json;
}

export type WatchRecord =
  | OrderEventRecord
  | PositionsRecord
  | OrderbookUpdateRecord
  | NewPriceDataRecord
  | MarketCreatedRecord
  | MarketResolvedRecord
  | LifecycleRecord
  | OtherRecord;

const OME: readonly OmeEventType[] = ['PLACEMENT', 'UPDATE', 'CANCELLATION', 'EXECUTION'];
const SETTLEMENT: readonly SettlementEventType[] = ['MATCHED', 'MINED', 'FAILED'];

const text = (o: Json, k: string): string | null => textOrNull(o[k]);
const decimal = (v: unknown): string | null => {
  const p = priceFromWire(v);
  return p === null ? null : formatUnits(p);
};
const amount = (v: unknown): { dec: string; raw: string } => {
  const r = rawFromWire(v);
  return { dec: formatUnits(r), raw: r.toString() };
};

function orderEvent(ev: Json): OrderEventRecord | OtherRecord {
  const type = text(ev, 'type');
  const orderId = text(ev, 'orderId');
  if (orderId === null) return { event: 'other', name: 'orderEvent', raw: ev };
  const base = {
    event: 'orderEvent' as const,
    orderId,
    clientOrderId: text(ev, 'clientOrderId'),
    marketSlug: text(ev, 'marketSlug'),
    side: sideOf(ev['side']),
    outcome: outcomeOf(ev['token'] ?? ev['outcome']),
    price: decimal(ev['price']),
    eventId: text(ev, 'eventId'),
    timestamp: text(ev, 'timestamp'),
    replayed: ev['replayed'] === true,
    raw: ev,
  };
  const ome = OME.find((t) => t === type);
  if (ome && text(ev, 'source') !== 'SETTLEMENT') {
    const left = ev['remainingSize'] === undefined || ev['remainingSize'] === null ? null : amount(ev['remainingSize']);
    return {
      ...base,
      source: 'OME',
      type: ome,
      remainingSize: left?.dec ?? null,
      remainingSizeRaw: left?.raw ?? null,
      status: text(ev, 'status'),
      reason: text(ev, 'reason'),
    };
  }
  const st = SETTLEMENT.find((t) => t === type);
  if (st) {
    const shares = amount(ev['amountContracts']);
    const usd = amount(ev['amountCollateral']);
    const fee = amount(ev['feeAmountCollateral']);
    return {
      ...base,
      source: 'SETTLEMENT',
      type: st,
      tradeEventId: text(ev, 'tradeEventId'),
      shares: shares.dec,
      sharesRaw: shares.raw,
      usd: usd.dec,
      usdRaw: usd.raw,
      fee: fee.dec,
      feeRaw: fee.raw,
      txHash: text(ev, 'txHash'),
    };
  }
  return { event: 'other', name: 'orderEvent', raw: ev };
}

/**
 * One stream event as its typed record.
 * @example watchRecord('orderEvent', { source: 'OME', type: 'PLACEMENT', orderId: 'o1', price: 0.42, remainingSize: 10000000 }).price // '0.42'
 */
export function watchRecord(name: string, ev: Json): WatchRecord {
  switch (name) {
    case 'orderEvent':
      return orderEvent(ev);
    case 'positions':
      return {
        event: 'positions',
        marketSlug: text(ev, 'marketSlug'),
        account: text(ev, 'account'),
        positions: (Array.isArray(ev['positions']) ? ev['positions'] : []).filter(isObj).map((p) => {
          const balance = amount(p['balance']);
          const locked = amount(p['locked']);
          return {
            tokenId: text(p, 'tokenId') ?? '',
            outcome: outcomeOf(p['outcome']),
            balance: balance.dec,
            balanceRaw: balance.raw,
            locked: locked.dec,
            lockedRaw: locked.raw,
          };
        }),
        timestamp: text(ev, 'timestamp'),
        raw: ev,
      };
    case 'orderbookUpdate': {
      const slug = text(ev, 'marketSlug');
      if (slug === null || !isObj(ev['orderbook'])) return { event: 'other', name, raw: ev };
      return {
        event: 'orderbookUpdate',
        marketSlug: slug,
        book: bookJson(parseOrderBook(slug, ev['orderbook'])),
        version: typeof ev['version'] === 'number' ? ev['version'] : null,
        timestamp: text(ev, 'timestamp'),
        raw: ev,
      };
    }
    case 'newPriceData':
      return {
        event: 'newPriceData',
        marketSlug: text(ev, 'marketSlug'),
        prices: (Array.isArray(ev['updatedPrices']) ? ev['updatedPrices'] : [])
          .filter(isObj)
          .map((p) => ({ marketId: text(p, 'marketId'), yes: decimal(p['yesPrice']), no: decimal(p['noPrice']) })),
        timestamp: text(ev, 'timestamp'),
        raw: ev,
      };
    case 'marketCreated':
      return { event: 'marketCreated', slug: text(ev, 'slug') ?? '', title: text(ev, 'title'), raw: ev };
    case 'marketResolved': {
      const idx = ev['winningIndex'];
      return {
        event: 'marketResolved',
        slug: text(ev, 'slug') ?? '',
        winningOutcome: outcomeOf(ev['winningOutcome']) ?? (idx === 0 ? 'YES' : idx === 1 ? 'NO' : null),
        raw: ev,
      };
    }
    default:
      return { event: 'other', name, raw: ev };
  }
}

/** Stream fields that carry a price (the wire sends a float or a decimal string). */
const STREAM_PRICES = new Set(['price', 'yesPrice', 'noPrice', 'adjustedMidpoint']);
/** Stream fields that carry raw units (6 decimals), as a number or an integer string. */
const STREAM_AMOUNTS = new Set([
  'size',
  'remainingSize',
  'matchedSize',
  'amountContracts',
  'amountCollateral',
  'feeAmountCollateral',
  'feeAmountContracts',
  'balance',
  'locked',
  'minSize',
]);

/**
 * A stream payload under pm's JSON rules (docs/output.md), every other field kept as the
 * exchange sent it: a price becomes a decimal string, an amount in raw units a decimal string
 * plus its `…Raw` sibling. No float is left in what `pm watch --json` prints.
 * @example streamJson({ price: 0.35, remainingSize: 8000000 }) // { price: '0.35', remainingSize: '8', remainingSizeRaw: '8000000' }
 */
export function streamJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(streamJson);
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (STREAM_PRICES.has(k) && (typeof x === 'number' || typeof x === 'string')) {
      out[k] = decimal(x) ?? x;
    } else if (STREAM_AMOUNTS.has(k) && !(`${k}Raw` in v) && (Number.isInteger(x) || (typeof x === 'string' && /^-?\d+$/.test(x)))) {
      const a = amount(x);
      out[k] = a.dec;
      out[`${k}Raw`] = a.raw;
    } else out[k] = streamJson(x);
  }
  return out;
}
