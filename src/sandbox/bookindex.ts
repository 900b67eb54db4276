// The resting books by price level: for each market, token and side, a sorted array of price
// levels, each a FIFO queue of LIVE orders (oldest first) with its total remaining size. Matching
// and book reads walk levels from the best one and stop at the limit, so they cost O(levels
// touched), not O(all orders).
//
// A derived structure: built from state.orders on first use (or when the array is replaced or
// shrinks, e.g. after a reset or load), caught up from the tail when orders are appended, and
// told by the reducer — the only mutator — when a resting order fills or is cancelled
// (`indexFilled`, `indexRemoved`). Replaying the event log therefore rebuilds the same index.
import type { OrderRecord, SandboxState, Side } from './types.js';

export interface Level {
  price: bigint;
  /** Orders at this price, oldest first; entries before `head` or not in `live` are gone. */
  queue: OrderRecord[];
  head: number;
  /** Σ remainingSize of the LIVE orders at this level. */
  size: bigint;
  /** How many LIVE orders the level holds. */
  count: number;
}

export interface SideBook {
  /** Levels, ascending by price. */
  levels: Level[];
  byPrice: Map<bigint, Level>;
}

interface BookIndex {
  orders: OrderRecord[];
  first: OrderRecord | undefined;
  scanned: number;
  books: Map<string, SideBook>;
  /** Where each indexed LIVE order rests, and the size the level counts for it. */
  live: Map<OrderRecord, { level: Level; book: SideBook; size: bigint }>;
}

const indexes = new WeakMap<SandboxState, BookIndex>();

function key(slug: string, tokenId: string, side: Side): string {
  return `${slug}|${tokenId}|${side}`;
}

function restable(o: OrderRecord): boolean {
  return o.status === 'LIVE' && o.price !== null && o.remainingSize > 0n;
}

/** Binary search: the index of the first level with price ≥ p. */
function lowerBound(levels: Level[], p: bigint): number {
  let lo = 0;
  let hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((levels[mid] as Level).price < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bookOf(idx: BookIndex, slug: string, tokenId: string, side: Side): SideBook {
  const k = key(slug, tokenId, side);
  let b = idx.books.get(k);
  if (!b) {
    b = { levels: [], byPrice: new Map() };
    idx.books.set(k, b);
  }
  return b;
}

function insert(idx: BookIndex, o: OrderRecord): void {
  if (!restable(o) || idx.live.has(o)) return;
  const book = bookOf(idx, o.marketSlug, o.tokenId, o.side);
  const price = o.price as bigint;
  let level = book.byPrice.get(price);
  if (!level) {
    level = { price, queue: [], head: 0, size: 0n, count: 0 };
    book.levels.splice(lowerBound(book.levels, price), 0, level);
    book.byPrice.set(price, level);
  }
  // Orders arrive in seq order; keep the queue sorted by seq should one not.
  const q = level.queue;
  let i = q.length;
  while (i > level.head && (q[i - 1] as OrderRecord).seq > o.seq) i -= 1;
  if (i === q.length) q.push(o);
  else q.splice(i, 0, o);
  level.size += o.remainingSize;
  level.count += 1;
  idx.live.set(o, { level, book, size: o.remainingSize });
}

function drop(idx: BookIndex, o: OrderRecord): void {
  const at = idx.live.get(o);
  if (!at) return;
  idx.live.delete(o);
  const { level, book } = at;
  level.size -= at.size;
  level.count -= 1;
  if (level.count === 0) {
    book.byPrice.delete(level.price);
    const i = lowerBound(book.levels, level.price);
    if (book.levels[i] === level) book.levels.splice(i, 1);
    return;
  }
  // Skip departed orders at the front; compact when the dead prefix dominates.
  while (level.head < level.queue.length && !idx.live.has(level.queue[level.head] as OrderRecord)) level.head += 1;
  if (level.head > 32 && level.head * 2 > level.queue.length) {
    level.queue = level.queue.slice(level.head).filter((x) => idx.live.has(x));
    level.head = 0;
  }
}

/** The index of `state`, built or caught up to the orders appended since the last use. */
function indexOf(state: SandboxState): BookIndex {
  let idx = indexes.get(state);
  if (!idx || idx.orders !== state.orders || idx.scanned > state.orders.length || (idx.scanned > 0 && idx.first !== state.orders[0])) {
    idx = { orders: state.orders, first: state.orders[0], scanned: 0, books: new Map(), live: new Map() };
    indexes.set(state, idx);
  }
  if (idx.first === undefined) idx.first = state.orders[0];
  for (; idx.scanned < state.orders.length; idx.scanned += 1) insert(idx, state.orders[idx.scanned] as OrderRecord);
  return idx;
}

/** The book of one market, token and side (levels ascending by price). */
export function sideBook(state: SandboxState, slug: string, tokenId: string, side: Side): SideBook {
  return bookOf(indexOf(state), slug, tokenId, side);
}

/** The LIVE orders of a level, oldest first. */
export function* levelOrders(state: SandboxState, level: Level): Generator<OrderRecord> {
  const live = indexOf(state).live;
  const q = level.queue;
  for (let i = level.head; i < q.length; i++) {
    const o = q[i] as OrderRecord;
    if (live.has(o)) yield o;
  }
}

/**
 * Reducer hook: a resting order's remaining size just changed (a fill) or it left LIVE. Call
 * after the change. A no-op when the state has no index yet (it is built from the orders later).
 */
export function indexUpdated(state: SandboxState, o: OrderRecord): void {
  const idx = indexes.get(state);
  if (!idx || idx.orders !== state.orders) return;
  const at = idx.live.get(o);
  if (!at) return;
  if (!restable(o)) {
    drop(idx, o);
    return;
  }
  at.level.size += o.remainingSize - at.size;
  at.size = o.remainingSize;
}

/** A plain snapshot of the index (for tests): every non-empty level with its size and order ids. */
export function describeIndex(state: SandboxState): Record<string, { price: string; size: string; orders: string[] }[]> {
  const idx = indexOf(state);
  const out: Record<string, { price: string; size: string; orders: string[] }[]> = {};
  for (const [k, b] of [...idx.books.entries()].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
    if (b.levels.length === 0) continue;
    out[k] = b.levels.map((l) => ({
      price: l.price.toString(),
      size: l.size.toString(),
      orders: [...levelOrders(state, l)].map((o) => o.id),
    }));
  }
  return out;
}
