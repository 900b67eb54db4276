// Public market data: list, search, details, order book, history, feed, market pages.
// Wire objects are checked at the boundary; amounts become bigint raw units.
import type { ApiClient } from './http.js';
import { ExchangeError, NotFoundError, UsageError, ValidationError } from './errors.js';
import { formatUnits, priceFromWire, rawFromWire } from './money.js';

export type Json = Record<string, unknown>;

/** The fields pm relies on, pulled out of an exchange market object (kept whole in `raw`). */
export interface Market {
  slug: string;
  title: string;
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

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Json, k: string): string {
  const v = o[k];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

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
    title: str(v, 'title') || v['slug'],
    status: str(v, 'status'),
    tradeType: str(v, 'tradeType'),
    marketType: str(v, 'marketType'),
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
    minSize: isObj(v['settings']) && /^\d+$/.test(str(v['settings'], 'minSize')) ? BigInt(str(v['settings'], 'minSize')) : null,
    children,
    raw: v,
  };
}

/** The exchange's own web site: a market URL is https://limitless.exchange/markets/<slug>. */
const EXCHANGE_SITE = /^(?:[a-z0-9-]+\.)*limitless\.exchange$/i;
const SLUG = /^[a-z0-9][a-z0-9_.-]{0,199}$/;
const SLUG_HINT =
  'A market is a slug such as btc-100k-2026 (any case) or its page https://limitless.exchange/markets/btc-100k-2026: see pm markets list';

/** Checks a slug (lower-cased: slugs on the exchange are lower case). */
function checkSlug(slug: string, input: string, fromUrl: boolean): string {
  const s = slug.toLowerCase();
  if (!SLUG.test(s)) {
    const what = fromUrl ? `the URL "${input}" names "${slug}", which is not a market slug` : `"${input}" is not a market slug`;
    throw new UsageError(what, { hint: SLUG_HINT });
  }
  return s;
}

/** The slug inside an exchange market URL; any other site, or a URL without a market, is refused. */
function slugFromUrl(input: string, s: string): string {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    throw new UsageError(`"${input}" is neither a market slug nor a valid URL`, { hint: SLUG_HINT });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new UsageError(`"${input}" is not a web address of the exchange (${u.protocol.replace(/:$/, '')} URL)`, { hint: SLUG_HINT });
  if (!EXCHANGE_SITE.test(u.hostname)) {
    throw new UsageError(
      `${u.hostname} is not the exchange's site: pm takes a slug or a limitless.exchange market URL, not a link to another site`,
      { hint: SLUG_HINT },
    );
  }
  const parts = u.pathname.split('/').filter(Boolean);
  const i = parts.findIndex((p) => p === 'markets' || p === 'market');
  const raw = i >= 0 ? parts[i + 1] : undefined;
  if (raw === undefined || i + 2 < parts.length)
    throw new UsageError(`"${input}" is not a market page: expected https://limitless.exchange/markets/<slug>`, { hint: SLUG_HINT });
  let slug: string;
  try {
    slug = decodeURIComponent(raw);
  } catch {
    throw new UsageError(`the URL "${input}" has a malformed percent-encoding in its market slug`, { hint: SLUG_HINT });
  }
  return checkSlug(slug, input, true);
}

/**
 * A market argument as a slug: a slug in any case, or the exchange's market URL (another site's
 * URL is refused, and the slug decoded from a URL is checked like a typed one).
 * @example slugFrom('https://limitless.exchange/markets/BTC-100k-2026') === 'btc-100k-2026'
 */
export function slugFrom(input: string): string {
  const s = input.trim();
  if (s === '') throw new UsageError('the market is empty', { hint: SLUG_HINT });
  if (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.includes('/') || /^(?:www\.)?limitless\.exchange\b/i.test(s)) return slugFromUrl(input, s);
  return checkSlug(s, input, false);
}

/** Levenshtein distance (small strings only). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

const STOP = new Set([
  'the',
  'will',
  'a',
  'an',
  'of',
  'on',
  'in',
  'by',
  'at',
  'to',
  'be',
  'is',
  'and',
  'or',
  'for',
  'before',
  'after',
  'above',
  'below',
]);
const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w));

/**
 * Markets a mistyped slug probably meant: close by edit distance, or sharing words with the
 * title or the slug (best first, at most `max`).
 */
