// Market input (issue 14): slugs in any case or as the exchange's URL, other sites refused,
// did-you-mean, groups, the NO book, history ranges and intervals, money formatting; and
// checkable input refused locally (exit 2, no request).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { historyQuery, slugFrom, suggestMarkets } from '../../src/core/market-input.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home };
const pm = (...argv: string[]) => runPm(['--base-url', sb.current.baseUrl, ...argv], { env });

// Counts requests, to prove that bad input is refused before anything is sent.
let hits = 0;
const server = createServer((_req, res) => {
  hits++;
  res.writeHead(500).end();
});
let deadUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));
const offline = (...argv: string[]) =>
  runPm(['--base-url', deadUrl, '--timeout', '2000', ...argv], {
    env: { ...env, PM_TOKEN_ID: 'dGVzdA', PM_TOKEN_SECRET: 'c2VjcmV0', PM_PRIVATE_KEY: `0x${'11'.repeat(32)}` },
  });

describe('market arguments', () => {
  it('takes a slug in any case, or the exchange market URL (query, trailing slash, www)', async () => {
    for (const m of [
      'BTC-100K-2026',
      'https://limitless.exchange/markets/btc-100k-2026',
      'https://limitless.exchange/markets/BTC-100k-2026/?r=XYZ#top',
      'limitless.exchange/markets/btc-100k-2026',
      'https://www.limitless.exchange/markets/btc%2D100k%2D2026',
    ]) {
      const r = await pm('--json', 'markets', 'show', m);
      expect(r.code, m).toBe(0);
      expect(r.json<{ slug: string }>().slug).toBe('btc-100k-2026');
    }
  });

  it('refuses odd URL forms with exit 2 and a clear message, sending nothing', async () => {
    const cases = [
      'https://limitless.exchange/markets/%ZZ',
      'https://limitless.exchange/markets/%',
      'https://limitless.exchange/markets/%E0%A4%A',
      'https://limitless.exchange/markets/a%2Fb',
      'https://limitless.exchange/markets/%00btc',
      'https://limitless.exchange/markets/btc%20100k',
      'https://limitless.exchange/markets/%252F',
      'https://limitless.exchange/markets/',
      'https://limitless.exchange/',
      'https://limitless.exchange/markets/btc-100k-2026/extra',
      'https://limitless.exchange/markets/caf%C3%A9',
      'https://limitless.exchange/markets/..',
      'http://[::1',
      'ftp://limitless.exchange/markets/btc-100k-2026',
      'javascript:alert(1)',
      'https://limitless.exchange/markets/-btc',
    ];
    hits = 0;
    for (const c of cases) {
      const r = await offline('book', c);
      expect(r.code, c).toBe(2);
      expect(r.stderr, c).not.toMatch(/bug/);
      expect(r.stderr, c).toMatch(/^error: .*(URL|slug|site|web address)/m);
    }
    expect(hits).toBe(0);
  });

  it("refuses another site's URL instead of using the slug inside it", async () => {
    hits = 0;
    const r = await offline('markets', 'show', 'https://polymarket.com/markets/btc-100k-2026');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/polymarket\.com is not the exchange's site/);
    expect(() => slugFrom('https://evil.limitless.exchange.example.com/markets/x')).toThrow(/not the exchange's site/);
    expect(hits).toBe(0);
  });

  it('suggests markets by edit distance and by words of the title', async () => {
    const typo = await pm('markets', 'show', 'btc-100k-2062');
    expect(typo.code).toBe(4);
    expect(typo.stderr).toMatch(/Did you mean btc-100k-2026/);
    const words = await pm('book', 'brazil-world-cup');
    expect(words.code).toBe(4);
    expect(words.stderr).toMatch(/Did you mean world-cup-2026-brazil/);
    expect(
      suggestMarkets('solana-500', [
        { slug: 'sol-500-2026', title: 'Will Solana reach $500 before 2027?' },
        { slug: 'fed-cut', title: 'Fed' },
      ]),
    ).toEqual(['sol-500-2026']);
    // A word every other title has says nothing: "zq-nothing-like-it" meant no market about rain.
    expect(
      suggestMarkets('zq-nothing-like-it', [{ slug: 'rain-in-london-weekend', title: 'Will it rain in London this weekend?' }]),
    ).toEqual([]);
  });

  it('lists the child markets of a group for book and markets history', async () => {
    for (const cmd of [['book'], ['markets', 'history']]) {
      const r = await pm(...cmd, 'us-election-2028');
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/us-election-2028-democrat\t0\.480\t0\.520/);
      const j = await pm('--json', ...cmd, 'us-election-2028');
      expect(j.json<{ group: boolean; markets: { slug: string; yes: string }[] }>().markets.map((m) => m.slug)).toContain(
        'us-election-2028-republican',
      );
    }
  });

  it('book --outcome no shows the NO side (the YES book mirrored)', async () => {
    const yes = (await pm('--json', 'book', 'btc-100k-2026')).json<{ bestBid: string; bestAsk: string; outcome: string }>();
    const no = (await pm('--json', 'book', 'btc-100k-2026', '--outcome', 'NO')).json<{
      bestBid: string;
      bestAsk: string;
      outcome: string;
    }>();
    expect(no.outcome).toBe('NO');
    expect(Number(no.bestBid)).toBeCloseTo(1 - Number(yes.bestAsk), 6);
    expect(Number(no.bestAsk)).toBeCloseTo(1 - Number(yes.bestBid), 6);
  });

  it('markets history: reversed range, bad dates and the ambiguous 1m are refused offline; 1mo is a month', async () => {
    hits = 0;
    const rev = await offline('markets', 'history', 'btc-100k-2026', '--from', '2026-12-01', '--to', '2026-01-01');
    expect(rev.code).toBe(2);
    expect(rev.stderr).toMatch(/reversed/);
    for (const d of ['garbage', '2026-02-30', '2026-13-01', '31/01/2026']) {
      const r = await offline('markets', 'history', 'btc-100k-2026', '--from', d);
      expect(r.code, d).toBe(2);
      expect(r.stderr).toMatch(/--from must be an ISO 8601/);
    }
    // (The library takes no choices list: a name of Object's prototype is no interval either.)
    for (const i of ['constructor', '__proto__', 'toString']) expect(() => historyQuery({ interval: i }), i).toThrow(/--interval must be/);
    const m = await offline('markets', 'history', 'btc-100k-2026', '--interval', '1m');
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/1mo/);
    expect(hits).toBe(0);
    const month = await pm('--json', 'markets', 'history', 'btc-100k-2026', '--interval', '1MO');
    expect(month.code).toBe(0);
    const hourly = await pm('--json', 'markets', 'history', 'btc-100k-2026', '--interval', '1h');
    expect(month.json<unknown[]>().length).toBeLessThan(hourly.json<unknown[]>().length);
  });

  it('formats money one way: thousands separators on a TTY, plain when piped and in JSON', async () => {
    const tty = await runPm(['--base-url', sb.current.baseUrl, 'markets', 'show', 'btc-100k-2026'], { env, tty: true, columns: 200 });
    // eslint-disable-next-line no-control-regex
    expect(tty.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/volume\s+\$1,284,500\.00/);
    const piped = await pm('markets', 'list', '--all');
    expect(piped.stdout).toMatch(/btc-100k-2026\t.*\t\$1284500\.00\t/);
    // Exact, never cut: the seed's liquidity is 107041.666666 USDC (it showed $107041.66).
    const show = await pm('markets', 'show', 'btc-100k-2026');
    expect(show.stdout).toMatch(/^liquidity\s+\$107041\.666666$/m);
  });
});

