// Trading-safety audit of the sandbox, over real HTTP on 127.0.0.1 (port 0): post-only never
// touches resting orders, minSize, rate-limit pacing under load, malformed order bodies, maker
// trades that keep their own ids and settlement, and non-zero expirations. Requests are signed
// here with node:crypto (HMAC) and ethers (EIP-712), not with the client's or sandbox's code.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Wallet } from 'ethers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { ReadyAccount, SandboxHandle, SandboxOptions } from '../../src/sandbox/index.js';
import { sdkOrderBody } from '../helpers/eip712.js';
import { eventually } from '../helpers/eventually.js';
import { laneOf, pacedFetch } from '../helpers/pacer.js';

const SLUG = 'btc-100k-2026'; // seeded: fair 0.62; bob bids 0.61/0.60/0.59, asks 0.63/0.64/0.65

type Json = Record<string, unknown>;
interface Reply {
  status: number;
  json: Json;
}

/**
 * The HMAC token of one account, paced as the exchange asks (≤ 2 in flight, ≥ 300 ms between
 * starts) through the tests' pacer, so tests never trip the limiter by accident.
 */
class Client {
  constructor(
    private readonly sb: SandboxHandle,
    readonly acct: ReadyAccount,
  ) {}

  async req(method: string, target: string, body?: unknown): Promise<Reply> {
    const raw = rawOf(body);
    const res = await pacedFetch(laneOf(this.sb.baseUrl, this.acct.token.tokenId), () =>
      fetch(`${this.sb.baseUrl}${target}`, {
        method,
        headers: { ...this.headers(method, target, body), ...(raw ? { 'content-type': 'application/json' } : {}) },
        ...(raw ? { body: raw } : {}),
      }),
    );
    const text = await res.text();
    let json: Json = {};
    try {
      json = JSON.parse(text) as Json;
    } catch {
      json = { text };
    }
    return { status: res.status, json };
  }

  headers(method: string, target: string, body?: unknown): Record<string, string> {
    const raw = rawOf(body);
    const ts = new Date().toISOString();
    const sig = createHmac('sha256', Buffer.from(this.acct.token.secret, 'base64'))
      .update(`${ts}\n${method}\n${target}\n${raw}`)
      .digest('base64');
    return { 'lmts-api-key': this.acct.token.tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig };
  }
}