export function suggestMarkets(input: string, markets: { slug: string; title: string }[], max = 3): string[] {
  const q = input.toLowerCase();
  const qWords = new Set(words(q));
  const scored = markets.map((m) => {
    const d = editDistance(q, m.slug);
    const near = d <= Math.max(2, Math.floor(m.slug.length / 4));
    const shared = new Set(
      [...words(m.title), ...words(m.slug)].filter(
        (w) => qWords.has(w) || [...qWords].some((x) => x.length >= 4 && (w.startsWith(x) || x.startsWith(w))),
      ),
    ).size;
    return { slug: m.slug, near, d, shared };
  });
  return scored
    .filter((x) => x.near || x.shared > 0)
    .sort((a, b) => Number(b.near) - Number(a.near) || (a.near ? a.d - b.d : 0) || b.shared - a.shared || a.d - b.d)
    .slice(0, max)
    .map((x) => x.slug);
}

/** Slugs and titles of the active markets and their group children, for suggestions and completion. */
export async function marketIndex(api: ApiClient): Promise<{ slug: string; title: string }[]> {
  const out: { slug: string; title: string }[] = [];
  for (const m of await listAllMarkets(api)) {
    out.push({ slug: m.slug, title: m.title });
    for (const c of m.children) out.push({ slug: c.slug, title: c.title });
  }
  return out;
}

export interface ListParams {
  page?: number | undefined;
  limit?: number | undefined;
  sortBy?: string | undefined;
  tradeType?: string | undefined;
  categoryId?: number | undefined;
}

export interface MarketPage {
  markets: Market[];
  total: number;
}

const MAX_LIMIT = 25;

/** One page of active markets. @example await listMarkets(api, { limit: 10 }) */
export async function listMarkets(api: ApiClient, p: ListParams = {}): Promise<MarketPage> {
  if (p.limit !== undefined && p.limit > MAX_LIMIT)
    throw new ValidationError(`--limit is at most ${MAX_LIMIT} per page`, { hint: 'Use --all to follow every page.' });
  const path = p.categoryId !== undefined ? `/markets/active/${p.categoryId}` : '/markets/active';
  const res = await api.request<unknown>({
    method: 'GET',
    path,
    query: { limit: p.limit, page: p.page, sortBy: p.sortBy, tradeType: p.tradeType },
  });
  const d = res.data;
  if (!isObj(d) || !Array.isArray(d['data'])) throw new ExchangeError('unexpected answer from /markets/active (no data array)');
  return {
    markets: d['data'].map(parseMarket),
    total: typeof d['totalMarketsCount'] === 'number' ? d['totalMarketsCount'] : d['data'].length,
  };
}

/** Every active market, following pages until the total is reached. */
export async function listAllMarkets(
  api: ApiClient,
  p: ListParams = {},
  onPage?: (fetched: number, total: number) => void,
): Promise<Market[]> {
  const limit = MAX_LIMIT;
  const all: Market[] = [];
  for (let page = 1; page < 1000; page++) {
    const res = await listMarkets(api, { ...p, limit, page });
    all.push(...res.markets);
    onPage?.(all.length, Math.max(res.total, all.length));
    if (res.markets.length < limit || all.length >= res.total) break;
  }
  return all;
}

/** Text search. */
export async function searchMarkets(
  api: ApiClient,
  query: string,
  p: { limit?: number | undefined; page?: number | undefined } = {},
): Promise<MarketPage> {
  const res = await api.request<unknown>({ method: 'GET', path: '/markets/search', query: { query, limit: p.limit, page: p.page } });
  const d = res.data;
  const list =
    isObj(d) && Array.isArray(d['markets']) ? d['markets'] : isObj(d) && Array.isArray(d['data']) ? d['data'] : Array.isArray(d) ? d : null;
  if (!list) throw new ExchangeError('unexpected answer from /markets/search');
  return {
    markets: list.map(parseMarket),
    total: isObj(d) && typeof d['totalMarketsCount'] === 'number' ? d['totalMarketsCount'] : list.length,
  };
}

