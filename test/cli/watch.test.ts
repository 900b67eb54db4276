// pm watch against the sandbox, in-process: the NDJSON orderEvent sequence of an order's life,
// price snapshots then updates, auth refusal (exit 3), reconnect after the drop-sockets fault
// with a fresh signature, bad input before connecting (exit 2), unreachable (exit 7), Ctrl-C.
import { afterAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempHome } from '../helpers/run.js';
import { cancel, faults, livePm, newMarket, place, sockets as socketsOf, until } from '../helpers/stream.js';
import type { Live } from '../helpers/stream.js';

const ALICE = 1001;
const BOB = 1002;
const sb = useSandbox({ settlement: { minedAfterMs: 40, confirmedAfterMs: 40 } });
const home = tempHome();
afterAll(() => home.cleanup());

function env(name = 'alice', o: { badSecret?: boolean; ws?: string } = {}): Record<string, string | undefined> {
  const a = sb.current.info.accounts.find((x) => x.name === name);
  return {
    PATH: process.env['PATH'],
    PM_HOME: home.home,
    PM_BASE_URL: sb.current.baseUrl,
    PM_WS_URL: o.ws ?? sb.current.wsUrl,
    PM_TOKEN_ID: a?.token.tokenId,
    PM_TOKEN_SECRET: o.badSecret ? Buffer.from('wrong secret').toString('base64') : a?.token.secret,
  };
}

function pm(argv: string[], e: Record<string, string | undefined> = env(), tty = false): Live {
  return livePm(argv, e, tty);
}

const sockets = () => socketsOf(sb.current);
const data = (l: Live) => l.records().filter((r) => r['event'] !== 'lifecycle');

describe('pm watch orders --json', () => {
  it('prints the exact orderEvent sequence of place, partial fill, settlement and cancel', async () => {
    await newMarket(sb.current, 'watch-orders');
    const w = pm(['--json', 'watch', 'orders', '--count', '5', '--market', 'watch-orders']);
    await until(async () => (await sockets()).some((s) => s.profileId === ALICE && s.subscriptions.orders));
    const m = sb.current.ctx.state.markets.find((x) => x.slug === 'watch-orders');
    const a = place(sb.current, ALICE, { slug: 'watch-orders', side: 'BUY', price: 350_000n, size: 8_000_000n, clientOrderId: 'w-1' });
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 100_000n, size: 1_000_000n }); // filtered out by --market
    const b = place(sb.current, BOB, { slug: 'watch-orders', side: 'BUY', outcome: 1, price: 650_000n, size: 3_000_000n, type: 'FAK' });
    await w.waitFor(() => data(w).length === 4);
    cancel(sb.current, ALICE, a.id);
    expect(await w.done).toBe(0);
    const recs = data(w);
    const ts = expect.stringMatching(/^\d{4}-/);
    const common = {
      event: 'orderEvent',
      marketId: String(m?.id),
      marketSlug: 'watch-orders',
      orderId: a.id,
      clientOrderId: 'w-1',
      side: 'BUY',
      token: 'YES',
      userId: ALICE,
      timestamp: ts,
    };
    const settle = {
      event: 'orderEvent',
      source: 'SETTLEMENT',
      marketSlug: 'watch-orders',
      tradeEventId: b.tradeEventId,
      takerOrderId: b.id,
      takerAccount: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      orderId: a.id,
      clientOrderId: 'w-1',
      side: 'BUY',
      token: 'YES',
      tokenId: m?.positionIds?.[0],
      price: '0.35',
      amountContracts: '3',
      amountContractsRaw: '3000000',
      amountCollateral: '1.05',
      amountCollateralRaw: '1050000',
      feeAmountCollateral: '0',
      feeAmountCollateralRaw: '0',
      feeAmountContracts: '0',
      feeAmountContractsRaw: '0',
      timestamp: ts,
    };
    expect(recs).toEqual([
      {
        ...common,
        source: 'OME',
        type: 'PLACEMENT',
        eventId: expect.stringContaining(`${a.id}:`),
        price: '0.35',
        remainingSize: '8',
        remainingSizeRaw: '8000000',
      },
      {
        ...common,
        source: 'OME',
        type: 'UPDATE',
        eventId: expect.stringContaining(`${a.id}:`),
        price: '0.35',
        remainingSize: '5',
        remainingSizeRaw: '5000000',
      },
      { ...settle, type: 'MATCHED', eventId: `${b.tradeEventId}:MATCHED:${a.id}`, isEstimate: true },
      { ...settle, type: 'MINED', eventId: `${b.tradeEventId}:MINED:${a.id}`, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      {
        ...common,
        source: 'OME',
        type: 'CANCELLATION',
        eventId: expect.stringContaining(`${a.id}:`),
        price: '0.35',
        remainingSize: '5',
        remainingSizeRaw: '5000000',
      },
    ]);
    // The lifecycle records are NDJSON of their own.
    expect(w.records()[0]).toMatchObject({ event: 'lifecycle', type: 'connected' });
  });

  it('filters by --client-id and prints readable lines without --json', async () => {
    const w = pm(['watch', 'orders', '--count', '1', '--client-id', 'w-human']);
    await until(async () => (await sockets()).filter((s) => s.profileId === ALICE && s.subscriptions.orders).length > 0);
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 100_000n, size: 1_000_000n, clientOrderId: 'other' });
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 120_000n, size: 2_000_000n, clientOrderId: 'w-human' });
    expect(await w.done).toBe(0);
    expect(w.out).toHaveLength(1);
    expect(w.out[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}btc-100k-2026 {2}PLACEMENT +BUY YES {2}@ 0\.120 {2}remaining 2 {2}order [0-9a-f]{8} {2}\[w-human\]$/,
    );
    expect(w.err()).toMatch(/connected to ws:\/\/127\.0\.0\.1:\d+\/markets/);
  });
});

