// The library speaks in its own words: an order it refuses before sending names the request's
// keys (size, postOnly, type: 'fok'), never the CLI's flags (--size) or a pm command line; a key
// it does not know (a typo such as postonly or onBehalfof, which would otherwise be dropped and
// send a different order) is refused before anything is sent, naming the key it meant.
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import type { OrderRequest } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
/** A client of alice's (or of another seeded account), `over` in place of her options. */
const client = (over: Partial<Parameters<typeof createClient>[0]> = {}, name = 'alice') => {
  const a = seeded(sb.current, name);
  return createClient({ home, baseUrl: sb.current.baseUrl, privateKey: a.privateKey, token: a.token, ...over });
};
const rejection = async (p: Promise<unknown>): Promise<{ name: string; exitCode: number; message: string; hint?: string }> => {
  try {
    await p;
  } catch (e) {
    return e as { name: string; exitCode: number; message: string; hint?: string };
  }
  throw new Error('it did not reject');
};
/** What a message or hint must not say to a library caller: a CLI flag or a pm command line. */
const CLI_WORDS = /(^|[\s(])--[a-z]|\bpm (order|book|markets|whoami|approve|redeem) /;

const base = { market: 'btc-100k-2026', side: 'buy', outcome: 'yes' } as const;

describe('the library names its own keys', () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['no size', { ...base, price: '0.2' }, /\bsize\b/],
    ['no price', { ...base, size: '1' }, /\bprice\b/],
    ['an amount on a GTC order', { ...base, price: '0.2', size: '1', amount: '3' }, /type: 'fok'/],
    ['a size on a FOK order', { ...base, type: 'fok', size: '3' }, /\bamount\b/],
    ['a price on a FOK order', { ...base, type: 'fok', price: '0.2', amount: '3' }, /\bprice\b/],
    ['no amount on a FOK order', { ...base, type: 'fok' }, /\bamount\b/],
    ['postOnly on a FOK order', { ...base, type: 'fok', amount: '3', postOnly: true }, /\bpostOnly\b/],
    ['a price that is not a decimal', { ...base, price: 'abc', size: '1' }, /price: '0\.42'/],
    ['a size that is not a decimal', { ...base, price: '0.2', size: 'ten' }, /size: '10'/],
    ['an amount that is not a decimal', { ...base, type: 'fok', amount: 'x' }, /amount: '25'/],
    ['a FOK SELL amount off the share grid', { ...base, side: 'sell', type: 'fok', amount: '1.0005' }, /\bamount\b/],
    ['delegated without onBehalfOf', { ...base, price: '0.2', size: '1', delegated: true }, /\bonBehalfOf\b/],
    ['no market', { side: 'buy', outcome: 'yes', price: '0.2', size: '1' }, /pm\.orders\.place\(/],
    ['an empty clientId', { ...base, price: '0.2', size: '1', clientId: '' }, /\bclientId\b/],
    ["a size under the market's minimum", { ...base, price: '0.2', size: '0.5' }, /size: '1' or more/],
    ['an expiration (orders do not expire here)', { ...base, price: '0.2', size: '1', expiration: '1h' }, /remove "expiration"/],
  ];
  for (const [what, req, names] of refused)
    it(`orders.place, ${what}: ValidationError (exit 2) in the library's words`, async () => {
      const pm = client();
      const mark = logMark(sb.current);
      const e = await rejection(pm.orders.place(req as unknown as OrderRequest));
      await pm.close();
      expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2 });
      const said = `${e.message}\n${e.hint ?? ''}`;
      expect(said).toMatch(names);
      expect(said).not.toMatch(CLI_WORDS);
      expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
    });

  it('orders.replace with neither price nor size: a UsageError naming price and size, not --price', async () => {
    const pm = client();
    const e = await rejection(pm.orders.replace('some-order-id', {}));
    await pm.close();
    expect(e).toMatchObject({ name: 'UsageError', exitCode: 2 });
    expect(`${e.message}\n${e.hint ?? ''}`).toMatch(/price.*size/);
    expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
  });
});

describe("the exchange's refusals, explained in the library's words", () => {
  it('a BUY beyond the free USDC and a SELL of shares not held: the hints name size and pm.orders.list(), not --size or pm order list', async () => {
    const pm = client();
    const buy = await rejection(pm.orders.place({ ...base, price: '0.2', size: '100000000' }));
    const sell = await rejection(pm.orders.place({ ...base, side: 'sell', price: '0.2', size: '100000' }));
    await pm.close();
    for (const e of [buy, sell]) {
      expect(e).toMatchObject({ name: 'ExchangeValidationError' });
      expect(e.hint).toMatch(/lower size/i);
      expect(e.hint).toMatch(/pm\.orders\.list\(\)/);
      expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
    }
  });
});

