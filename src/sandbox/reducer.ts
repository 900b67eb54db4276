// The one reducer: `apply(state, event)` is the only code that changes sandbox state. Engine,
// settlement and routes decide (and refuse) without touching state, then hand the event to
// `ctx.apply` (context.ts), which applies it here and commits it to the event log. Replaying
// the log from the seed therefore rebuilds the live state exactly. Not events, by design:
// - a token's lastUsedAt, set by auth on every request and written with snapshots;
// - the run-time switches: faults, allowance simulation, signing-message nonces;
// - state.serverKey, which lives in server.key (no event or snapshot holds a key): set where a
//   state comes from outside the log (the start's seed, the loader) and carried over by a reset.
import { buyLock, formatRaw, ONE } from './orders/amounts.js';
import { addTrade, settleTrade } from './orders/trades.js';
import { book, openLedgers } from './ledger.js';
import { profileKey, tokenSecret } from './keys.js';
import { seedState, syntheticMarkets } from './seed.js';
import { indexUpdated } from './bookindex.js';
import { marketsChanged } from './marketindex.js';
import type { Account, MarketRecord, OrderRecord, Position, SandboxState, StateEvent } from './types.js';

/** The profile whose trading wallet (its server wallet, else its address) is `address`, if any. */
function recipientOf(state: SandboxState, address: string): number | undefined {
  const a = address.toLowerCase();
  return state.profiles.find((p) => (p.serverWalletAddress ?? p.address).toLowerCase() === a)?.id;
}

/** The account of a profile, created empty on first use. */
function accountOf(state: SandboxState, profileId: number): Account {
  const key = String(profileId);
  let acct = state.accounts[key];
  if (!acct) {
    acct = { profileId, usdc: 0n, lockedUsdc: 0n, positions: {} };
    state.accounts[key] = acct;
  }
  return acct;
}

/** The position of an account in one token, created empty on first use. */
function positionOf(acct: Account, tokenId: string): Position {
  let pos = acct.positions[tokenId];
  if (!pos) {
    pos = { shares: 0n, locked: 0n, cost: 0n, realisedPnl: 0n };
    acct.positions[tokenId] = pos;
  }
  return pos;
}

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

/** Releases what a LIVE order reserves, without changing its status. */
function unlock(state: SandboxState, o: OrderRecord): void {
  const acct = accountOf(state, o.ownerId);
  if (o.side === 'BUY') acct.lockedUsdc -= buyLock(o.remainingSize, o.price ?? 0n);
  else positionOf(acct, o.tokenId).locked -= o.remainingSize;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The NEW_TRADE feed keeps the newest FEED_KEEP_PER_MARKET entries of each market in memory
 * (all of them stay in the event log). Trimmed in batches, so the cost is amortised O(1).
 */
export const FEED_KEEP_PER_MARKET = 1000;

function trimFeed(state: SandboxState): void {
  const seen = new Map<unknown, number>();
  const kept: Record<string, unknown>[] = [];
  for (let i = state.feed.length - 1; i >= 0; i--) {
    const e = state.feed[i];
    if (!e) continue;
    const n = seen.get(e['marketSlug']) ?? 0;
    if (n >= FEED_KEEP_PER_MARKET) continue;
    seen.set(e['marketSlug'], n + 1);
    kept.push(e);
  }
  state.feed = kept.reverse();
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`event refers to a missing ${what}`);
  return v;
}

/** A fresh seeded state with opened ledgers. */
function seeded(at: number): SandboxState {
  const s = seedState(at);
  openLedgers(s, iso(at));
  return s;
}

/**
 * Applies one event and returns the state (a new object only for seed/reset). Events carry
 * their own copies of records, which the reducer clones, so a logged event never changes.
 * Balances and positions change only through `book` (the ledger and its projection).
 */
