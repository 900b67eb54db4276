// The trading routes called directly (no HTTP): a fixture state, a recording ctx, and orders
// signed with ethers, so the sandbox's own EIP-712 code is not checking itself.
import { Wallet, verifyTypedData } from 'ethers';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditState } from '../../src/sandbox/engine.js';
import { DEV, FIXTURE_EXCHANGE, IDS, tradingFixture } from '../helpers/fixture.js';
import { Projection, type StreamMessage } from '../../src/sandbox/projection.js';
import { apply } from '../../src/sandbox/reducer.js';
import { orderRoutes } from '../../src/sandbox/routes/orders.js';
import { resumeSettlement, txHashForTrade } from '../../src/sandbox/settlement.js';
import type { SandboxState, Scope } from '../../src/sandbox/types.js';
import type { LogEntry } from '../../src/sandbox/events.js';
import type { AuthContext, Route, SandboxContext, SandboxRequest, SandboxResponse } from '../../src/sandbox/handlers.js';
import { ORDER_TYPES, sdkOrderBody } from '../helpers/eip712.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const _ALL: Scope[] = ['trading', 'account_creation', 'delegated_signing', 'withdrawal'];
const ZERO = '0x0000000000000000000000000000000000000000';

interface Harness {
  ctx: SandboxContext;
  state: SandboxState;
  /** What the streams would send: the projection of every event the routes applied. */
  events: StreamMessage[];
  timers: { ms: number; fn: () => void }[];
  persists: () => number;
  runTimers: () => void;
}

function harness(): Harness {
  const state = tradingFixture();
  const events: StreamMessage[] = [];
  const projection = new Projection();
  projection.rebuild(state);
  let seq = 0;
  const timers: { ms: number; fn: () => void }[] = [];
  let persists = 0;
  const ctx: SandboxContext = {
    state,
    now: () => NOW,
    // ctx.apply as the sandbox does it, with the streams' projection in place of the log's subscribers.
    apply: (...evs) => {
      for (const ev of evs) ctx.state = apply(ctx.state, ev);
      persists += 1;
      for (const ev of evs) events.push(...projection.project({ ...ev, seq: ++seq } as LogEntry, ctx.state));
    },
    batch: (fn) => fn(),
    settlement: { minedAfterMs: 50, confirmedAfterMs: 100 },
    later: (ms, fn) => {
      timers.push({ ms, fn });
    },
  };
  return {
    ctx,
    state,
    events,
    timers,
    persists: () => persists,
    runTimers: () => {
      const due = timers.splice(0);
      for (const t of due) t.fn();
    },
  };
}