describe('checkable input is refused locally (exit 2, nothing sent)', () => {
  it('amounts above 2^53 raw units, off-grid FOK SELL amounts, page sort, long client ids', async () => {
    hits = 0;
    const cases: [string[], RegExp][] = [
      [['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.5', '--size', '9999999999.999'], /too large/],
      [['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '9007199254.740992'], /too large/],
      [['order', 'place', 'btc-100k-2026', 'sell', 'yes', '--type', 'fok', '--amount', '1.0005'], /0\.001-share grid.*use 1 or 1\.001/],
      [['markets', 'page', '/crypto', '--sort', 'bogus'], /--sort must be/],
      [['order', 'cancel', '--client-id', 'x'.repeat(129)], /129 characters/],
      [['order', 'status', '--client-id', 'x'.repeat(129)], /129 characters/],
    ];
    for (const [argv, msg] of cases) {
      const r = await offline(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(msg);
    }
    expect(hits).toBe(0);
  });

  it('sides, outcomes and types are case-insensitive', async () => {
    const r = await offline('order', 'place', 'btc-100k-2026', 'Buy', 'Yes', '--type', 'Gtc', '--price', '0.5', '--size', '0.0001');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/size/);
    expect(r.stderr).not.toMatch(/Allowed choices/);
  });
});
