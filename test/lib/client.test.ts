// The library against the real sandbox, in-process: the same core as the CLI, exactly-once by
// clientId, a watch that yields the order's events and ends on an AbortSignal, cancel-replace and
// the kill switch, typed errors.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, NotFoundError, createClient } from '../../src/lib/index.js';
import type { WatchRecord } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const alice = () => seeded(sb.current, 'alice');
const client = () =>
  createClient({
    home,
    baseUrl: sb.current.baseUrl,
    privateKey: alice().privateKey,
    token: { tokenId: alice().token.tokenId, secret: alice().token.secret },
  });

describe('createClient', () => {
  it('bad options and a number where a decimal string is wanted are typed errors (PmError, exit 2), not TypeError or RangeError', async () => {
    for (const baseUrl of ['not a url', '127.0.0.1:8787', 'http://127.0.0.1:99999'])
      expect(() => createClient({ home, baseUrl }), baseUrl).toThrow(expect.objectContaining({ name: 'UsageError', exitCode: 2 }));
    for (const timeoutMs of [-5, 0, 1.5, Number.NaN])
      expect(() => createClient({ home, baseUrl: sb.current.baseUrl, timeoutMs }), String(timeoutMs)).toThrow(
        expect.objectContaining({ name: 'UsageError', exitCode: 2 }),
      );
    const pm = client();
    const bad = { market: 'btc-100k-2026', side: 'buy' as const, outcome: 'yes' as const, price: 0.42 as unknown as string, size: '1' };
    await expect(pm.orders.place(bad)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/price must be a string/),
    });
    await pm.close();
  });

  it('a profile that is not there is not found (exit 4, as pm --profile gives), the hint naming the one it meant and the known ones', async () => {
    const h = tempHome();
    try {
      const cfg = { version: 1, profiles: { sandbox: { baseUrl: sb.current.baseUrl }, live: {} }, activeProfile: 'sandbox' };
      writeFileSync(join(h.home, 'config.json'), JSON.stringify(cfg));
      const thrown = (() => {
        try {
          createClient({ home: h.home, profile: 'sandbx' });
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(thrown).toBeInstanceOf(NotFoundError);
      expect(thrown).toMatchObject({ exitCode: 4, code: 'NOT_FOUND', message: expect.stringMatching(/no profile named "sandbx"/) });
      expect((thrown as NotFoundError).hint).toMatch(/Did you mean sandbox\?/);
      expect((thrown as NotFoundError).hint).toMatch(/Known profiles: sandbox, live/);
    } finally {
      h.cleanup();
    }
  });

  it('an empty PM_HOME counts as unset, as in the CLI (not the current directory), and an empty XDG_CONFIG_HOME too (the XDG rule)', () => {
    // Before: PM_HOME='' put the config, journal and limiter in the current directory; XDG_CONFIG_HOME='' in ./pm.
    const h = tempHome();
    const saved = { PM_HOME: process.env['PM_HOME'], XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'], HOME: process.env['HOME'] };
    /** The config file a client without `home` reads (a profile not found names it). */
    const configOf = (): string => {
      try {
        createClient({ profile: 'no-such-profile' });
      } catch (e) {
        return /no profile named "no-such-profile" in (.+)$/.exec((e as Error).message)?.[1] ?? (e as Error).message;
      }
      return 'no error';
    };
    try {
      process.env['HOME'] = h.home;
      process.env['PM_HOME'] = '';
      process.env['XDG_CONFIG_HOME'] = join(h.home, 'xdg');
      expect(configOf()).toBe(join(h.home, 'xdg', 'pm', 'config.json'));
      process.env['XDG_CONFIG_HOME'] = '';
      expect(configOf()).toBe(join(h.home, '.config', 'pm', 'config.json'));
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      h.cleanup();
    }
  });

  it("a bad credential passed to createClient is named as the bot passed it (privateKey, token.secret), not as the CLI's environment variable", async () => {
    // Before: "PM_PRIVATE_KEY: a private key is 32 bytes…", "PM_TOKEN_SECRET is not base64",
    // "PM_TOKEN_ID is set but PM_TOKEN_SECRET is not": variables a bot that passed options never set.
    const { privateKey, token } = alice();
    const cases = [
      { o: { privateKey: '0x1234', token }, message: /^privateKey: a private key is 32 bytes/ },
      { o: { privateKey, token: { tokenId: token.tokenId, secret: 'not base64!' } }, message: /^token\.secret is not base64$/ },
      { o: { privateKey, token: { tokenId: token.tokenId, secret: '' } }, message: /^token\.tokenId is set but token\.secret is not/ },
      { o: { privateKey, token: { tokenId: '', secret: token.secret } }, message: /^token\.secret is set but token\.tokenId is not/ },
    ];
    for (const c of cases) {
      const pm = createClient({ home, baseUrl: sb.current.baseUrl, ...c.o });
      const err = await pm.orders.list().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, String(c.message)).toMatchObject({ exitCode: 2, message: expect.stringMatching(c.message) });
      expect((err as Error).message).not.toMatch(/PM_/);
      await pm.close();
    }
  });

  it("a credential the exchange refuses, or one a call needs and the client lacks, has a hint naming createClient's option", async () => {
    // Before: "Check the API token (pm whoami), or set PM_TOKEN_ID and PM_TOKEN_SECRET." and
    // "Set PM_IDENTITY_TOKEN or store one with pm init.": the CLI's ways only, to a bot. (The CLI
    // still says those: the core's API client is told whose words to use.)
    const { privateKey, token } = alice();
    const wrong = createClient({ home, baseUrl: sb.current.baseUrl, privateKey, token: { tokenId: token.tokenId, secret: 'AAAA' } });
    const refused = await wrong.orders.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      code: 'AUTH',
      exitCode: 3,
      hint: expect.stringMatching(/createClient \(token: \{ tokenId, secret \}\)/),
    });
    await wrong.close();
    const pm = client();
    const noIdentity = await pm.funds.allowlist.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(noIdentity).toMatchObject({ code: 'AUTH', exitCode: 3, hint: expect.stringMatching(/identityToken to createClient/) });
    await pm.close();
  });

  it("a clientId used by another order: the ConflictError's hint names the library's way to look (orders.status) beside the CLI's", async () => {
    // Before: "give it another --client-id; to see the existing one: pm order status --client-id …".
    const pm = client();
    const clientId = `hint-${Date.now()}`;
    const bid = { market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.05', size: '10', clientId } as const;
    const placed = await pm.orders.place(bid);
    const err = await pm.orders.place({ ...bid, price: '0.06' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).hint).toContain(`orders.status({ clientIds: ['${clientId}'] })`);
    expect((err as ConflictError).hint).toContain(`pm order status --client-id ${clientId}`);
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === clientId)).toHaveLength(1);
    await pm.orders.cancel(placed.order.id);
    await pm.close();
  });

  it('derives the stream URL from the base URL', () => {
    const pm = client();
    expect(pm.wsUrl).toBe(sb.current.baseUrl.replace(/^http/, 'ws'));
  });

  it('gets a market, places exactly once by clientId, streams its events, cancels; an abort ends the stream', async () => {
    const pm = client();
    const m = await pm.markets.get('btc-100k-2026');
    expect(m.slug).toBe('btc-100k-2026');
    const ac = new AbortController();
    const seen: WatchRecord[] = [];
    let onSubscribed: () => void = () => undefined;
    const subscribed = new Promise<void>((resolve) => {
      onSubscribed = resolve;
    });
    // The iteration, as a bot writes it: it must end by itself once the signal aborts.
    const loop = (async () => {
      for await (const ev of pm.watch.orders({ signal: ac.signal })) {
        seen.push(ev);
        if (ev.event === 'lifecycle' && ev.type === 'subscribed') onSubscribed();
      }
      return 'ended';
    })();
    await subscribed;
    const order = {
      market: 'btc-100k-2026',
      side: 'buy' as const,
      outcome: 'yes' as const,
      price: '0.11',
      size: '10',
      clientId: 'lib-once-1',
    };
    const first = await pm.orders.place(order);
    const again = await pm.orders.place(order);
    expect(again.order.id).toBe(first.order.id);
    expect(first.alreadyPlaced).toBe(false);
    expect(again.alreadyPlaced).toBe(true);
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'lib-once-1')).toHaveLength(1);
    // Another order under the same clientId is a typed conflict (exit 5).
    await expect(pm.orders.place({ ...order, price: '0.12' })).rejects.toBeInstanceOf(ConflictError);
    await expect(pm.orders.place({ ...order, price: '0.12' })).rejects.toMatchObject({ exitCode: 5, code: 'CONFLICT' });
    const deadline = Date.now() + 15_000;
    const placement = () => seen.find((e) => e.event === 'orderEvent' && e.clientOrderId === 'lib-once-1');
    while (!placement() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // A typed record: money as decimal strings plus …Raw (the wire's float price and integer size in `raw`).
    expect(placement()).toMatchObject({
      event: 'orderEvent',
      source: 'OME',
      type: 'PLACEMENT',
      orderId: first.order.id,
      side: 'BUY',
      outcome: 'YES',
      price: '0.11',
      remainingSize: '10',
      remainingSizeRaw: '10000000',
      replayed: false,
      raw: expect.objectContaining({ orderId: first.order.id }),
    });
    const c = await pm.orders.cancel(first.order.id);
    expect(c.results).toEqual([{ order: { id: first.order.id, market: null }, clientId: null, status: 'CANCELLED', error: null }]);
    ac.abort();
    expect(await loop).toBe('ended');
    await pm.close();
  });

  it("returns the shapes of docs/architecture.md §1b and of the CLI: order.id and execution, every market's open orders, batch lines", async () => {
    const pm = client();
    const r = await pm.orders.place({
      market: 'btc-100k-2026',
      side: 'buy',
      outcome: 'yes',
      price: '0.14',
      size: '10',
      clientId: 'lib-shape-1',
    });
    // Typed: no index access needed.
    const id: string = r.order.id;
    expect(r.alreadyPlaced).toBe(false);
    expect(r).toMatchObject({ clientId: 'lib-shape-1', status: 'LIVE', alreadyPlaced: false });
    expect(r.order).toMatchObject({
      market: 'btc-100k-2026',
      side: 'BUY',
      outcome: 'YES',
      price: '0.14',
      size: '10',
    });
    // Money as the CLI's JSON has it: the decimal beside its …Raw (a GTC order has no amount).
    expect(r.order).toMatchObject({ sizeRaw: '10000000', amountRaw: null });
    expect(r.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED', filled: { shares: '0', sharesRaw: '0' } });
    expect(
      (await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.14', size: '10', clientId: 'lib-shape-1' }))
        .order.id,
    ).toBe(id);
    // No market: the rows of `pm --json order list` (decimals plus …Raw), not the exchange's objects.
    const everywhere = await pm.orders.list();
    const row = everywhere.find((o) => o.id === id);
    expect(row).toEqual({ ...(await pm.orders.list({ market: 'btc-100k-2026' })).find((o) => o.id === id), createdAt: row?.createdAt });
    expect(row).toMatchObject({ market: 'btc-100k-2026', size: '10', sizeRaw: '10000000', remainingRaw: '10000000' });
    // Batch lines in place's vocabulary; a refusal keeps the exchange's status.
    const lines = await pm.orders.placeBatch([
      { market: 'btc-100k-2026', side: 'sell', outcome: 'no', price: '0.9', size: '100000' },
      { market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.14', size: '10', clientId: 'lib-shape-1' },
    ]);
    expect(lines).toEqual([
      expect.objectContaining({ line: 1, ok: false, sent: 'yes', error: expect.objectContaining({ code: 'REFUSED', status: 400 }) }),
      expect.objectContaining({ line: 2, ok: true, clientId: 'lib-shape-1', alreadyPlaced: true, order: expect.objectContaining({ id }) }),
    ]);
    // A batch line's result has the keys docs/library.md gives it, its order the …Raw of place's.
    expect(Object.keys(lines[1] ?? {}).sort()).toEqual(
      ['alreadyPlaced', 'clientId', 'execution', 'line', 'ok', 'order', 'skipped', 'status'].sort(),
    );
    expect(lines[1]).toMatchObject({ order: { size: '10', sizeRaw: '10000000', amountRaw: null } });
    expect(Object.keys(lines[0] ?? {}).sort()).toEqual(['clientId', 'error', 'line', 'ok', 'sent'].sort());
    await pm.orders.cancel(id);
    await pm.close();
  });

  it('cancel of an order an earlier cancel ended: status CANCELLED with alreadyCancelled, never NOT_FOUND', async () => {
    const pm = client();
    try {
      const placed = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.06', size: '2' });
      const id = placed.order.id;
      expect((await pm.orders.cancel(id)).results).toEqual([expect.objectContaining({ status: 'CANCELLED', error: null })]);
      const again = await pm.orders.cancel(id);
      expect(again.results).toEqual([
        { order: { id, market: null }, clientId: null, status: 'CANCELLED', alreadyCancelled: true, error: null },
      ]);
    } finally {
      await pm.close();
    }
  });

  it('placeBatch without batchId places anew on each call (a bot re-quoting after cancelAll); the same batchId resumes the batch, placing nothing twice', async () => {
    // Before: a call without batchId gave each line an id from its terms alone, so the same quote
    // placed again after cancelAll placed nothing (ok, skipped, alreadyPlaced, status CANCELED).
    const pm = client();
    const quote = [{ market: 'btc-100k-2026', side: 'buy' as const, outcome: 'yes' as const, price: '0.07', size: '3' }];
    const placedAt = () =>
      sb.current.ctx.state.orders.filter((o) => o.ownerId === alice().profileId && o.status === 'LIVE' && o.price === 70_000n);
    try {
      const first = await pm.orders.placeBatch(quote);
      expect(first).toEqual([expect.objectContaining({ ok: true, skipped: false, alreadyPlaced: false, status: 'LIVE' })]);
      await pm.orders.cancelAll({ market: 'btc-100k-2026' });
      expect(placedAt()).toHaveLength(0);
      const again = await pm.orders.placeBatch(quote);
      expect(again).toEqual([expect.objectContaining({ ok: true, skipped: false, alreadyPlaced: false, status: 'LIVE' })]);
      expect(again[0]?.clientId).not.toBe(first[0]?.clientId);
      expect(placedAt()).toHaveLength(1);
      // A batchId names one batch: the same call again resumes it (its lines placed: skipped, the same orders).
      const named = await pm.orders.placeBatch(quote, { batchId: 'lib-cycle-1' });
      expect(named).toEqual([expect.objectContaining({ ok: true, skipped: false, alreadyPlaced: false })]);
      const resumed = await pm.orders.placeBatch(quote, { batchId: 'lib-cycle-1' });
      expect(resumed).toEqual([
        expect.objectContaining({ ok: true, skipped: true, alreadyPlaced: true, clientId: named[0]?.clientId, status: 'LIVE' }),
      ]);
      expect(placedAt()).toHaveLength(2);
    } finally {
      await pm.orders.cancelAll({ market: 'btc-100k-2026' });
      await pm.close();
    }
  });

  it("withdraw's refusals speak the library: a destination off the allowlist names funds.allowlist.add; onBehalfOf of your own account is refused, nothing sent", async () => {
    const carol = seeded(sb.current, 'carol');
    const mark = logMark(sb.current);
    const as = (extra: { onBehalfOf?: number } = {}) =>
      createClient({ home, baseUrl: sb.current.baseUrl, token: { tokenId: carol.token.tokenId, secret: carol.token.secret }, ...extra });
    const pm = as();
    const off = '0x000000000000000000000000000000000000dEaD';
    const refused = await pm.funds.withdraw({ amount: '1', to: off }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ exitCode: 3, hint: expect.stringContaining(`pm.funds.allowlist.add('${off}')`) });
    const own = as({ onBehalfOf: carol.profileId });
    const mine = await own.funds.withdraw({ amount: '1' }).catch((e: unknown) => e);
    expect(mine).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/your own account/),
      hint: expect.stringMatching(/Leave out createClient's onBehalfOf/),
    });
    expect(countEvents(sb.current, 'funds.withdrawn', undefined, mark)).toBe(0);
    await pm.close();
    await own.close();
  });

  it("honours the call's signal everywhere: an aborted withdraw sends nothing", async () => {
    const pm = client();
    const ac = new AbortController();
    ac.abort();
    // (Sent, the exchange would refuse it: alice has no server wallet. Interrupted, nothing is sent.)
    await expect(pm.funds.withdraw({ amount: '1' }, { signal: ac.signal })).rejects.toMatchObject({ code: 'INTERRUPTED', exitCode: 130 });
    // (balance took no call options: it answered, the signal unread.)
    await expect(pm.funds.balance({}, { signal: ac.signal })).rejects.toMatchObject({ code: 'INTERRUPTED', exitCode: 130 });
    await pm.close();
  });

  it('replaces an order in one request and cancels everything everywhere', async () => {
    const pm = client();
    const a = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.12', size: '10' });
    const b = await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.05', size: '10' }).catch(() => null);
    const r = await pm.orders.replace(a.order.id, { price: '0.13' });
    // The replacement in place's vocabulary (r.replacement.order.id, as r.order.id of place).
    expect(r.cancelled).toEqual({ order: { id: a.order.id, market: 'btc-100k-2026' }, clientId: null, status: 'CANCELLED', error: null });
    expect(r.error).toBeNull();
    expect(r.replacement).toMatchObject({ status: 'LIVE', alreadyPlaced: false, order: { market: 'btc-100k-2026', price: '0.13' } });
    const newId = r.replacement?.order.id ?? '';
    expect(sb.current.ctx.state.orders.find((o) => o.id === newId)?.status).toBe('LIVE');
    expect(sb.current.ctx.state.orders.find((o) => o.id === newId)?.clientOrderId).toBe(r.replacement?.clientId);
    const live = sb.current.ctx.state.orders.filter((o) => o.ownerId === alice().profileId && o.status === 'LIVE');
    expect(live.some((o) => o.id === a.order.id)).toBe(false);
    const all = await pm.orders.cancelAll();
    expect(all.markets.length).toBeGreaterThanOrEqual(b ? 2 : 1);
    expect(all.results.map((x) => x.order.id)).toContain(newId);
    expect(all.results.every((x) => x.status === 'CANCELLED' && x.order.market !== null)).toBe(true);
    expect(sb.current.ctx.state.orders.filter((o) => o.ownerId === alice().profileId && o.status === 'LIVE')).toHaveLength(0);
    await pm.close();
  });
});

