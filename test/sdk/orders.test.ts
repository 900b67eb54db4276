// Conformance: the official TS SDK's OrderClient and PortfolioFetcher against the sandbox, as a
// trading bot uses them (HMAC token of the seeded trader alice; bob makes the market).
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, Market, OrderType, Side, ValidationError } from '@limitless-exchange/sdk';
import type { Client, OrderClient } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, rejection, sdkClient } from './helpers.js';

const sb = useSandbox();
const SLUG = 'btc-100k-2026'; // bob: bids 0.61/0.60/0.59, asks 0.63/0.64/0.65 (100/200/300 shares)

let cached: { client: Client; orders: OrderClient; market: Market; yes: string; no: string } | undefined;

/** alice's SDK objects, built once per file (the SDK caches her profile and the venue). */
async function alice(): Promise<NonNullable<typeof cached>> {
  if (cached) return cached;
  const client = sdkClient(sb.current, 'alice');
  const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
  const market = await client.markets.getMarket(SLUG);
  const [yes, no] = market.positionIds ?? [];
  if (!yes || !no) throw new Error('market has no positionIds');
  cached = { client, orders, market, yes, no };
  return cached;
}

/** Buys 10 YES shares with a FOK at the best ask, so a test that sells holds what it sells. */
async function buyTenYes(): Promise<void> {
  const { orders, yes } = await alice();
  const r = await orders.createOrder({ tokenId: yes, makerAmount: 6.3, side: Side.BUY, orderType: OrderType.FOK, marketSlug: SLUG });
  if (r.execution?.matched !== true) throw new Error('set-up buy did not fill');
}

