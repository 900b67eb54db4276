// Lookups by key over the state's append-only lists, O(1) amortised: orders by id, markets by
// slug. Each index catches up by scanning the tail; a replaced or shrunk list is re-indexed.
import type { MarketRecord, OrderRecord, SandboxState } from './types.js';

// Orders by id. state.orders only grows at the end, so the index catches up by scanning the
// tail; a replaced or shrunk array (reset, pruning) is re-indexed.
interface IdIndex {
  orders: OrderRecord[];
  first: OrderRecord | undefined;
  scanned: number;
  byId: Map<string, OrderRecord>;
}
const idIndexes = new WeakMap<SandboxState, IdIndex>();

/** The order with this id, or undefined; O(1) amortised. */
export function orderById(state: SandboxState, id: string): OrderRecord | undefined {
  let idx = idIndexes.get(state);
  if (!idx || idx.orders !== state.orders || idx.scanned > state.orders.length || (idx.scanned > 0 && idx.first !== state.orders[0])) {
    idx = { orders: state.orders, first: state.orders[0], scanned: 0, byId: new Map() };
    idIndexes.set(state, idx);
  }
  if (idx.first === undefined) idx.first = state.orders[0];
  for (; idx.scanned < state.orders.length; idx.scanned += 1) {
    const o = state.orders[idx.scanned];
    if (o) idx.byId.set(o.id, o);
  }
  return idx.byId.get(id);
}

// Markets by slug, the same way: markets are only appended and slugs never change.
interface SlugIndex {
  markets: MarketRecord[];
  scanned: number;
  bySlug: Map<string, MarketRecord>;
}
const slugIndexes = new WeakMap<SandboxState, SlugIndex>();

/** The market with this slug, or undefined; O(1) amortised. */
export function marketBySlug(state: SandboxState, slug: string): MarketRecord | undefined {
  let idx = slugIndexes.get(state);
  if (!idx || idx.markets !== state.markets || idx.scanned > state.markets.length) {
    idx = { markets: state.markets, scanned: 0, bySlug: new Map() };
    slugIndexes.set(state, idx);
  }
  for (; idx.scanned < state.markets.length; idx.scanned += 1) {
    const m = state.markets[idx.scanned];
    if (m && !idx.bySlug.has(m.slug)) idx.bySlug.set(m.slug, m);
  }
  return idx.bySlug.get(slug);
}