async function notFound(api: ApiClient, slug: string, e: unknown): Promise<never> {
  if (e instanceof NotFoundError) {
    let near: string[] = [];
    try {
      near = suggestMarkets(slug, await marketIndex(api));
    } catch {
      // suggestions are best effort
    }
    const hint = near.length ? `Did you mean ${near.join(', ')}?` : `See pm markets list, or pm markets search <words>.`;
    throw new NotFoundError(`no market "${slug}"`, { status: 404, hint });
  }
  throw e;
}

/** One market by slug (or AMM address). */
export async function getMarket(api: ApiClient, slug: string): Promise<Market> {
  try {
    const res = await api.request<unknown>({ method: 'GET', path: `/markets/${encodeURIComponent(slug)}` });
    return parseMarket(res.data);
  } catch (e) {
    return notFound(api, slug, e);
  }
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

/** The YES order book with spread, midpoint and depth, all exact. */
export async function getOrderBook(api: ApiClient, slug: string): Promise<OrderBook> {
  let d: unknown;
  try {
    d = (await api.request<unknown>({ method: 'GET', path: `/markets/${encodeURIComponent(slug)}/orderbook` })).data;
  } catch (e) {
    return notFound(api, slug, e);
  }
  if (!isObj(d)) throw new ExchangeError('unexpected order book answer');
  const bids = levels(d['bids']).sort((a, b) => (b.price > a.price ? 1 : b.price < a.price ? -1 : 0));
  const asks = levels(d['asks']).sort((a, b) => (a.price > b.price ? 1 : a.price < b.price ? -1 : 0));
  const bestBid = bids[0]?.price ?? null;
  const bestAsk = asks[0]?.price ?? null;
  const sum = (ls: BookLevel[], f: (l: BookLevel) => bigint): bigint => ls.reduce((acc, l) => acc + f(l), 0n);
  return {
    slug,
    tokenId: str(d, 'tokenId'),
    bids,
    asks,
    bestBid,
    bestAsk,
    spread: bestBid !== null && bestAsk !== null ? bestAsk - bestBid : null,
    midpoint: bestBid !== null && bestAsk !== null ? (bestBid + bestAsk) / 2n : (priceFromWire(d['adjustedMidpoint']) ?? null),
    lastTradePrice: priceFromWire(d['lastTradePrice']),
    minSize: rawFromWire(d['minSize']),
    bidDepth: sum(bids, (l) => l.size),
    askDepth: sum(asks, (l) => l.size),
    bidNotional: sum(bids, (l) => (l.size * l.price) / 1_000_000n),
    askNotional: sum(asks, (l) => (l.size * l.price) / 1_000_000n),
  };
}

/**
 * The NO side of a YES book: a YES bid at p is a NO ask at 1 - p (and a YES ask a NO bid), so
 * the NO book is the YES book mirrored; sizes are the same shares.
 */
export function noBook(b: OrderBook): OrderBook {
  const flip = (l: BookLevel): BookLevel => ({ price: 1_000_000n - l.price, size: l.size });
  const flipP = (p: bigint | null): bigint | null => (p === null ? null : 1_000_000n - p);
  const bids = b.asks.map(flip);
  const asks = b.bids.map(flip);
  const sum = (ls: BookLevel[], f: (l: BookLevel) => bigint): bigint => ls.reduce((acc, l) => acc + f(l), 0n);
  return {
    ...b,
    bids,
    asks,
    bestBid: bids[0]?.price ?? null,
    bestAsk: asks[0]?.price ?? null,
    spread: b.spread,
    midpoint: flipP(b.midpoint),
    lastTradePrice: flipP(b.lastTradePrice),
    bidDepth: sum(bids, (l) => l.size),
    askDepth: sum(asks, (l) => l.size),
    bidNotional: sum(bids, (l) => (l.size * l.price) / 1_000_000n),
    askNotional: sum(asks, (l) => (l.size * l.price) / 1_000_000n),
  };
}

/** The book as stable JSON: decimals for people, raw integers (strings) for programs. */
export function bookJson(b: OrderBook): Json {
  const lvl = (l: BookLevel): Json => ({ price: formatUnits(l.price), size: formatUnits(l.size), sizeRaw: l.size.toString() });
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
    },
  };
}

