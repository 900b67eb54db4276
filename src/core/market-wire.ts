// The exchange's market objects and order books, checked at the boundary: amounts become bigint
// raw units; and the book as stable JSON.
import { ExchangeError } from './errors.js';
import { formatUnits, priceFromWire, rawFromWire } from './money.js';
import { isObj, textField } from './wire.js';

export type Json = Record<string, unknown>;

/** The fields pm relies on, pulled out of an exchange market object (kept whole in `raw`). */
export interface Market {
  slug: string;
  title: string;
  /** The CTF condition id (0x + 64 hex), when the exchange gives it (a group has none). */
  conditionId: string | null;
  status: string;
  tradeType: string;
  marketType: string;
  expired: boolean;
  expirationTimestamp: number | null;
  categories: string[];
  positionIds: [string, string] | null;
  venue: { exchange: string; adapter: string | null } | null;
  negRisk: boolean;
  /** YES and NO prices in micro-units, when the exchange gives them. */
  prices: [bigint, bigint] | null;
  volume: bigint;
  liquidity: bigint;
  openInterest: bigint;
  winningOutcomeIndex: number | null;
  /** Smallest order in raw share units (settings.minSize), when the exchange gives it. */
  minSize: bigint | null;
  children: Market[];
  raw: Json;
}

const ZERO = '0x0000000000000000000000000000000000000000';

/** Listing prices may be percent ([42.8, 57.2]) or fractions ([0.428, 0.572]). */
function parsePrices(v: unknown): [bigint, bigint] | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const nums = v.slice(0, 2).map((x) => priceFromWire(x));
  if (nums.some((n) => n === null)) return null;
  const [a, b] = nums as [bigint, bigint];
  const percent = v.slice(0, 2).some((x) => Number(x) > 1);
  return percent ? [a / 100n, b / 100n] : [a, b];
}

/** Checks and normalises one market object from the exchange. */
export function parseMarket(v: unknown): Market {
  if (!isObj(v) || typeof v['slug'] !== 'string') throw new ExchangeError('the exchange sent a market without a slug');
  const venueRaw = v['venue'];
  const venue =
    isObj(venueRaw) && typeof venueRaw['exchange'] === 'string'
      ? { exchange: venueRaw['exchange'], adapter: typeof venueRaw['adapter'] === 'string' ? venueRaw['adapter'] : null }
      : null;
  const pos = v['positionIds'];
  const tokens = v['tokens'];
  let positionIds: [string, string] | null = null;
  if (Array.isArray(pos) && pos.length >= 2) positionIds = [String(pos[0]), String(pos[1])];
  else if (isObj(tokens) && tokens['yes'] !== undefined && tokens['no'] !== undefined)
    positionIds = [String(tokens['yes']), String(tokens['no'])];
  const exp = v['expirationTimestamp'];
  const children = Array.isArray(v['markets']) ? v['markets'].filter(isObj).map(parseMarket) : [];
  const win = v['winningOutcomeIndex'];
  return {
    slug: v['slug'],
    title: textField(v, 'title') || v['slug'],
    conditionId: typeof v['conditionId'] === 'string' && v['conditionId'] !== '' ? v['conditionId'] : null,
    status: textField(v, 'status'),
    tradeType: textField(v, 'tradeType'),
    marketType: textField(v, 'marketType'),
    expired: v['expired'] === true,
    expirationTimestamp: typeof exp === 'number' ? exp : null,
    categories: Array.isArray(v['categories']) ? v['categories'].map(String) : [],
    positionIds,
    venue,
    negRisk:
      (typeof v['negRiskRequestId'] === 'string' && v['negRiskRequestId'] !== '') || (venue?.adapter != null && venue.adapter !== ZERO),
    prices: parsePrices(v['prices']),
    volume: rawFromWire(v['volume']),
    liquidity: rawFromWire(v['liquidity']),
    openInterest: rawFromWire(v['openInterest']),
    winningOutcomeIndex: typeof win === 'number' ? win : null,
    minSize: isObj(v['settings']) && /^\d+$/.test(textField(v['settings'], 'minSize')) ? BigInt(textField(v['settings'], 'minSize')) : null,
    children,
    raw: v,
  };
}

