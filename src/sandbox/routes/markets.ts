// Public market data (wire-facts §4.1): active markets, search, details, order book, price
// history, feed, navigation and market pages, maintenance status.
import { midpoint, yesBook, yesMidpoint } from '../book.js';
import { cachedListing } from '../marketindex.js';
import { CATEGORIES } from '../seedmarkets.js';
import type { MarketRecord, SandboxState } from '../types.js';
import type { Route, SandboxResponse } from '../handlers.js';

const ONE = 1_000_000n;
const P: Route['auth'] = { kind: 'public' };

const dec = (raw: bigint): string => {
  const w = raw / ONE;
  const f = (raw % ONE).toString().padStart(6, '0').replace(/0+$/, '');
  return f ? `${w}.${f}` : `${w}`;
};
const price = (micro: bigint): number => Number(micro) / 1e6;
const err = (status: number, message: string): SandboxResponse => ({ status, body: { message } });
const notFound = (slug: string): SandboxResponse => err(404, `Market ${slug} not found`);

function isActive(m: MarketRecord): boolean {
  return m.status === 'FUNDED' && !m.expired && m.groupSlug === null;
}

/** YES/NO prices in percent for listings (the exchange's listings use percent). */
function percentPrices(state: SandboxState, m: MarketRecord): number[] {
  if (m.winningOutcomeIndex !== null) return m.winningOutcomeIndex === 0 ? [100, 0] : [0, 100];
  const mid = yesMidpoint(state, m.slug) ?? m.lastTradePrice ?? ONE / 2n;
  const yes = Number(mid / 100n) / 100; // percent with 2 decimals, from exact micro-units
  return [yes, Math.round((100 - yes) * 100) / 100];
}

/** "Dec 31, 2026": one formatter for all (toLocaleDateString builds one per call, ~0.1 ms). */
const EXPIRATION_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The wire shape of a market (GET /markets/{slug} and list items). */
function marketJson(state: SandboxState, m: MarketRecord, withChildren = true): Record<string, unknown> {
  const deadline = new Date(m.expirationTimestamp);
  const out: Record<string, unknown> = {
    id: m.id,
    slug: m.slug,
    title: m.title,
    proxyTitle: null,
    description: m.description,
    ...m.extra,
    expirationDate: EXPIRATION_DATE.format(deadline),
    expirationTimestamp: m.expirationTimestamp,
    expired: m.expired,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    categories: m.categories,
    status: m.status,
    tags: m.tags,
    tradeType: m.tradeType,
    marketType: m.marketType,
    volume: m.volume.toString(),
    volumeFormatted: dec(m.volume),
    liquidity: m.liquidity.toString(),
    liquidityFormatted: dec(m.liquidity),
    openInterest: m.openInterest.toString(),
    openInterestFormatted: dec(m.openInterest),
    prices: m.tradeType === 'group' ? [] : percentPrices(state, m),
  };
  if (m.conditionId) out['conditionId'] = m.conditionId;
  if (m.positionIds) {
    out['positionIds'] = m.positionIds;
    out['tokens'] = { yes: m.positionIds[0], no: m.positionIds[1] };
  }
  if (m.venue) out['venue'] = m.venue;
  if (m.negRiskRequestId) out['negRiskRequestId'] = m.negRiskRequestId;
  if (m.winningOutcomeIndex !== null) out['winningOutcomeIndex'] = m.winningOutcomeIndex;
  if (m.address) out['address'] = m.address;
  if (m.groupSlug) out['group'] = { slug: m.groupSlug };
  if (m.tradeType === 'group' && withChildren) {
    out['markets'] = state.markets.filter((c) => c.groupSlug === m.slug).map((c) => marketJson(state, c, false));
  }
  return out;
}

