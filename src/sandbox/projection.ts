// The projection of the event log into stream messages (wire-facts §6), pure: log entries in,
// messages out, read from the state as it stands after the entry (the log hands entries to its
// subscribers once they are applied and on disk). It keeps one memory of its own: each LIVE
// order's remaining size as of the last entry projected, so a fill or a cancel reports the size
// it left. Who receives a message (subscriptions, sub-accounts' partners, dedup, the delay
// fault, coalescing of book updates) is the socket side's business (stream.ts).
import { ONE, formatRaw, priceNumber } from './orders/amounts.js';
import { STP_TAKER_REJECTED } from './engine.js';
import { orderById } from './indexes.js';
import type { MarketRecord, OrderRecord, SandboxState } from './types.js';
import type { LogEntry } from './events.js';

/** One message for the sockets. */
export type StreamMessage =
  /** An orderEvent for `profileId` (and its partner); `payload.eventId` is its dedup key. */
  | { channel: 'orders'; profileId: number; payload: Record<string, unknown> }
  /** A positions update of `profileId` in one market. */
  | { channel: 'positions'; profileId: number; market: { slug: string; address: string | null }; payload: Record<string, unknown> }
  /** A tx event for `profileId`, deduplicated by `eventId`. */
  | { channel: 'tx'; profileId: number; eventId: string; payload: Record<string, unknown> }
  /** Market lifecycle, under each of `names`, to every lifecycle subscriber. */
  | { channel: 'lifecycle'; names: string[]; payload: Record<string, unknown> }
  /** The book (and maybe the price) of a market changed: sent coalesced, from the state at send time. */
  | { channel: 'book'; slug: string }
  /** The state was replaced (seed, reset): every book subscriber gets a fresh book. */
  | { channel: 'reset' };

type OmeType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION';

const iso = (at: number): string => new Date(at).toISOString();
const marketOf = (state: SandboxState, slug: string): MarketRecord | undefined => state.markets.find((m) => m.slug === slug);
const addressOf = (state: SandboxState, profileId: number): string => state.profiles.find((p) => p.id === profileId)?.address ?? '';

/** An OME orderEvent of one order (wire-facts §6). */
function ome(
  type: OmeType,
  o: OrderRecord,
  market: MarketRecord,
  remaining: bigint,
  e: { seq: number; at: number },
  extra: Record<string, unknown> = {},
): StreamMessage {
  const payload: Record<string, unknown> = {
    source: 'OME',
    type,
    eventId: type === 'EXECUTION' ? `terminal:${o.id}` : `${o.id}:${e.seq}`,
    marketId: String(market.id),
    marketSlug: market.slug,
    orderId: o.id,
    price: o.price === null ? 0 : priceNumber(o.price),
    remainingSize: Number(remaining),
    side: o.side,
    timestamp: iso(e.at),
    token: o.outcome,
    userId: o.ownerId,
    ...extra,
  };
  if (o.clientOrderId !== null) payload['clientOrderId'] = o.clientOrderId;
  return { channel: 'orders', profileId: o.ownerId, payload };
}

/** SETTLEMENT orderEvents of one trade: one for the taker, one per maker order (fee 0). */
function settlement(
  state: SandboxState,
  type: 'MATCHED' | 'MINED',
  taker: OrderRecord,
  market: MarketRecord,
  at: number,
  txHash: string | null,
): StreamMessage[] {
  const totals = (taker.execution['totalsRaw'] ?? {}) as Record<string, string>;
  const tradeEventId = String(taker.execution['tradeEventId'] ?? taker.tradeEventId ?? '');
  const base: Record<string, unknown> = {
    source: 'SETTLEMENT',
    type,
    marketSlug: market.slug,
    tradeEventId,
    takerOrderId: taker.id,
    takerAccount: addressOf(state, taker.ownerId),
    timestamp: iso(at),
    ...(txHash ? { txHash } : {}),
    ...(type === 'MATCHED' ? { isEstimate: true } : {}),
  };
  const contracts = BigInt(totals['contractsGross'] ?? '0');
  const usd = BigInt(totals['usdGross'] ?? '0');
  const out: StreamMessage[] = [
    {
      channel: 'orders',
      profileId: taker.ownerId,
      payload: {
        ...base,
        eventId: `${tradeEventId}:${type}:${taker.id}`,
        orderId: taker.id,
        ...(taker.clientOrderId !== null ? { clientOrderId: taker.clientOrderId } : {}),
        side: taker.side,
        token: taker.outcome,
        tokenId: taker.tokenId,
        price: contracts > 0n ? formatRaw((usd * ONE) / contracts) : taker.price !== null ? formatRaw(taker.price) : '0',
        amountContracts: contracts.toString(),
        amountCollateral: usd.toString(),
        feeAmountCollateral: totals['usdFee'] ?? '0',
        feeAmountContracts: '0',
        configuredFeeRateBps: taker.execution['feeRateBps'],
        effectiveFeeBps: taker.execution['effectiveFeeBps'],
        makerMatches: taker.makerMatches.map((mm) => ({
          account: addressOf(state, mm.ownerId),
          matchedSize: mm.matchedSize,
          orderId: mm.orderId,
          price: mm.price,
        })),
      },
    },
  ];
  for (const mm of taker.makerMatches) {
    const m = orderById(state, mm.orderId);
    out.push({
      channel: 'orders',
      profileId: mm.ownerId,
      payload: {
        ...base,
        eventId: `${tradeEventId}:${type}:${mm.orderId}`,
        orderId: mm.orderId,
        ...(m && m.clientOrderId !== null ? { clientOrderId: m.clientOrderId } : {}),
        ...(m ? { side: m.side, token: m.outcome, tokenId: m.tokenId } : {}),
        price: mm.price,
        amountContracts: mm.matchedSize,
        amountCollateral: ((BigInt(mm.matchedSize) * (m?.price ?? 0n)) / ONE).toString(),
        feeAmountCollateral: '0',
        feeAmountContracts: '0',
      },
    });
  }
  return out;
}

