// Conformance: the SDK's public market data (MarketFetcher, MarketPageFetcher) and the legacy
// X-API-Key client against the sandbox.
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { Market, OrderType, Side } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, publicClient, rejection, sdkClient } from './helpers.js';

const sb = useSandbox();

describe('MarketFetcher (public)', () => {
  it('getActiveMarkets returns Market instances with a total, and pages differ', async () => {
    const c = publicClient(sb.current);
    const page1 = await c.markets.getActiveMarkets({ limit: 3, page: 1 });
    expect(page1.data).toHaveLength(3);
    expect(page1.data.every((m) => m instanceof Market)).toBe(true);
    expect(page1.totalMarketsCount).toBeGreaterThan(3);
    const page2 = await c.markets.getActiveMarkets({ limit: 3, page: 2 });
    const slugs1 = page1.data.map((m) => m.slug);
    expect(page2.data.map((m) => m.slug).some((s) => slugs1.includes(s))).toBe(false);
    const sorted = await c.markets.getActiveMarkets({ limit: 25, sortBy: 'newest' });
    expect(sorted.data.length).toBe(Math.min(25, sorted.totalMarketsCount));
  });

  it('getMarket: venue, tokens and positionIds of a CLOB market; NegRisk children carry an adapter', async () => {
    const c = publicClient(sb.current);
    const m = await c.markets.getMarket('btc-100k-2026');
    expect(m.venue?.exchange).toBe(getAddress(m.venue?.exchange ?? ''));
    expect(m.positionIds).toEqual([m.tokens?.yes, m.tokens?.no]);
    expect(c.markets.getVenue('btc-100k-2026')).toEqual(m.venue);
    const child = await c.markets.getMarket('us-election-2028-democrat');
    expect(child.venue?.adapter).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(child.venue?.exchange).not.toBe(m.venue?.exchange);
    const e = await rejection(() => c.markets.getMarket('no-such-market'));
    expect(e.status).toBe(404);
  });

  it('getOrderBook: YES book, bids descending and asks ascending, raw sizes', async () => {
    const c = publicClient(sb.current);
    const m = await c.markets.getMarket('btc-100k-2026');
    const book = await c.markets.getOrderBook('btc-100k-2026');
    expect(book.tokenId).toBe(m.tokens?.yes);
    const bids = book.bids.map((b) => b.price);
    const asks = book.asks.map((a) => a.price);
    expect(bids).toEqual([...bids].sort((a, b) => b - a));
    expect(asks).toEqual([...asks].sort((a, b) => a - b));
    expect((bids[0] ?? 1) < (asks[0] ?? 0)).toBe(true);
    expect(book.bids.every((b) => Number.isInteger(b.size) && b.size % 1000 === 0)).toBe(true);
    expect(typeof book.adjustedMidpoint).toBe('number');
  });
});

describe('MarketPageFetcher (public)', () => {
  it('navigation, a page by path, and its markets with pagination metadata', async () => {
    const c = publicClient(sb.current);
    const nav = await c.pages.getNavigation();
    expect(nav.length).toBeGreaterThan(0);
    const first = nav[0];
    if (!first) throw new Error('empty navigation');
    const page = await c.pages.getMarketPageByPath(first.path);
    expect(page.id).toBe(first.id);
    const markets = await c.pages.getMarkets(page.id, { page: 1, limit: 2 });
    expect('pagination' in markets && markets.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(markets.data.every((m) => m instanceof Market)).toBe(true);
    const home = await c.pages.getMarkets('__home__', { limit: 2, sort: '-createdAt' });
    expect(home.data.length).toBe(2);
  });
});

describe('MarketPageFetcher: redirects and property keys (public)', () => {
  it('getMarketPageByPath follows a 301 alias to the canonical page', async () => {
    const c = publicClient(sb.current);
    const direct = await c.pages.getMarketPageByPath('/crypto');
    const viaAlias = await c.pages.getMarketPageByPath('/c/crypto');
    expect(viaAlias).toEqual(direct);
  });

  it('getPropertyKeys / getPropertyKey / getPropertyOptions (with a parentId)', async () => {
    const c = publicClient(sb.current);
    const keys = await c.pages.getPropertyKeys();
    expect(keys.map((k) => k.slug)).toEqual(['category', 'tags']);
    const category = await c.pages.getPropertyKey('category');
    expect(category).toMatchObject({ id: 'category', type: 'select', isSystem: true });
    expect(category.options?.map((o) => o.value)).toEqual(expect.arrayContaining(['Crypto', 'Politics', 'Sports']));
    const crypto = category.options?.find((o) => o.value === 'Crypto');
    const allTags = await c.pages.getPropertyOptions('tags');
    const cryptoTags = await c.pages.getPropertyOptions('tags', crypto?.id);
    expect(cryptoTags.map((o) => o.value)).toEqual(expect.arrayContaining(['bitcoin', 'ethereum']));
    expect(cryptoTags.every((o) => o.parentOptionId === crypto?.id && o.propertyKeyId === 'tags')).toBe(true);
    expect(cryptoTags.length).toBeLessThan(allTags.length);
    const e = await rejection(() => c.pages.getPropertyKey('no-such-key'));
    expect(e.status).toBe(404);
  });
});

describe('legacy X-API-Key client', () => {
  it('reads /profiles/me and places, lists and cancels an order like the HMAC client', async () => {
    const c = sdkClient(sb.current, 'alice', 'apiKey');
    const me = await c.portfolio.getProfile();
    expect(me.id).toBe(account(sb.current, 'alice').profileId);
    const orders = c.newOrderClient(account(sb.current, 'alice').privateKey);
    const market = await c.markets.getMarket('sol-500-2026');
    const r = await orders.createOrder({
      tokenId: market.tokens?.no ?? '',
      price: 0.5,
      size: 2,
      side: Side.BUY,
      orderType: OrderType.GTC,
      marketSlug: 'sol-500-2026',
    });
    expect(r.execution?.matched).toBe(false);
    const open = (await market.getUserOrders()) as { id: string }[];
    expect(open.map((o) => o.id)).toContain(r.order.id);
    expect((await orders.cancel(r.order.id)).message).toBe('Order canceled successfully');
  });
});