const SORTS: Record<string, (a: MarketRecord, b: MarketRecord) => number> = {
  newest: (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id - b.id,
  ending_soon: (a, b) => a.expirationTimestamp - b.expirationTimestamp || a.id - b.id,
  high_value: (a, b) => (b.volume > a.volume ? 1 : b.volume < a.volume ? -1 : a.id - b.id),
  liquidity: (a, b) => (b.liquidity > a.liquidity ? 1 : b.liquidity < a.liquidity ? -1 : a.id - b.id),
  lp_rewards: (a, b) => (b.liquidity > a.liquidity ? 1 : b.liquidity < a.liquidity ? -1 : a.id - b.id),
};

function intParam(q: URLSearchParams, name: string, def: number): number | SandboxResponse {
  const v = q.get(name);
  if (v === null || v === '') return def;
  if (!/^\d+$/.test(v) || Number(v) < 1) return err(400, `${name} must be a positive integer`);
  return Number(v);
}

function active(state: SandboxState, q: URLSearchParams, categoryParam?: string): SandboxResponse {
  const page = intParam(q, 'page', 1);
  const limit = intParam(q, 'limit', 10);
  if (typeof page !== 'number') return page;
  if (typeof limit !== 'number') return limit;
  if (limit > 25) return err(400, 'limit must not be greater than 25');
  const sortBy = q.get('sortBy');
  if (sortBy && !SORTS[sortBy]) return err(400, `sortBy must be one of ${Object.keys(SORTS).join(', ')}`);
  const tradeType = q.get('tradeType');
  if (tradeType && !['amm', 'clob', 'group'].includes(tradeType)) return err(400, 'tradeType must be one of amm, clob, group');
  const cat = categoryParam ?? q.get('categoryId');
  // From the listing index: each page of a query slices the same list (linear for --all).
  const list = cachedListing(state, `active|${sortBy ?? ''}|${tradeType ?? ''}|${cat ?? ''}`, (markets) => {
    let l = markets.filter(isActive);
    if (tradeType) l = l.filter((m) => m.tradeType === tradeType);
    if (cat) {
      const name = Object.entries(CATEGORIES).find(([, id]) => String(id) === cat)?.[0];
      l = l.filter((m) => name !== undefined && m.categories.includes(name));
    }
    return l.sort(sortBy ? SORTS[sortBy] : (a, b) => a.id - b.id);
  });
  const data = list.slice((page - 1) * limit, page * limit).map((m) => marketJson(state, m));
  return { status: 200, body: { data, totalMarketsCount: list.length } };
}

function findMarket(state: SandboxState, key: string): MarketRecord | undefined {
  const k = key.toLowerCase();
  return state.markets.find((m) => m.slug === key || (m.address !== null && m.address.toLowerCase() === k));
}

const PAGES = [
  { id: 'page-crypto', name: 'Crypto', slug: 'crypto', path: '/crypto', category: 'Crypto' },
  { id: 'page-politics', name: 'Politics', slug: 'politics', path: '/politics', category: 'Politics' },
  { id: 'page-sports', name: 'Sports', slug: 'sports', path: '/sports', category: 'Sports' },
  { id: 'page-economics', name: 'Economics', slug: 'economics', path: '/economics', category: 'Economics' },
  { id: 'page-tech', name: 'Tech', slug: 'tech', path: '/tech', category: 'Tech' },
];
/** Old paths that redirect (301) to their new home. */
const ALIASES: Record<string, string> = { '/c/crypto': '/crypto', '/markets/crypto': '/crypto', '/c/politics': '/politics' };

function pageMarkets(state: SandboxState, id: string, q: URLSearchParams): SandboxResponse {
  const page = PAGES.find((p) => p.id === id);
  if (!page && id !== '__home__') return err(404, `Market page ${id} not found`);
  let list = state.markets.filter(isActive);
  if (page) list = list.filter((m) => m.categories.includes(page.category));
  for (const [k, v] of q.entries()) {
    if (['page', 'limit', 'cursor', 'sort'].includes(k)) continue;
    if (k === 'category') list = list.filter((m) => m.categories.some((c) => c.toLowerCase() === v.toLowerCase()));
    if (k === 'tradeType') list = list.filter((m) => m.tradeType === v);
  }
  const sort = q.get('sort');
  if (sort !== null) {
    const m = /^(-?)(createdAt|updatedAt|deadline|id)$/.exec(sort);
    if (!m) return err(400, 'sort must be one of createdAt, updatedAt, deadline, id, optionally prefixed with -');
    const key = (x: MarketRecord): string | number =>
      m[2] === 'deadline' ? x.expirationTimestamp : m[2] === 'id' ? x.id : m[2] === 'createdAt' ? x.createdAt : x.updatedAt;
    const dir = m[1] === '-' ? -1 : 1;
    list = [...list].sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.id - b.id));
  }
  const limit = intParam(q, 'limit', 10);
  if (typeof limit !== 'number') return limit;
  if (limit > 100) return err(400, 'limit must not be greater than 100');
  if (q.has('cursor')) {
    const c = q.get('cursor') ?? '';
    const offset = c === '' ? 0 : Number(Buffer.from(c, 'base64url').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0) return err(400, 'invalid cursor');
    const data = list.slice(offset, offset + limit).map((m) => marketJson(state, m));
    const next = offset + limit < list.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
    return { status: 200, body: { data, cursor: { nextCursor: next } } };
  }
  const pg = intParam(q, 'page', 1);
  if (typeof pg !== 'number') return pg;
  const data = list.slice((pg - 1) * limit, pg * limit).map((m) => marketJson(state, m));
  return {
    status: 200,
    body: { data, pagination: { page: pg, limit, total: list.length, totalPages: Math.max(1, Math.ceil(list.length / limit)) } },
  };
}