export interface BookLevel {
  price: bigint; // micro-units
  size: bigint; // raw shares
}

export interface OrderBook {
  slug: string;
  tokenId: string;
  bids: BookLevel[]; // best first
  asks: BookLevel[]; // best first
  bestBid: bigint | null;
  bestAsk: bigint | null;
  spread: bigint | null;
  midpoint: bigint | null;
  lastTradePrice: bigint | null;
  minSize: bigint;
  bidDepth: bigint; // shares
  askDepth: bigint;
  bidNotional: bigint; // USDC raw
  askNotional: bigint;
}

function levels(v: unknown): BookLevel[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((l) => ({ price: priceFromWire(l['price']) ?? 0n, size: rawFromWire(l['size']) }));
}

const sum = (ls: BookLevel[], f: (l: BookLevel) => bigint): bigint => ls.reduce((acc, l) => acc + f(l), 0n);
const depth = (bids: BookLevel[], asks: BookLevel[]): Pick<OrderBook, 'bidDepth' | 'askDepth' | 'bidNotional' | 'askNotional'> => ({
  bidDepth: sum(bids, (l) => l.size),
  askDepth: sum(asks, (l) => l.size),
  bidNotional: sum(bids, (l) => (l.size * l.price) / 1_000_000n),
  askNotional: sum(asks, (l) => (l.size * l.price) / 1_000_000n),
});

/** Checks the exchange's YES order book answer and adds spread, midpoint and depth, all exact. */
export function parseOrderBook(slug: string, d: unknown): OrderBook {
  if (!isObj(d)) throw new ExchangeError('unexpected order book answer');
  const bids = levels(d['bids']).sort((a, b) => (b.price > a.price ? 1 : b.price < a.price ? -1 : 0));
  const asks = levels(d['asks']).sort((a, b) => (a.price > b.price ? 1 : a.price < b.price ? -1 : 0));
  const bestBid = bids[0]?.price ?? null;
  const bestAsk = asks[0]?.price ?? null;
  return {
    slug,
    tokenId: textField(d, 'tokenId'),
    bids,
    asks,
    bestBid,
    bestAsk,
    spread: bestBid !== null && bestAsk !== null ? bestAsk - bestBid : null,
    midpoint: bestBid !== null && bestAsk !== null ? (bestBid + bestAsk) / 2n : (priceFromWire(d['adjustedMidpoint']) ?? null),
    lastTradePrice: priceFromWire(d['lastTradePrice']),
    minSize: rawFromWire(d['minSize']),
    ...depth(bids, asks),
  };
}

/**
 * The NO side of a YES book: a YES bid at p is a NO ask at 1 - p (and a YES ask a NO bid), so
 * the NO book is the YES book mirrored; sizes are the same shares.
 */
export function noBook(b: OrderBook, noTokenId: string): OrderBook {
  const flip = (l: BookLevel): BookLevel => ({ price: 1_000_000n - l.price, size: l.size });
  const flipP = (p: bigint | null): bigint | null => (p === null ? null : 1_000_000n - p);
  const bids = b.asks.map(flip);
  const asks = b.bids.map(flip);
  return {
    ...b,
    tokenId: noTokenId,
    bids,
    asks,
    bestBid: bids[0]?.price ?? null,
    bestAsk: asks[0]?.price ?? null,
    spread: b.spread,
    midpoint: flipP(b.midpoint),
    lastTradePrice: flipP(b.lastTradePrice),
    ...depth(bids, asks),
  };
}

/** One level of a book as JSON: price and size as decimals, the size also raw. */
export interface BookLevelJson {
  price: string;
  size: string;
  sizeRaw: string;
}

/** An order book as `pm --json book` prints it (and the library's `markets.book` returns, with its `outcome`). */
export interface OrderBookJson {
  slug: string;
  tokenId: string;
  /** Best first. */
  bids: BookLevelJson[];
  /** Best first. */
  asks: BookLevelJson[];
  bestBid: string | null;
  bestAsk: string | null;
  spread: string | null;
  midpoint: string | null;
  lastTradePrice: string | null;
  minSize: string;
  minSizeRaw: string;
  depth: {
    bids: string;
    asks: string;
    bidsRaw: string;
    asksRaw: string;
    bidNotional: string;
    askNotional: string;
    bidNotionalRaw: string;
    askNotionalRaw: string;
  };
}

