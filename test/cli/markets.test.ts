import { afterAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const pm = (...argv: string[]) => runPm(['--base-url', sb.current.baseUrl, ...argv], { env: { PM_HOME: home } });

interface WireMarket {
  slug: string;
  title: string;
  tradeType: string;
  positionIds?: string[];
  venue?: { exchange: string; adapter: string | null };
  markets?: WireMarket[];
}

describe('market browsing against the sandbox', () => {
  it('lists active markets as JSON and as a table, with paging', async () => {
    const r = await pm('--json', 'markets', 'list', '--limit', '3');
    expect(r.code).toBe(0);
    const list = r.json<WireMarket[]>();
    expect(list).toHaveLength(3);
    for (const m of list) expect(typeof m.slug).toBe('string');
    const page2 = (await pm('--json', 'markets', 'list', '--limit', '3', '--page', '2')).json<WireMarket[]>();
    expect(page2.map((m) => m.slug)).not.toContain(list[0]?.slug);
    const all = (await pm('--json', 'markets', 'list', '--all')).json<WireMarket[]>();
    expect(all.length).toBeGreaterThanOrEqual(list.length + page2.length);
    expect(new Set(all.map((m) => m.slug)).size).toBe(all.length);
    expect(all.map((m) => m.slug)).toContain('btc-100k-2026');
    expect(all.map((m) => m.slug)).not.toContain('eth-5k-2025'); // resolved markets are not active
    const t = await pm('markets', 'list', '--limit', '5');
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/SLUG/);
    expect(t.stderr).toMatch(/of \d+ active markets/);
  });

  it('filters by trade type', async () => {
    const amm = (await pm('--json', 'markets', 'list', '--type', 'amm', '--all')).json<WireMarket[]>();
    expect(amm.length).toBeGreaterThan(0);
    for (const m of amm) expect(m.tradeType).toBe('amm');
  });

  it('searches', async () => {
    const r = await pm('--json', 'markets', 'search', 'bitcoin');
    expect(r.code).toBe(0);
    expect(r.json<WireMarket[]>().map((m) => m.slug)).toContain('btc-100k-2026');
    // No words: a usage error here (it went to the exchange and came back refused, exit 9).
    for (const q of ['', '   ']) {
      const e = await pm('--json', 'markets', 'search', q);
      expect(e.code, e.stderr).toBe(2);
      expect(JSON.parse(e.stderr).error.message).toMatch(/search needs words/);
    }
  });

  it('shows a market with outcomes, position ids and venue', async () => {
    const j = (await pm('--json', 'markets', 'show', 'btc-100k-2026')).json<WireMarket>();
    expect(j.positionIds).toHaveLength(2);
    expect(j.venue?.exchange).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const t = await pm('markets', 'show', 'btc-100k-2026');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(j.positionIds?.[0] ?? 'x');
    expect(t.stdout).toContain(j.venue?.exchange ?? 'x');
    expect(t.stdout).toMatch(/YES/);
    expect(t.stdout).toMatch(/deadline/);
    const url = await pm('--json', 'markets', 'show', 'https://limitless.exchange/markets/btc-100k-2026');
    expect(url.json<WireMarket>().slug).toBe('btc-100k-2026');
  });

  it('shows a NegRisk group with its children and their adapter', async () => {
    const g = (await pm('--json', 'markets', 'show', 'us-election-2028')).json<WireMarket>();
    expect(g.markets?.length).toBeGreaterThanOrEqual(2);
    const child = g.markets?.[0];
    const c = (await pm('--json', 'markets', 'show', child?.slug ?? '')).json<WireMarket>();
    expect(c.venue?.adapter).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const t = await pm('markets', 'show', 'us-election-2028');
    expect(t.stdout).toContain(child?.slug ?? 'x');
  });

  it('exits 4 for an unknown market, with a hint', async () => {
    const r = await pm('markets', 'show', 'no-such-market');
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no market "no-such-market"/);
    expect(r.stderr).toMatch(/hint:/);
    // The CLI's words (the library says pm.markets.list(): test/lib/library-words.test.ts).
    const far = await pm('markets', 'show', 'zq-nothing-like-it');
    expect(far.stderr).toMatch(/hint: See pm markets list, or pm markets search <words>/);
    expect(far.stderr).not.toMatch(/pm\.markets/);
    expect((await pm('book', 'no-such-market')).code).toBe(4);
    const j = await pm('--json', 'markets', 'show', 'no-such-market');
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });
  });

  it('shows the order book with exact spread, midpoint and depth', async () => {
    const r = await pm('--json', 'book', 'btc-100k-2026');
    expect(r.code).toBe(0);
    const b = r.json<{
      bids: { price: string; sizeRaw: string }[];
      asks: { price: string; sizeRaw: string }[];
      spread: string;
      midpoint: string;
      bestBid: string;
      bestAsk: string;
      depth: { bidsRaw: string };
    }>();
    expect(b.bids.length).toBeGreaterThan(0);
    expect(b.asks.length).toBeGreaterThan(0);
    const toMicro = (s: string) => Math.round(Number(s) * 1e6);
    expect(toMicro(b.bestBid)).toBeLessThan(toMicro(b.bestAsk));
    expect(toMicro(b.spread)).toBe(toMicro(b.bestAsk) - toMicro(b.bestBid));
    expect(BigInt(b.depth.bidsRaw)).toBe(b.bids.reduce((a, l) => a + BigInt(l.sizeRaw), 0n));
    for (let i = 1; i < b.bids.length; i++) expect(Number(b.bids[i]!.price)).toBeLessThan(Number(b.bids[i - 1]!.price));
    // Piped, the summary goes to stderr (stdout is the table of levels).
    const t = await pm('book', 'btc-100k-2026');
    expect(t.stderr).toMatch(/spread/);
    expect(t.stderr).toMatch(/midpoint/);
  });

  it('prints price history and the feed', async () => {
    const h = await pm('--json', 'markets', 'history', 'btc-100k-2026');
    expect(h.code).toBe(0);
    expect(h.json<unknown[]>().length).toBeGreaterThan(10);
    const f = await pm('--json', 'markets', 'feed', 'btc-100k-2026', '--limit', '2');
    expect(f.code).toBe(0);
    expect(f.json<unknown[]>().length).toBeLessThanOrEqual(2);
    // Every trade's USDC amount is its shares times a price between 0 and 1, as live trades are
    // (the seeded ones said 56120 for 92 shares at 0.61).
    const all = (await pm('--json', 'markets', 'feed', 'btc-100k-2026')).json<
      { data: { contracts: string; tradeAmount: string; tradeAmountUSD: string } }[]
    >();
    expect(all.length).toBeGreaterThan(0);
    for (const { data } of all) {
      const usd = Number(data.tradeAmount);
      expect(usd, JSON.stringify(data)).toBeGreaterThan(0);
      expect(usd, JSON.stringify(data)).toBeLessThan(Number(data.contracts));
      expect(data.tradeAmountUSD).toBe(data.tradeAmount);
    }
  });

  it('browses a market page, following a redirect, with offset and cursor paging', async () => {
    const p = await pm('--json', 'markets', 'page', '/crypto', '--limit', '2');
    expect(p.code).toBe(0);
    const j = p.json<{ page: { id: string }; markets: WireMarket[]; pagination: { total: number } | null }>();
    expect(j.markets.length).toBeGreaterThan(0);
    expect(j.pagination?.total).toBeGreaterThan(0);
    const old = await pm('--json', 'markets', 'page', '/c/crypto', '--limit', '2');
    expect(old.json<{ page: { id: string } }>().page.id).toBe(j.page.id);
    const home = await pm('--json', 'markets', 'page', 'home', '--all', '--limit', '3');
    expect(home.json<WireMarket[]>().length).toBeGreaterThan(3);
    expect((await pm('markets', 'page', '/nowhere')).code).toBe(4);
    expect((await pm('markets', 'page', '/crypto', '--sort', 'price')).code).toBe(2);
  });

  it('a cursor the exchange does not know (exit 9): the hint says where cursors come from', async () => {
    const r = await pm('--json', 'markets', 'page', '/crypto', '--cursor', 'abc');
    expect(r.code).toBe(9);
    expect((JSON.parse(r.stderr) as { error: { hint?: string } }).error.hint).toMatch(/more:/);
  });

  it("the 'more:' line asks for the next page the same way (its order and size), by page or by cursor", async () => {
    const all = (await pm('--json', 'markets', 'page', 'home', '--all', '--sort', '-id', '--limit', '2')).json<WireMarket[]>();
    expect(all.length).toBeGreaterThan(3);
    for (const first of [
      ['--page', '1'],
      ['--cursor', ''],
    ]) {
      const r = await pm('markets', 'page', 'home', '--sort', '-id', '--limit', '2', ...first);
      expect(r.code, r.stderr).toBe(0);
      const more = /^more: pm (.+)$/m.exec(r.stderr)?.[1] ?? '';
      expect(more, r.stderr).toMatch(/^(--base-url \S+ )?markets page home --sort -id --limit 2 --(page 2|cursor \S+)$/);
      const next = await pm('--json', ...more.split(' '));
      expect(next.code, next.stderr).toBe(0);
      expect(next.json<{ markets: WireMarket[] }>().markets.map((m) => m.slug)).toEqual(all.slice(2, 4).map((m) => m.slug));
    }
  });
});
