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
import { seedState } from './seed.js';
import { syntheticMarkets } from './seedmarkets.js';
import { indexUpdated } from './bookindex.js';
import { marketsChanged } from './marketindex.js';
import { marketBySlug, orderById } from './indexes.js';
import type { Account, OrderRecord, Position, SandboxState } from './types.js';
import type { OrderPlaced, StateEvent } from './events.js';

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

type Handler<K extends StateEvent['type']> = (state: SandboxState, ev: Extract<StateEvent, { type: K }>) => void;

/** One maker order's side of a fill: its size, reservation, status, trade record and ledger line. */
function applyMakerFill(state: SandboxState, ev: OrderPlaced, f: OrderPlaced['fills'][number], nowIso: string): void {
  const order = ev.order;
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

/** A placed order: STP cancels, each maker's fill, the taker's ledger line, its reservation, the market and the feed. */
function applyOrderPlaced(state: SandboxState, ev: OrderPlaced): void {
  const nowIso = iso(ev.at);
  const order = ev.order;
  const market = need(marketBySlug(state, order.marketSlug), `market ${order.marketSlug}`);
  for (const id of ev.stpCanceled) cancelLive(state, need(orderById(state, id), `order ${id}`), nowIso);
  const kinds = new Set<string>();
  for (const f of ev.fills) {
    applyMakerFill(state, ev, f, nowIso);
    market.volume += f.takerUsd;
    kinds.add(f.kind);
  }
  if (ev.fills.length > 0) marketsChanged(state);
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
}

/** Cancels a LIVE order in place: its reservation is released. */
function cancelLive(state: SandboxState, o: OrderRecord, nowIso: string): void {
  unlock(state, o);
  o.status = 'CANCELED';
  o.updatedAt = nowIso;
  indexUpdated(state, o);
}

/** Every event but seed and reset, by type: what it changes. */
const HANDLERS: { [K in Exclude<StateEvent['type'], 'seed' | 'reset'>]: Handler<K> } = {
  'order.placed': applyOrderPlaced,
  'order.cancelled': (state, ev) => {
    const o = need(orderById(state, ev.orderId), `order ${ev.orderId}`);
    if (o.status !== 'LIVE') throw new Error(`event cancels order ${o.id}, which is ${o.status}`);
    cancelLive(state, o, iso(ev.at));
  },
  'market.created': (state, ev) => {
    if (marketBySlug(state, ev.market.slug)) throw new Error(`event creates market ${ev.market.slug}, which exists`);
    state.markets.push(structuredClone(ev.market));
    marketsChanged(state);
  },
  'markets.synthetic': (state, ev) => {
    for (const m of syntheticMarkets(ev.firstId, ev.count, ev.at)) {
      if (marketBySlug(state, m.slug)) throw new Error(`event creates market ${m.slug}, which exists`);
      state.markets.push(m);
    }
    marketsChanged(state);
  },
  settlement: (state, ev) => {
    const nowIso = iso(ev.at);
    const taker = need(orderById(state, ev.takerOrderId), `order ${ev.takerOrderId}`);
    // Each order's record of this trade advances; order-level fields follow only its latest trade.
    for (const id of [ev.takerOrderId, ...ev.makerOrderIds])
      settleTrade(need(orderById(state, id), `order ${id}`), ev.tradeEventId, ev.to, ev.txHash, nowIso);
    taker.execution['settlementStatus'] = ev.to;
    taker.execution['txHash'] = ev.txHash;
  },
  'profile.created': (state, ev) => {
    const p = ev.profile;
    if (state.profiles.some((x) => x.id === p.id || x.address.toLowerCase() === p.address.toLowerCase()))
      throw new Error(`event creates profile ${p.id} (${p.address}), which exists`);
    const profile = structuredClone(p);
    const key = profileKey(state.serverKey, profile);
    if (key) profile.privateKey = key;
    state.profiles.push(profile);
    if (state.nextProfileId <= p.id) state.nextProfileId = p.id + 1;
  },
  'token.derived': (state, ev) => {
    if (state.tokens.some((x) => x.tokenId === ev.token.tokenId)) throw new Error(`event derives token ${ev.token.tokenId}, which exists`);
    // No secret in the event: it derives from the server key (the loader fills it when the
    // key is read after the replay).
    const secret = state.serverKey ? tokenSecret(state.serverKey, ev.token.tokenId) : '';
    state.tokens.push({ ...structuredClone(ev.token), secret, lastUsedAt: null, revokedAt: null });
  },
  'token.revoked': (state, ev) => {
    const tok = need(
      state.tokens.find((x) => x.tokenId === ev.tokenId),
      `token ${ev.tokenId}`,
    );
    tok.revokedAt = iso(ev.at);
  },
  allowances: (state, ev) => {
    (state.allowances ??= {})[String(ev.profileId)] = structuredClone(ev.targets);
  },
  'funds.deposited': (state, ev) => {
    book(state, ev.profileId, { kind: 'deposit', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash });
  },
  'funds.withdrawn': (state, ev) => {
    const acct = state.accounts[String(ev.profileId)];
    const available = acct ? acct.usdc - acct.lockedUsdc : 0n;
    if (available < ev.amount)
      throw new Error(`event withdraws ${ev.amount} from profile ${ev.profileId}, which has ${available} available`);
    book(state, ev.profileId, { kind: 'withdrawal', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash, destination: ev.destination });
    // The transfer lands in a wallet: when that wallet is a profile's trading wallet (a partner
    // withdrawing a child's funds to its own address, say), that profile holds the money now.
    const to = recipientOf(state, ev.destination);
    if (to !== undefined && to !== ev.profileId) book(state, to, { kind: 'deposit', at: iso(ev.at), usdc: ev.amount, txHash: ev.txHash });
  },
  'market.resolved': (state, ev) => {
    const market = need(marketBySlug(state, ev.slug), `market ${ev.slug}`);
    for (const id of ev.canceled) {
      const o = need(orderById(state, id), `order ${id}`);
      if (o.status === 'LIVE') cancelLive(state, o, iso(ev.at));
    }
    market.status = 'RESOLVED';
    market.winningOutcomeIndex = ev.winningOutcomeIndex;
    market.payoutPending = !ev.payoutPosted;
    market.resolutionTxHash = ev.txHash;
    market.updatedAt = iso(ev.at);
    marketsChanged(state);
  },
  'position.redeemed': (state, ev) => {
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
  },
  'replay.progress': (state, ev) => {
    state.replay = { ...ev.progress };
  },
  'allowlist.added': (state, ev) => {
    (state.withdrawalAddresses ??= []).push(structuredClone(ev.entry));
  },
  'allowlist.removed': (state, ev) => {
    const e = need(
      (state.withdrawalAddresses ?? []).find((x) => x.id === ev.id),
      `allowlist entry ${ev.id}`,
    );
    e.deletedAt = ev.at;
  },
};

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
  (HANDLERS[ev.type] as (s: SandboxState, e: StateEvent) => void)(state, ev);
  return state;
}