/** The book as stable JSON: decimals for people, raw integers (strings) for programs. */
export function bookJson(b: OrderBook): OrderBookJson {
  const lvl = (l: BookLevel): BookLevelJson => ({ price: formatUnits(l.price), size: formatUnits(l.size), sizeRaw: l.size.toString() });
  const dec = (v: bigint | null): string | null => (v === null ? null : formatUnits(v));
  return {
    slug: b.slug,
    tokenId: b.tokenId,
    bids: b.bids.map(lvl),
    asks: b.asks.map(lvl),
    bestBid: dec(b.bestBid),
    bestAsk: dec(b.bestAsk),
    spread: dec(b.spread),
    midpoint: dec(b.midpoint),
    lastTradePrice: dec(b.lastTradePrice),
    minSize: formatUnits(b.minSize),
    minSizeRaw: b.minSize.toString(),
    depth: {
      bids: formatUnits(b.bidDepth),
      asks: formatUnits(b.askDepth),
      bidsRaw: b.bidDepth.toString(),
      asksRaw: b.askDepth.toString(),
      bidNotional: formatUnits(b.bidNotional),
      askNotional: formatUnits(b.askNotional),
      bidNotionalRaw: b.bidNotional.toString(),
      askNotionalRaw: b.askNotional.toString(),
    },
  };
}

/** A market as the library returns it: pm's checked fields (money as a decimal string plus …Raw), and the exchange's object in `raw`. */
export interface MarketJson {
  slug: string;
  title: string;
  conditionId: string | null;
  status: string;
  tradeType: string;
  marketType: string;
  expired: boolean;
  /** Epoch ms, when the exchange gives it. */
  expirationTimestamp: number | null;
  categories: string[];
  /** The ERC-1155 position ids of YES and NO (what the exchange calls tokens). */
  positionIds: { yes: string; no: string } | null;
  venue: { exchange: string; adapter: string | null } | null;
  negRisk: boolean;
  /** The last YES and NO prices, as decimals. */
  prices: { yes: string; no: string } | null;
  volume: string;
  volumeRaw: string;
  liquidity: string;
  liquidityRaw: string;
  openInterest: string;
  openInterestRaw: string;
  /** The winner of a resolved market. */
  winningOutcome: 'YES' | 'NO' | null;
  /** The smallest order in shares, when the exchange gives it. */
  minSize: string | null;
  minSizeRaw: string | null;
  /** A group's child markets (orders go to these). */
  children: MarketJson[];
  /** The exchange's object, whole (unchecked). */
  raw: Json;
}

/** A parsed market as JSON (see MarketJson). @example marketJson(parseMarket(answer)).prices?.yes // '0.42' */
export function marketJson(m: Market): MarketJson {
  const money = <K extends string>(k: K, v: bigint) =>
    ({ [k]: formatUnits(v), [`${k}Raw`]: v.toString() }) as Record<K | `${K}Raw`, string>;
  return {
    slug: m.slug,
    title: m.title,
    conditionId: m.conditionId,
    status: m.status,
    tradeType: m.tradeType,
    marketType: m.marketType,
    expired: m.expired,
    expirationTimestamp: m.expirationTimestamp,
    categories: m.categories,
    positionIds: m.positionIds ? { yes: m.positionIds[0], no: m.positionIds[1] } : null,
    venue: m.venue,
    negRisk: m.negRisk,
    prices: m.prices ? { yes: formatUnits(m.prices[0]), no: formatUnits(m.prices[1]) } : null,
    ...money('volume', m.volume),
    ...money('liquidity', m.liquidity),
    ...money('openInterest', m.openInterest),
    winningOutcome: m.winningOutcomeIndex === 0 ? 'YES' : m.winningOutcomeIndex === 1 ? 'NO' : null,
    minSize: m.minSize === null ? null : formatUnits(m.minSize),
    minSizeRaw: m.minSize === null ? null : m.minSize.toString(),
    children: m.children.map(marketJson),
    raw: m.raw,
  };
}