describe('a key the library does not know is refused before anything is sent', () => {
  it('orders.place with postonly (for postOnly): a ValidationError naming postOnly, and no order', async () => {
    const pm = client();
    const mark = logMark(sb.current);
    // Dropped, the typo would have sent an order that may cross the book (not post-only).
    const e = await rejection(pm.orders.place({ ...base, price: '0.99', size: '1', postonly: true } as unknown as OrderRequest));
    await pm.close();
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/postonly/) });
    expect(e.hint).toMatch(/postOnly/);
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
  });

  it('orders.replace with sise (for size): a ValidationError naming size', async () => {
    const pm = client();
    const e = await rejection(pm.orders.replace('some-order-id', { sise: '2' } as unknown as { size: string }));
    await pm.close();
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/sise/) });
    expect(e.hint).toMatch(/\bsize\b/);
  });

  it('createClient with onBehalfof (for onBehalfOf) or tokenId at the top: a UsageError naming the option meant', () => {
    const a = seeded(sb.current, 'alice');
    const opts = { home, baseUrl: sb.current.baseUrl, privateKey: a.privateKey, token: a.token };
    const thrown = (o: Record<string, unknown>) => {
      try {
        createClient(o as unknown as Parameters<typeof createClient>[0]);
      } catch (e) {
        return e as { name: string; exitCode: number; message: string; hint?: string };
      }
      throw new Error('createClient did not throw');
    };
    // Dropped, the partner's own account would have traded instead of the sub-account.
    const e = thrown({ ...opts, onBehalfof: 2001 });
    expect(e).toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringMatching(/onBehalfof/) });
    expect(e.hint).toMatch(/onBehalfOf/);
    const t = thrown({
      home,
      baseUrl: sb.current.baseUrl,
      privateKey: a.privateKey,
      tokenId: a.token.tokenId,
      tokenSecret: a.token.secret,
    });
    expect(t).toMatchObject({ name: 'UsageError', message: expect.stringMatching(/tokenId, tokenSecret/) });
    expect(t.hint).toMatch(/token: \{ tokenId, secret \}/);
  });
});