describe('pm watch prices', () => {
  it('gets the snapshot, then updates', async () => {
    await newMarket(sb.current, 'watch-prices');
    const w = pm(['--json', 'watch', 'prices', 'watch-prices', '--count', '3']);
    await w.waitFor(() => data(w).length === 1);
    expect(data(w)[0]).toMatchObject({ event: 'orderbookUpdate', marketSlug: 'watch-prices', orderbook: { bids: [], asks: [] } });
    place(sb.current, ALICE, { slug: 'watch-prices', side: 'BUY', price: 300_000n, size: 4_000_000n });
    await w.waitFor(() => data(w).length === 2);
    place(sb.current, BOB, { slug: 'watch-prices', side: 'BUY', outcome: 1, price: 700_000n, size: 1_000_000n, type: 'FAK' });
    expect(await w.done).toBe(0);
    const recs = data(w);
    expect(recs[1]).toMatchObject({
      event: 'orderbookUpdate',
      orderbook: { bids: [{ price: '0.3', size: '4', sizeRaw: '4000000' }], asks: [] },
    });
    expect(recs[2]).toMatchObject({ event: 'orderbookUpdate', orderbook: { bids: [{ price: '0.3', size: '3', sizeRaw: '3000000' }] } });
  });
});

describe('--until a time already past', () => {
  it('ends at once with exit 0, orders as prices (watch orders hung, deaf to SIGTERM and the first Ctrl-C)', async () => {
    for (const argv of [
      ['watch', 'orders', '--until', '2020-01-01T00:00:00Z'],
      ['watch', 'prices', 'btc-100k-2026', '--until', '2020-01-01T00:00:00Z'],
    ]) {
      const w = pm(argv);
      expect(await w.done, argv.join(' ')).toBe(0);
    }
  });
});

