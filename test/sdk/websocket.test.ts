// Conformance: the SDK's WebSocketClient against the sandbox's socket.io namespace /markets.
// Auth is the SDK's: HMAC headers on the upgrade (or the legacy X-API-Key); subscriptions are
// fire-and-forget emits answered on `system`; data arrives as orderbookUpdate / orderEvent.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelReplaceMode, OrderType, Side, WebSocketClient } from '@limitless-exchange/sdk';
import type { OrderEvent, OrderbookUpdate } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, eventually, publicClient, rejection, sdkClient } from './helpers.js';

const sb = useSandbox();
const SLUG = 'eth-flip-btc'; // bob's book around 0.08

interface Seen {
  system: unknown[];
  books: OrderbookUpdate[];
  orders: OrderEvent[];
  exceptions: unknown[];
  resolved: { slug: string; winningOutcome?: string }[];
}

const open: WebSocketClient[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.disconnect();
});

async function faults(body: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`faults: ${r.status} ${await r.text()}`);
}

/** Connects an SDK WebSocketClient the way the root Client builds it, recording what arrives. */
async function connect(ws: WebSocketClient): Promise<Seen> {
  const seen: Seen = { system: [], books: [], orders: [], exceptions: [], resolved: [] };
  ws.on('system', (m: unknown) => seen.system.push(m));
  ws.on('orderbookUpdate', (m) => seen.books.push(m));
  ws.on('orderEvent', (m) => seen.orders.push(m));
  ws.on('exception' as 'error', (m: unknown) => seen.exceptions.push(m));
  ws.on('marketResolved', (m) => seen.resolved.push(m as Seen['resolved'][number]));
  open.push(ws);
  await ws.connect();
  return seen;
}

const ome = (seen: Seen, orderId: string, type: string): OrderEvent | undefined =>
  seen.orders.find((e) => e.source === 'OME' && e.type === type && 'orderId' in e && e.orderId === orderId);

