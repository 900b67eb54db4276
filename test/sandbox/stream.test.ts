// The sandbox's socket.io streams (wire-facts §6): handshake auth from headers, replace
// semantics and snapshots for prices, the exact orderEvent sequence of an order's life (OME
// and SETTLEMENT) projected from the event log, partners seeing their children, positions,
// tx, market lifecycle, and the drop/delay fault switches.
import { afterEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { addSubAccount } from '../helpers/subaccount.js';
import { authHeaders, cancel, faults, newMarket, place, record } from '../helpers/stream.js';
import type { Recorder } from '../helpers/stream.js';

const ALICE = 1001;
const BOB = 1002;
const PARTNER = 1003;
const sb = useSandbox({ settlement: { minedAfterMs: 40, confirmedAfterMs: 40 } });
const open: Recorder[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.close();
});
const rec = async (...a: Parameters<typeof record>): Promise<Recorder> => {
  const r = await record(...a);
  open.push(r);
  return r;
};
// (Events of one market: settlement steps of another test's orders may still arrive.)
const orderEvents = (r: Recorder, slug?: string) => r.of('orderEvent').filter((e) => slug === undefined || e['marketSlug'] === slug);
const tick = () => new Promise((r) => setTimeout(r, 30));

describe('subscribe_market_prices', () => {
  it('acks on system, sends one snapshot per slug (even an empty book), then coalesced updates and newPriceData', async () => {
    await newMarket(sb.current, 'stream-prices');
    const r = await rec(sb.current); // anonymous
    r.socket.emit('subscribe_market_prices', { marketSlugs: ['stream-prices', 'btc-100k-2026'] });
    await r.waitFor((ev) => ev.filter(([n]) => n === 'orderbookUpdate').length === 2);
    expect(r.events[0]?.[0]).toBe('system');
    expect(r.events[0]?.[1]).toEqual({
      message: 'Successfully subscribed to market price updates',
      markets: { slugs: ['stream-prices', 'btc-100k-2026'], addresses: [] },
    });
    const [empty, btc] = r.of('orderbookUpdate');
    expect(empty).toMatchObject({
      marketSlug: 'stream-prices',
      orderbook: { bids: [], asks: [], adjustedMidpoint: 0.5, maxSpread: '0.05', minSize: '1000000' },
    });
    expect(typeof empty?.['timestamp']).toBe('string');
    expect((btc!['orderbook'] as { bids: unknown[] }).bids.length).toBeGreaterThan(0);

    // Three changes in one tick: one update, carrying all three.
    place(sb.current, ALICE, { slug: 'stream-prices', side: 'BUY', price: 400_000n, size: 10_000_000n });
    place(sb.current, ALICE, { slug: 'stream-prices', side: 'BUY', price: 410_000n, size: 5_000_000n });
    place(sb.current, BOB, { slug: 'stream-prices', side: 'BUY', outcome: 1, price: 500_000n, size: 2_000_000n }); // a YES ask at 0.5
    await r.waitFor((ev) => ev.filter(([n]) => n === 'orderbookUpdate').length === 3);
    await tick();
    const updates = r.of('orderbookUpdate').filter((u) => u['marketSlug'] === 'stream-prices');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.['orderbook']).toMatchObject({
      bids: [
        { price: 0.41, size: 5_000_000 },
        { price: 0.4, size: 10_000_000 },
      ],
      asks: [{ price: 0.5, size: 2_000_000 }],
      adjustedMidpoint: 0.455,
    });
    expect(r.of('newPriceData')).toHaveLength(0); // nothing traded yet

    // A trade moves the price: an update and newPriceData.
    place(sb.current, BOB, { slug: 'stream-prices', side: 'BUY', outcome: 1, price: 590_000n, size: 1_000_000n, type: 'FAK' }); // mints against the 0.41 bid
    await r.waitFor((ev) => ev.some(([n]) => n === 'newPriceData'));
    expect(r.of('newPriceData')[0]).toMatchObject({ marketSlug: 'stream-prices', updatedPrices: [{ yesPrice: 0.41, noPrice: 0.59 }] });

    // Replace semantics: a new subscription drops the old set.
    r.socket.emit('subscribe_market_prices', { marketSlugs: ['btc-100k-2026'] });
    await r.waitFor((ev) => ev.filter(([n]) => n === 'system').length === 2);
    const before = r.of('orderbookUpdate').filter((u) => u['marketSlug'] === 'stream-prices').length;
    place(sb.current, ALICE, { slug: 'stream-prices', side: 'BUY', price: 300_000n, size: 1_000_000n });
    await tick();
    expect(r.of('orderbookUpdate').filter((u) => u['marketSlug'] === 'stream-prices')).toHaveLength(before);
  });
});