/** A profile's positions in one market, as the positions channel sends them. */
function positions(state: SandboxState, profileId: number, market: MarketRecord, at: number): StreamMessage {
  const acct = state.accounts[String(profileId)];
  const ids = market.positionIds ?? ['', ''];
  return {
    channel: 'positions',
    profileId,
    market: { slug: market.slug, address: market.address },
    payload: {
      account: addressOf(state, profileId),
      userId: profileId,
      marketSlug: market.slug,
      marketAddress: market.address,
      type: market.tradeType === 'amm' ? 'AMM' : 'CLOB',
      positions: ids.map((tokenId, i) => {
        const p = acct?.positions[tokenId];
        return {
          tokenId,
          outcome: i === 0 ? 'YES' : 'NO',
          outcomeIndex: i,
          balance: (p?.shares ?? 0n).toString(),
          locked: (p?.locked ?? 0n).toString(),
        };
      }),
      timestamp: iso(at),
    },
  };
}

/** tx events of a confirmed trade: one per order in it (the taker's and each maker's). */
function txConfirmed(state: SandboxState, taker: OrderRecord, market: MarketRecord, at: number, txHash: string): StreamMessage[] {
  const totals = (taker.execution['totalsRaw'] ?? {}) as Record<string, string>;
  const contracts = BigInt(totals['contractsGross'] ?? '0');
  const usd = BigInt(totals['usdGross'] ?? '0');
  const legs: { o: OrderRecord; contracts: string; usd: string; price: string }[] = [
    { o: taker, contracts: contracts.toString(), usd: usd.toString(), price: contracts > 0n ? formatRaw((usd * ONE) / contracts) : '0' },
  ];
  for (const mm of taker.makerMatches) {
    const m = orderById(state, mm.orderId);
    if (m)
      legs.push({ o: m, contracts: mm.matchedSize, usd: ((BigInt(mm.matchedSize) * (m.price ?? 0n)) / ONE).toString(), price: mm.price });
  }
  return legs.map((leg) => ({
    channel: 'tx',
    profileId: leg.o.ownerId,
    eventId: `${txHash}:${leg.o.id}`,
    payload: {
      userId: leg.o.ownerId,
      txHash,
      status: 'CONFIRMED',
      source: 'CLOB',
      timestamp: iso(at),
      marketAddress: market.address,
      marketSlug: market.slug,
      tokenId: leg.o.tokenId,
      conditionId: market.conditionId,
      amountContracts: leg.contracts,
      amountCollateral: leg.usd,
      price: leg.price,
      side: leg.o.side,
      orderId: leg.o.id,
    },
  }));
}

/** The projection of one sandbox's log (see the module comment). */
export class Projection {
  /** LIVE orders' remaining size as of the last projected entry. */
  private remaining = new Map<string, bigint>();

  /** Starts from a state (at attach, and when the state is replaced). */
  rebuild(state: SandboxState): void {
    this.remaining = new Map();
    for (const o of state.orders) if (o.status === 'LIVE') this.remaining.set(o.id, o.remainingSize);
  }

  /** The messages of one committed entry, read from `state` as it stands after it. */
  project(e: LogEntry, state: SandboxState): StreamMessage[] {
    switch (e.type) {
      case 'seed':
      case 'reset':
        this.rebuild(state);
        return [{ channel: 'reset' }];
      case 'order.placed':
        return this.placed(e, state);
      case 'order.cancelled':
        return this.cancelled(e, state);
      case 'settlement': {
        const taker = orderById(state, e.takerOrderId);
        const market = taker ? marketOf(state, taker.marketSlug) : undefined;
        if (!taker || !market) return [];
        return e.to === 'MINED'
          ? settlement(state, 'MINED', taker, market, e.at, e.txHash)
          : txConfirmed(state, taker, market, e.at, e.txHash);
      }
      case 'market.created':
        return [{ channel: 'lifecycle', names: ['market.created', 'marketCreated'], payload: marketCreated(e.market) }];
      case 'market.resolved':
        return this.resolved(e, state);
      default:
        return [];
    }
  }