describe('WebSocketClient', () => {
  it('HMAC handshake: order events and market prices; a placed order arrives as PLACEMENT and as a book level', async () => {
    const client = sdkClient(sb.current, 'alice');
    const ws = client.newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false });
    const seen = await connect(ws);
    expect(ws.isConnected()).toBe(true);
    await ws.subscribe('subscribe_order_events');
    await ws.subscribe('subscribe_market_prices', { marketSlugs: [SLUG] });
    // One snapshot of the subscribed book right after the ack (wire-facts §6).
    const snapshot = await eventually(() => seen.books.find((b) => b.marketSlug === SLUG));
    expect(snapshot.orderbook.bids.length).toBeGreaterThan(0);
    expect(seen.system).toContainEqual({ message: 'Successfully subscribed to order events' });

    const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
    const market = await client.markets.getMarket(SLUG);
    const placed = await orders.createOrder({
      tokenId: market.tokens?.yes ?? '',
      price: 0.021,
      size: 7,
      side: Side.BUY,
      orderType: OrderType.GTC,
      marketSlug: SLUG,
    });
    const ev = await eventually(() => ome(seen, placed.order.id, 'PLACEMENT'));
    expect(ev).toMatchObject({
      source: 'OME',
      type: 'PLACEMENT',
      side: 'BUY',
      price: 0.021,
      remainingSize: 7_000_000,
      userId: account(sb.current, 'alice').profileId,
      marketId: String(market.id),
    });
    const book = await eventually(() => seen.books.find((b) => b.marketSlug === SLUG && b.orderbook.bids.some((l) => l.price === 0.021)));
    expect(book.orderbook.bids.find((l) => l.price === 0.021)?.size).toBe(7_000_000);

    // cancel-replace shows up as a CANCELLATION of the old order and a PLACEMENT of the new one.
    const cr = await orders.cancelReplace({
      cancel: { orderId: placed.order.id },
      replacement: {
        tokenId: market.tokens?.yes ?? '',
        price: 0.022,
        size: 7,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
        clientOrderId: `ws-${randomUUID()}`,
      },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    if (cr.replacement.status !== 'SUCCESS') throw new Error(JSON.stringify(cr));
    const newId = cr.replacement.data.order.id;
    await eventually(() => ome(seen, placed.order.id, 'CANCELLATION'));
    const replacement = await eventually(() => ome(seen, newId, 'PLACEMENT'));
    expect(replacement).toMatchObject({ clientOrderId: cr.replacement.data.execution.clientOrderId });
    await eventually(() =>
      seen.books.find(
        (b) => b.marketSlug === SLUG && !b.orderbook.bids.some((l) => l.price === 0.021) && b.orderbook.bids.some((l) => l.price === 0.022),
      ),
    );
  });

  it('a fill reports EXECUTION and SETTLEMENT events for the taker order', async () => {
    const client = sdkClient(sb.current, 'alice');
    const ws = client.newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false });
    const seen = await connect(ws);
    await ws.subscribe('subscribe_order_events');
    await eventually(() => seen.system.length > 0);
    const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
    const market = await client.markets.getMarket(SLUG);
    const fok = await orders.createOrder({
      tokenId: market.tokens?.yes ?? '',
      makerAmount: 0.9,
      side: Side.BUY,
      orderType: OrderType.FOK,
      marketSlug: SLUG,
    });
    expect(fok.execution?.matched).toBe(true);
    const exec = await eventually(() => ome(seen, fok.order.id, 'EXECUTION'));
    expect(exec).toMatchObject({ eventId: `terminal:${fok.order.id}`, status: 'FILLED' });
    const matched = await eventually(() =>
      seen.orders.find((e) => e.source === 'SETTLEMENT' && e.type === 'MATCHED' && e.orderId === fok.order.id),
    );
    expect(matched).toMatchObject({ marketSlug: SLUG, side: 'BUY', token: 'YES', tradeEventId: fok.execution?.tradeEventId });
    expect(typeof (matched as { amountCollateral?: unknown }).amountCollateral).toBe('string');
  });

  it('legacy X-API-Key handshake can subscribe to order events', async () => {
    const client = sdkClient(sb.current, 'bob', 'apiKey');
    const ws = client.newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false });
    const seen = await connect(ws);
    await ws.subscribe('subscribe_order_events');
    await eventually(() => seen.system.length > 0 || seen.exceptions.length > 0);
    expect(seen.exceptions).toEqual([]);
    expect(seen.system).toContainEqual({ message: 'Successfully subscribed to order events' });
  });

  it('without credentials: public prices work, order events are refused by the SDK; a bad HMAC gets an exception', async () => {
    const anon = publicClient(sb.current).newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false, apiKey: '' });
    const seen = await connect(anon);
    await anon.subscribe('subscribe_market_prices', { marketSlugs: [SLUG] });
    await eventually(() => seen.books.find((b) => b.marketSlug === SLUG));
    const refused = await rejection(() => anon.subscribe('subscribe_order_events'));
    expect(refused.message).toMatch(/Authentication is required/);

    const a = account(sb.current, 'alice');
    const bad = new WebSocketClient({
      url: sb.current.wsUrl,
      autoReconnect: false,
      hmacCredentials: { tokenId: a.token.tokenId, secret: Buffer.from('not the secret').toString('base64') },
    });
    // The handshake is accepted; the private subscription answers `exception` and sends no data.
    const badSeen = await connect(bad);
    await bad.subscribe('subscribe_order_events');
    await eventually(() => badSeen.exceptions.length > 0);
    expect(badSeen.exceptions[0]).toMatchObject({ status: 'error', message: expect.any(String) });
    expect(badSeen.system).toEqual([]);
  });

  // SDK 1.1.0 re-subscribes on the manager's `reconnect` event, before the /markets socket is
  // connected again, so its own re-subscription fails ("WebSocket not connected") and is dropped;
  // the server keeps no subscriptions across connections (wire-facts §6). A bot therefore
  // subscribes again on `connect`, which is what these two tests do.
  async function resubscribeAfterDrop(ws: WebSocketClient, seen: Seen): Promise<void> {
    let reconnected = false;
    ws.on('connect', () => {
      reconnected = true;
    });
    await faults({ dropSockets: 1 });
    await eventually(() => reconnected && ws.isConnected());
    await ws.subscribe('subscribe_order_events');
    await eventually(() => seen.system.length + seen.exceptions.length >= 2);
  }

  it('auto-reconnect: after the server drops the socket the SDK reconnects; subscribed again, order events flow', async () => {
    const client = sdkClient(sb.current, 'alice');
    const ws = client.newWebSocketClient({ url: sb.current.wsUrl, reconnectDelay: 100 });
    const seen = await connect(ws);
    await ws.subscribe('subscribe_order_events');
    await eventually(() => seen.system.length === 1);
    await resubscribeAfterDrop(ws, seen);
    expect(seen.exceptions).toEqual([]);
    const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
    const market = await client.markets.getMarket(SLUG);
    const placed = await orders.createOrder({
      tokenId: market.tokens?.yes ?? '',
      price: 0.011,
      size: 2,
      side: Side.BUY,
      orderType: OrderType.GTC,
      marketSlug: SLUG,
    });
    await eventually(() => ome(seen, placed.order.id, 'PLACEMENT'));
  });

  it("a reconnect more than 30 s after connect() carries the SDK's stale handshake timestamp: private channels answer `exception`", async () => {
    // The TS SDK signs the upgrade once, in connect(), and socket.io reuses those headers on every
    // reconnect (wire-facts §2.1). The sandbox keeps the documented ±30 s window for it too.
    const client = sdkClient(sb.current, 'alice');
    const ws = client.newWebSocketClient({ url: sb.current.wsUrl, reconnectDelay: 100 });
    const seen = await connect(ws);
    await ws.subscribe('subscribe_order_events');
    await eventually(() => seen.system.length === 1);
    await faults({ clockSkewMs: 45_000 });
    try {
      await resubscribeAfterDrop(ws, seen);
      expect(seen.exceptions[0]).toMatchObject({ status: 'error', channel: 'subscribe_order_events' });
      expect(seen.system).toHaveLength(1);
    } finally {
      await faults({ clockSkewMs: 0 });
    }
  });

  it('market lifecycle: a resolution arrives as marketResolved', async () => {
    const ws = publicClient(sb.current).newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false, apiKey: '' });
    const seen = await connect(ws);
    await ws.subscribe('subscribe_market_lifecycle');
    await eventually(() => seen.system.length > 0);
    const r = await fetch(`${sb.current.baseUrl}/__sandbox/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'world-cup-2026-brazil', winningOutcome: 'NO' }),
    });
    expect(r.status).toBe(200);
    const ev = await eventually(() => seen.resolved.find((e) => e.slug === 'world-cup-2026-brazil'));
    expect(ev).toMatchObject({ winningOutcome: 'NO', winningIndex: 1 });
  });
});