/** History intervals as pm spells them (unambiguous) and as the exchange does (1m is its month). */
export const INTERVALS: Record<string, string> = { '1h': '1h', '6h': '6h', '1d': '1d', '1w': '1w', '1mo': '1m', all: 'all' };

/** An ISO 8601 date or date-time (checked: 2026-02-30 is refused), to milliseconds. */
export function parseIsoTime(input: string, flag: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(input.trim());
  const t = m
    ? Date.parse(
        m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : input.trim().replace(' ', 'T') + (m[7] === undefined ? 'Z' : ''),
      )
    : NaN;
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  const realDay = day !== null && day.getUTCMonth() === Number(m?.[2]) - 1 && day.getUTCDate() === Number(m?.[3]);
  if (!m || Number.isNaN(t) || !realDay) {
    throw new UsageError(`${flag} must be an ISO 8601 date or time such as 2026-01-31 or 2026-01-31T12:00:00Z, got "${input}"`);
  }
  return t;
}

/** Checks `markets history` input offline: the interval, the dates, and that the range is not reversed. */
export function historyQuery(q: { interval?: string | undefined; from?: string | undefined; to?: string | undefined }): {
  interval?: string;
  from?: string;
  to?: string;
} {
  const out: { interval?: string; from?: string; to?: string } = {};
  if (q.interval !== undefined) {
    const i = q.interval.toLowerCase();
    const wire = INTERVALS[i];
    if (wire === undefined) {
      const hint =
        i === '1m'
          ? '1m would be ambiguous (a minute or a month?): a month is 1mo; there is no minute interval.'
          : `Intervals: ${Object.keys(INTERVALS).join(', ')}.`;
      throw new UsageError(`--interval must be one of ${Object.keys(INTERVALS).join(', ')}, got "${q.interval}"`, { hint });
    }
    out.interval = wire;
  }
  const from = q.from !== undefined ? parseIsoTime(q.from, '--from') : undefined;
  const to = q.to !== undefined ? parseIsoTime(q.to, '--to') : undefined;
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`the range is reversed: --from ${q.from} is after --to ${q.to}`, {
      hint: 'Swap them: --from is the earlier time.',
    });
  if (from !== undefined) out.from = new Date(from).toISOString();
  if (to !== undefined) out.to = new Date(to).toISOString();
  return out;
}

/** `markets page --sort`: createdAt, updatedAt, deadline or id, optionally prefixed with - (checked offline). */
export function checkPageSort(sort: string | undefined): string | undefined {
  if (sort !== undefined && !/^-?(createdAt|updatedAt|deadline|id)$/.test(sort)) {
    throw new UsageError(`--sort must be createdAt, updatedAt, deadline or id (prefix - for descending), got "${sort}"`);
  }
  return sort;
}

export interface PricePoint {
  price: bigint;
  timestamp: string;
}

/** YES price history. */
export async function priceHistory(
  api: ApiClient,
  slug: string,
  q: { interval?: string | undefined; from?: string | undefined; to?: string | undefined },
): Promise<{ points: PricePoint[]; raw: unknown }> {
  let d: unknown;
  try {
    d = (
      await api.request<unknown>({
        method: 'GET',
        path: `/markets/${encodeURIComponent(slug)}/historical-price`,
        query: { from: q.from, to: q.to, interval: q.interval },
      })
    ).data;
  } catch (e) {
    return notFound(api, slug, e);
  }
  const series = Array.isArray(d) ? d.find(isObj) : isObj(d) ? d : undefined;
  const prices = series && Array.isArray(series['prices']) ? series['prices'].filter(isObj) : [];
  return { points: prices.map((p) => ({ price: priceFromWire(p['price']) ?? 0n, timestamp: str(p, 'timestamp') })), raw: d };
}

/** Feed events (trades) of a market. */
export async function feedEvents(
  api: ApiClient,
  slug: string,
  q: { page?: number | undefined; limit?: number | undefined },
): Promise<{ events: Json[]; totalPages: number }> {
  let d: unknown;
  try {
    d = (
      await api.request<unknown>({
        method: 'GET',
        path: `/markets/${encodeURIComponent(slug)}/get-feed-events`,
        query: { page: q.page, limit: q.limit },
      })
    ).data;
  } catch (e) {
    return notFound(api, slug, e);
  }
  const inner = isObj(d) && isObj(d['data']) ? d['data'] : isObj(d) ? d : {};
  const events = Array.isArray(inner['data']) ? inner['data'].filter(isObj) : [];
  return { events, totalPages: typeof inner['totalPages'] === 'number' ? inner['totalPages'] : 1 };
}

