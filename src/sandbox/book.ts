// The YES order book as the exchange shows it: BUY YES and SELL NO (at 1 − p) are bids,
// SELL YES and BUY NO (at 1 − p) are asks, aggregated per price level.
import type { SandboxState } from './types.js';

const ONE = 1_000_000n;

export interface BookView {
  bids: { price: bigint; size: bigint }[];
  asks: { price: bigint; size: bigint }[];
  tokenId: string;
  lastTradePrice: bigint | null;
}

/** Aggregated YES book of a market, best levels first; null for an unknown or non-CLOB market. */
export function yesBook(state: SandboxState, slug: string): BookView | null {
  const m = state.markets.find((x) => x.slug === slug);
  if (!m || !m.positionIds) return null;
  const [yes] = m.positionIds;
  const bids = new Map<bigint, bigint>();
  const asks = new Map<bigint, bigint>();
  for (const o of state.orders) {
    if (o.marketSlug !== slug || o.status !== 'LIVE' || o.price === null || o.remainingSize <= 0n) continue;
    const isYes = o.tokenId === yes;
    const price = isYes ? o.price : ONE - o.price;
    const bid = (o.side === 'BUY') === isYes;
    const side = bid ? bids : asks;
    side.set(price, (side.get(price) ?? 0n) + o.remainingSize);
  }
  const sorted = (m2: Map<bigint, bigint>, desc: boolean) =>
    [...m2.entries()].map(([price, size]) => ({ price, size })).sort((a, b) => (desc ? (b.price > a.price ? 1 : -1) : a.price > b.price ? 1 : -1));
  return { bids: sorted(bids, true), asks: sorted(asks, false), tokenId: yes, lastTradePrice: m.lastTradePrice };
}

/** The midpoint in micro-units (0.5 for an empty book). */
export function midpoint(b: BookView): bigint {
  const bid = b.bids[0]?.price;
  const ask = b.asks[0]?.price;
  if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n;
  return b.lastTradePrice ?? ONE / 2n;
}