describe('one vocabulary for order calls, and one rule for an order that is not found', () => {
  it('cancel and replace of an unknown order: an entry with status NOT_FOUND in both, never an exception; nothing placed', async () => {
    const pm = client();
    try {
      const gone = '00000000-0000-4000-8000-000000000000';
      const before = sb.current.ctx.state.orders.length;
      const c = await pm.orders.cancel([gone]);
      expect(c.results).toEqual([
        {
          order: { id: gone, market: null },
          clientId: null,
          status: 'NOT_FOUND',
          error: expect.objectContaining({ code: 'ORDER_NOT_FOUND' }),
        },
      ]);
      const r = await pm.orders.replace(gone, { price: '0.2' });
      expect(r).toEqual({
        cancelled: {
          order: { id: gone, market: null },
          clientId: null,
          status: 'NOT_FOUND',
          error: expect.objectContaining({ code: 'ORDER_NOT_FOUND' }),
        },
        replacement: null,
        error: expect.objectContaining({ code: 'ORDER_NOT_FOUND' }),
      });
      expect(sb.current.ctx.state.orders.length).toBe(before);
    } finally {
      await pm.close();
    }
  });
});

describe('results are typed views, money as decimal strings plus …Raw (never a float)', () => {
  it('markets, book, history, positions, pnl, trades, history entries', async () => {
    const pm = client();
    try {
      const m = await pm.markets.get('btc-100k-2026');
      expect(m).toMatchObject({
        slug: 'btc-100k-2026',
        conditionId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        positionIds: { yes: expect.any(String), no: expect.any(String) },
        volume: expect.stringMatching(/^\d+(\.\d+)?$/),
        volumeRaw: expect.stringMatching(/^\d+$/),
        raw: expect.objectContaining({ slug: 'btc-100k-2026' }),
      });
      expect(m.prices === null || /^0?\.\d+$|^[01]$/.test(m.prices.yes)).toBe(true);
      expect((await pm.markets.list({ limit: 5 })).every((x) => typeof x.slug === 'string' && typeof x.liquidityRaw === 'string')).toBe(
        true,
      );
      const book = await pm.markets.book('btc-100k-2026', { outcome: 'no' });
      expect(book.outcome).toBe('NO');
      expect(book.bids.every((l) => typeof l.price === 'string' && /^\d+$/.test(l.sizeRaw))).toBe(true);
      const hist = await pm.markets.history('btc-100k-2026');
      expect(hist.every((p) => typeof p.price === 'string' && typeof p.timestamp === 'string')).toBe(true);
      // A fill, so positions, trades and history have a row.
      const bought = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', type: 'fok', amount: '1' });
      expect(bought.execution.matched).toBe(true);
      const pos = await pm.portfolio.positions();
      const row = pos.positions.find((p) => p.market === 'btc-100k-2026' && p.outcome === 'YES');
      expect(row).toMatchObject({
        shares: expect.any(String),
        sharesRaw: expect.stringMatching(/^\d+$/),
        costRaw: expect.stringMatching(/^\d+$/),
      });
      expect(pos.totals).toMatchObject({ cost: expect.any(String), costRaw: expect.stringMatching(/^-?\d+$/) });
      const pnl = await pm.portfolio.pnl('1d');
      expect(pnl.points.length).toBeGreaterThan(0);
      for (const p of pnl.points)
        expect(p).toEqual({
          timestamp: expect.any(Number),
          at: new Date(p.timestamp).toISOString(),
          value: expect.any(String),
          valueRaw: expect.stringMatching(/^-?\d+$/),
        });
      const trades = await pm.portfolio.trades();
      const t = trades.find((x) => x.orderId === bought.order.id);
      expect(t).toMatchObject({ market: 'btc-100k-2026', side: 'BUY', outcome: 'YES', usdRaw: expect.stringMatching(/^\d+$/) });
      expect(BigInt(t?.sharesRaw ?? '0')).toBeGreaterThan(0n);
      const entries = [];
      for await (const e of pm.portfolio.history({ max: 3 })) entries.push(e);
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.every((e) => typeof e.kind === 'string' && /^-?\d+$/.test(e.usdRaw))).toBe(true);
    } finally {
      await pm.close();
    }
  });
});

describe('partner', () => {
  it('create returns what pm --json partner create prints; list returns one page of the exchange ({data, page, limit, hasMore})', async () => {
    const partner = seeded(sb.current, 'partner');
    const pm = createClient({ home, baseUrl: sb.current.baseUrl, token: { tokenId: partner.token.tokenId, secret: partner.token.secret } });
    try {
      const made = await pm.partner.create({ displayName: 'lib-shop', serverWallet: true });
      expect(made).toEqual({
        profileId: expect.any(Number),
        account: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        mode: 'server-wallet',
        displayName: 'lib-shop',
      });
      const page = await pm.partner.list({ limit: 25 });
      expect(page).toMatchObject({ page: 1, limit: 25, hasMore: expect.any(Boolean) });
      expect(page.data.map((a) => a.profileId)).toContain(made.profileId);
    } finally {
      await pm.close();
    }
  });
});