export const marketRoutes: Route[] = [
  // The categories a market can be in (wire-facts §8: `[{id, name, priority?, metadata?}]`).
  {
    method: 'GET',
    pattern: '/categories',
    auth: P,
    handler: () => ({ status: 200, body: Object.entries(CATEGORIES).map(([name, id]) => ({ id, name, priority: id })) }),
  },
  { method: 'GET', pattern: '/markets/active', auth: P, handler: (req, ctx) => active(ctx.state, req.query) },
  {
    method: 'GET',
    pattern: '/markets/active/:categoryId',
    auth: P,
    handler: (req, ctx) => active(ctx.state, req.query, req.params['categoryId']),
  },
  {
    method: 'GET',
    pattern: '/markets/search',
    auth: P,
    handler: (req, ctx) => {
      const query = (req.query.get('query') ?? '').trim().toLowerCase();
      if (!query) return err(400, 'query is required');
      const limit = intParam(req.query, 'limit', 10);
      const page = intParam(req.query, 'page', 1);
      if (typeof limit !== 'number') return limit;
      if (typeof page !== 'number') return page;
      const words = query.split(/\s+/);
      const hits = ctx.state.markets.filter((m) => {
        const text = `${m.slug} ${m.title} ${m.description} ${m.tags.join(' ')} ${m.categories.join(' ')}`.toLowerCase();
        return words.every((w) => text.includes(w));
      });
      return {
        status: 200,
        body: {
          markets: hits.slice((page - 1) * limit, page * limit).map((m) => marketJson(ctx.state, m)),
          totalMarketsCount: hits.length,
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/markets/:slug',
    auth: P,
    handler: (req, ctx) => {
      const m = findMarket(ctx.state, req.params['slug'] ?? '');
      return m ? { status: 200, body: marketJson(ctx.state, m) } : notFound(req.params['slug'] ?? '');
    },
  },
  {
    method: 'GET',
    pattern: '/markets/:slug/orderbook',
    auth: P,
    handler: (req, ctx) => {
      const slug = req.params['slug'] ?? '';
      const m = findMarket(ctx.state, slug);
      if (!m) return notFound(slug);
      if (m.tradeType !== 'clob') return err(400, `Market ${slug} is not a CLOB market (order books exist for CLOB markets only)`);
      const b = yesBook(ctx.state, m.slug);
      if (!b) return notFound(slug);
      return {
        status: 200,
        body: {
          bids: b.bids.map((l) => ({ price: price(l.price), size: Number(l.size), side: 'BUY' })),
          asks: b.asks.map((l) => ({ price: price(l.price), size: Number(l.size), side: 'SELL' })),
          tokenId: b.tokenId,
          adjustedMidpoint: price(midpoint(b)),
          maxSpread: '0.05',
          minSize: '1000000',
          lastTradePrice: b.lastTradePrice === null ? null : price(b.lastTradePrice),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/markets/:slug/historical-price',
    auth: P,
    handler: (req, ctx) => {
      const m = findMarket(ctx.state, req.params['slug'] ?? '');
      if (!m) return notFound(req.params['slug'] ?? '');
      const interval = req.query.get('interval') ?? '1h';
      const step = { '1h': 1, '6h': 6, '1d': 24, '1w': 168, '1m': 720, all: 1 }[interval];
      if (step === undefined) return err(400, 'interval must be one of 1h, 6h, 1d, 1w, 1m, all');
      const from = req.query.get('from') ? Date.parse(req.query.get('from') ?? '') : -Infinity;
      const to = req.query.get('to') ? Date.parse(req.query.get('to') ?? '') : Infinity;
      if (Number.isNaN(from) || Number.isNaN(to)) return err(400, 'from and to must be ISO 8601 timestamps');
      const pts = m.priceHistory.filter((p, i, all) => p.t >= from && p.t <= to && (all.length - 1 - i) % step === 0);
      return {
        status: 200,
        body: [{ title: 'YES Token', prices: pts.map((p) => ({ price: price(p.price), timestamp: new Date(p.t).toISOString() })) }],
      };
    },
  },
  {
    method: 'GET',
    pattern: '/markets/:slug/get-feed-events',
    auth: P,
    handler: (req, ctx) => {
      const slug = req.params['slug'] ?? '';
      if (!findMarket(ctx.state, slug)) return notFound(slug);
      const limit = intParam(req.query, 'limit', 10);
      const page = intParam(req.query, 'page', 1);
      if (typeof limit !== 'number') return limit;
      if (typeof page !== 'number') return page;
      const events = ctx.state.feed.filter((e) => e['marketSlug'] === slug).reverse();
      const data = events.slice((page - 1) * limit, page * limit).map(({ marketSlug: _drop, ...rest }) => rest);
      return { status: 200, body: { data: { data, totalPages: Math.max(1, Math.ceil(events.length / limit)) } } };
    },
  },
  {
    method: 'GET',
    pattern: '/navigation',
    auth: P,
    handler: () => ({ status: 200, body: PAGES.map((p) => ({ id: p.id, name: p.name, slug: p.slug, path: p.path, children: [] })) }),
  },
  {
    method: 'GET',
    pattern: '/market-pages/by-path',
    auth: P,
    handler: (req) => {
      const path = req.query.get('path') ?? '';
      const alias = ALIASES[path];
      if (alias)
        return {
          status: 301,
          headers: { location: `/market-pages/by-path?path=${encodeURIComponent(alias)}` },
          body: { message: `Moved to ${alias}` },
        };
      const p = PAGES.find((x) => x.path === path);
      if (!p) return err(404, `No market page at ${path}`);
      return {
        status: 200,
        body: {
          id: p.id,
          name: p.name,
          slug: p.slug,
          fullPath: p.path,
          description: null,
          baseFilter: { category: p.category },
          filterGroups: [],
          metadata: {},
          breadcrumb: [
            { name: 'Home', slug: 'home', path: '/' },
            { name: p.name, slug: p.slug, path: p.path },
          ],
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/market-pages/:id/markets',
    auth: P,
    handler: (req, ctx) => pageMarkets(ctx.state, req.params['id'] ?? '', req.query),
  },
  { method: 'GET', pattern: '/maintenance/status', auth: P, handler: () => ({ status: 200, body: { active: [], scheduled: [] } }) },
];