describe('pm watch markets --json', () => {
  it('names events as the SDKs and docs/streams.md do (marketCreated, marketResolved), once each; a second resolution (the payout) is its own event', async () => {
    const w = pm(['--json', 'watch', 'markets', '--count', '3']);
    await w.waitFor(() => w.records().some((r) => r['type'] === 'subscribed'));
    await newMarket(sb.current, 'watch-lifecycle');
    await w.waitFor(() => data(w).length === 1);
    const resolve = async (payout: boolean) => {
      const r = await fetch(`${sb.current.baseUrl}/__sandbox/resolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'watch-lifecycle', winningOutcome: 'NO', payout }),
      });
      expect(r.status).toBe(200);
    };
    await resolve(false);
    await w.waitFor(() => data(w).length === 2);
    await resolve(true);
    expect(await w.done).toBe(0);
    expect(data(w).map((r) => [r['event'], r['slug']])).toEqual([
      ['marketCreated', 'watch-lifecycle'],
      ['marketResolved', 'watch-lifecycle'],
      ['marketResolved', 'watch-lifecycle'],
    ]);
  });
});

describe('pm book --watch without a terminal', () => {
  it('falls back to NDJSON snapshots', async () => {
    const w = pm(['book', 'btc-100k-2026', '--watch']);
    await w.waitFor(() => w.out.length === 1);
    w.abort();
    expect(await w.done).toBe(130);
    expect(w.out).toHaveLength(1);
    expect(JSON.parse(w.out[0] ?? '')).toMatchObject({
      event: 'orderbookUpdate',
      marketSlug: 'btc-100k-2026',
      orderbook: { bids: expect.any(Array), asks: expect.any(Array) },
    });
  });
});

describe('refusals and bad input', () => {
  it('a wrong secret: the exception message and exit 3, no stack trace', async () => {
    const w = pm(['watch', 'orders'], env('alice', { badSecret: true }));
    expect(await w.done).toBe(3);
    expect(w.err()).toContain('error: the exchange refused the stream: Invalid HMAC authentication');
    expect(w.err()).not.toMatch(/\n\s+at /);
  });

  it('exits 2 before connecting on an unknown channel, a bad --until or a malformed duration; 4 on an unknown slug', async () => {
    const dead = env('alice', { ws: 'ws://127.0.0.1:9' });
    for (const argv of [
      ['watch', 'trades'],
      ['watch', 'orders', '--until', 'tomorrow'],
      ['--timeout', '5x', 'watch', 'orders'],
      // A group has no book (it streamed an empty one, exit 0), nor has an AMM market; and the
      // live book is the exchange's YES book (--outcome no was ignored: YES prices under a NO heading).
      ['watch', 'book', 'us-election-2028'],
      ['book', 'us-election-2028', '--watch'],
      ['book', 'rain-in-london-weekend', '--watch'],
      ['book', 'btc-100k-2026', '--watch', '--outcome', 'no'],
      // Nor do their prices stream as a book: a group's are its markets', an AMM market has none
      // (both streamed an empty book at mid 0.500, exit 0).
      ['watch', 'prices', 'us-election-2028'],
      ['watch', 'prices', 'rain-in-london-weekend'],
    ]) {
      const w = pm(argv, dead);
      expect(await w.done, argv.join(' ')).toBe(2);
      expect(w.err()).not.toMatch(/\n\s+at /);
      expect(w.err(), argv.join(' ')).toMatch(/^hint: /m);
      // (No hint sends an AMM market back to a stream that refuses it.)
      expect(w.err(), argv.join(' ')).not.toMatch(/pm watch prices rain-in-london-weekend/);
    }
    // An unknown market is not found (exit 4), as everywhere, before connecting.
    for (const argv of [
      ['watch', 'prices', 'no-such-market'],
      ['watch', 'orders', '--market', 'no-such-market'],
    ]) {
      const w = pm(argv, dead);
      expect(await w.done, argv.join(' ')).toBe(4);
      expect(w.err()).toMatch(/no market "no-such-market"/);
    }
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('20s')).toBe(20_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1500')).toBe(1500);
    expect(() => parseDuration('5x')).toThrow(/duration/);
  });

  it('an unreachable exchange: retries, then exit 7 after --timeout', async () => {
    const t0 = Date.now();
    const w = pm(['--timeout', '700', 'watch', 'markets'], env('alice', { ws: 'ws://127.0.0.1:9' }));
    expect(await w.done).toBe(7);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(650);
    expect(w.err()).toMatch(/cannot connect .*retrying/);
    expect(w.err()).toMatch(/error: no connection to the exchange stream/);
    expect(w.err()).toMatch(/hint: .*--ws-url.*--timeout sets how long/);
  });

  it('Ctrl-C exits 130 cleanly', async () => {
    const w = pm(['watch', 'markets']);
    await w.waitFor(() => w.err().includes('subscribed'));
    w.abort();
    expect(await w.done).toBe(130);
    expect(w.err()).not.toContain('error');
  });
});

describe('reconnect', () => {
  it('after the drop-sockets fault: reconnect line, fresh signature, resubscribed, events keep coming', async () => {
    const w = pm(['--json', 'watch', 'orders', '--count', '2']);
    await until(async () => (await sockets()).some((s) => s.profileId === ALICE && s.subscriptions.orders));
    const first = (await sockets()).filter((s) => s.profileId === ALICE && s.subscriptions.orders);
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 130_000n, size: 1_000_000n, clientOrderId: 'before-drop' });
    await w.waitFor(() => data(w).length === 1);
    await faults(sb.current, { dropSockets: 1 });
    await w.waitFor(() => w.records().some((r) => r['type'] === 'resubscribed'));
    await until(async () => (await sockets()).some((s) => s.profileId === ALICE && s.subscriptions.orders));
    const second = (await sockets()).filter((s) => s.profileId === ALICE && s.subscriptions.orders);
    expect(second).toHaveLength(1);
    expect(second[0]?.id).not.toBe(first[0]?.id);
    expect(second[0]?.handshakeTimestamp).not.toBe(first[0]?.handshakeTimestamp); // a fresh signature
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 140_000n, size: 1_000_000n, clientOrderId: 'after-drop' });
    expect(await w.done).toBe(0);
    expect(data(w).map((r) => r['clientOrderId'])).toEqual(['before-drop', 'after-drop']);
    const types = w
      .records()
      .filter((r) => r['event'] === 'lifecycle')
      .map((r) => r['type']);
    expect(types.slice(0, 5)).toEqual(['connected', 'subscribed', 'disconnected', 'reconnected', 'resubscribed']);
    expect(w.records().find((r) => r['type'] === 'resubscribed')).toMatchObject({ confirmed: true });
    // With --json the lifecycle is in the NDJSON records above; stderr stays empty (one output contract).
    expect(w.err()).toBe('');
  });

  it('writes resubscribed only once the exchange confirms the subscription', async () => {
    const w = pm(['--json', 'watch', 'orders']);
    try {
      await w.waitFor(() => w.records().some((r) => r['type'] === 'subscribed'));
      // The sandbox holds back every stream message, its confirmation too, for 3 s.
      await faults(sb.current, { eventDelayMs: 3_000 });
      const before = (await sockets()).filter((s) => s.profileId === ALICE && s.subscriptions.orders).map((s) => s.id);
      await faults(sb.current, { dropSockets: 1 });
      await until(async () => (await sockets()).some((s) => s.profileId === ALICE && s.subscriptions.orders && !before.includes(s.id)));
      // Subscribed at the exchange, not yet confirmed: no resubscribed record so far.
      expect(w.records().some((r) => r['type'] === 'resubscribed')).toBe(false);
      await w.waitFor(() => w.records().some((r) => r['type'] === 'resubscribed'), 10_000);
      expect(w.records().find((r) => r['type'] === 'resubscribed')).toMatchObject({
        channels: ['subscribe_order_events'],
        confirmed: true,
      });
    } finally {
      await faults(sb.current, { eventDelayMs: 0 });
      w.abort();
      await w.done;
    }
  });

  it('without a confirmation in time: the record says confirmed false, and events still come', async () => {
    await faults(sb.current, { eventDelayMs: 4_000 });
    const w = pm(['--json', '--timeout', '1s', 'watch', 'orders', '--count', '1', '--client-id', 'late-confirm']);
    try {
      await w.waitFor(() => w.records().some((r) => r['type'] === 'subscribed'), 10_000);
      expect(w.records().find((r) => r['type'] === 'subscribed')).toMatchObject({ confirmed: false });
      place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 110_000n, size: 1_000_000n, clientOrderId: 'late-confirm' });
      expect(await w.done).toBe(0);
      expect(data(w)).toMatchObject([{ clientOrderId: 'late-confirm', type: 'PLACEMENT' }]);
    } finally {
      await faults(sb.current, { eventDelayMs: 0 });
    }
  });
});
