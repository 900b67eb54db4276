// Conformance: OrderClient.cancelReplace / cancelReplaceBatch (wire-facts §3.10) against the
// sandbox. 409 is a normal result for a single operation; a batch answers 207 when not every
// operation fully succeeded. Replacements are orders like any other: exactly once by clientOrderId.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CancelReplaceMode, ConflictError, OrderType, Side, ValidationError } from '@limitless-exchange/sdk';
import type { CancelReplaceResponse, Client, Market, OrderClient } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, rejection, sdkClient } from './helpers.js';

const sb = useSandbox();
const SLUG = 'fed-cut-december'; // bob's book around 0.71; bids below 0.70 are far from any ask

let cached: { client: Client; orders: OrderClient; market: Market; yes: string } | undefined;

async function alice(): Promise<NonNullable<typeof cached>> {
  if (cached) return cached;
  const client = sdkClient(sb.current, 'alice');
  const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
  const market = await client.markets.getMarket(SLUG);
  const yes = market.tokens?.yes;
  if (!yes) throw new Error('no YES token');
  cached = { client, orders, market, yes };
  return cached;
}

/** A resting GTC BUY of alice (placed through cancel-replace's replacement, so it has a clientOrderId). */
async function restingBid(price: number, clientOrderId = `seed-${randomUUID()}`): Promise<{ id: string; clientOrderId: string }> {
  const { orders, yes } = await alice();
  const r = await orders.cancelReplace({
    cancel: { orderId: randomUUID() },
    replacement: { tokenId: yes, price, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG, clientOrderId },
    mode: CancelReplaceMode.ALLOW_FAILURE,
  });
  if (r.replacement.status !== 'SUCCESS') throw new Error(`set-up order refused: ${JSON.stringify(r)}`);
  return { id: r.replacement.data.order.id, clientOrderId };
}

/** alice's LIVE order ids on the market, read through the SDK (Market.getUserOrders). */
async function liveIds(): Promise<string[]> {
  const { market } = await alice();
  return ((await market.getUserOrders()) as { id: string }[]).map((o) => o.id);
}

