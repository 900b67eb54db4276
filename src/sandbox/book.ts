// The YES order book as the exchange shows it: BUY YES and SELL NO (at 1 − p) are bids,
// SELL YES and BUY NO (at 1 − p) are asks, aggregated per price level.
import { sideBook } from './bookindex.js';
import { marketBySlug } from './indexes.js';
import type { SandboxState, Side } from './types.js';

const ONE = 1_000_000n;

export interface BookView {
  bids: { price: bigint; size: bigint }[];
  asks: { price: bigint; size: bigint }[];
  tokenId: string;
  lastTradePrice: bigint | null;
}

/** Aggregated YES book of a market, best levels first; null for an unknown or non-CLOB market. */
export function yesBook(state: SandboxState, slug: string): BookView | null {
  const m = marketBySlug(state, slug);
  if (!m?.positionIds) return null;
  const [yes, no] = m.positionIds;
  const bids = new Map<bigint, bigint>();
  const asks = new Map<bigint, bigint>();
  // Read from the price-level index: O(levels), whatever the number of orders.
  const add = (into: Map<bigint, bigint>, token: string, side: Side, complement: boolean): void => {
    for (const l of sideBook(state, slug, token, side).levels) {
      if (l.size <= 0n) continue;
      const price = complement ? ONE - l.price : l.price;
      into.set(price, (into.get(price) ?? 0n) + l.size);
    }
  };
  add(bids, yes, 'BUY', false);
  add(bids, no, 'SELL', true);
  add(asks, yes, 'SELL', false);
  add(asks, no, 'BUY', true);
  const sorted = (m2: Map<bigint, bigint>, desc: boolean) =>
    [...m2.entries()]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) => (desc ? (b.price > a.price ? 1 : -1) : a.price > b.price ? 1 : -1));
  return { bids: sorted(bids, true), asks: sorted(asks, false), tokenId: yes, lastTradePrice: m.lastTradePrice };
}

/**
 * The YES midpoint of a market from the best level of each book only (O(1) per market, for
 * listings); the same value as midpoint(yesBook(…)). Null for an unknown or non-CLOB market.
 */
export function yesMidpoint(state: SandboxState, slug: string): bigint | null {
  const m = marketBySlug(state, slug);
  if (!m?.positionIds) return null;
  const [yes, no] = m.positionIds;
  const best = (token: string, side: Side, highest: boolean): bigint | undefined => {
    const levels = sideBook(state, slug, token, side).levels;
    const l = highest ? levels[levels.length - 1] : levels[0];
    return l?.price;
  };
  const maxOf = (a: bigint | undefined, b: bigint | undefined): bigint | undefined =>
    a === undefined ? b : b === undefined ? a : a > b ? a : b;
  const minOf = (a: bigint | undefined, b: bigint | undefined): bigint | undefined =>
    a === undefined ? b : b === undefined ? a : a < b ? a : b;
  const sellNo = best(no, 'SELL', false);
  const buyNo = best(no, 'BUY', true);
  const bid = maxOf(best(yes, 'BUY', true), sellNo === undefined ? undefined : ONE - sellNo);
  const ask = minOf(best(yes, 'SELL', false), buyNo === undefined ? undefined : ONE - buyNo);
  if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n;
  return m.lastTradePrice ?? ONE / 2n;
}

/** The midpoint in micro-units (0.5 for an empty book). */
export function midpoint(b: BookView): bigint {
  const bid = b.bids[0]?.price;
  const ask = b.asks[0]?.price;
  if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n;
  return b.lastTradePrice ?? ONE / 2n;
}