export function apply(state: SandboxState | null, ev: StateEvent): SandboxState {
  if (ev.type === 'seed') return seeded(ev.at);
  if (ev.type === 'reset') {
    const fresh = seeded(ev.at);
    if (state?.serverKey !== undefined) fresh.serverKey = state.serverKey; // the data dir's key outlives a reset
    return fresh;
  }
  if (!state) throw new Error(`the event log does not start with a seed (first event: ${ev.type})`);
  switch (ev.type) {
    case 'order.placed': {
      const nowIso = iso(ev.at);
      const order = ev.order;
      const market = need(marketBySlug(state, order.marketSlug), `market ${order.marketSlug}`);
      for (const id of ev.stpCanceled) {
        const o = need(orderById(state, id), `order ${id}`);
        unlock(state, o);
        o.status = 'CANCELED';
        o.updatedAt = nowIso;
        indexUpdated(state, o);
      }
      const kinds = new Set<string>();
      for (const f of ev.fills) {
        const m = need(orderById(state, f.makerOrderId), `order ${f.makerOrderId}`);
        const makerAcct = accountOf(state, m.ownerId);
        const before = m.remainingSize;
        m.remainingSize -= f.size;
        // The maker's reservation shrinks with its remaining size; the money moves by the ledger.
        if (m.side === 'SELL') positionOf(makerAcct, m.tokenId).locked -= f.size;
        else makerAcct.lockedUsdc -= buyLock(before, f.makerPrice) - buyLock(m.remainingSize, f.makerPrice);
        if (m.remainingSize === 0n) m.status = 'MATCHED';
        indexUpdated(state, m);
        m.settlementStatus = 'MATCHED';
        m.tradeEventId = order.tradeEventId;
        m.updatedAt = nowIso;
        addTrade(m, {
          id: f.matchId,
          role: 'maker',
          tradeEventId: String(order.tradeEventId),
          takerOrderId: order.id,
          matchedSize: f.size.toString(),
          price: formatRaw(f.makerPrice),
          createdAt: nowIso,
        });
        market.volume += f.takerUsd;
        marketsChanged(state);
        kinds.add(f.kind);
        book(state, m.ownerId, {
          kind: 'trade',
          at: nowIso,
          role: 'maker',
          side: m.side,
          tokenId: m.tokenId,
          shares: f.size,
          usdc: f.makerUsd,
          fee: 0n,
          tradeId: order.tradeEventId,
          orderId: m.id,
          matchId: f.matchId,
          via: f.kind,
        });
      }
      const t = ev.totals;
      if (t.contracts > 0n) {
        state.feesCollected = (BigInt(state.feesCollected ?? '0') + t.usdFee).toString();
        book(state, order.ownerId, {
          kind: 'trade',
          at: nowIso,
          role: 'taker',
          side: order.side,
          tokenId: order.tokenId,
          shares: t.contracts,
          usdc: t.usdGross,
          fee: t.usdFee,
          tradeId: order.tradeEventId,
          orderId: order.id,
          via: [...kinds].join('+'),
        });
      }
      const rest = order.status === 'LIVE' ? order.remainingSize : 0n;
      if (rest > 0n) {
        const acct = accountOf(state, order.ownerId);
        if (order.side === 'BUY') acct.lockedUsdc += buyLock(rest, order.price ?? 0n);
        else positionOf(acct, order.tokenId).locked += rest;
      }
      if (state.nextSeq <= order.seq) state.nextSeq = order.seq + 1;
      state.orders.push(structuredClone(order));
      const last = ev.fills[ev.fills.length - 1];
      if (last) {
        const yesPrice = order.outcome === 'YES' ? last.takerPrice : ONE - last.takerPrice;
        market.lastTradePrice = yesPrice;
        market.priceHistory.push({ t: ev.at, price: yesPrice });
        market.updatedAt = nowIso;
      }
      if (ev.feed) {
        state.feed.push(structuredClone(ev.feed));
        if (state.feed.length > FEED_KEEP_PER_MARKET * 2 * Math.max(1, state.markets.length)) trimFeed(state);
      }
      return state;
    }
    case 'order.cancelled': {
      const o = need(orderById(state, ev.orderId), `order ${ev.orderId}`);
      if (o.status !== 'LIVE') throw new Error(`event cancels order ${o.id}, which is ${o.status}`);
      unlock(state, o);
      o.status = 'CANCELED';
      o.updatedAt = iso(ev.at);
      indexUpdated(state, o);
      return state;
    }
    case 'market.created': {
      if (marketBySlug(state, ev.market.slug)) throw new Error(`event creates market ${ev.market.slug}, which exists`);
      state.markets.push(structuredClone(ev.market));
      marketsChanged(state);
      return state;
    }
    case 'markets.synthetic': {
      for (const m of syntheticMarkets(ev.firstId, ev.count, ev.at)) {
        if (marketBySlug(state, m.slug)) throw new Error(`event creates market ${m.slug}, which exists`);
        state.markets.push(m);
      }
      marketsChanged(state);
      return state;
    }
    case 'settlement': {
      const nowIso = iso(ev.at);
      const taker = need(orderById(state, ev.takerOrderId), `order ${ev.takerOrderId}`);
      // Each order's record of this trade advances; order-level fields follow only its latest trade.
      for (const id of [ev.takerOrderId, ...ev.makerOrderIds])
        settleTrade(need(orderById(state, id), `order ${id}`), ev.tradeEventId, ev.to, ev.txHash, nowIso);
      taker.execution['settlementStatus'] = ev.to;
      taker.execution['txHash'] = ev.txHash;
      return state;
    }
    case 'profile.created': {
      const p = ev.profile;
      if (state.profiles.some((x) => x.id === p.id || x.address.toLowerCase() === p.address.toLowerCase()))
        throw new Error(`event creates profile ${p.id} (${p.address}), which exists`);
      const profile = structuredClone(p);
      const key = profileKey(state.serverKey, profile);
      if (key) profile.privateKey = key;
      state.profiles.push(profile);
      if (state.nextProfileId <= p.id) state.nextProfileId = p.id + 1;
      return state;
    }
    case 'token.derived': {
      if (state.tokens.some((x) => x.tokenId === ev.token.tokenId))
        throw new Error(`event derives token ${ev.token.tokenId}, which exists`);
      // No secret in the event: it derives from the server key (the loader fills it when the
      // key is read after the replay).
      const secret = state.serverKey ? tokenSecret(state.serverKey, ev.token.tokenId) : '';
      state.tokens.push({ ...structuredClone(ev.token), secret, lastUsedAt: null, revokedAt: null });
      return state;
    }
    case 'token.revoked': {
      const tok = need(
        state.tokens.find((x) => x.tokenId === ev.tokenId),
        `token ${ev.tokenId}`,
      );
      tok.revokedAt = iso(ev.at);
      return state;
    }
    case 'allowances': {
      (state.allowances ??= {})[String(ev.profileId)] = structuredClone(ev.targets);
      return state;
    }
    case 'funds.deposited': {
      book(state, ev.profileId, { kind: 'deposit', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash });
      return state;
    }
    case 'funds.withdrawn': {
      const acct = state.accounts[String(ev.profileId)];
      const available = acct ? acct.usdc - acct.lockedUsdc : 0n;
      if (available < ev.amount)
        throw new Error(`event withdraws ${ev.amount} from profile ${ev.profileId}, which has ${available} available`);
      book(state, ev.profileId, { kind: 'withdrawal', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash, destination: ev.destination });
      // The transfer lands in a wallet: when that wallet is a profile's trading wallet (a partner
      // withdrawing a child's funds to its own address, say), that profile holds the money now.
      const to = recipientOf(state, ev.destination);
      if (to !== undefined && to !== ev.profileId) book(state, to, { kind: 'deposit', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash });
      return state;
    }
    case 'market.resolved': {
      const market = need(marketBySlug(state, ev.slug), `market ${ev.slug}`);
      for (const id of ev.canceled) {
        const o = need(orderById(state, id), `order ${id}`);
        if (o.status !== 'LIVE') continue;
        unlock(state, o);
        o.status = 'CANCELED';
        o.updatedAt = iso(ev.at);
        indexUpdated(state, o);
      }
      market.status = 'RESOLVED';
      market.winningOutcomeIndex = ev.winningOutcomeIndex;
      market.payoutPending = !ev.payoutPosted;
      market.resolutionTxHash = ev.txHash;
      market.updatedAt = iso(ev.at);
      marketsChanged(state);
      return state;
    }
    case 'position.redeemed': {
      const held = state.accounts[String(ev.profileId)]?.positions ?? {};
      for (const p of ev.payouts) {
        const has = held[p.tokenId]?.shares ?? 0n;
        if (has < p.shares)
          throw new Error(`event redeems ${p.shares} of token ${p.tokenId} from profile ${ev.profileId}, which holds ${has}`);
      }
      for (const p of ev.payouts)
        book(state, ev.profileId, {
          kind: 'redemption',
          at: iso(ev.at),
          usdc: p.usdc,
          tokenId: p.tokenId,
          shares: p.shares,
          txHash: ev.txHash,
          conditionId: ev.conditionId,
          ...(ev.onChain ? { onChain: true } : {}),
        });
      return state;
    }
    case 'allowlist.added': {
      (state.withdrawalAddresses ??= []).push(structuredClone(ev.entry));
      return state;
    }
    case 'allowlist.removed': {
      const e = need(
        (state.withdrawalAddresses ?? []).find((x) => x.id === ev.id),
        `allowlist entry ${ev.id}`,
      );
      e.deletedAt = ev.at;
      return state;
    }
  }
}