describe('OrderClient (HMAC)', () => {
  it('getMarket caches the venue the OrderClient signs against; tokens match positionIds', async () => {
    const { client, market, yes, no } = await alice();
    expect(market).toBeInstanceOf(Market);
    expect(market.venue?.exchange).toBe(getAddress(market.venue?.exchange ?? ''));
    expect(client.markets.getVenue(SLUG)).toEqual(market.venue);
    expect(market.tokens).toEqual({ yes, no });
  });

  it('GTC BUY postOnly rests unmatched, is listed by market.getUserOrders, and cancel removes it', async () => {
    const { orders, market, yes } = await alice();
    const r = await orders.createOrder({
      tokenId: yes,
      price: 0.55,
      size: 10,
      side: Side.BUY,
      orderType: OrderType.GTC,
      marketSlug: SLUG,
      postOnly: true,
    });
    expect(r.order.id).toMatch(/^[0-9a-f-]{36}$/);
    // wire-facts §3.3: BUY 10 @ 0.55 → maker 5,500,000 / taker 10,000,000, numbers after the SDK's coercion.
    expect(r.order).toMatchObject({
      makerAmount: 5_500_000,
      takerAmount: 10_000_000,
      price: 0.55,
      side: Side.BUY,
      orderType: 'GTC',
      tokenId: yes,
    });
    expect(r.order.maker).toBe(orders.walletAddress);
    expect(r.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    expect(r.makerMatches).toBeUndefined();
    expect(orders.ownerId).toBe(account(sb.current, 'alice').profileId);

    const open = (await market.getUserOrders()) as { id: string }[];
    expect(open.map((o) => o.id)).toContain(r.order.id);

    const c = await orders.cancel(r.order.id);
    expect(c.message).toBe('Order canceled successfully');
    const after = (await market.getUserOrders()) as { id: string }[];
    expect(after.map((o) => o.id)).not.toContain(r.order.id);
    // A second cancel of the same order is refused with a typed 400.
    const again = await rejection(() => orders.cancel(r.order.id));
    expect(again).toBeInstanceOf(ValidationError);
    expect(again.status).toBe(400);
  });

  it('withRawResponse: POST /orders answers 201 and the raw body carries amounts as the wire has them', async () => {
    const { orders, yes } = await alice();
    const r = await orders.createOrder(
      { tokenId: yes, price: 0.5, size: 1, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
      { withRawResponse: true },
    );
    expect(r.getRaw().status).toBe(201);
    expect(r.data.order.makerAmount).toBe(500_000);
    expect(Number((r.getRaw().data as { order: { makerAmount: unknown } }).order.makerAmount)).toBe(500_000);
    await orders.cancel(r.data.order.id);
  });

  it('a NegRisk child market: the SDK signs against the NegRisk venue and the order rests', async () => {
    const { client, orders } = await alice();
    const child = await client.markets.getMarket('us-election-2028-democrat');
    expect(child.venue?.adapter).toBeTruthy();
    const r = await orders.createOrder({
      tokenId: child.tokens?.yes ?? '',
      price: 0.1,
      size: 3,
      side: Side.BUY,
      orderType: OrderType.GTC,
      marketSlug: child.slug,
    });
    expect(r.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    expect((await orders.cancel(r.order.id)).message).toBe('Order canceled successfully');
  });

  it('postOnly that would cross is refused with a typed ValidationError', async () => {
    const { orders, yes } = await alice();
    const e = await rejection(() =>
      orders.createOrder({
        tokenId: yes,
        price: 0.63,
        size: 5,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
        postOnly: true,
      }),
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toMatch(/post-only/i);
  });

  it('FOK BUY spends a USDC amount and fills against the asks; totalsRaw are integer strings', async () => {
    const { orders, yes } = await alice();
    const r = await orders.createOrder({ tokenId: yes, makerAmount: 6.3, side: Side.BUY, orderType: OrderType.FOK, marketSlug: SLUG });
    expect(r.order).toMatchObject({ orderType: 'FOK', makerAmount: 6_300_000, takerAmount: 1 });
    expect(r.order.price ?? null).toBeNull();
    expect(r.execution?.matched).toBe(true);
    expect(r.makerMatches?.length).toBeGreaterThan(0);
    expect(r.makerMatches?.[0]).toMatchObject({ matchedSize: expect.stringMatching(/^\d+$/), orderId: expect.any(String) });
    const totals = r.execution?.totalsRaw;
    for (const k of ['contractsGross', 'contractsFee', 'contractsNet', 'usdGross', 'usdFee', 'usdNet'] as const) {
      expect(totals?.[k]).toMatch(/^\d+$/);
    }
    // 6.3 USDC at 0.63 buys 10 shares gross.
    expect(totals?.contractsGross).toBe('10000000');
    expect(r.execution?.feeRateBps).toBe(300);
  });

  it('GTC BUY that crosses matches immediately and reports makerMatches', async () => {
    const { orders, yes } = await alice();
    const r = await orders.createOrder({ tokenId: yes, price: 0.63, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG });
    expect(r.execution?.matched).toBe(true);
    expect(r.makerMatches?.map((m) => m.matchedSize)).toEqual(['5000000']);
  });

  it('FAK SELL fills against the bids; a FAK that cannot match is killed, not rested', async () => {
    const { orders, market, yes } = await alice();
    await buyTenYes();
    const sold = await orders.createOrder({
      tokenId: yes,
      price: 0.6,
      size: 4,
      side: Side.SELL,
      orderType: OrderType.FAK,
      marketSlug: SLUG,
    });
    // SELL: maker = shares, taker = collateral floored (wire-facts §3.3).
    expect(sold.order).toMatchObject({ makerAmount: 4_000_000, takerAmount: 2_400_000, side: Side.SELL, orderType: 'FAK' });
    expect(sold.execution?.matched).toBe(true);
    const killed = await orders.createOrder({
      tokenId: yes,
      price: 0.2,
      size: 3,
      side: Side.BUY,
      orderType: OrderType.FAK,
      marketSlug: SLUG,
    });
    expect(killed.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    const open = (await market.getUserOrders()) as { id: string }[];
    expect(open.map((o) => o.id)).not.toContain(killed.order.id);
  });

  it('FOK SELL of shares held; GTC SELL rests on the ask side', async () => {
    const { orders, yes } = await alice();
    await buyTenYes();
    const fok = await orders.createOrder({ tokenId: yes, makerAmount: 2, side: Side.SELL, orderType: OrderType.FOK, marketSlug: SLUG });
    expect(fok.order).toMatchObject({ makerAmount: 2_000_000, takerAmount: 1, side: Side.SELL });
    expect(fok.execution?.matched).toBe(true);
    const gtc = await orders.createOrder({
      tokenId: yes,
      price: 0.9,
      size: 2,
      side: Side.SELL,
      orderType: OrderType.GTC,
      marketSlug: SLUG,
    });
    expect(gtc.execution?.matched).toBe(false);
    const { client } = await alice();
    const book = await client.markets.getOrderBook(SLUG);
    expect(book.asks.some((a) => a.price === 0.9 && a.size === 2_000_000)).toBe(true);
  });

  it('cancelAll cancels every open order of the market', async () => {
    const { orders, market, yes, no } = await alice();
    await orders.createOrder({ tokenId: yes, price: 0.5, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG });
    await orders.createOrder({ tokenId: no, price: 0.2, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG });
    const r = await orders.cancelAll(SLUG);
    expect(r.message).toBe('Orders canceled successfully');
    expect(await market.getUserOrders()).toEqual([]);
  });

  it('a wrong HMAC secret is an AuthenticationError (401)', async () => {
    const a = account(sb.current, 'alice');
    const { Client } = await import('@limitless-exchange/sdk');
    const bad = new Client({
      baseURL: sb.current.baseUrl,
      hmacCredentials: { tokenId: a.token.tokenId, secret: Buffer.from('wrong secret').toString('base64') },
    });
    const e = await rejection(() => bad.portfolio.getProfile());
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.status).toBe(401);
  });
});

describe('PortfolioFetcher (HMAC)', () => {
  it('getProfile() reads /profiles/me; getProfile(address) the public profile with the fee rank', async () => {
    const { client } = await alice();
    const a = account(sb.current, 'alice');
    const me = await client.portfolio.getProfile();
    expect(me).toMatchObject({ id: a.profileId, account: a.address, rank: { feeRateBps: 300 } });
    const byAddress = await client.portfolio.getProfile(a.address);
    expect(byAddress.id).toBe(a.profileId);
  });

  it('getPositions and getCLOBPositions show shares just bought', async () => {
    const { client } = await alice();
    await buyTenYes();
    const positions = await client.portfolio.getPositions();
    expect(Array.isArray(positions.clob)).toBe(true);
    expect(Array.isArray(positions.amm)).toBe(true);
    const clob = await client.portfolio.getCLOBPositions();
    const btc = clob.find((p) => p.market.slug === SLUG);
    expect(btc).toBeDefined();
    expect(BigInt(btc?.tokensBalance.yes ?? '0')).toBeGreaterThan(0n);
    // The SDK's PositionMarket (camelCase, `closed` required) alongside the contract's snake_case fields.
    const { market } = await alice();
    expect(btc?.market).toMatchObject({
      id: market.id,
      slug: SLUG,
      title: market.title,
      closed: false,
      deadline: expect.any(String),
      conditionId: market.conditionId,
      winningOutcomeIndex: null,
      condition_id: market.conditionId,
    });
    expect(btc?.makerAddress).toBe(account(sb.current, 'alice').address);
    for (const side of [btc?.positions.yes, btc?.positions.no]) {
      expect(side).toEqual({
        cost: expect.stringMatching(/^-?\d+$/),
        fillPrice: expect.any(String),
        marketValue: expect.any(String),
        realisedPnl: expect.any(String),
        unrealizedPnl: expect.any(String),
      });
    }
    expect(btc?.latestTrade).toMatchObject({ latestYesPrice: expect.any(Number), latestNoPrice: expect.any(Number) });
  });

  it('getUserHistory pages with a cursor', async () => {
    const { client } = await alice();
    await buyTenYes();
    const first = await client.portfolio.getUserHistory(undefined, 2);
    expect(first.data.length).toBeGreaterThan(0);
    expect(first.data.length).toBeLessThanOrEqual(2);
    expect(typeof first.data[0]?.blockTimestamp).toBe('number');
    if (first.nextCursor) {
      const second = await client.portfolio.getUserHistory(first.nextCursor, 2);
      expect(second.data[0]).not.toEqual(first.data[0]);
    }
  });
});
