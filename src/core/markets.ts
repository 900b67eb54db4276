// Public market data from the exchange: list, search, details, order book, history, feed, market
// pages. A market that is not found is answered with the markets the slug probably meant.
import type { ApiClient } from './http.js';
import { ExchangeError, NotFoundError, ValidationError } from './errors.js';
import { checkPageSort, suggestMarkets } from './market-input.js';
import { didYouMean } from './suggest.js';
import { marketJson, noBook, parseMarket, parseOrderBook } from './market-wire.js';
import { isObj, textField } from './wire.js';
import type { Json, Market, MarketJson, OrderBook } from './market-wire.js';
import { formatUnits, priceFromWire } from './money.js';

/** A category of markets: what `--category` takes (its id or its name). */
export interface Category {
  id: number;
  name: string;
}

/** The exchange's categories (GET /categories), in its order. @example await listCategories(api) // [{ id: 1, name: 'Crypto' }, …] */
export async function listCategories(api: ApiClient): Promise<Category[]> {
  const res = await api.request<unknown>({ method: 'GET', path: '/categories' });
  if (!Array.isArray(res.data)) throw new ExchangeError('unexpected answer from /categories (not a list)');
  return res.data.flatMap((c) =>
    isObj(c) && typeof c['id'] === 'number' && typeof c['name'] === 'string' ? [{ id: c['id'], name: c['name'] }] : [],
  );
}

/**
 * A category given by id (`1`) or by name (`crypto`, any case) as its id; the names are asked of
 * the exchange only for a name. An unknown name is a usage error that lists the categories.
 * @example await categoryId(api, 'Crypto') // 1
 */
export async function categoryId(api: ApiClient, given: string): Promise<number> {
  if (/^\d+$/.test(given.trim())) return Number(given.trim());
  const all = await listCategories(api);
  const hit = all.find((c) => c.name.toLowerCase() === given.trim().toLowerCase());
  if (hit) return hit.id;
  throw new ValidationError(`no category "${given}"`, {
    hint: `The categories: ${all.map((c) => `${c.name} (${c.id})`).join(', ')}; pm markets categories lists them.`,
  });
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
    throw new ValidationError(`${api.words === 'flags' ? '--limit' : 'limit'} is at most ${MAX_LIMIT} per page`, {
      hint: api.words === 'flags' ? 'Use --all to follow every page.' : 'Pass all: true to follow every page.',
    });
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
  if (query.trim() === '') throw new ValidationError('a search needs words', { hint: 'for example: pm markets search bitcoin' });
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
    const hint =
      didYouMean(near) ??
      (api.words === 'flags'
        ? 'See pm markets list, or pm markets search <words>.'
        : "See pm.markets.list(), or pm.markets.search('words').");
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

/** The YES order book with spread, midpoint and depth, all exact. */
export async function getOrderBook(api: ApiClient, slug: string): Promise<OrderBook> {
  let d: unknown;
  try {
    d = (await api.request<unknown>({ method: 'GET', path: `/markets/${encodeURIComponent(slug)}/orderbook` })).data;
  } catch (e) {
    return notFound(api, slug, e);
  }
  return parseOrderBook(slug, d);
}

/** The NO token's id of a market (its second position id), for the NO book: '' where it names none. */
async function noTokenOf(api: ApiClient, slug: string): Promise<string> {
  return (await getMarket(api, slug)).positionIds?.[1] ?? '';
}

/** The book of one outcome: the YES book, or the NO book (the YES book mirrored, under the NO token's id). */
export async function outcomeBook(api: ApiClient, slug: string, outcome: 'YES' | 'NO', yes?: OrderBook): Promise<OrderBook> {
  const book = yes ?? (await getOrderBook(api, slug));
  return outcome === 'NO' ? noBook(book, await noTokenOf(api, slug)) : book;
}

export interface PricePoint {
  price: bigint;
  timestamp: string;
}

/** One point of `pm --json markets history` (and `markets.history`): the YES price as a decimal. */
export interface PricePointJson {
  timestamp: string;
  price: string;
}

export const pricePointJson = (p: PricePoint): PricePointJson => ({ timestamp: p.timestamp, price: formatUnits(p.price) });

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
  return { points: prices.map((p) => ({ price: priceFromWire(p['price']) ?? 0n, timestamp: textField(p, 'timestamp') })), raw: d };
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
async function pageByPath(api: ApiClient, path: string): Promise<MarketPageInfo> {
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
    return { id: String(d['id']), name: textField(d, 'name'), fullPath: textField(d, 'fullPath') || current, raw: d };
  }
  throw new ExchangeError(`too many redirects for market page "${path}"`);
}

export interface PageMarketsResult {
  markets: Market[];
  nextCursor: string | null;
  pagination: { page: number; limit: number; total: number; totalPages: number } | null;
}

/** Markets of a market page, by offset (page) or cursor. */
async function pageMarkets(
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
  checkPageSort(q.sort, api.words);
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

/** A market page and some of its markets: `pm markets page` and the library's markets.page. */
export interface MarketPageResult extends PageMarketsResult {
  page: MarketPageInfo;
}

/**
 * The markets of the page at `path` ('/crypto', 'home'): one page of them (offset `page`, or
 * `cursor` from an earlier answer), or with `all` every one, following the cursors.
 * @example await marketPage(api, '/crypto', { limit: 10, sort: '-deadline' })
 */
export async function marketPage(
  api: ApiClient,
  path: string,
  q: {
    limit?: number | undefined;
    page?: number | undefined;
    cursor?: string | undefined;
    sort?: string | undefined;
    all?: boolean | undefined;
  },
): Promise<MarketPageResult> {
  // Checked before anything is sent.
  const sort = checkPageSort(q.sort, api.words);
  const page = await pageByPath(api, path);
  if (!q.all)
    return {
      page,
      ...(await pageMarkets(api, page.id, { limit: q.limit, page: q.page ?? (q.cursor ? undefined : 1), cursor: q.cursor, sort })),
    };
  const markets: Market[] = [];
  let cursor: string | undefined = q.cursor ?? '';
  for (let i = 0; i < 1000; i++) {
    const res = await pageMarkets(api, page.id, { limit: q.limit, cursor, sort });
    markets.push(...res.markets);
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }
  return { page, markets, nextCursor: null, pagination: null };
}

/** A market page as the library returns it: pm's checked market fields (as markets.get). */
export interface MarketPageJson {
  page: { id: string; name: string; path: string };
  markets: MarketJson[];
  /** Pass as `cursor` for the next markets (null: no more, or offset paging). */
  nextCursor: string | null;
  /** Offset paging's position (null with cursor paging). */
  pagination: { page: number; limit: number; total: number; totalPages: number } | null;
}

export function marketPageJson(r: MarketPageResult): MarketPageJson {
  return {
    page: { id: r.page.id, name: r.page.name, path: r.page.fullPath },
    markets: r.markets.map(marketJson),
    nextCursor: r.nextCursor,
    pagination: r.pagination,
  };
}
