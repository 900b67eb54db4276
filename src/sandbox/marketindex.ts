// The active-market listings (GET /markets/active and its pages) from an index instead of a
// rescan per page: each distinct query (sort, trade type, category) keeps its filtered, sorted
// list until the markets change, so following every page of N markets costs O(N) in all, not
// O(N) per page. A derived structure like bookindex.ts: the reducer — the only mutator — says
// when a market is added, resolved or trades (`marketsChanged`); a replaced or grown markets
// array is noticed as well.
import type { MarketRecord, SandboxState } from './types.js';

interface ListingIndex {
  markets: MarketRecord[];
  length: number;
  version: number;
  lists: Map<string, MarketRecord[]>;
}

const versions = new WeakMap<SandboxState, number>();
const indexes = new WeakMap<SandboxState, ListingIndex>();

/** Reducer hook: a market was added or resolved, or its volume changed. */
export function marketsChanged(state: SandboxState): void {
  versions.set(state, (versions.get(state) ?? 0) + 1);
}

/**
 * The markets `build()` returns for the query `key`, computed once per change of the markets.
 * The list holds the live records (their fields are current); only membership and order are
 * cached. Callers must not modify it.
 */
export function cachedListing(
  state: SandboxState,
  key: string,
  build: (markets: MarketRecord[]) => MarketRecord[],
): readonly MarketRecord[] {
  const version = versions.get(state) ?? 0;
  let idx = indexes.get(state);
  if (!idx || idx.markets !== state.markets || idx.length !== state.markets.length || idx.version !== version) {
    idx = { markets: state.markets, length: state.markets.length, version, lists: new Map() };
    indexes.set(state, idx);
  }
  let list = idx.lists.get(key);
  if (!list) {
    list = build(state.markets);
    idx.lists.set(key, list);
  }
  return list;
}
