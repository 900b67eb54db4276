// Wire views of stored orders: what POST /orders, the status batch and user-orders return.
// Amounts go out as strings (raw units) and prices as decimal strings, as the docs show.
import { ONE, formatRaw } from './amounts.js';
import { tradesView } from './trades.js';
import type { MarketRecord, OrderRecord, SandboxState } from '../types.js';

/** The market summary embedded in an order (wire-facts §3.8). */
function marketSummary(state: SandboxState, market: MarketRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: market.id,
    slug: market.slug,
    title: market.title,
    yesPositionId: market.positionIds?.[0] ?? null,
    noPositionId: market.positionIds?.[1] ?? null,
  };
  if (market.groupSlug) {
    const g = state.markets.find((m) => m.slug === market.groupSlug);
    if (g) out['group'] = { id: g.id, slug: g.slug, title: g.title };
  }
  return out;
}

/** The average fill price of an order without a limit (FOK), from its execution totals. */
function fokPrice(o: OrderRecord): string | null {
  const totals = o.execution['totalsRaw'];
  if (typeof totals !== 'object' || totals === null) return null;
  const t = totals as Record<string, unknown>;
  const c = typeof t['contractsGross'] === 'string' ? BigInt(t['contractsGross']) : 0n;
  const u = typeof t['usdGross'] === 'string' ? BigInt(t['usdGross']) : 0n;
  return c > 0n ? formatRaw((u * ONE) / c) : null;
}

/** The order object of a create or status answer: the signed fields plus id, market and state. */
function orderView(state: SandboxState, o: OrderRecord): Record<string, unknown> {
  const so = o.signedOrder;
  const market = state.markets.find((m) => m.slug === o.marketSlug);
  const out: Record<string, unknown> = {
    id: o.id,
    createdAt: o.createdAt,
    salt: so['salt'] === undefined ? '0' : String(so['salt']),
    maker: so['maker'],
    signer: so['signer'],
    taker: so['taker'] ?? '0x0000000000000000000000000000000000000000',
    tokenId: o.tokenId,
    makerAmount: o.makerAmount.toString(),
    takerAmount: o.takerAmount.toString(),
    expiration: so['expiration'] === undefined ? '0' : String(so['expiration']),
    nonce: so['nonce'] ?? 0,
    feeRateBps: so['feeRateBps'],
    side: o.side === 'BUY' ? 0 : 1,
    signatureType: so['signatureType'] ?? 0,
    signature: so['signature'] ?? null,
    orderType: o.orderType,
    price: o.price === null ? null : formatRaw(o.price),
    marketId: market?.id ?? null,
    ownerId: o.ownerId,
    postOnly: o.postOnly,
    status: o.status,
    originalSize: o.originalSize.toString(),
    remainingSize: o.remainingSize.toString(),
    settlementStatus: o.settlementStatus,
  };
  if (o.clientOrderId !== null) out['clientOrderId'] = o.clientOrderId;
  if (market) out['market'] = marketSummary(state, market);
  return out;
}

/** makerMatches as REST shows them: {id, createdAt, matchedSize, orderId}. */
function makerMatchesView(o: OrderRecord): Record<string, unknown>[] {
  return o.makerMatches.map((m) => ({ id: m.id, createdAt: m.createdAt, matchedSize: m.matchedSize, orderId: m.orderId }));
}

/** The full {order, makerMatches?, execution} answer of POST /orders and the status batch. */
export function createdView(state: SandboxState, o: OrderRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { order: orderView(state, o) };
  if (o.makerMatches.length > 0) out['makerMatches'] = makerMatchesView(o);
  out['execution'] = { ...o.execution };
  // Every trade of the order with its own id, tx hash and settlement (a sandbox addition).
  if ((o.trades ?? []).length > 0) out['trades'] = tradesView(o);
  return out;
}

/** One item of GET /markets/:slug/user-orders. */
export function userOrderView(state: SandboxState, o: OrderRecord): Record<string, unknown> {
  const market = state.markets.find((m) => m.slug === o.marketSlug);
  const out: Record<string, unknown> = {
    id: o.id,
    createdAt: o.createdAt,
    makerAmount: o.makerAmount.toString(),
    takerAmount: o.takerAmount.toString(),
    marketId: String(market?.id ?? ''),
    originalSize: o.originalSize.toString(),
    remainingSize: o.remainingSize.toString(),
    ownerId: o.ownerId,
    price: o.price === null ? (fokPrice(o) ?? '0') : formatRaw(o.price),
    side: o.side,
    status: o.status,
    token: o.outcome,
    tokenId: o.tokenId,
    type: o.orderType,
    clientOrderId: o.clientOrderId,
    settlementStatus: o.settlementStatus,
  };
  if ((o.trades ?? []).length > 0) out['trades'] = tradesView(o);
  return out;
}