function rawOf(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

const clients = new WeakMap<SandboxHandle, Map<string, Client>>();

/** The one paced HMAC client of an account on a sandbox (one limiter slot per token). */
function client(sb: SandboxHandle, name: string): Client {
  let m = clients.get(sb);
  if (!m) {
    m = new Map();
    clients.set(sb, m);
  }
  let c = m.get(name);
  if (!c) {
    c = new Client(sb, account(sb, name));
    m.set(name, c);
  }
  return c;
}

function account(sb: SandboxHandle, name: string): ReadyAccount {
  const a = sb.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no account ${name}`);
  return a;
}

interface MarketInfo {
  slug: string;
  yes: string;
  no: string;
  exchange: string;
}

function marketInfo(sb: SandboxHandle, slug = SLUG): MarketInfo {
  const m = sb.ctx.state.markets.find((x) => x.slug === slug);
  if (!m?.positionIds || !m.venue) throw new Error(`no CLOB market ${slug}`);
  return { slug, yes: m.positionIds[0], no: m.positionIds[1], exchange: m.venue.exchange };
}

interface OrderOpts {
  outcome?: 'YES' | 'NO';
  side?: 'BUY' | 'SELL';
  type?: 'GTC' | 'FAK' | 'FOK';
  price?: string;
  /** Raw shares (GTC/FAK). */
  size?: bigint;
  /** FOK makerAmount: USDC (BUY) or shares (SELL), raw. */
  amount?: bigint;
  postOnly?: boolean;
  clientOrderId?: string;
  expiration?: string;
}

/** A create-order body built and signed the way the TS SDK does (wire-facts §3.3–3.6). */
function orderBody(m: MarketInfo, who: ReadyAccount, o: OrderOpts = {}): Promise<Json> {
  const { outcome, side, ...rest } = o;
  return sdkOrderBody({
    ...rest,
    wallet: new Wallet(who.privateKey),
    exchange: m.exchange,
    slug: m.slug,
    tokenId: outcome === 'NO' ? m.no : m.yes,
    ownerId: who.profileId,
    feeRateBps: who.name === 'bob' ? 0 : 300,
    side: side === 'SELL' ? 1 : 0,
  });
}

function orderOf(r: Reply): Json {
  return r.json['order'] as Json;
}

function execOf(r: Reply): Json {
  return r.json['execution'] as Json;
}

/** A sandbox per test, so no test depends on another's orders or on the limiter's memory. */
function freshSandbox(opts: SandboxOptions = {}): { current: SandboxHandle } {
  const ref = {} as { current: SandboxHandle };
  beforeEach(async () => {
    ref.current = await startSandbox({ port: 0, dataDir: null, ...opts });
  });
  afterEach(async () => {
    await ref.current?.close();
  });
  return ref;
}

/** bob's LIVE orders in the market as user-orders shows them: id → remainingSize. */
async function liveOrders(c: Client, slug = SLUG): Promise<Record<string, string>> {
  const r = await c.req('GET', `/markets/${slug}/user-orders?statuses=LIVE`);
  expect(r.status).toBe(200);
  const out: Record<string, string> = {};
  for (const o of r.json['orders'] as Json[]) out[String(o['id'])] = String(o['remainingSize']);
  return out;
}

describe('post-only orders', () => {
  const sb = freshSandbox();

  it('are refused when they would cross only the caller’s own resting orders, which stay untouched', async () => {
    const m = marketInfo(sb.current);
    const bob = client(sb.current, 'bob');
    const bobKey = client(sb.current, 'bob');
    const before = await liveOrders(bob);
    expect(Object.keys(before)).toHaveLength(6);
    // Direct: BUY YES at 0.63 meets bob's own ask at 0.63.
    const direct = await bobKey.req(
      'POST',
      '/orders',
      await orderBody(m, bob.acct, { side: 'BUY', price: '0.63', size: 5_000_000n, postOnly: true }),
    );
    expect(direct).toEqual({ status: 400, json: { message: 'Post-only order would execute immediately' } });
    // Complement: BUY NO at 0.40 meets bob's own BUY YES at 0.61 (a mint).
    const mint = await bob.req(
      'POST',
      '/orders',
      await orderBody(m, bob.acct, { outcome: 'NO', side: 'BUY', price: '0.4', size: 5_000_000n, postOnly: true }),
    );
    expect(mint).toEqual({ status: 400, json: { message: 'Post-only order would execute immediately' } });
    expect(await liveOrders(bobKey)).toEqual(before);
    // A post-only order inside the spread still rests.
    const inside = await bob.req(
      'POST',
      '/orders',
      await orderBody(m, bob.acct, { side: 'BUY', price: '0.62', size: 5_000_000n, postOnly: true }),
    );
    expect(inside.status).toBe(201);
    expect(orderOf(inside)['status']).toBe('LIVE');
    const after = await liveOrders(bobKey);
    expect(Object.keys(after)).toHaveLength(7);
    expect(after).toMatchObject(before);
  });
});

describe('minimum order size', () => {
  const sb = freshSandbox();

  it('refuses GTC, FAK and FOK SELL orders below the market minSize; FOK BUY spends USDC and passes', async () => {
    const m = marketInfo(sb.current);
    const book = await fetch(`${sb.current.baseUrl}/markets/${SLUG}/orderbook`).then((r) => r.json() as Promise<Json>);
    expect(book['minSize']).toBe('1000000');
    const alice = client(sb.current, 'alice');
    const aliceKey = client(sb.current, 'alice');
    const bob = client(sb.current, 'bob');
    const msg = { status: 400, json: { message: 'Order size 0.5 is below the market minimum size 1' } };
    expect(await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5', size: 500_000n }))).toEqual(msg);
    expect(await aliceKey.req('POST', '/orders', await orderBody(m, alice.acct, { type: 'FAK', price: '0.63', size: 500_000n }))).toEqual(
      msg,
    );
    expect(await bob.req('POST', '/orders', await orderBody(m, bob.acct, { type: 'FOK', side: 'SELL', amount: 500_000n }))).toEqual(msg);
    const small = await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5', size: 999_000n }));
    expect(small).toEqual({ status: 400, json: { message: 'Order size 0.999 is below the market minimum size 1' } });
    // FOK BUY: 0.5 USDC buys 0.793 shares at 0.63; its amount is USDC, not shares.
    const fokBuy = await aliceKey.req('POST', '/orders', await orderBody(m, alice.acct, { type: 'FOK', amount: 500_000n }));
    expect(fokBuy.status).toBe(201);
    expect(execOf(fokBuy)['matched']).toBe(true);
    const one = await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5', size: 1_000_000n }));
    expect(one.status).toBe(201);
    expect(Object.values(await liveOrders(aliceKey))).toEqual(['1000000']);
  });
});

describe('expiration', () => {
  const sb = freshSandbox();

  it('refuses a signed non-zero expiration with a clear 400', async () => {
    const m = marketInfo(sb.current);
    const alice = client(sb.current, 'alice');
    const aliceKey = client(sb.current, 'alice');
    const want = { status: 400, json: { message: 'expiration must be "0": orders do not expire on this exchange' } };
    expect(await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5', expiration: '1767225600' }))).toEqual(want);
    const asNumber = await orderBody(m, alice.acct, { price: '0.5', expiration: '1767225600' });
    (asNumber['order'] as Json)['expiration'] = 1767225600;
    expect(await aliceKey.req('POST', '/orders', asNumber)).toEqual(want);
    expect(sb.current.ctx.state.orders.filter((o) => o.ownerId === alice.acct.profileId)).toEqual([]);
    expect((await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5' }))).status).toBe(201);
  });
});

/** `{a:{a:{… depth levels …}}}` as JSON text. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('malformed order bodies', () => {
  let dir = '';
  let sb: SandboxHandle;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-safety-'));
    sb = await startSandbox({ port: 0, dataDir: join(dir, 'sandbox') });
  });
  afterEach(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a deeply nested extra field is refused at the edge and does not poison later orders', async () => {
    const m = marketInfo(sb);
    const alice = client(sb, 'alice');
    const aliceKey = client(sb, 'alice');
    const bob = client(sb, 'bob');
    const ordersBefore = sb.ctx.state.orders.length;
    const inner = JSON.stringify(await orderBody(m, alice.acct, { price: '0.5' }));
    const poisonOrder = inner.replace('"signature":', `"extra":${deepJson(5000)},"signature":`);
    const r = await alice.req('POST', '/orders', poisonOrder);
    expect(r.status).toBe(400);
    expect(String(r.json['message'])).toMatch(/order\.extra/);
    const topLevel = JSON.stringify(await orderBody(m, alice.acct, { price: '0.5' })).replace(/}$/, `,"extra":${deepJson(5000)}}`);
    const r2 = await aliceKey.req('POST', '/orders', topLevel);
    expect(r2.status).toBe(400);
    expect(String(r2.json['message'])).toMatch(/\bextra\b/);
    expect(sb.ctx.state.orders.length).toBe(ordersBefore);
    // Nothing entered the state: another account, then the same one, trade normally.
    const ok = await bob.req('POST', '/orders', await orderBody(m, bob.acct, { side: 'BUY', price: '0.5', size: 2_000_000n }));
    expect(ok.status).toBe(201);
    expect((await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.5' }))).status).toBe(201);
  });

  it('refuses unknown fields and non-scalar values in create and batch bodies, naming the field', async () => {
    const m = marketInfo(sb);
    const alice = client(sb, 'alice');
    const aliceKey = client(sb, 'alice');
    const body = await orderBody(m, alice.acct, { price: '0.5' });
    (body['order'] as Json)['makerAmount'] = [5_000_000];
    expect(await alice.req('POST', '/orders', body)).toEqual({
      status: 400,
      json: { message: 'order.makerAmount must be number or string, not array' },
    });
    const cancel = await aliceKey.req('POST', '/orders/batch-cancel', { orderIds: ['x'], extra: { a: 1 } });
    expect(cancel.status).toBe(400);
    expect(String(cancel.json['message'])).toMatch(/^extra is not a field of a batch-cancel request/);
    const status = await alice.req('POST', '/orders/status/batch', { items: [{ orderId: 'x' }], extra: 1 });
    expect(status.status).toBe(400);
    expect(String(status.json['message'])).toMatch(/^extra is not a field/);
    // What the official SDKs send passes: string amounts and salt, optional fields, nulls.
    const sdk = await orderBody(m, alice.acct, { price: '0.5', clientOrderId: 'sdk-1' });
    const o = sdk['order'] as Json;
    for (const k of ['salt', 'makerAmount', 'takerAmount']) o[k] = String(o[k]);
    Object.assign(sdk, { postOnly: false, stpPolicy: 'cancel_maker', recvWindow: 5000, timestamp: Date.now(), onBehalfOf: null });
    expect((await aliceKey.req('POST', '/orders', sdk)).status).toBe(201);
  });

  it('stpPolicy: an unknown policy is refused; cancel_taker answers CANCELED with reason STP_TAKER_REJECTED and leaves the own order', async () => {
    const m = marketInfo(sb);
    const bob = client(sb, 'bob');
    const bad = await orderBody(m, bob.acct, { price: '0.5' });
    bad['stpPolicy'] = 'cancel_everyone';
    expect(await bob.req('POST', '/orders', bad)).toEqual({
      status: 400,
      json: { message: 'stpPolicy must be one of cancel_maker, cancel_taker, cancel_both' },
    });
    // bob's SELL one cent above the best bid is the best ask; his BUY at that price meets it first.
    const book = (await bob.req('GET', `/markets/${m.slug}/orderbook`)).json as {
      bids: { price: number | string }[];
      asks: { price: number | string }[];
    };
    const bestBid = Math.max(0, ...book.bids.map((b) => Number(b.price)));
    const bestAsk = Math.min(1, ...book.asks.map((a) => Number(a.price)));
    const price = (Math.round(bestBid * 100) + 1) / 100;
    expect(price).toBeLessThan(bestAsk);
    const rest = await bob.req('POST', '/orders', await orderBody(m, bob.acct, { side: 'SELL', price: String(price), size: 2_000_000n }));
    expect(rest.status).toBe(201);
    const ownId = String((rest.json['order'] as Json)['id']);
    const taker = await bob.req('POST', '/orders', {
      ...(await orderBody(m, bob.acct, { side: 'BUY', price: String(price), size: 2_000_000n })),
      stpPolicy: 'cancel_taker',
    });
    expect(taker.status).toBe(201);
    expect(taker.json['execution']).toMatchObject({ matched: false, settlementStatus: 'CANCELED', reason: 'STP_TAKER_REJECTED' });
    expect(sb.ctx.state.orders.find((o) => o.id === ownId)?.status).toBe('LIVE');
    expect(sb.ctx.state.orders.find((o) => o.id === String((taker.json['order'] as Json)['id']))?.status).toBe('CANCELED');
  });
});

/** The status-batch data of one order, read by its owner. */
async function statusOf(c: Client, orderId: string): Promise<Json> {
  const r = await c.req('POST', '/orders/status/batch', { items: [{ orderId }] });
  expect(r.status).toBe(200);
  const res = (r.json['results'] as Json[])[0];
  expect(res?.['status']).toBe('found');
  return res?.['data'] as Json;
}

/** Polls until `done` holds for the value `read` returns, and returns that value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  return (
    await eventually(async () => {
      const v = await read();
      return done(v) && { v };
    })
  ).v;
}

const allConfirmed = (d: Json) =>
  ((d['trades'] as Json[] | undefined) ?? []).length > 0 && (d['trades'] as Json[]).every((t) => t['settlementStatus'] === 'CONFIRMED');

describe('maker trades', () => {
  const sb = freshSandbox({ settlement: { minedAfterMs: 300, confirmedAfterMs: 100 } });

  it('a maker hit by two takers keeps both trades, each with its own id, tx hash and settlement', async () => {
    const m = marketInfo(sb.current);
    const alice = client(sb.current, 'alice');
    const partner = client(sb.current, 'partner');
    const bob = client(sb.current, 'bob');
    const bobOrders = await bob.req('GET', `/markets/${SLUG}/user-orders`);
    const ask = (bobOrders.json['orders'] as Json[]).find((o) => o['side'] === 'SELL' && o['price'] === '0.63');
    const askId = String(ask?.['id']);
    const a = await alice.req('POST', '/orders', await orderBody(m, alice.acct, { type: 'FAK', price: '0.63', size: 2_000_000n }));
    const p = await partner.req('POST', '/orders', await orderBody(m, partner.acct, { type: 'FAK', price: '0.63', size: 3_000_000n }));
    expect([a.status, p.status]).toEqual([201, 201]);
    const tA = String(execOf(a)['tradeEventId']);
    const tP = String(execOf(p)['tradeEventId']);
    expect(tA).not.toBe(tP);
    expect((a.json['makerMatches'] as Json[])[0]?.['orderId']).toBe(askId);
    expect((p.json['makerMatches'] as Json[])[0]?.['orderId']).toBe(askId);

    const data = await until(() => statusOf(bob, askId), allConfirmed);
    const trades = data['trades'] as Json[];
    expect(
      trades.map((t) => [t['role'], t['tradeEventId'], t['takerOrderId'], t['matchedSize'], t['price'], t['settlementStatus']]),
    ).toEqual([
      ['maker', tA, orderOf(a)['id'], '2000000', '0.63', 'CONFIRMED'],
      ['maker', tP, orderOf(p)['id'], '3000000', '0.63', 'CONFIRMED'],
    ]);
    expect(trades[0]?.['id']).toBe((a.json['makerMatches'] as Json[])[0]?.['id']);
    expect(trades[1]?.['id']).toBe((p.json['makerMatches'] as Json[])[0]?.['id']);
    // Each trade's tx hash is its own, and the one its taker sees.
    const execA = (await statusOf(alice, String(orderOf(a)['id'])))['execution'] as Json;
    const execP = (await statusOf(partner, String(orderOf(p)['id'])))['execution'] as Json;
    expect(execA['settlementStatus']).toBe('CONFIRMED');
    expect(execP['settlementStatus']).toBe('CONFIRMED');
    expect(trades.map((t) => t['txHash'])).toEqual([execA['txHash'], execP['txHash']]);
    expect(execA['txHash']).not.toBe(execP['txHash']);
    expect(execA['txHash']).toMatch(/^0x[0-9a-f]{64}$/);
    // user-orders shows the same trades on the (still LIVE) maker order.
    const live = await bob.req('GET', `/markets/${SLUG}/user-orders`);
    const item = (live.json['orders'] as Json[]).find((o) => o['id'] === askId);
    expect(item?.['remainingSize']).toBe('95000000');
    expect((item!['trades'] as Json[]).map((t) => t['tradeEventId'])).toEqual([tA, tP]);
  });

  it('an order that traded as taker and is then hit as maker settles both trades', async () => {
    const m = marketInfo(sb.current);
    const alice = client(sb.current, 'alice');
    const bob = client(sb.current, 'bob');
    // 101 shares at 0.63: 100 fill bob's ask (alice is the taker), 1 rests.
    const a = await alice.req('POST', '/orders', await orderBody(m, alice.acct, { price: '0.63', size: 101_000_000n }));
    expect(a.status).toBe(201);
    expect(orderOf(a)['status']).toBe('LIVE');
    const aliceId = String(orderOf(a)['id']);
    const t1 = String(execOf(a)['tradeEventId']);
    // bob sells 1 into it before the first trade settles: alice's order is now a maker.
    const b = await bob.req(
      'POST',
      '/orders',
      await orderBody(m, bob.acct, { type: 'FAK', side: 'SELL', price: '0.63', size: 1_000_000n }),
    );
    expect(b.status).toBe(201);
    expect((b.json['makerMatches'] as Json[])[0]?.['orderId']).toBe(aliceId);
    const t2 = String(execOf(b)['tradeEventId']);
    const data = await until(
      () => statusOf(alice, aliceId),
      (d) => allConfirmed(d) && (d['execution'] as Json)['settlementStatus'] === 'CONFIRMED',
    );
    expect((data['execution'] as Json)['settlementStatus']).toBe('CONFIRMED');
    expect((data['trades'] as Json[]).map((t) => [t['role'], t['tradeEventId'], t['matchedSize'], t['settlementStatus']])).toEqual([
      ['taker', t1, '100000000', 'CONFIRMED'],
      ['maker', t2, '1000000', 'CONFIRMED'],
    ]);
    expect((data['order'] as Json)['status']).toBe('MATCHED');
  });
});

// A client on its own thread (so the server's busy event loop cannot delay its timers): it
// starts `n` signed GETs at t0 + i·gap, never more than 2 in flight, and reports each status.
const PACED_CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHmac } = require('node:crypto');
const { baseUrl, tokenId, secret, n, gap, target } = workerData;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  const out = [];
  const t0 = Date.now() + 20;
  let inFlight = 0;
  let last = -Infinity;
  const reqs = [];
  for (let i = 0; i < n; i++) {
    const at = Math.max(t0 + i * gap, last + gap);
    while (Date.now() < at || inFlight >= 2) await sleep(Math.max(1, Math.min(5, at - Date.now())));
    last = Date.now();
    inFlight++;
    const ts = new Date(last).toISOString();
    const sig = createHmac('sha256', Buffer.from(secret, 'base64')).update(ts + '\\nGET\\n' + target + '\\n').digest('base64');
    const sent = last - t0;
    reqs.push(fetch(baseUrl + target, { headers: { 'lmts-api-key': tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig } })
      .then(async (r) => { const text = await r.text(); out.push({ i, sent, status: r.status === 429 ? '429 ' + text : r.status }); })
      .catch((e) => { out.push({ i, sent, status: String(e) }); })
      .finally(() => { inFlight--; }));
  }
  await Promise.all(reqs);
  parentPort.postMessage(out.sort((a, b) => a.i - b.i));
})();
`;

interface PacedResult {
  i: number;
  sent: number;
  status: number | string;
}

function runPacedClient(sb: SandboxHandle, who: ReadyAccount, n: number, gap: number, target: string): Promise<PacedResult[]> {
  const w = new Worker(PACED_CLIENT, {
    eval: true,
    workerData: { baseUrl: sb.baseUrl, tokenId: who.token.tokenId, secret: who.token.secret, n, gap, target },
  });
  return new Promise((resolve, reject) => {
    w.once('message', (m: PacedResult[]) => {
      void w.terminate();
      resolve(m);
    });
    w.once('error', reject);
  });
}

describe('rate limit under load', () => {
  const sb = freshSandbox();

  it('a client starting requests 300 ms apart (≤ 2 in flight) gets no 429 while the server is busy and slow', async () => {
    const base = sb.current.baseUrl;
    const target = `/markets/${SLUG}/user-orders`;
    await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 60, match: `GET ${target}` }),
    });
    // Heavy public requests keep the server's event loop busy the whole time.
    let stop = false;
    const burst = async () => {
      while (!stop)
        await Promise.all(
          Array.from({ length: 8 }, () =>
            fetch(`${base}/markets/active?limit=25`)
              .then((r) => r.text())
              .catch(() => ''),
          ),
        );
    };
    const loads = [burst()];
    let results: PacedResult[];
    try {
      results = await runPacedClient(sb.current, account(sb.current, 'alice'), 10, 300, target);
    } finally {
      stop = true;
      await Promise.all(loads);
    }
    for (let i = 1; i < results.length; i++) expect((results[i]?.sent ?? 0) - (results[i - 1]?.sent ?? 0)).toBeGreaterThanOrEqual(300);
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
  }, 20_000);

  it('still answers 429 to a client that starts requests 100 ms apart', async () => {
    const results = await runPacedClient(sb.current, account(sb.current, 'bob'), 4, 100, `/markets/${SLUG}/user-orders`);
    expect(results.filter((r) => String(r.status).startsWith('429 ')).length).toBeGreaterThanOrEqual(1);
    expect(results[0]?.status).toBe(200);
  });
});