describe('OrderClient.cancelReplace', () => {
  it('cancels by orderId and places the replacement: both legs SUCCESS, old order gone, new one live', async () => {
    const { orders, yes } = await alice();
    const old = await restingBid(0.4);
    const logged: { type: string; orderId?: string; order?: { id: string } }[] = [];
    const stop = sb.current.subscribe(sb.current.seq() + 1, (e) => logged.push(e as (typeof logged)[number]));
    const r: CancelReplaceResponse = await orders.cancelReplace({
      cancel: { orderId: old.id },
      replacement: {
        tokenId: yes,
        price: 0.41,
        size: 3,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
        clientOrderId: `new-${randomUUID()}`,
        postOnly: true,
      },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(r.cancel).toEqual({ status: 'SUCCESS', orderId: old.id, clientOrderId: old.clientOrderId });
    expect(r.replacement.status).toBe('SUCCESS');
    if (r.replacement.status !== 'SUCCESS') return;
    const placed = r.replacement.data;
    // Unlike createOrder, the SDK hands cancel-replace data over as received: amounts and price
    // may be strings on the wire (wire-facts §3.8).
    expect(placed.order).toMatchObject({ side: Side.BUY, orderType: 'GTC', tokenId: yes });
    expect(Number(placed.order.price)).toBe(0.41);
    expect(Number(placed.order.takerAmount)).toBe(3_000_000);
    expect(placed.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    const live = await liveIds();
    expect(live).toContain(placed.order.id);
    expect(live).not.toContain(old.id);
    // Both legs are in the one event log, cancel first, as DELETE /orders/:id and POST /orders log them.
    stop();
    const trading = logged.filter((e) => e.type === 'order.cancelled' || e.type === 'order.placed');
    expect(trading.map((e) => [e.type, e.orderId ?? e.order?.id])).toEqual([
      ['order.cancelled', old.id],
      ['order.placed', placed.order.id],
    ]);
  });

  it('cancels by clientOrderId; the replacement echoes its own clientOrderId', async () => {
    const { orders, yes } = await alice();
    const old = await restingBid(0.39);
    const next = `next-${randomUUID()}`;
    const r = await orders.cancelReplace({
      cancel: { clientOrderId: old.clientOrderId },
      replacement: { tokenId: yes, price: 0.38, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG, clientOrderId: next },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(r.cancel).toMatchObject({ status: 'SUCCESS', orderId: old.id, clientOrderId: old.clientOrderId });
    expect(r.replacement.status).toBe('SUCCESS');
    if (r.replacement.status === 'SUCCESS') expect(r.replacement.data.execution.clientOrderId).toBe(next);
    // Re-sending the same operation (say after a lost response) changes nothing: exactly one `next` order.
    const again = await orders.cancelReplace({
      cancel: { clientOrderId: old.clientOrderId },
      replacement: { tokenId: yes, price: 0.38, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG, clientOrderId: next },
      mode: CancelReplaceMode.ALLOW_FAILURE,
    });
    expect(again.cancel.status).toBe('FAILURE');
    expect(again.replacement).toMatchObject({ status: 'FAILURE', error: { code: 'CONFLICT' } });
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === next)).toHaveLength(1);
  });

  it('STOP_ON_FAILURE: an unknown target is a 409 result (no throw) and the replacement is NOT_ATTEMPTED', async () => {
    const { client, orders, yes } = await alice();
    const before = await liveIds();
    const r = await orders.cancelReplace({
      cancel: { orderId: randomUUID() },
      replacement: { tokenId: yes, price: 0.3, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(r.cancel.status).toBe('FAILURE');
    if (r.cancel.status === 'FAILURE')
      expect(r.cancel.error).toEqual({ code: 'ORDER_NOT_FOUND', message: 'Order not found or already canceled' });
    expect(r.replacement).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(await liveIds()).toEqual(before);
    // The status itself is 409 (which cancelReplace lets through): the SDK's plain post calls it a ConflictError.
    const unsigned = await orders.buildUnsignedOrder({ tokenId: yes, price: 0.3, size: 2, side: Side.BUY });
    const body = JSON.stringify({
      cancel: { orderId: randomUUID() },
      replacement: { order: { ...unsigned, signature: '0x' }, orderType: 'GTC', marketSlug: SLUG, ownerId: orders.ownerId },
      mode: 'STOP_ON_FAILURE',
    });
    const conflict = await rejection(() => client.http.post('/orders/cancel-replace', body));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.status).toBe(409);
  });

  it('ALLOW_FAILURE: the replacement is placed although the cancel failed (409 result)', async () => {
    const { orders, yes } = await alice();
    const r = await orders.cancelReplace({
      cancel: { clientOrderId: `missing-${randomUUID()}` },
      replacement: { tokenId: yes, price: 0.31, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
      mode: CancelReplaceMode.ALLOW_FAILURE,
    });
    expect(r.cancel.status).toBe('FAILURE');
    expect(r.replacement.status).toBe('SUCCESS');
    if (r.replacement.status === 'SUCCESS') expect(await liveIds()).toContain(r.replacement.data.order.id);
  });

  it('exactly once by clientOrderId: a replacement reusing a live clientOrderId is refused (CONFLICT), one order remains', async () => {
    const { orders, yes } = await alice();
    const first = await restingBid(0.37);
    const dup = await restingBid(0.36);
    const r = await orders.cancelReplace({
      cancel: { orderId: first.id },
      replacement: {
        tokenId: yes,
        price: 0.35,
        size: 2,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
        clientOrderId: dup.clientOrderId,
      },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(r.cancel.status).toBe('SUCCESS');
    expect(r.replacement.status).toBe('FAILURE');
    if (r.replacement.status === 'FAILURE') {
      expect(r.replacement.error.code).toBe('CONFLICT');
      expect(r.replacement.error.message).toContain(dup.clientOrderId);
    }
    const live = await liveIds();
    expect(live).toContain(dup.id);
    expect(live).not.toContain(first.id);
    const withDup = sb.current.ctx.state.orders.filter((o) => o.clientOrderId === dup.clientOrderId);
    expect(withDup).toHaveLength(1);
  });

  it('a refused replacement (postOnly that would cross) fails its leg with the POST /orders message', async () => {
    const { orders, yes } = await alice();
    const old = await restingBid(0.33);
    const r = await orders.cancelReplace({
      cancel: { orderId: old.id },
      replacement: { tokenId: yes, price: 0.99, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG, postOnly: true },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(r.cancel.status).toBe('SUCCESS');
    expect(r.replacement.status).toBe('FAILURE');
    if (r.replacement.status === 'FAILURE') {
      expect(r.replacement.error.code).toBe('VALIDATION_ERROR');
      expect(r.replacement.error.message).toMatch(/post-only/i);
    }
  });

  it('replacement timestamp/recvWindow: inside the window it is placed, outside it is refused (425), a bad window is a 400', async () => {
    const { orders, yes } = await alice();
    const base = { tokenId: yes, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG } as const;
    const miss = { orderId: randomUUID() };
    const ok = await orders.cancelReplace({
      cancel: miss,
      replacement: { ...base, price: 0.21, timestamp: Date.now(), recvWindow: 5000 },
      mode: CancelReplaceMode.ALLOW_FAILURE,
    });
    expect(ok.replacement.status).toBe('SUCCESS');
    const stale = await orders.cancelReplace({
      cancel: miss,
      replacement: { ...base, price: 0.22, timestamp: Date.now() - 8000, recvWindow: 1000 },
      mode: CancelReplaceMode.ALLOW_FAILURE,
    });
    expect(stale.replacement).toMatchObject({
      status: 'FAILURE',
      error: { code: 'RECV_WINDOW_EXCEEDED', message: expect.stringMatching(/recvWindow/) },
    });
    const wide = await orders.cancelReplace({
      cancel: miss,
      replacement: { ...base, price: 0.23, timestamp: Date.now(), recvWindow: 60_000 },
      mode: CancelReplaceMode.ALLOW_FAILURE,
    });
    expect(wide.replacement).toMatchObject({
      status: 'FAILURE',
      error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/recvWindow must be/) },
    });
  });
});

describe('OrderClient.cancelReplaceBatch', () => {
  it('runs operations in order with their input index; all SUCCESS', async () => {
    const { orders, yes } = await alice();
    const a = await restingBid(0.32);
    const b = await restingBid(0.31);
    const r = await orders.cancelReplaceBatch({
      operations: [
        {
          cancel: { orderId: a.id },
          replacement: { tokenId: yes, price: 0.3, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
          mode: CancelReplaceMode.STOP_ON_FAILURE,
        },
        {
          cancel: { clientOrderId: b.clientOrderId },
          replacement: { tokenId: yes, price: 0.29, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
          mode: CancelReplaceMode.STOP_ON_FAILURE,
        },
      ],
    });
    expect(r.results.map((x) => x.index)).toEqual([0, 1]);
    expect(r.results.map((x) => [x.cancel.status, x.replacement.status])).toEqual([
      ['SUCCESS', 'SUCCESS'],
      ['SUCCESS', 'SUCCESS'],
    ]);
    expect(r.results[0]?.cancel).toMatchObject({ orderId: a.id });
    expect(r.results[1]?.cancel).toMatchObject({ orderId: b.id });
    const live = await liveIds();
    expect(live).not.toContain(a.id);
    expect(live).not.toContain(b.id);
  });

  it('a partial batch answers 207 and reports each operation on its own', async () => {
    const { client, orders, yes } = await alice();
    const a = await restingBid(0.28);
    const r = await orders.cancelReplaceBatch({
      operations: [
        {
          cancel: { orderId: a.id },
          replacement: { tokenId: yes, price: 0.27, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
          mode: CancelReplaceMode.STOP_ON_FAILURE,
        },
        {
          cancel: { orderId: randomUUID() },
          replacement: { tokenId: yes, price: 0.26, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
          mode: CancelReplaceMode.STOP_ON_FAILURE,
        },
      ],
    });
    expect(r.results[0]).toMatchObject({ index: 0, cancel: { status: 'SUCCESS' }, replacement: { status: 'SUCCESS' } });
    expect(r.results[1]).toMatchObject({
      index: 1,
      cancel: { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND' } },
      replacement: { status: 'NOT_ATTEMPTED' },
    });
    const unsigned = await orders.buildUnsignedOrder({ tokenId: yes, price: 0.25, size: 2, side: Side.BUY });
    const op = {
      cancel: { orderId: randomUUID() },
      replacement: { order: { ...unsigned, signature: '0x' }, orderType: 'GTC', marketSlug: SLUG, ownerId: orders.ownerId },
      mode: 'STOP_ON_FAILURE',
    };
    const raw = await client.http.post('/orders/cancel-replace/batch', JSON.stringify({ operations: [op] }), {
      withRawResponse: true,
      validateStatus: () => true,
    });
    expect(raw.status).toBe(207);
  });

  it('more than 4 operations, or a malformed operation, is refused as a whole (ValidationError) and nothing runs', async () => {
    const { orders, yes } = await alice();
    const a = await restingBid(0.24);
    const op = {
      cancel: { orderId: a.id },
      replacement: { tokenId: yes, price: 0.23, size: 2, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    };
    const tooMany = await rejection(() => orders.cancelReplaceBatch({ operations: [op, op, op, op, op] }));
    expect(tooMany).toBeInstanceOf(ValidationError);
    expect(tooMany.message).toMatch(/1 to 4/);
    const badMode = await rejection(() =>
      orders.cancelReplaceBatch({ operations: [op, { ...op, mode: 'SOMETIMES' as CancelReplaceMode }] }),
    );
    expect(badMode).toBeInstanceOf(ValidationError);
    expect(badMode.message).toMatch(/operations\[1\]\.mode/);
    expect(await liveIds()).toContain(a.id);
  });
});