describe('a snapshot and an update of the same book version', () => {
  it('are never both sent: an update that the snapshot already holds is not sent again', async () => {
    await newMarket(sb.current, 'stream-race');
    const r = await rec(sb.current);
    // The subscription reaches the server after a change and before that change's coalesced
    // update goes out (one loop turn): the snapshot carries the change, the update must not
    // repeat it. From a timer callback (the loop's timers phase), a change, then the packet
    // written and in the server's socket buffer: the poll phase reads it before the check phase
    // sends the update.
    await new Promise((res) => setTimeout(res, 1));
    place(sb.current, ALICE, { slug: 'stream-race', side: 'BUY', price: 400_000n, size: 10_000_000n });
    r.socket.emit('subscribe_market_prices', { marketSlugs: ['stream-race'] });
    const until = Date.now() + 30;
    while (Date.now() < until); // (the packet crosses loopback meanwhile)
    await r.waitFor((ev) => ev.some(([n]) => n === 'orderbookUpdate'));
    place(sb.current, ALICE, { slug: 'stream-race', side: 'BUY', price: 410_000n, size: 10_000_000n });
    await r.waitFor((ev) => ev.filter(([n]) => n === 'orderbookUpdate').length >= 2);
    await tick();
    const versions = r.of('orderbookUpdate').map((u) => Number(u['version']));
    expect(new Set(versions).size).toBe(versions.length);
    expect(r.of('orderbookUpdate')[0]?.['orderbook']).toMatchObject({ bids: [{ price: 0.4, size: 10_000_000 }] });
  });
});