function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } {
  const parts = path.split('/');
  for (const route of orderRoutes) {
    if (route.method !== method) continue;
    const pat = route.pattern.split('/');
    if (pat.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    pat.forEach((p, i) => {
      const v = parts[i] ?? '';
      if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(v);
      else if (p !== v) ok = false;
    });
    if (ok) return { route, params };
  }
  throw new Error(`no route for ${method} ${path}`);
}

async function call(
  h: Harness,
  method: string,
  target: string,
  json?: unknown,
  auth: AuthContext = { method: 'hmac', profileId: IDS.alice, scopes: ['trading'], tokenId: 't' },
  headers: Record<string, string> = {},
): Promise<SandboxResponse> {
  const [path = '', qs = ''] = target.split('?');
  const { route, params } = matchRoute(method, path);
  const rawBody = json === undefined ? '' : JSON.stringify(json);
  const req: SandboxRequest = {
    method,
    target,
    path,
    query: new URLSearchParams(qs),
    params,
    headers,
    rawBody,
    json: json === undefined ? undefined : (JSON.parse(rawBody) as unknown),
    auth,
  };
  return route.handler(req, h.ctx);
}

const wallets = {
  alice: new Wallet(DEV.alice.key),
  bob: new Wallet(DEV.bob.key),
};

interface BuildOpts {
  who?: 'alice' | 'bob';
  slug?: string;
  outcome?: 0 | 1;
  side?: 0 | 1;
  price?: string; // decimal text
  size?: bigint; // raw shares
  type?: 'GTC' | 'FAK' | 'FOK';
  amount?: bigint; // FOK makerAmount
  feeRateBps?: number;
  ownerId?: number;
  clientOrderId?: string;
  postOnly?: boolean;
  signWith?: Wallet;
  stringAmounts?: boolean;
}

/** Builds and signs a create-order body the way the TS SDK does (wire-facts §3.3–3.6). */
async function orderBody(state: SandboxState, o: BuildOpts = {}): Promise<Record<string, unknown>> {
  const who = o.who ?? 'alice';
  const market = state.markets.find((m) => m.slug === (o.slug ?? 'btc-100k'));
  const { who: _who, slug, outcome, ownerId, ...rest } = o;
  return sdkOrderBody({
    ...rest,
    wallet: wallets[who],
    exchange: market?.venue?.exchange ?? FIXTURE_EXCHANGE,
    slug: slug ?? 'btc-100k',
    tokenId: market?.positionIds?.[outcome ?? 0] ?? '1',
    ownerId: ownerId ?? IDS[who],
    feeRateBps: o.feeRateBps ?? (who === 'alice' ? 300 : 0),
  });
}

const bobAuth: AuthContext = { method: 'hmac', profileId: IDS.bob, scopes: ['trading'], tokenId: 'b' };
const partnerAuth: AuthContext = { method: 'hmac', profileId: IDS.partner, scopes: ['trading', 'delegated_signing'], tokenId: 'p' };

function body(r: SandboxResponse): Record<string, unknown> {
  return r.body as Record<string, unknown>;
}

describe('POST /orders', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  it('rests a signed GTC and answers 201 with order, market summary and execution', async () => {
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price: '0.42', clientOrderId: 'c-1' }));
    expect(r.status).toBe(201);
    const b = body(r);
    const order = b['order'] as Record<string, unknown>;
    expect(order).toMatchObject({
      maker: DEV.alice.address,
      signer: DEV.alice.address,
      makerAmount: '4200000',
      takerAmount: '10000000',
      side: 0,
      orderType: 'GTC',
      price: '0.42',
      marketId: 1,
      ownerId: IDS.alice,
      market: { id: 1, slug: 'btc-100k', yesPositionId: h.state.markets[0]?.positionIds?.[0] },
    });
    expect(typeof order['id']).toBe('string');
    expect(b['makerMatches']).toBeUndefined();
    expect(b['execution']).toEqual({
      matched: false,
      settlementStatus: 'UNMATCHED',
      txHash: null,
      clientOrderId: 'c-1',
      feeRateBps: 300,
      effectiveFeeBps: 300,
      totalsRaw: { contractsGross: '0', contractsFee: '0', contractsNet: '0', usdGross: '0', usdFee: '0', usdNet: '0' },
    });
    expect(h.persists()).toBe(1);
    expect(h.events.map((e) => e.channel)).toEqual(['orders', 'book']);
    expect(h.events[0]).toMatchObject({
      profileId: IDS.alice,
      payload: { source: 'OME', type: 'PLACEMENT', price: 0.42, remainingSize: 10_000_000 },
    });
    expect(h.state.accounts[String(IDS.alice)]?.lockedUsdc).toBe(4_200_000n);
  });

  it('accepts string amounts and a string salt', async () => {
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { stringAmounts: true }));
    expect(r.status).toBe(201);
  });

  it('matches, answers MATCHED with makerMatches, then settles MINED and CONFIRMED', async () => {
    const ask = await call(
      h,
      'POST',
      '/orders',
      await orderBody(h.state, { who: 'bob', side: 1, price: '0.5', size: 4_000_000n }),
      bobAuth,
    );
    expect(ask.status).toBe(201);
    const askId = (body(ask)['order'] as Record<string, unknown>)['id'];
    h.events.length = 0;
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price: '0.5', size: 4_000_000n, clientOrderId: 'x-1' }));
    expect(r.status).toBe(201);
    const b = body(r);
    const exec = b['execution'] as Record<string, unknown>;
    expect(exec).toMatchObject({ matched: true, settlementStatus: 'MATCHED', txHash: null, clientOrderId: 'x-1' });
    expect(exec['totalsRaw']).toEqual({
      contractsGross: '4000000',
      contractsFee: '0',
      contractsNet: '4000000',
      usdGross: '2000000',
      usdFee: '60000',
      usdNet: '2060000',
    });
    const tradeId = exec['tradeEventId'];
    expect(typeof tradeId).toBe('string');
    expect(b['makerMatches']).toEqual([
      { id: expect.any(String), createdAt: new Date(NOW).toISOString(), matchedSize: '4000000', orderId: askId },
    ]);
    const kinds = h.events.map((e) =>
      e.channel === 'orders' ? `${e.profileId}:${String(e.payload['source'])}:${String(e.payload['type'])}` : e.channel,
    );
    expect(kinds).toContain(`${IDS.bob}:OME:EXECUTION`);
    expect(kinds).toContain(`${IDS.alice}:OME:EXECUTION`);
    expect(kinds).toContain(`${IDS.alice}:SETTLEMENT:MATCHED`);
    expect(kinds).toContain(`${IDS.bob}:SETTLEMENT:MATCHED`);
    expect(kinds).toContain('book');

    expect(h.timers.map((t) => t.ms)).toEqual([50]);
    h.events.length = 0;
    h.runTimers();
    const hash = txHashForTrade(String(tradeId));
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(h.events.flatMap((e) => (e.channel === 'orders' ? [[e.profileId, e.payload['type'], e.payload['txHash']]] : []))).toEqual([
      [IDS.alice, 'MINED', hash],
      [IDS.bob, 'MINED', hash],
    ]);
    expect(h.timers.map((t) => t.ms)).toEqual([100]);
    h.runTimers();
    expect(h.timers).toEqual([]);

    const st = await call(h, 'POST', '/orders/status/batch', { items: [{ clientOrderId: 'x-1' }] });
    const res = (body(st)['results'] as Record<string, unknown>[])[0];
    expect(res).toMatchObject({ index: 0, status: 'found', clientOrderId: 'x-1' });
    const data = res?.['data'] as Record<string, unknown>;
    expect(data['execution']).toMatchObject({ settlementStatus: 'CONFIRMED', txHash: hash, tradeEventId: tradeId });
    expect(data['makerMatches']).toHaveLength(1);
    const bobOrders = await call(h, 'GET', '/markets/btc-100k/user-orders?statuses=MATCHED', undefined, bobAuth);
    expect(body(bobOrders)['orders']).toMatchObject([
      { id: askId, status: 'MATCHED', settlementStatus: 'CONFIRMED', remainingSize: '0', side: 'SELL', token: 'YES' },
    ]);
    expect(auditState(h.state)).toEqual([]);
  });

  it('resumes settlement of trades left MATCHED by a restart', async () => {
    await call(h, 'POST', '/orders', await orderBody(h.state, { who: 'bob', side: 1, price: '0.5', size: 1_000_000n }), bobAuth);
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price: '0.5', size: 1_000_000n }));
    expect((body(r)['execution'] as Record<string, unknown>)['settlementStatus']).toBe('MATCHED');
    h.timers.length = 0; // the process died before the timer fired
    resumeSettlement(h.ctx);
    expect(h.timers.map((t) => t.ms)).toEqual([50]);
    h.runTimers();
    h.runTimers();
    expect(h.state.orders.map((o) => o.settlementStatus)).toEqual(['CONFIRMED', 'CONFIRMED']);
    resumeSettlement(h.ctx);
    expect(h.timers).toEqual([]);
  });

  it('refuses an ownerId that is not the authenticated profile', async () => {
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { ownerId: IDS.bob }));
    expect(r).toEqual({ status: 400, body: { message: 'Profile ID does not match the order owner' } });
    expect(h.persists()).toBe(0);
  });

  it('refuses a maker that is not the owner’s wallet, and a signature by someone else', async () => {
    const bobsOrder = await orderBody(h.state, { who: 'bob', ownerId: IDS.alice, feeRateBps: 300 });
    expect(await call(h, 'POST', '/orders', bobsOrder)).toEqual({
      status: 400,
      body: { message: 'Maker does not match expected profile wallet' },
    });
    const forged = await call(h, 'POST', '/orders', await orderBody(h.state, { signWith: wallets.bob }));
    expect(forged.status).toBe(400);
    expect(String(body(forged)['message'])).toMatch(/^Invalid order signature: recovered 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/);
  });

  it('refuses a fee rate outside the profile’s band', async () => {
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { feeRateBps: 100 }));
    expect(r.status).toBe(400);
    expect(String(body(r)['message'])).toMatch(/^feeRateBps\[100\] is out of user's band/);
  });

  it('checks the price tick, size grid, amounts, FOK shape and postOnly', async () => {
    const offTick = await orderBody(h.state, { price: '0.4205' });
    expect((await call(h, 'POST', '/orders', offTick)).status).toBe(400);
    const offGrid = await orderBody(h.state, { size: 10_000_500n });
    expect(String(body(await call(h, 'POST', '/orders', offGrid))['message'])).toMatch(/multiple of 1000/);
    const wrongAmounts = await orderBody(h.state);
    (wrongAmounts['order'] as Record<string, unknown>)['makerAmount'] = 4_000_000;
    expect(String(body(await call(h, 'POST', '/orders', wrongAmounts))['message'])).toMatch(/does not match price/);
    const fokWithPrice = await orderBody(h.state, { type: 'FOK' });
    (fokWithPrice['order'] as Record<string, unknown>)['price'] = 0.5;
    expect(String(body(await call(h, 'POST', '/orders', fokWithPrice))['message'])).toMatch(/FOK orders must not carry a price/);
    const postOnlyFak = await orderBody(h.state, { type: 'FAK', postOnly: true });
    expect(String(body(await call(h, 'POST', '/orders', postOnlyFak))['message'])).toMatch(/postOnly is only supported for GTC/);
    expect(h.state.orders).toHaveLength(0);
  });

  it('refuses a post-only order that would cross with 400', async () => {
    await call(h, 'POST', '/orders', await orderBody(h.state, { who: 'bob', side: 1, price: '0.5' }), bobAuth);
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price: '0.5', postOnly: true }));
    expect(r).toEqual({ status: 400, body: { message: 'Post-only order would execute immediately' } });
  });

  it('answers 409 for a clientOrderId the owner already used', async () => {
    expect((await call(h, 'POST', '/orders', await orderBody(h.state, { clientOrderId: 'dup' }))).status).toBe(201);
    const again = await call(h, 'POST', '/orders', await orderBody(h.state, { clientOrderId: 'dup' }));
    expect(again).toEqual({ status: 409, body: { message: 'Order with clientOrderId dup already exists' } });
    // Another owner may use the same client id.
    expect(
      (await call(h, 'POST', '/orders', await orderBody(h.state, { who: 'bob', clientOrderId: 'dup', price: '0.3' }), bobAuth)).status,
    ).toBe(201);
  });

  it('refuses markets that are expired, resolved, AMM or unknown, and foreign token ids', async () => {
    expect(await call(h, 'POST', '/orders', await orderBody(h.state, { slug: 'old-expired' }))).toEqual({
      status: 400,
      body: { message: 'Market old-expired has passed deadline' },
    });
    expect((await call(h, 'POST', '/orders', await orderBody(h.state, { slug: 'done-resolved' }))).status).toBe(400);
    expect((await call(h, 'POST', '/orders', await orderBody(h.state, { slug: 'amm-one' }))).status).toBe(400);
    expect((await call(h, 'POST', '/orders', await orderBody(h.state, { slug: 'nope' }))).status).toBe(404);
    const foreign = await orderBody(h.state, { slug: 'eth-10k' });
    foreign['marketSlug'] = 'btc-100k';
    expect(String(body(await call(h, 'POST', '/orders', foreign))['message'])).toMatch(/is not a position of market btc-100k/);
  });

  it('refuses what the balance cannot cover', async () => {
    const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price: '0.9', size: 2_000_000_000n }));
    expect(r).toEqual({ status: 400, body: { message: 'Insufficient collateral balance' } });
    const s = await call(h, 'POST', '/orders', await orderBody(h.state, { side: 1 }));
    expect(s).toEqual({ status: 400, body: { message: 'Insufficient conditional token balance' } });
  });

  it('places a delegated order for a server-wallet sub-account and signs it with the managed key', async () => {
    const yes = h.state.markets[0]?.positionIds?.[0] ?? '';
    const delegated = {
      order: {
        salt: 7,
        maker: ZERO,
        signer: ZERO,
        taker: ZERO,
        tokenId: yes,
        makerAmount: 2_000_000,
        takerAmount: 5_000_000,
        expiration: '0',
        nonce: 0,
        side: 0,
        price: 0.4,
      },
      orderType: 'GTC',
      marketSlug: 'btc-100k',
      ownerId: IDS.sub,
      onBehalfOf: IDS.sub,
    };
    const r = await call(h, 'POST', '/orders', delegated, partnerAuth);
    expect(r.status).toBe(201);
    const order = body(r)['order'] as Record<string, unknown>;
    expect(order).toMatchObject({ maker: DEV.sub.address, signer: DEV.sub.address, ownerId: IDS.sub });
    const recovered = verifyTypedData(
      { name: 'Limitless CTF Exchange', version: '1', chainId: 8453, verifyingContract: FIXTURE_EXCHANGE },
      ORDER_TYPES,
      {
        salt: 7,
        maker: DEV.sub.address,
        signer: DEV.sub.address,
        taker: ZERO,
        tokenId: yes,
        makerAmount: 2_000_000,
        takerAmount: 5_000_000,
        expiration: 0,
        nonce: 0,
        feeRateBps: 300,
        side: 0,
        signatureType: 0,
      },
      String(order['signature']),
    );
    expect(recovered).toBe(DEV.sub.address);
    expect(h.state.accounts[String(IDS.sub)]?.lockedUsdc).toBe(2_000_000n);

    const noScope = await call(h, 'POST', '/orders', { ...delegated }, { ...partnerAuth, scopes: ['trading'] });
    expect(noScope.status).toBe(403);
    const notChild = await call(h, 'POST', '/orders', { ...delegated }, { ...partnerAuth, profileId: IDS.bob });
    expect(notChild.status).toBe(403);
  });
});

