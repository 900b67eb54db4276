// The library's calls check what they are given before anything is sent: an options object with a
// key the call does not know (a typo such as { slug } for { market }), a string where an object
// goes, or a value of the wrong type is a ValidationError (exit 2) naming the call and the key,
// never dropped (orders.cancelAll({ slug }) cancelled every order of every market) and never a
// TypeError from deep inside. Against a real sandbox; effects counted in its state.
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const client = () => {
  const a = seeded(sb.current, 'alice');
  return createClient({ home, baseUrl: sb.current.baseUrl, privateKey: a.privateKey, token: a.token });
};
/** alice's LIVE orders in the sandbox's state. */
const live = () => {
  const alice = seeded(sb.current, 'alice');
  return sb.current.ctx.state.orders.filter((o) => o.ownerId === alice.profileId && o.status === 'LIVE');
};
type Refusal = { name: string; exitCode: number; message: string; hint?: string };
/** What a call threw (or rejected with), else what it resolved with (which the test then refuses). */
const settled = async (f: () => unknown): Promise<Refusal | { resolved: unknown }> => {
  try {
    return { resolved: await f() };
  } catch (e) {
    return e as Refusal;
  }
};
/** What a call threw (or rejected with); it must not succeed. */
const refusal = async (f: () => unknown): Promise<Refusal> => {
  const r = await settled(f);
  if ('resolved' in r) throw new Error(`it did not refuse: ${JSON.stringify(r.resolved)}`);
  return r;
};
/** What a message or hint must not say to a library caller: a CLI flag or a pm command line. */
const CLI_WORDS = /(^|[\s(])--[a-z]|\bpm (order|book|markets|whoami|approve|redeem) /;
// (Plain JavaScript gets past the types: these are the calls a bot without TypeScript can make.)
// biome-ignore lint/suspicious/noExplicitAny: the point is calls the types refuse
type Loose = any;

describe('orders.cancelAll: an unknown key or a string is refused, nothing cancelled in any market', () => {
  it("cancelAll({ slug }) and cancelAll('btc-100k-2026'): a ValidationError naming market, both markets' orders still live", async () => {
    const pm = client();
    await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '5' });
    await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '5' });
    const before = live().length;
    expect(before).toBeGreaterThanOrEqual(2);
    const lib = pm.orders as Loose;
    const byKey = await settled(() => lib.cancelAll({ slug: 'btc-100k-2026' }));
    expect(live()).toHaveLength(before);
    const byString = await settled(() => lib.cancelAll('btc-100k-2026'));
    expect(live()).toHaveLength(before);
    expect(byKey).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/orders\.cancelAll.*\bslug\b/) });
    expect((byKey as Refusal).hint).toMatch(/\bmarket\b/);
    expect(byString).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/orders\.cancelAll/) });
    expect((byString as Refusal).hint).toMatch(/pm\.orders\.cancelAll\(\{ market: 'btc-100k-2026' \}\)/);
    // The call as it is meant still works: one market, then the rest.
    const one = await pm.orders.cancelAll({ market: 'btc-100k-2026' });
    expect(one.markets.map((m) => m.market)).toEqual(['btc-100k-2026']);
    expect(live().some((o) => o.marketSlug === 'sol-500-2026')).toBe(true);
    expect(live().some((o) => o.marketSlug === 'btc-100k-2026')).toBe(false);
    await pm.orders.cancelAll();
    expect(live()).toHaveLength(0);
    await pm.close();
  });
});

describe('every namespace refuses an unknown key or an options object of the wrong type', () => {
  const pm = () => client() as Loose;
  const cases: [string, (c: Loose) => unknown, RegExp][] = [
    ['orders.list({ markt })', (c) => c.orders.list({ markt: 'btc-100k-2026' }), /orders\.list.*markt/],
    ["orders.list('x')", (c) => c.orders.list('btc-100k-2026'), /orders\.list/],
    ['markets.list({ limt })', (c) => c.markets.list({ limt: 2 }), /markets\.list.*limt/],
    ['markets.search(q, { limt })', (c) => c.markets.search('bitcoin', { limt: 2 }), /markets\.search.*limt/],
    ['markets.page(path, { sorte })', (c) => c.markets.page('/crypto', { sorte: 'id' }), /markets\.page.*sorte/],
    ['markets.history(slug, { intervall })', (c) => c.markets.history('btc-100k-2026', { intervall: '1h' }), /markets\.history.*intervall/],
    ['orders.status({ clientIDs })', (c) => c.orders.status({ clientIDs: ['a'] }), /orders\.status.*clientIDs/],
    ['orders.placeBatch(lines, { batchID })', (c) => c.orders.placeBatch([], { batchID: 'b' }), /orders\.placeBatch.*batchID/],
    [
      'portfolio.history({ limt })',
      async (c) => {
        for await (const _ of c.portfolio.history({ limt: 2 })) break;
      },
      /portfolio\.history.*limt/,
    ],
    ['partner.list({ pag })', (c) => c.partner.list({ pag: 2 }), /partner\.list.*pag/],
    ['partner.allowances(id, { wiat })', (c) => c.partner.allowances(2001, { wiat: true }), /partner\.allowances.*wiat/],
    [
      'partner.create({ serverwallet })',
      (c) => c.partner.create({ serverWallet: true, serverwallet: true }),
      /partner\.create.*serverwallet/,
    ],
    ['funds.balance({ onbehalfOf })', (c) => c.funds.balance({ onbehalfOf: 2001 }), /funds\.balance.*onbehalfOf/],
    ['funds.withdraw({ amount, too })', (c) => c.funds.withdraw({ amount: '1', too: '0x0' }), /funds\.withdraw.*too/],
    ['funds.allowlist.list({ al })', (c) => c.funds.allowlist.list({ al: true }), /funds\.allowlist\.list.*\bal\b/],
    [
      'watch.orders({ markt })',
      async (c) => {
        for await (const _ of c.watch.orders({ markt: 'btc-100k-2026' })) break;
      },
      /watch\.orders.*markt/,
    ],
    ["a call's { signl }", (c) => c.orders.list({}, { signl: 1 }), /\bsignl\b/],
  ];
  for (const [what, call, says] of cases)
    it(`${what}: a ValidationError (exit 2) naming the call and the key`, async () => {
      const c = pm();
      const e = await refusal(() => call(c));
      await c.close();
      expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2 });
      expect(e.message).toMatch(says);
      expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
    });
});