describe('subscribe_order_events', () => {
  it('projects place, partial fill, settlement and cancel into the exact orderEvent sequence, field by field', async () => {
    await newMarket(sb.current, 'stream-orders');
    const alice = await rec(sb.current, authHeaders(sb.current, 'alice'));
    const bob = await rec(sb.current, { 'X-API-Key': 'lmts_sandbox_bob' }); // the legacy key works too
    alice.socket.emit('subscribe_order_events', {});
    bob.socket.emit('subscribe_order_events', {});
    await alice.waitFor((ev) => ev.some(([n]) => n === 'system'));
    await bob.waitFor((ev) => ev.some(([n]) => n === 'system'));
    const market = sb.current.ctx.state.markets.find((m) => m.slug === 'stream-orders');
    const yes = market?.positionIds?.[0];
    const no = market?.positionIds?.[1];

    const a = place(sb.current, ALICE, {
      slug: 'stream-orders',
      side: 'BUY',
      price: 400_000n,
      size: 10_000_000n,
      clientOrderId: 'alice-1',
    });
    const b = place(sb.current, BOB, {
      slug: 'stream-orders',
      side: 'BUY',
      outcome: 1,
      price: 600_000n,
      size: 4_000_000n,
      type: 'FAK',
      clientOrderId: 'bob-1',
    });
    const here = (n: string, p: Record<string, unknown>, type: string) =>
      n === 'orderEvent' && p['type'] === type && p['marketSlug'] === 'stream-orders';
    await alice.waitFor((ev) => ev.filter(([n, p]) => here(n, p, 'MINED')).length === 1);
    cancel(sb.current, ALICE, a.id);
    await alice.waitFor((ev) => ev.some(([n, p]) => here(n, p, 'CANCELLATION')));
    await bob.waitFor((ev) => ev.some(([n, p]) => here(n, p, 'MINED')));

    const ts = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    const ae = orderEvents(alice, 'stream-orders');
    expect(ae.map((e) => `${e['source']}:${e['type']}`)).toEqual([
      'OME:PLACEMENT',
      'OME:UPDATE',
      'SETTLEMENT:MATCHED',
      'SETTLEMENT:MINED',
      'OME:CANCELLATION',
    ]);
    const common = {
      marketId: String(market?.id),
      marketSlug: 'stream-orders',
      orderId: a.id,
      clientOrderId: 'alice-1',
      side: 'BUY',
      token: 'YES',
      userId: ALICE,
      timestamp: ts,
    };
    expect(ae[0]).toEqual({
      source: 'OME',
      type: 'PLACEMENT',
      eventId: expect.stringMatching(new RegExp(`^${a.id}:\\d+$`)),
      price: 0.4,
      remainingSize: 10_000_000,
      ...common,
    });
    expect(ae[1]).toEqual({
      source: 'OME',
      type: 'UPDATE',
      eventId: expect.stringMatching(new RegExp(`^${a.id}:\\d+$`)),
      price: 0.4,
      remainingSize: 6_000_000,
      ...common,
    });
    const tradeEventId = b.tradeEventId;
    const settle = {
      source: 'SETTLEMENT',
      marketSlug: 'stream-orders',
      tradeEventId,
      takerOrderId: b.id,
      takerAccount: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      orderId: a.id,
      clientOrderId: 'alice-1',
      side: 'BUY',
      token: 'YES',
      tokenId: yes,
      price: '0.4',
      amountContracts: '4000000',
      amountCollateral: '1600000',
      feeAmountCollateral: '0',
      feeAmountContracts: '0',
      timestamp: ts,
    };
    expect(ae[2]).toEqual({ ...settle, type: 'MATCHED', eventId: `${tradeEventId}:MATCHED:${a.id}`, isEstimate: true });
    expect(ae[3]).toEqual({
      ...settle,
      type: 'MINED',
      eventId: `${tradeEventId}:MINED:${a.id}`,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(ae[4]).toEqual({
      source: 'OME',
      type: 'CANCELLATION',
      eventId: expect.stringMatching(new RegExp(`^${a.id}:\\d+$`)),
      price: 0.4,
      remainingSize: 6_000_000,
      ...common,
    });

    // The taker: EXECUTION FILLED (terminal id, average price), then its own settlement with the maker matches.
    const be = orderEvents(bob, 'stream-orders');
    expect(be.map((e) => `${e['source']}:${e['type']}`)).toEqual(['OME:EXECUTION', 'SETTLEMENT:MATCHED', 'SETTLEMENT:MINED']);
    expect(be[0]).toEqual({
      source: 'OME',
      type: 'EXECUTION',
      status: 'FILLED',
      eventId: `terminal:${b.id}`,
      marketId: String(market?.id),
      marketSlug: 'stream-orders',
      orderId: b.id,
      clientOrderId: 'bob-1',
      price: 0.6,
      remainingSize: 0,
      side: 'BUY',
      token: 'NO',
      userId: BOB,
      timestamp: ts,
    });
    expect(be[1]).toEqual({
      source: 'SETTLEMENT',
      type: 'MATCHED',
      eventId: `${tradeEventId}:MATCHED:${b.id}`,
      isEstimate: true,
      marketSlug: 'stream-orders',
      tradeEventId,
      takerOrderId: b.id,
      takerAccount: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      orderId: b.id,
      clientOrderId: 'bob-1',
      side: 'BUY',
      token: 'NO',
      tokenId: no,
      price: '0.6',
      amountContracts: '4000000',
      amountCollateral: '2400000',
      feeAmountCollateral: '0',
      feeAmountContracts: '0',
      configuredFeeRateBps: 0,
      effectiveFeeBps: 0,
      makerMatches: [{ account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', matchedSize: '4000000', orderId: a.id, price: '0.4' }],
      timestamp: ts,
    });
    // Nobody hears another user's orders.
    expect(ae.some((e) => e['orderId'] === b.id)).toBe(false);
  });

  it('reports PARTIALLY_FILLED and KILLED executions', async () => {
    await newMarket(sb.current, 'stream-fak');
    const bob = await rec(sb.current, authHeaders(sb.current, 'bob'));
    bob.socket.emit('subscribe_order_events', {});
    await bob.waitFor((ev) => ev.some(([n]) => n === 'system'));
    place(sb.current, ALICE, { slug: 'stream-fak', side: 'BUY', price: 450_000n, size: 2_000_000n });
    const k = place(sb.current, BOB, { slug: 'stream-fak', side: 'BUY', outcome: 1, price: 500_000n, size: 1_000_000n, type: 'FAK' }); // needs YES ≤ 0.5 sellers: none
    const p = place(sb.current, BOB, { slug: 'stream-fak', side: 'BUY', outcome: 1, price: 550_000n, size: 3_000_000n, type: 'FAK' });
    await bob.waitFor((ev) => ev.filter(([n, x]) => n === 'orderEvent' && x['type'] === 'EXECUTION').length === 2);
    const ex = orderEvents(bob).filter((e) => e['type'] === 'EXECUTION');
    expect(ex[0]).toMatchObject({ orderId: k.id, status: 'KILLED', remainingSize: 1_000_000, price: 0.5 });
    expect(ex[1]).toMatchObject({ orderId: p.id, status: 'PARTIALLY_FILLED', remainingSize: 1_000_000, price: 0.55 });
  });

  it('refuses private channels without valid auth with an exception event and no data', async () => {
    const anon = await rec(sb.current);
    const bad = await rec(sb.current, authHeaders(sb.current, 'alice', { badSecret: true }));
    const stale = await rec(sb.current, authHeaders(sb.current, 'alice', { at: new Date(Date.now() - 120_000) }));
    for (const r of [anon, bad, stale]) r.socket.emit('subscribe_order_events', {});
    for (const r of [anon, bad, stale]) await r.waitFor((ev) => ev.some(([n]) => n === 'exception'));
    expect(anon.of('exception')[0]).toEqual({ status: 'error', message: 'Authentication required', channel: 'subscribe_order_events' });
    expect(bad.of('exception')[0]).toEqual({ status: 'error', message: 'Invalid HMAC authentication', channel: 'subscribe_order_events' });
    expect(String(stale.of('exception')[0]?.['message'])).toMatch(/outside the 30 s window/);
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 100_000n, size: 1_000_000n });
    await tick();
    for (const r of [anon, bad, stale]) expect(r.of('orderEvent')).toEqual([]);
    // Public channels still work for them.
    bad.socket.emit('subscribe_market_prices', { marketSlugs: ['btc-100k-2026'] });
    await bad.waitFor((ev) => ev.some(([n]) => n === 'orderbookUpdate'));
  });

  it("gives a partner its children's order events", async () => {
    const child = addSubAccount(sb.current, PARTNER);
    const partner = await rec(sb.current, authHeaders(sb.current, 'partner'));
    const alice = await rec(sb.current, authHeaders(sb.current, 'alice'));
    partner.socket.emit('subscribe_order_events', {});
    alice.socket.emit('subscribe_order_events', {});
    await partner.waitFor((ev) => ev.some(([n]) => n === 'system'));
    await alice.waitFor((ev) => ev.some(([n]) => n === 'system'));
    const o = place(sb.current, child.profileId, {
      slug: 'btc-100k-2026',
      side: 'BUY',
      price: 100_000n,
      size: 1_000_000n,
      clientOrderId: 'child-1',
    });
    await partner.waitFor((ev) => ev.some(([n]) => n === 'orderEvent'));
    expect(orderEvents(partner)[0]).toMatchObject({ type: 'PLACEMENT', orderId: o.id, userId: child.profileId, clientOrderId: 'child-1' });
    await tick();
    expect(orderEvents(alice).some((e) => e['orderId'] === o.id)).toBe(false);
  });
});

describe('positions, tx and market lifecycle', () => {
  it('sends positions after fills, tx on confirmation, and both lifecycle event names', async () => {
    await newMarket(sb.current, 'stream-pos');
    const alice = await rec(sb.current, authHeaders(sb.current, 'alice'));
    alice.socket.emit('subscribe_positions', { marketSlugs: ['stream-pos'] });
    alice.socket.emit('subscribe_transactions', {});
    alice.socket.emit('subscribe_market_lifecycle', {});
    await alice.waitFor((ev) => ev.filter(([n]) => n === 'system').length === 3);
    place(sb.current, ALICE, { slug: 'stream-pos', side: 'BUY', price: 400_000n, size: 5_000_000n });
    place(sb.current, BOB, { slug: 'stream-pos', side: 'BUY', outcome: 1, price: 600_000n, size: 5_000_000n, type: 'FAK' });
    // (A confirmation of another test's fill may arrive too: this market's tx is the one to check.)
    const posTx = () => alice.of('tx').filter((t) => t['marketSlug'] === 'stream-pos');
    await alice.waitFor(() => posTx().length > 0);
    expect(alice.of('positions')).toHaveLength(1);
    expect(alice.of('positions')[0]).toMatchObject({
      account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      marketSlug: 'stream-pos',
      type: 'CLOB',
      positions: [
        { outcome: 'YES', outcomeIndex: 0, balance: '5000000', locked: '0' },
        { outcome: 'NO', balance: '0' },
      ],
    });
    expect(posTx()[0]).toMatchObject({
      userId: ALICE,
      status: 'CONFIRMED',
      source: 'CLOB',
      marketSlug: 'stream-pos',
      amountContracts: '5000000',
      amountCollateral: '2000000',
      price: '0.4',
      side: 'BUY',
      txHash: expect.stringMatching(/^0x/),
    });

    await newMarket(sb.current, 'stream-new');
    const res = await fetch(`${sb.current.baseUrl}/__sandbox/markets/stream-new/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"winner":"NO"}',
    });
    expect(res.status).toBe(200);
    await alice.waitFor((ev) => ev.some(([n]) => n === 'marketResolved'));
    const names = alice.events.map(([n]) => n).filter((n) => n.startsWith('market'));
    expect(names).toEqual(['market.created', 'marketCreated', 'market.resolved', 'marketResolved']);
    expect(alice.of('marketCreated')[0]).toMatchObject({
      slug: 'stream-new',
      title: 'Test market stream-new',
      type: 'CLOB',
      createdAt: expect.any(String),
    });
    expect(alice.of('market.resolved')[0]).toMatchObject({
      slug: 'stream-new',
      type: 'CLOB',
      winningOutcome: 'NO',
      winningIndex: 1,
      resolutionDate: expect.any(String),
    });
    // A position filter for another market hears nothing of this one.
    const other = await rec(sb.current, authHeaders(sb.current, 'alice'));
    other.socket.emit('subscribe_positions', { marketSlugs: ['btc-100k-2026'] });
    await other.waitFor((ev) => ev.some(([n]) => n === 'system'));
    place(sb.current, ALICE, { slug: 'stream-pos', side: 'BUY', price: 400_000n, size: 1_000_000n });
    place(sb.current, BOB, { slug: 'stream-pos', side: 'BUY', outcome: 1, price: 600_000n, size: 1_000_000n, type: 'FAK' });
    await alice.waitFor((ev) => ev.filter(([n]) => n === 'positions').length === 2);
    expect(other.of('positions')).toEqual([]);
  });
});

describe('fault switches and reconnects', () => {
  it('drops every socket; the client reconnects with a new socket that has no subscriptions', async () => {
    const r = await rec(sb.current, authHeaders(sb.current, 'alice'), { reconnection: true });
    r.socket.io.opts.reconnectionDelay = 10;
    r.socket.io.opts.reconnectionDelayMax = 20;
    r.socket.emit('subscribe_order_events', {});
    await r.waitFor((ev) => ev.some(([n]) => n === 'system'));
    const first = r.socket.id;
    let reconnected = false;
    r.socket.io.once('reconnect', () => (reconnected = true));
    await faults(sb.current, { dropSockets: 1 });
    await r.waitFor(() => reconnected && r.socket.connected && r.socket.id !== first);
    r.events.length = 0; // (late events of earlier tests may have reached the first socket)
    place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 110_000n, size: 1_000_000n });
    await tick();
    expect(r.of('orderEvent')).toEqual([]); // subscriptions are not kept across reconnects
    const socks = (await (await fetch(`${sb.current.baseUrl}/__sandbox/sockets`)).json()) as {
      id: string;
      subscriptions: { orders: boolean };
    }[];
    expect(socks.find((s) => s.id === r.socket.id)?.subscriptions.orders).toBe(false);
    const f = (await (await fetch(`${sb.current.baseUrl}/__sandbox/faults`)).json()) as { dropSockets: number };
    expect(f.dropSockets).toBe(0); // a one-shot switch
  });

  it('delays events by eventDelayMs, in order', async () => {
    const r = await rec(sb.current, authHeaders(sb.current, 'alice'));
    r.socket.emit('subscribe_order_events', {});
    await r.waitFor((ev) => ev.some(([n]) => n === 'system'));
    // A delay long enough that the check after a short pause cannot miss it on a slow machine.
    await faults(sb.current, { eventDelayMs: 1000 });
    try {
      const t0 = Date.now();
      const a = place(sb.current, ALICE, { slug: 'btc-100k-2026', side: 'BUY', price: 120_000n, size: 1_000_000n });
      cancel(sb.current, ALICE, a.id);
      // This order's events only: a settlement of an earlier test may still reach alice.
      const mine = () => r.of('orderEvent').filter((e) => e['orderId'] === a.id);
      await tick();
      expect(mine()).toEqual([]);
      await r.waitFor(() => mine().length === 2);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(990);
      expect(mine().map((e) => e['type'])).toEqual(['PLACEMENT', 'CANCELLATION']);
    } finally {
      await faults(sb.current, { eventDelayMs: 0 });
    }
  });
});