describe('cancels, user orders and status', () => {
  let h: Harness;
  let ids: string[];
  beforeEach(async () => {
    h = harness();
    ids = [];
    for (const [i, price] of ['0.31', '0.32', '0.33'].entries()) {
      const r = await call(h, 'POST', '/orders', await orderBody(h.state, { price, clientOrderId: `c${i}` }));
      ids.push(String((body(r)['order'] as Record<string, unknown>)['id']));
    }
    h.events.length = 0;
  });

  it('DELETE /orders/:id cancels, unlocks and emits; a second try is 400, someone else’s is 404', async () => {
    expect(h.state.accounts[String(IDS.alice)]?.lockedUsdc).toBe(9_600_000n);
    const r = await call(h, 'DELETE', `/orders/${ids[0]}`);
    expect(r).toEqual({ status: 200, body: { message: 'Order canceled successfully' } });
    expect(h.state.accounts[String(IDS.alice)]?.lockedUsdc).toBe(6_500_000n);
    expect(h.events[0]).toMatchObject({ channel: 'orders', profileId: IDS.alice, payload: { type: 'CANCELLATION', orderId: ids[0] } });
    expect((await call(h, 'DELETE', `/orders/${ids[0]}`)).status).toBe(400);
    expect((await call(h, 'DELETE', `/orders/${ids[1]}`, undefined, bobAuth)).status).toBe(404);
  });

  it('DELETE /orders/all/:slug cancels every live order of the caller in that market', async () => {
    const r = await call(h, 'DELETE', '/orders/all/btc-100k');
    expect(r.status).toBe(200);
    expect(body(r)).toEqual({ message: 'Orders canceled successfully', canceled: ids, failed: [] });
    expect(h.state.accounts[String(IDS.alice)]?.lockedUsdc).toBe(0n);
    expect(auditState(h.state)).toEqual([]);
  });

  it('POST /orders/batch-cancel takes exactly one id list of at most 50', async () => {
    expect((await call(h, 'POST', '/orders/batch-cancel', { orderIds: ids, clientOrderIds: ['c0'] })).status).toBe(400);
    expect((await call(h, 'POST', '/orders/batch-cancel', {})).status).toBe(400);
    expect((await call(h, 'POST', '/orders/batch-cancel', { orderIds: Array.from({ length: 51 }, (_, i) => `id-${i}`) })).status).toBe(400);
    const r = await call(h, 'POST', '/orders/batch-cancel', { clientOrderIds: ['c0', 'c9'] });
    expect(body(r)).toEqual({
      message: 'Orders canceled successfully',
      canceled: [ids[0]],
      failed: [{ orderId: 'c9', reason: 'ORDER_NOT_FOUND', message: 'Order not found or already canceled' }],
    });
    const legacy = await call(h, 'POST', '/orders/cancel-batch', { orderIds: [ids[0], ids[1]] });
    expect(body(legacy)).toMatchObject({ canceled: [ids[1]], failed: [{ orderId: ids[0], reason: 'ORDER_NOT_FOUND' }] });
  });

  it('GET user-orders lists LIVE by default, filters by statuses and honours limit', async () => {
    await call(h, 'DELETE', `/orders/${ids[0]}`);
    const live = await call(h, 'GET', '/markets/btc-100k/user-orders');
    const orders = body(live)['orders'] as Record<string, unknown>[];
    expect(orders.map((o) => o['id'])).toEqual([ids[2], ids[1]]);
    expect(orders[0]).toEqual({
      id: ids[2],
      createdAt: new Date(NOW).toISOString(),
      makerAmount: '3300000',
      takerAmount: '10000000',
      marketId: '1',
      originalSize: '10000000',
      remainingSize: '10000000',
      ownerId: IDS.alice,
      price: '0.33',
      side: 'BUY',
      status: 'LIVE',
      token: 'YES',
      tokenId: h.state.markets[0]?.positionIds?.[0],
      type: 'GTC',
      clientOrderId: 'c2',
      settlementStatus: 'UNMATCHED',
    });
    const canceled = await call(h, 'GET', '/markets/btc-100k/user-orders?statuses=CANCELED&statuses=LIVE&limit=2');
    expect((body(canceled)['orders'] as unknown[]).length).toBe(2);
    expect((await call(h, 'GET', '/markets/btc-100k/user-orders?statuses=BOGUS')).status).toBe(400);
    const bobs = await call(h, 'GET', '/markets/btc-100k/user-orders', undefined, bobAuth);
    expect(body(bobs)['orders']).toEqual([]);
  });

  it('POST /orders/status/batch reports found, not_found and error per item, only for the caller', async () => {
    const r = await call(h, 'POST', '/orders/status/batch', {
      items: [{ orderId: ids[0] }, { clientOrderId: 'c1' }, { clientOrderId: 'zzz' }, { orderId: ids[0], clientOrderId: 'c0' }, {}],
    });
    const results = body(r)['results'] as Record<string, unknown>[];
    expect(results.map((x) => x['status'])).toEqual(['found', 'found', 'not_found', 'error', 'error']);
    expect(results[3]).toEqual({ index: 3, status: 'error', error: 'Exactly one of orderId or clientOrderId is required' });
    expect(results[0]?.['data']).toMatchObject({ order: { id: ids[0], status: 'LIVE' }, execution: { matched: false } });
    const asBob = await call(h, 'POST', '/orders/status/batch', { items: [{ orderId: ids[0] }] }, bobAuth);
    expect((body(asBob)['results'] as Record<string, unknown>[])[0]?.['status']).toBe('not_found');
    expect((await call(h, 'POST', '/orders/status/batch', { items: [] })).status).toBe(400);
  });
});