describe("markets.book's outcome: yes or no, else a ValidationError as orders.place's", () => {
  for (const outcome of ['no ', 'maybe', 1])
    it(`outcome ${JSON.stringify(outcome)}: "outcome must be …", not the YES book`, async () => {
      const pm = client();
      const e = await refusal(() => pm.markets.book('btc-100k-2026', { outcome } as Loose));
      await pm.close();
      expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/^outcome must be/) });
    });

  it('{ outcom: "no" }: refused naming outcome; "no" and "NO" give the NO book, nothing the YES one', async () => {
    const pm = client();
    const e = await refusal(() => pm.markets.book('btc-100k-2026', { outcom: 'no' } as Loose));
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/outcom\b/) });
    expect(e.hint).toMatch(/Did you mean outcome\?/);
    expect((await pm.markets.book('btc-100k-2026', { outcome: 'no' })).outcome).toBe('NO');
    expect((await pm.markets.book('btc-100k-2026', { outcome: 'NO' })).outcome).toBe('NO');
    expect((await pm.markets.book('btc-100k-2026')).outcome).toBe('YES');
    await pm.close();
  });
});

describe('a wrong argument type is a ValidationError naming it, not a TypeError', () => {
  const cases: [string, (c: Loose) => unknown, RegExp][] = [
    ['orders.cancel(undefined)', (c) => c.orders.cancel(undefined), /order id/],
    ['funds.withdraw({ amount: 1 })', (c) => c.funds.withdraw({ amount: 1 }), /\bamount\b/],
    ['markets.get(42)', (c) => c.markets.get(42), /markets\.get/],
    ['orders.status({ ids: [1] })', (c) => c.orders.status({ ids: [1] }), /order id/],
  ];
  for (const [what, call, says] of cases)
    it(what, async () => {
      const c = client() as Loose;
      const e = await refusal(() => call(c));
      await c.close();
      expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2 });
      expect(e.message).toMatch(says);
    });
});

describe('refusals of orders.status and orders.list name keys, not flags', () => {
  it('orders.status({}): names ids and clientIds, not --client-id', async () => {
    const pm = client();
    const e = await refusal(() => pm.orders.status({}));
    await pm.close();
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2 });
    expect(e.message).toMatch(/clientIds/);
    expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
  });

  it('orders.list({ all: true }): names market and all: true, not --all or --market', async () => {
    const pm = client();
    const e = await refusal(() => pm.orders.list({ all: true }));
    await pm.close();
    expect(e).toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringMatching(/all: true.*market/) });
    expect(`${e.message}\n${e.hint ?? ''}`).not.toMatch(CLI_WORDS);
  });
});

describe("a call's { signal } that is not an AbortSignal is a ValidationError naming signal, not a TypeError", () => {
  // Before: { signal: 'x' } gave a raw TypeError from deep inside (not a PmError); a look-alike object was accepted.
  const lookAlike = { aborted: false, reason: undefined, addEventListener: () => {}, removeEventListener: () => {} };
  const cases: [string, (c: Loose, signal: unknown) => unknown][] = [
    ['markets.get', (c, signal) => c.markets.get('btc-100k-2026', { signal })],
    ['portfolio.positions', (c, signal) => c.portfolio.positions({ signal })],
    [
      'orders.place',
      (c, signal) => c.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '5' }, { signal }),
    ],
    ['orders.cancelAll', (c, signal) => c.orders.cancelAll({}, { signal })],
    [
      'watch.orders',
      async (c, signal) => {
        for await (const _ of c.watch.orders({ signal })) break;
      },
    ],
  ];
  for (const [what, call] of cases)
    for (const [name, signal] of [
      ["'x'", 'x'],
      ['a look-alike object', lookAlike],
    ] as const)
      it(`${what} with signal ${name}: "signal must be an AbortSignal", nothing sent`, async () => {
        const c = client() as Loose;
        const before = live().length;
        const e = await refusal(() => call(c, signal));
        await c.close();
        expect(e).toMatchObject({
          name: 'ValidationError',
          exitCode: 2,
          message: expect.stringMatching(/\bsignal must be an AbortSignal/),
        });
        expect(live()).toHaveLength(before);
      });

  it('orders.list({ signal }): the hint says the signal goes in the second argument, orders.list({ market }, { signal })', async () => {
    const c = client() as Loose;
    const e = await refusal(() => c.orders.list({ signal: new AbortController().signal }));
    await c.close();
    expect(e).toMatchObject({ name: 'ValidationError', exitCode: 2, message: expect.stringMatching(/orders\.list takes no signal/) });
    expect(e.hint).toContain('pm.orders.list({ market }, { signal })');
  });
});
