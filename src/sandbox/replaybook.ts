// What a replay (replay.ts) does to a market, through the engine and ctx.apply like any client:
// - a recorded book state: the replay maker's resting orders are moved (cancel, place post-only)
//   so that its part of the book is the recorded levels. Bids are BUY YES at p, asks BUY NO at
//   1 − p (USDC only, as the simulator quotes). Users' orders rest beside them; a level that
//   would cross a user's order is refused by post-only and left out while it would;
// - a recorded trade: the users' orders resting at prices the trade reached (better or equal)
//   are filled first, by a FAK order of the replay taker at the trade price for the recorded
//   size, after the replay maker's orders it could hit are cancelled (the next book state puts
//   them back). Queue position is the approximation: a user's order at the traded price counts
//   as first in its level's queue.
import { levelOrders, sideBook } from './bookindex.js';
import { marketBySlug } from './indexes.js';
import { cancelOrders, placeBotOrder } from './place.js';
import { ONE } from './orders/amounts.js';
import type { Level } from './recording.js';
import type { MarketRecord, OrderRecord, SandboxState } from './types.js';
import type { StateEvent } from './events.js';
import type { SandboxContext } from './handlers.js';

/** The replay's two profiles: the maker rests the recorded levels, the taker trades through users. */
export interface ReplayIds {
  maker: number;
  taker: number;
}

/** A market the replay can act on (open CLOB, not resolved), or null. */
export function replayable(s: SandboxState, slug: string): MarketRecord | null {
  const m = marketBySlug(s, slug);
  if (m?.tradeType !== 'clob' || m.positionIds === null || m.winningOutcomeIndex !== null || m.status !== 'FUNDED') return null;
  return m;
}

/** The LIVE orders of `ownerId` on one side of one token's book (or of anyone but `ownerId` when `others`). */
function ordersOf(
  s: SandboxState,
  m: MarketRecord,
  tokenId: string,
  side: 'BUY' | 'SELL',
  ownerIds: ReadonlySet<number>,
  others: boolean,
): OrderRecord[] {
  const out: OrderRecord[] = [];
  for (const level of sideBook(s, m.slug, tokenId, side).levels)
    for (const o of levelOrders(s, level)) if (ownerIds.has(o.ownerId) !== others) out.push(o);
  return out;
}

/** The maker's resting bids (BUY YES) and asks (BUY NO, at 1 − p), keyed by side and YES price. */
function makerLevels(s: SandboxState, m: MarketRecord, maker: number): Map<string, OrderRecord[]> {
  const [yes, no] = m.positionIds ?? ['', ''];
  const out = new Map<string, OrderRecord[]>();
  const add = (key: string, o: OrderRecord): void => {
    const list = out.get(key);
    if (list) list.push(o);
    else out.set(key, [o]);
  };
  const own = new Set([maker]);
  for (const o of ordersOf(s, m, yes, 'BUY', own, false)) add(`bid|${o.price ?? 0n}`, o);
  for (const o of ordersOf(s, m, no, 'BUY', own, false)) add(`ask|${ONE - (o.price ?? 0n)}`, o);
  return out;
}

/**
 * Moves the maker's resting orders of market `m` to the recorded levels: the levels whose size
 * differs are cancelled in one commit, then placed again post-only, one commit each. Returns
 * the orders placed.
 */
export function syncBook(ctx: SandboxContext, m: MarketRecord, bids: Level[], asks: Level[], ids: ReplayIds, tag: string): number {
  const [yes, no] = m.positionIds ?? ['', ''];
  const target = new Map<string, bigint>();
  for (const l of bids) target.set(`bid|${l.price}`, (target.get(`bid|${l.price}`) ?? 0n) + l.size);
  for (const l of asks) target.set(`ask|${l.price}`, (target.get(`ask|${l.price}`) ?? 0n) + l.size);
  const current = makerLevels(ctx.state, m, ids.maker);
  const stale: OrderRecord[] = [];
  const kept = new Set<string>();
  for (const [key, orders] of current) {
    const size = orders.reduce((a, o) => a + o.remainingSize, 0n);
    if (size === target.get(key)) kept.add(key);
    else stale.push(...orders);
  }
  cancelOrders(ctx, stale);
  let placed = 0;
  for (const [key, size] of target) {
    if (kept.has(key)) continue;
    const bid = key.startsWith('bid|');
    const yesPrice = BigInt(key.slice(4));
    const r = placeBotOrder(ctx, {
      ownerId: ids.maker,
      marketSlug: m.slug,
      tokenId: bid ? yes : no,
      side: 'BUY',
      orderType: 'GTC',
      price: bid ? yesPrice : ONE - yesPrice,
      size,
      postOnly: true,
      clientOrderId: `${tag}-${placed}`,
    });
    if (r.ok) placed += 1; // else: it would cross a user's order (or the balance is short): left out
  }
  return placed;
}

/** A recorded trade in YES terms (recording.ts). */
export interface Trade {
  lift: boolean;
  price: bigint;
  size: bigint;
}

/** Whether users (anyone but the replay) rest orders the trade reached. */
function usersReached(s: SandboxState, m: MarketRecord, t: Trade, ids: ReplayIds): boolean {
  const [yes, no] = m.positionIds ?? ['', ''];
  const replay = new Set([ids.maker, ids.taker]);
  // A lift takes asks ≤ p: SELL YES at ≤ p, BUY NO at ≥ 1 − p; a hit takes bids ≥ p: BUY YES at ≥ p, SELL NO at ≤ 1 − p.
  if (t.lift)
    return (
      ordersOf(s, m, yes, 'SELL', replay, true).some((o) => (o.price ?? 0n) <= t.price) ||
      ordersOf(s, m, no, 'BUY', replay, true).some((o) => (o.price ?? 0n) >= ONE - t.price)
    );
  return (
    ordersOf(s, m, yes, 'BUY', replay, true).some((o) => (o.price ?? 0n) >= t.price) ||
    ordersOf(s, m, no, 'SELL', replay, true).some((o) => (o.price ?? 0n) <= ONE - t.price)
  );
}

/**
 * Trades a recorded trade through the users' orders it reached: the maker's orders the taker
 * could hit are cancelled, then the taker's FAK order at the trade price, for the recorded size,
 * is committed together with `also` (the replay's progress). False when no user's order was
 * reached (nothing happened, `also` not committed).
 */
export function tradeThrough(
  ctx: SandboxContext,
  m: MarketRecord,
  t: Trade,
  ids: ReplayIds,
  clientOrderId: string,
  also: StateEvent[],
): boolean {
  if (t.size <= 0n || !usersReached(ctx.state, m, t, ids)) return false;
  const [yes, no] = m.positionIds ?? ['', ''];
  const own = new Set([ids.maker]);
  // A lift (BUY YES at p) would hit the maker's asks (BUY NO at ≥ 1 − p); a hit (BUY NO at 1 − p) its bids at ≥ p.
  const inTheWay = t.lift
    ? ordersOf(ctx.state, m, no, 'BUY', own, false).filter((o) => (o.price ?? 0n) >= ONE - t.price)
    : ordersOf(ctx.state, m, yes, 'BUY', own, false).filter((o) => (o.price ?? 0n) >= t.price);
  cancelOrders(ctx, inTheWay);
  const r = placeBotOrder(
    ctx,
    {
      ownerId: ids.taker,
      marketSlug: m.slug,
      tokenId: t.lift ? yes : no,
      side: 'BUY',
      orderType: 'FAK',
      price: t.lift ? t.price : ONE - t.price,
      size: t.size,
      clientOrderId,
    },
    ...also,
  );
  return r.ok;
}