describe("the core's hints, reached from the library, name its calls and options", () => {
  // Before: "See pm markets list, or pm markets search <words>." and "Check the API token (pm
  // whoami), or set PM_TOKEN_ID and PM_TOKEN_SECRET (the library: createClient's token)." —
  // the CLI's commands and environment first, to a bot that has neither.
  it('a market that does not exist (markets.get, orders.place): the hint names pm.markets.list() and pm.markets.search()', async () => {
    const pm = client();
    const mark = logMark(sb.current);
    const got = await rejection(pm.markets.get('zq-nothing-like-it'));
    const placed = await rejection(pm.orders.place({ ...base, market: 'zq-nothing-like-it', price: '0.2', size: '1' }));
    await pm.close();
    for (const e of [got, placed]) {
      expect(e).toMatchObject({ name: 'NotFoundError', exitCode: 4, message: expect.stringMatching(/no market "zq-nothing-like-it"/) });
      expect(e.hint).toMatch(/pm\.markets\.list\(\).*pm\.markets\.search\('/);
      expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
    }
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
  });

  it('a token the exchange refuses: the hint names createClient({ token }), not PM_TOKEN_ID or pm whoami', async () => {
    const pm = client({ token: { tokenId: seeded(sb.current, 'alice').token.tokenId, secret: 'AAAA' } });
    const e = await rejection(pm.orders.list());
    await pm.close();
    expect(e).toMatchObject({ name: 'AuthError', exitCode: 3 });
    expect(e.hint).toMatch(/token: \{ tokenId, secret \}/);
    expect(e.hint).not.toMatch(/PM_TOKEN|pm whoami|pm init/);
  });

  it("an order with no key to sign it: the hint names createClient's privateKey, not PM_PRIVATE_KEY or pm wallet", async () => {
    const pm = client({ privateKey: undefined });
    const e = await rejection(pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.05', size: '1' }));
    await pm.close();
    expect(e.hint).toMatch(/privateKey/);
    expect(e.hint).not.toMatch(/PM_PRIVATE_KEY|pm wallet|pm init/);
  });

  it("an exchange that refuses the connection (not this machine's): the hint names createClient's baseUrl, not --base-url", async () => {
    // (A port nothing listens on; 0.0.0.0 reaches this machine, but is not how a sandbox is named.)
    const pm = createClient({ home, baseUrl: 'http://0.0.0.0:9', timeoutMs: 3000 });
    const e = await rejection(pm.markets.get('btc-100k-2026'));
    await pm.close();
    expect(e).toMatchObject({ name: 'NetworkError', exitCode: 7 });
    expect(e.hint).toMatch(/createClient's baseUrl/);
    expect(e.hint).not.toMatch(/--base-url|PM_BASE_URL/);
  });

  it('markets.page with a sort it does not take, and an address allowed twice: the hints name sort and pm.funds.allowlist.list(), not --sort or pm withdrawal-address', async () => {
    const pm = client({}, 'carol');
    const sort = await rejection(pm.markets.page('/crypto', { sort: 'price' }));
    expect(sort).toMatchObject({ name: 'UsageError', exitCode: 2 });
    expect(`${sort.message}\n${sort.hint ?? ''}`).not.toMatch(/--sort/);
    expect(sort.hint).toMatch(/sort: '-createdAt'/);
    await pm.close();
    const id = client({ identityToken: seeded(sb.current, 'carol').identityToken }, 'carol');
    const to = '0x00000000000000000000000000000000000A11cE';
    await id.funds.allowlist.add(to).catch(() => undefined);
    const twice = await rejection(id.funds.allowlist.add(to));
    await id.close();
    expect(twice).toMatchObject({ name: 'ConflictError', exitCode: 5 });
    expect(twice.hint).toMatch(/pm\.funds\.allowlist\.list\(\)/);
    expect(twice.hint).not.toMatch(/pm withdrawal-address/);
  });

  it("a read whose deadline passes first: NetworkError (exit 7), the hint names createClient's timeoutMs, not --timeout", async () => {
    // (1 ms: the deadline passes before the request is sent, or before its answer: both say so.)
    const pm = client({ timeoutMs: 1 });
    const e = await rejection(pm.markets.get('btc-100k-2026'));
    await pm.close();
    expect(e).toMatchObject({ name: 'NetworkError', exitCode: 7 });
    expect(e.hint).toMatch(/Raise createClient's timeoutMs/);
    expect(e.hint).not.toMatch(/--timeout|PM_TIMEOUT/);
  });

  it("a stream that never connects: NetworkError (exit 7) after timeoutMs, the hint names createClient's wsUrl and timeoutMs, not --timeout", async () => {
    const pm = client({ wsUrl: 'ws://127.0.0.1:9', timeoutMs: 700 });
    const seen: unknown[] = [];
    const e = await rejection(
      (async () => {
        // (Lifecycle records come first: a stream says when it is retrying.)
        for await (const ev of pm.watch.markets()) seen.push(ev);
      })(),
    );
    await pm.close();
    expect(seen.every((ev) => (ev as { event?: unknown }).event === 'lifecycle')).toBe(true);
    expect(e).toMatchObject({ name: 'NetworkError', exitCode: 7 });
    expect(e.message).toMatch(/no connection to the exchange stream/);
    expect(e.hint).toMatch(/wsUrl/);
    expect(e.hint).toMatch(/timeoutMs/);
    expect(e.hint).not.toMatch(CLI_WORDS);
    expect(e.hint).not.toMatch(/PM_WS_URL/);
  });

  it('no token at all: orders.list and orders.place name createClient({ token }), not pm init', async () => {
    const pm = client({ token: undefined });
    const mark = logMark(sb.current);
    const listed = await rejection(pm.orders.list());
    const placed = await rejection(pm.orders.place({ ...base, price: '0.2', size: '1' }));
    await pm.close();
    for (const e of [listed, placed]) {
      expect(e).toMatchObject({ name: 'AuthError', exitCode: 3 });
      expect(e.hint).toMatch(/token: \{ tokenId, secret \}/);
      expect(e.hint).not.toMatch(/PM_TOKEN|pm init/);
    }
    // (One hint, whichever call found the token missing.)
    expect(placed.hint).toBe(listed.hint);
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
  });
});

describe('an order no market can take, a page too long, a sub-account that is none: in the library words', () => {
  it('orders.place to a NegRisk group and to a resolved market: the hints name market and pm.funds.redeem(), not pm markets show or pm redeem', async () => {
    const pm = client();
    const mark = logMark(sb.current);
    const group = await rejection(pm.orders.place({ ...base, market: 'us-election-2028', price: '0.2', size: '1' }));
    const resolved = await rejection(pm.orders.place({ ...base, market: 'eth-5k-2025', price: '0.2', size: '1' }));
    await pm.close();
    expect(group).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/NegRisk group/) });
    expect(group.hint).toMatch(/market; pm\.markets\.get\('us-election-2028'\)/);
    expect(resolved).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/resolved/) });
    expect(resolved.hint).toMatch(/pm\.funds\.redeem\('eth-5k-2025'\)/);
    for (const e of [group, resolved]) expect(e.hint).not.toMatch(/\bpm (markets|redeem)\b/);
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
  });

  it('markets.list with limit over a page: the message names limit and the hint all: true, not --limit and --all', async () => {
    const pm = client();
    const e = await rejection(pm.markets.list({ limit: 100 }));
    await pm.close();
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/^limit is at most 25/) });
    expect(e.hint).toMatch(/all: true/);
    expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
  });

  it("a partner's onBehalfOf that is none of its sub-accounts: the hint names pm.partner.list() and onBehalfOf, not --on-behalf-of", async () => {
    const pm = client({ onBehalfOf: 987654 }, 'partner');
    const mark = logMark(sb.current);
    const e = await rejection(pm.orders.place({ ...base, price: '0.2', size: '1' }));
    await pm.close();
    expect(e).toMatchObject({ name: 'NotFoundError', exitCode: 4, message: expect.stringMatching(/987654/) });
    expect(e.hint).toMatch(/pm\.partner\.list\(\).*onBehalfOf/);
    expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
  });
});