  /** The size an order has left before this entry (and forget it: it is leaving the book). */
  private take(id: string, fallback: bigint): bigint {
    const left = this.remaining.get(id) ?? fallback;
    this.remaining.delete(id);
    return left;
  }

  private placed(e: Extract<LogEntry, { type: 'order.placed' }>, state: SandboxState): StreamMessage[] {
    const o = e.order;
    const market = marketOf(state, o.marketSlug);
    if (!market) return [];
    const out: StreamMessage[] = [];
    for (const id of e.stpCanceled) {
      const x = orderById(state, id);
      const left = this.take(id, x?.remainingSize ?? 0n);
      if (x) out.push(ome('CANCELLATION', x, market, left, e, { reason: 'STP_MAKER_CANCELLED' }));
    }
    const touched = new Set<number>();
    for (const f of e.fills) {
      const m = orderById(state, f.makerOrderId);
      if (!m) continue;
      const left = (this.remaining.get(m.id) ?? m.remainingSize) - f.size;
      if (left > 0n) this.remaining.set(m.id, left);
      else this.remaining.delete(m.id);
      touched.add(m.ownerId);
      out.push(left === 0n ? ome('EXECUTION', m, market, 0n, e, { status: 'FILLED' }) : ome('UPDATE', m, market, left, e));
    }
    const matched = e.totals.contracts > 0n;
    if (o.status === 'LIVE') {
      this.remaining.set(o.id, o.remainingSize);
      out.push(ome('PLACEMENT', o, market, o.remainingSize, e));
    } else {
      const status = !matched ? 'KILLED' : o.remainingSize === 0n ? 'FILLED' : 'PARTIALLY_FILLED';
      const avg = matched ? priceNumber((e.totals.usdGross * ONE) / e.totals.contracts) : o.price === null ? 0 : priceNumber(o.price);
      // A taker stopped by self-trade prevention says so.
      const stp = o.execution?.['reason'] === STP_TAKER_REJECTED ? { reason: STP_TAKER_REJECTED } : {};
      out.push(ome('EXECUTION', o, market, o.remainingSize, e, { status, price: avg, ...stp }));
    }
    if (matched) {
      out.push(...settlement(state, 'MATCHED', orderById(state, o.id) ?? o, market, e.at, null));
      touched.add(o.ownerId);
    }
    for (const pid of touched) out.push(positions(state, pid, market, e.at));
    if (o.status === 'LIVE' || matched || e.stpCanceled.length > 0) out.push({ channel: 'book', slug: market.slug });
    return out;
  }

  private cancelled(e: Extract<LogEntry, { type: 'order.cancelled' }>, state: SandboxState): StreamMessage[] {
    const o = orderById(state, e.orderId);
    if (!o) return [];
    const left = this.take(o.id, o.remainingSize);
    const market = marketOf(state, o.marketSlug);
    if (!market) return [];
    return [ome('CANCELLATION', o, market, left, e), { channel: 'book', slug: market.slug }];
  }

  private resolved(e: Extract<LogEntry, { type: 'market.resolved' }>, state: SandboxState): StreamMessage[] {
    const m = marketOf(state, e.slug);
    const out: StreamMessage[] = [];
    for (const id of e.canceled) {
      const x = orderById(state, id);
      const left = this.take(id, x?.remainingSize ?? 0n);
      if (x && m) out.push(ome('CANCELLATION', x, m, left, e, { reason: 'MARKET_RESOLVED' }));
    }
    out.push({
      channel: 'lifecycle',
      names: ['market.resolved', 'marketResolved'],
      payload: {
        slug: e.slug,
        type: m?.tradeType === 'amm' ? 'AMM' : 'CLOB',
        winningOutcome: e.winningOutcomeIndex === 0 ? 'YES' : 'NO',
        winningIndex: e.winningOutcomeIndex,
        resolutionDate: iso(e.at),
      },
    });
    if (e.canceled.length > 0) out.push({ channel: 'book', slug: e.slug });
    return out;
  }
}

/** The lifecycle payload of a new market. */
function marketCreated(m: MarketRecord): Record<string, unknown> {
  return {
    slug: m.slug,
    title: m.title,
    type: m.tradeType === 'amm' ? 'AMM' : 'CLOB',
    ...(m.groupSlug ? { groupSlug: m.groupSlug } : {}),
    categoryIds: (m.extra['categoryIds'] as number[] | undefined) ?? [],
    createdAt: m.createdAt,
  };
}