export interface MarketPageInfo {
  id: string;
  name: string;
  fullPath: string;
  raw: Json;
}

/** Resolves a market page by path, following at most 3 redirects (as the SDK does). */
export async function pageByPath(api: ApiClient, path: string): Promise<MarketPageInfo> {
  if (path === 'home' || path === '/' || path === '__home__') return { id: '__home__', name: 'Home', fullPath: '/', raw: {} };
  let current = path.startsWith('/') ? path : `/${path}`;
  for (let hop = 0; hop <= 3; hop++) {
    let res;
    try {
      res = await api.request<unknown>({
        method: 'GET',
        path: '/market-pages/by-path',
        query: { path: current },
        okStatuses: [301, 302, 307, 308],
      });
    } catch (e) {
      if (e instanceof NotFoundError)
        throw new NotFoundError(`no market page at "${current}"`, {
          status: 404,
          hint: 'See the site navigation for page paths, e.g. /crypto',
        });
      throw e;
    }
    if (res.status >= 300) {
      const loc = res.headers['location'];
      if (!loc) throw new ExchangeError('market page redirect without a Location');
      const u = new URL(loc, api.baseUrl);
      current = u.searchParams.get('path') ?? u.pathname;
      continue;
    }
    const d = res.data;
    if (!isObj(d) || (typeof d['id'] !== 'string' && typeof d['id'] !== 'number')) throw new ExchangeError('unexpected market page answer');
    return { id: String(d['id']), name: str(d, 'name'), fullPath: str(d, 'fullPath') || current, raw: d };
  }
  throw new ExchangeError(`too many redirects for market page "${path}"`);
}

export interface PageMarketsResult {
  markets: Market[];
  nextCursor: string | null;
  pagination: { page: number; limit: number; total: number; totalPages: number } | null;
}

/** Markets of a market page, by offset (page) or cursor. */
export async function pageMarkets(
  api: ApiClient,
  id: string,
  q: {
    page?: number | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
    sort?: string | undefined;
    filters?: Record<string, string[]> | undefined;
  },
): Promise<PageMarketsResult> {
  checkPageSort(q.sort);
  const query: Record<string, string | number | string[] | undefined> = {
    page: q.cursor ? undefined : q.page,
    limit: q.limit,
    cursor: q.cursor,
    sort: q.sort,
    ...(q.filters ?? {}),
  };
  const d = (await api.request<unknown>({ method: 'GET', path: `/market-pages/${encodeURIComponent(id)}/markets`, query })).data;
  if (!isObj(d) || !Array.isArray(d['data'])) throw new ExchangeError('unexpected market page answer (no data array)');
  const cursor = isObj(d['cursor']) ? d['cursor'] : null;
  const pg = isObj(d['pagination']) ? d['pagination'] : null;
  if (!cursor && !pg) throw new ExchangeError('market page answer has neither pagination nor cursor');
  const num = (o: Json, k: string): number => (typeof o[k] === 'number' ? (o[k] as number) : 0);
  return {
    markets: d['data'].map(parseMarket),
    nextCursor: cursor && typeof cursor['nextCursor'] === 'string' ? cursor['nextCursor'] : null,
    pagination: pg ? { page: num(pg, 'page'), limit: num(pg, 'limit'), total: num(pg, 'total'), totalPages: num(pg, 'totalPages') } : null,
  };
}

/** Display helpers shared by market commands. */
export function formatPrice(micro: bigint | null): string {
  return micro === null ? '-' : formatUnits(micro, 6, 3).replace(/^(\d+\.\d{3})\d*$/, '$1');
}

export function formatUsd(raw: bigint): string {
  const s = formatUnits(raw, 6, 2);
  const [w = '0', f = '00'] = s.split('.');
  return `$${w.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${f.slice(0, 2)}`;
}

export function formatDeadline(ms: number | null): string {
  return ms === null
    ? '-'
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/:\d\d\.\d{3}Z$/, ' UTC');
}
