// The matching engine, with every expected number worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import { auditState, type SubmitInput } from '../../src/sandbox/engine.js';
import type { StpPolicy } from '../../src/sandbox/match.js';
import { Projection } from '../../src/sandbox/projection.js';
import { cancel as cancelOrder, submit as submitOrder, type Submitted } from '../helpers/engine.js';
import { book } from '../../src/sandbox/ledger.js';
import { IDS, tradingFixture } from '../helpers/fixture.js';
import type { OrderType, SandboxState, Side } from '../../src/sandbox/types.js';
import type { LogEntry } from '../../src/sandbox/events.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const M = 1_000_000n; // one USDC / one share in raw units

function tokens(state: SandboxState, slug = 'btc-100k'): { YES: string; NO: string } {
  const ids = state.markets.find((m) => m.slug === slug)?.positionIds;
  if (!ids) throw new Error('no market');
  return { YES: ids[0], NO: ids[1] };
}

interface PlaceOpts {
  owner: number;
  outcome: 'YES' | 'NO';
  side: Side;
  type?: OrderType;
  price?: bigint; // micro
  size?: bigint; // raw shares
  amount?: bigint; // FOK makerAmount
  postOnly?: boolean;
  fee?: number;
  slug?: string;
}

function input(state: SandboxState, o: PlaceOpts): SubmitInput {
  const slug = o.slug ?? 'btc-100k';
  const type = o.type ?? 'GTC';
  const price = type === 'FOK' ? null : (o.price ?? 500_000n);
  const size = o.size ?? 10n * M;
  const collateral = price === null ? 0n : (size * price) / M;
  return {
    ownerId: o.owner,
    marketSlug: slug,
    tokenId: tokens(state, slug)[o.outcome],
    side: o.side,
    orderType: type,
    price,
    size,
    makerAmount: type === 'FOK' ? (o.amount ?? 0n) : o.side === 'BUY' ? collateral : size,
    takerAmount: type === 'FOK' ? 1n : o.side === 'BUY' ? size : collateral,
    postOnly: o.postOnly ?? false,
    clientOrderId: null,
    feeRateBps: o.fee ?? (o.owner === IDS.alice ? 300 : 0),
    signedOrder: {},
  };
}

function place(state: SandboxState, o: PlaceOpts) {
  const r = submitOrder(state, input(state, o), NOW);
  if (!r.ok) throw new Error(`refused: ${r.reason} ${r.message}`);
  return r;
}

/** The orderEvents the streams send for an order's event (its projection), as {profileId, payload}. */
function orderEvents(s: SandboxState, r: Submitted): { profileId: number; payload: Record<string, unknown> }[] {
  return new Projection()
    .project({ ...r.event, seq: 1 } as LogEntry, s)
    .flatMap((m) => (m.channel === 'orders' ? [{ profileId: m.profileId, payload: m.payload }] : []));
}

/** Gives a profile shares at a cost basis, as a ledger grant (balances are the ledger's projection). */
function grant(state: SandboxState, id: number, tokenId: string, shares: bigint, cost: bigint): void {
  const held = acct(state, id).positions[tokenId];
  book(state, id, {
    kind: 'grant',
    at: '2026-01-01T00:00:00.000Z',
    usdc: 0n,
    tokenId,
    shares: shares - (held?.shares ?? 0n),
    cost: cost - (held?.cost ?? 0n),
  });
}

function acct(state: SandboxState, id: number) {
  const a = state.accounts[String(id)];
  if (!a) throw new Error('no account');
  return a;
}

describe('submitOrder: GTC resting and crossing', () => {
  it('rests a non-crossing GTC BUY and locks ceil(size·price)', () => {
    const s = tradingFixture();
    const r = place(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', price: 400_000n, size: 10n * M });
    expect(r.order.status).toBe('LIVE');
    expect(r.order.settlementStatus).toBe('UNMATCHED');
    expect(r.order.remainingSize).toBe(10n * M);
    expect(r.fills).toHaveLength(0);
    expect(acct(s, IDS.bob).lockedUsdc).toBe(4n * M); // 10 × 0.40
    expect(acct(s, IDS.bob).usdc).toBe(1000n * M);
    expect(r.order.execution['matched']).toBe(false);
    expect(auditState(s)).toEqual([]);
  });

  it('fills a crossing BUY across two levels at the makers’ prices, best price then oldest first', () => {
    const s = tradingFixture();
    const { YES } = tokens(s);
    const a = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 520_000n, size: 5n * M });
    const b = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    const c = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 520_000n, size: 5n * M }); // same price, later
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 550_000n, size: 5n * M });
    expect(acct(s, IDS.bob).positions[YES]?.locked).toBe(20n * M);

    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 530_000n, size: 8n * M });
    // 5 @ 0.50 = 2.50 and 3 @ 0.52 (the older 0.52 order) = 1.56 → 4.06 USDC; fee 3% = 0.1218
    expect(r.fills.map((f) => [f.makerOrderId, f.size, f.makerPrice])).toEqual([
      [b.order.id, 5n * M, 500_000n],
      [a.order.id, 3n * M, 520_000n],
    ]);
    expect(r.totals).toEqual({
      contractsGross: 8n * M,
      contractsFee: 0n,
      contractsNet: 8n * M,
      usdGross: 4_060_000n,
      usdFee: 121_800n,
      usdNet: 4_181_800n,
    });
    expect(r.order.status).toBe('MATCHED');
    expect(r.order.settlementStatus).toBe('MATCHED');
    expect(r.order.execution['totalsRaw']).toEqual({
      contractsGross: '8000000',
      contractsFee: '0',
      contractsNet: '8000000',
      usdGross: '4060000',
      usdFee: '121800',
      usdNet: '4181800',
    });
    const alice = acct(s, IDS.alice);
    expect(alice.usdc).toBe(1000n * M - 4_181_800n);
    expect(alice.lockedUsdc).toBe(0n);
    expect(alice.positions[YES]).toEqual({ shares: 8n * M, locked: 0n, cost: 4_181_800n, realisedPnl: 0n });

    const bob = acct(s, IDS.bob);
    expect(bob.usdc).toBe(1000n * M + 4_060_000n); // makers pay no fee
    // cost basis 0.50/share: selling 5 @0.50 realises 0; then 3 of the remaining 495 (cost 247.5) → cost out 1.5, proceeds 1.56
    expect(bob.positions[YES]).toEqual({ shares: 492n * M, locked: 12n * M, cost: 246_000_000n, realisedPnl: 60_000n });
    expect(b.order.status).toBe('MATCHED');
    expect(b.order.remainingSize).toBe(0n);
    expect(a.order.status).toBe('LIVE');
    expect(a.order.remainingSize).toBe(2n * M);
    expect(c.order.remainingSize).toBe(5n * M);
    expect(r.order.makerMatches.map((m) => m.matchedSize)).toEqual(['5000000', '3000000']);

    const market = s.markets[0];
    expect(market?.lastTradePrice).toBe(520_000n);
    expect(market?.volume).toBe(4_060_000n);
    expect(market?.priceHistory.at(-1)?.price).toBe(520_000n);
    expect(s.feesCollected).toBe('121800');
    expect(s.feed.at(-1)).toMatchObject({
      eventType: 'NEW_TRADE',
      marketSlug: 'btc-100k',
      data: { outcome: 'YES', strategy: 'Buy', contracts: '8' },
    });
    expect(auditState(s)).toEqual([]);
    const settlement = orderEvents(s, r).filter((e) => e.payload['source'] === 'SETTLEMENT');
    expect(settlement.map((e) => e.profileId)).toEqual([IDS.alice, IDS.bob, IDS.bob]);
  });

  it('rests the remainder of a partly filled GTC and locks only that', () => {
    const s = tradingFixture();
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 4n * M });
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 550_000n, size: 10n * M });
    // 4 @ 0.50 = 2.00 + 3% = 2.06; the other 6 rest at 0.55 → lock 3.30
    expect(r.order.status).toBe('LIVE');
    expect(r.order.remainingSize).toBe(6n * M);
    expect(acct(s, IDS.alice).usdc).toBe(1000n * M - 2_060_000n);
    expect(acct(s, IDS.alice).lockedUsdc).toBe(3_300_000n);
    expect(auditState(s)).toEqual([]);
  });
});

describe('submitOrder: mint and merge across the YES and NO books', () => {
  it('mints: a BUY YES at 0.56 matches a resting BUY NO at 0.45 (≥ 1−0.56); both pay, 1 USDC per pair', () => {
    const s = tradingFixture();
    const { YES, NO } = tokens(s);
    const bobNoBefore = acct(s, IDS.bob).positions[NO]?.shares ?? 0n;
    const maker = place(s, { owner: IDS.bob, outcome: 'NO', side: 'BUY', price: 450_000n, size: 10n * M });
    expect(acct(s, IDS.bob).lockedUsdc).toBe(4_500_000n);
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 560_000n, size: 10n * M });
    expect(r.fills[0]?.kind).toBe('mint');
    expect(r.fills[0]?.takerPrice).toBe(550_000n); // the complement of the maker's 0.45
    // alice: 10 × 0.55 = 5.50 + 3% 0.165; bob: 10 × 0.45 = 4.50 out of his lock
    expect(r.totals.usdGross).toBe(5_500_000n);
    expect(r.totals.usdFee).toBe(165_000n);
    expect(acct(s, IDS.alice).usdc).toBe(1000n * M - 5_665_000n);
    expect(acct(s, IDS.alice).positions[YES]?.shares).toBe(10n * M);
    expect(acct(s, IDS.bob).usdc).toBe(1000n * M - 4_500_000n);
    expect(acct(s, IDS.bob).lockedUsdc).toBe(0n);
    expect(acct(s, IDS.bob).positions[NO]?.shares).toBe(bobNoBefore + 10n * M);
    expect(maker.order.status).toBe('MATCHED');
    expect(s.markets[0]?.lastTradePrice).toBe(550_000n);
    expect(auditState(s)).toEqual([]);
  });

  it('merges: a SELL YES at 0.50 matches a resting SELL NO at 0.45 (≤ 1−0.50); both receive, pairs burnt', () => {
    const s = tradingFixture();
    const { YES, NO } = tokens(s);
    grant(s, IDS.alice, YES, 10n * M, 4n * M);
    place(s, { owner: IDS.bob, outcome: 'NO', side: 'SELL', price: 450_000n, size: 10n * M });
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'SELL', price: 500_000n, size: 10n * M });
    expect(r.fills[0]?.kind).toBe('merge');
    // alice receives 10 × 0.55 = 5.50 − 3% 0.165 = 5.335; cost 4 → realised 1.335
    expect(r.totals.usdNet).toBe(5_335_000n);
    expect(acct(s, IDS.alice).usdc).toBe(1000n * M + 5_335_000n);
    expect(acct(s, IDS.alice).positions[YES]).toEqual({ shares: 0n, locked: 0n, cost: 0n, realisedPnl: 1_335_000n });
    expect(acct(s, IDS.bob).usdc).toBe(1000n * M + 4_500_000n);
    expect(acct(s, IDS.bob).positions[NO]?.shares).toBe(490n * M);
    expect(s.markets[0]?.lastTradePrice).toBe(550_000n); // alice's YES went at 0.55
    expect(auditState(s)).toEqual([]);
  });
});

describe('submitOrder: FAK, FOK, postOnly, balances', () => {
  it('FAK fills what it can and kills the rest', () => {
    const s = tradingFixture();
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 600_000n, size: 4n * M });
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', type: 'FAK', price: 600_000n, size: 10n * M });
    // 4 @ 0.60 = 2.40 + 3% 0.072
    expect(r.totals.contractsGross).toBe(4n * M);
    expect(r.totals.usdNet).toBe(2_472_000n);
    expect(r.order.status).toBe('MATCHED');
    expect(r.order.remainingSize).toBe(6n * M); // the killed part, not resting
    expect(acct(s, IDS.alice).lockedUsdc).toBe(0n);
    expect(s.orders.filter((o) => o.status === 'LIVE')).toHaveLength(0);
    const exec = orderEvents(s, r).find((e) => e.payload['orderId'] === r.order.id && e.payload['type'] === 'EXECUTION');
    expect(exec?.payload['status']).toBe('PARTIALLY_FILLED');
  });

  it('FOK BUY spends its USDC amount across levels', () => {
    const s = tradingFixture();
    const { YES } = tokens(s);
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 400_000n, size: 10n * M });
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 10n * M });
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', type: 'FOK', amount: 6n * M });
    // 10 @ 0.40 = 4.00, then the remaining 2.00 buys 4 @ 0.50 → 14 shares for 6.00, fee 0.18
    expect(r.totals).toMatchObject({ contractsGross: 14n * M, usdGross: 6n * M, usdFee: 180_000n, usdNet: 6_180_000n });
    expect(r.order.status).toBe('MATCHED');
    expect(r.order.originalSize).toBe(14n * M);
    expect(r.order.price).toBeNull();
    expect(acct(s, IDS.alice).positions[YES]?.shares).toBe(14n * M);
    expect(acct(s, IDS.alice).usdc).toBe(1000n * M - 6_180_000n);
  });

  it('FOK BUY that the book cannot fill is killed with no balance or book change', () => {
    const s = tradingFixture();
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 400_000n, size: 10n * M });
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 10n * M });
    const before = structuredClone({ accounts: s.accounts, orders: s.orders, markets: s.markets, feed: s.feed });
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', type: 'FOK', amount: 20n * M }); // book holds 9.00
    expect(r.order.status).toBe('UNMATCHED');
    expect(r.order.execution['matched']).toBe(false);
    expect(r.totals.contractsGross).toBe(0n);
    expect(s.accounts).toEqual(before.accounts);
    expect(s.orders.slice(0, -1)).toEqual(before.orders); // only the killed order record was added
    expect(s.markets).toEqual(before.markets);
    expect(s.feed).toEqual(before.feed);
  });

  it('FOK SELL sells exactly its shares or nothing', () => {
    const s = tradingFixture();
    const { YES } = tokens(s);
    grant(s, IDS.alice, YES, 10n * M, 2n * M);
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', price: 300_000n, size: 6n * M });
    const killed = place(s, { owner: IDS.alice, outcome: 'YES', side: 'SELL', type: 'FOK', amount: 8n * M });
    expect(killed.order.status).toBe('UNMATCHED');
    expect(acct(s, IDS.alice).positions[YES]?.shares).toBe(10n * M);
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'SELL', type: 'FOK', amount: 5n * M });
    // 5 @ 0.30 = 1.50 − 3% 0.045 = 1.455
    expect(r.totals.usdNet).toBe(1_455_000n);
    expect(acct(s, IDS.alice).usdc).toBe(1000n * M + 1_455_000n);
    expect(acct(s, IDS.alice).positions[YES]?.shares).toBe(5n * M);
  });

  it('refuses a post-only order that would match, and rests one that would not', () => {
    const s = tradingFixture();
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    const before = structuredClone(s);
    const r = submitOrder(s, input(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 500_000n, postOnly: true }), NOW);
    expect(r).toEqual({ ok: false, reason: 'POST_ONLY_WOULD_EXECUTE', message: 'Post-only order would execute immediately' });
    expect(s).toEqual(before);
    const ok = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 490_000n, postOnly: true });
    expect(ok.order.status).toBe('LIVE');
  });

  it('refuses orders the account cannot pay for or deliver', () => {
    const s = tradingFixture();
    book(s, IDS.alice, { kind: 'withdrawal', at: '2026-01-01T00:00:00.000Z', usdc: acct(s, IDS.alice).usdc - 1n * M });
    const buy = submitOrder(s, input(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 500_000n, size: 10n * M }), NOW);
    expect(buy).toEqual({ ok: false, reason: 'INSUFFICIENT_BALANCE', message: 'Insufficient collateral balance' });
    const sell = submitOrder(s, input(s, { owner: IDS.alice, outcome: 'NO', side: 'SELL', price: 500_000n, size: 1n * M }), NOW);
    expect(sell).toEqual({ ok: false, reason: 'INSUFFICIENT_BALANCE', message: 'Insufficient conditional token balance' });
    // Locked shares are not free: bob rests 500 YES, then cannot sell one more.
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 900_000n, size: 500n * M });
    const more = submitOrder(s, input(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 900_000n, size: 1n * M }), NOW);
    expect(more.ok).toBe(false);
    expect(s.orders).toHaveLength(1);
  });

  it('cancels the taker’s own crossing order instead of trading with itself', () => {
    const s = tradingFixture();
    const own = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    const r = place(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', price: 500_000n, size: 5n * M });
    expect(r.fills).toHaveLength(0);
    expect(own.order.status).toBe('CANCELED');
    expect(r.order.execution['stpMakerCancels']).toEqual([own.order.id]);
    expect(r.order.status).toBe('LIVE');
    expect(auditState(s)).toEqual([]);
  });

  const takerEvent = (s: SandboxState, r: Submitted) => orderEvents(s, r).find((e) => e.payload['orderId'] === r.order.id)?.payload;

  // bob rests SELL YES 5 @ 0.50; alice's BUY NO 5 @ 0.60 is a YES ask at 0.40 for a YES buyer
  // (mint). bob's BUY YES 10 @ 0.50 meets alice's first, then his own.
  function selfCross(policy: StpPolicy) {
    const s = tradingFixture();
    const own = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    place(s, { owner: IDS.alice, outcome: 'NO', side: 'BUY', price: 600_000n, size: 5n * M });
    const r = submitOrder(
      s,
      { ...input(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', price: 500_000n, size: 10n * M }), stpPolicy: policy },
      NOW,
    );
    if (!r.ok) throw new Error(r.message);
    return { s, own, r };
  }

  it('stpPolicy cancel_taker: what matched first stands, the taker stops at its own order, which stays', () => {
    const { s, own, r } = selfCross('cancel_taker');
    expect(r.fills.map((f) => f.size)).toEqual([5n * M]);
    expect(own.order.status).toBe('LIVE');
    expect(r.order.execution['stpMakerCancels']).toBeUndefined();
    expect(r.order.execution).toMatchObject({ matched: true, settlementStatus: 'MATCHED', reason: 'STP_TAKER_REJECTED' });
    // Nothing rests: the 5 unmatched shares are not on the book and lock no USDC.
    expect(r.order.status).toBe('MATCHED');
    expect(r.order.remainingSize).toBe(5n * M);
    expect(s.orders.filter((o) => o.status === 'LIVE').map((o) => o.id)).toEqual([own.order.id]);
    expect(takerEvent(s, r)).toMatchObject({ type: 'EXECUTION', status: 'PARTIALLY_FILLED', reason: 'STP_TAKER_REJECTED' });
    expect(auditState(s)).toEqual([]);
  });

  it('stpPolicy cancel_both: the own order is cancelled and the taker stops', () => {
    const { s, own, r } = selfCross('cancel_both');
    expect(r.fills).toHaveLength(1);
    expect(own.order.status).toBe('CANCELED');
    expect(r.order.execution).toMatchObject({ stpMakerCancels: [own.order.id], reason: 'STP_TAKER_REJECTED' });
    expect(s.orders.filter((o) => o.status === 'LIVE')).toEqual([]);
    expect(auditState(s)).toEqual([]);
  });

  it('stpPolicy cancel_taker with nothing matched first: the taker is CANCELED; post-only is refused', () => {
    const s = tradingFixture();
    const own = place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    for (const type of ['GTC', 'FAK', 'FOK'] as const) {
      const r = submitOrder(
        s,
        {
          ...input(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', type, price: 500_000n, size: 5n * M, amount: 2n * M }),
          stpPolicy: 'cancel_taker',
        },
        NOW,
      );
      if (!r.ok) throw new Error(r.message);
      expect(r.order.status, type).toBe('CANCELED');
      expect(r.order.execution, type).toMatchObject({ matched: false, settlementStatus: 'CANCELED', reason: 'STP_TAKER_REJECTED' });
      expect(takerEvent(s, r), type).toMatchObject({ type: 'EXECUTION', status: 'KILLED', reason: 'STP_TAKER_REJECTED' });
    }
    expect(own.order.status).toBe('LIVE');
    const post = submitOrder(
      s,
      {
        ...input(s, { owner: IDS.bob, outcome: 'YES', side: 'BUY', price: 500_000n, size: 5n * M, postOnly: true }),
        stpPolicy: 'cancel_taker',
      },
      NOW,
    );
    expect(post).toEqual({ ok: false, reason: 'POST_ONLY_WOULD_EXECUTE', message: 'Post-only order would execute immediately' });
    expect(auditState(s)).toEqual([]);
  });
});

describe('live-order index', () => {
  it('follows a replaced orders array (state reload) instead of matching stale records', () => {
    const s = tradingFixture();
    place(s, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    s.orders = structuredClone(s.orders);
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 500_000n, size: 5n * M });
    expect(r.fills[0]?.makerOrderId).toBe(s.orders[0]?.id);
    expect(s.orders[0]?.status).toBe('MATCHED');
    // Emptied and refilled in place: the old record must not be matched again.
    const fresh = tradingFixture();
    place(fresh, { owner: IDS.bob, outcome: 'YES', side: 'SELL', price: 500_000n, size: 5n * M });
    const copy = structuredClone(fresh.orders);
    fresh.orders.length = 0;
    fresh.orders.push(...copy);
    const r2 = place(fresh, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 500_000n, size: 5n * M });
    expect(r2.fills[0]?.makerOrderId).toBe(fresh.orders[0]?.id);
    expect(fresh.orders[0]?.status).toBe('MATCHED');
  });
});

describe('cancelOrder', () => {
  it('unlocks and marks CANCELED; refuses twice and for someone else', () => {
    const s = tradingFixture();
    const r = place(s, { owner: IDS.alice, outcome: 'YES', side: 'BUY', price: 420_000n, size: 10n * M });
    expect(acct(s, IDS.alice).lockedUsdc).toBe(4_200_000n);
    expect(cancelOrder(s, r.order.id, IDS.bob, NOW)).toMatchObject({ ok: false, reason: 'ORDER_NOT_FOUND' });
    const c = cancelOrder(s, r.order.id, IDS.alice, NOW);
    expect(c.ok).toBe(true);
    expect(acct(s, IDS.alice).lockedUsdc).toBe(0n);
    expect(r.order.status).toBe('CANCELED');
    expect(cancelOrder(s, r.order.id, IDS.alice, NOW)).toMatchObject({ ok: false, reason: 'ORDER_NOT_LIVE' });
  });
});

/** mulberry32: a tiny seeded PRNG so the property test is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('conservation under a random order flow', () => {
  it.each([1, 2, 3])('seed %i: USDC + fees + pairs are conserved, YES − NO is constant, locks stay exact', (seed) => {
    const rnd = prng(seed);
    const s = tradingFixture();
    const { YES, NO } = tokens(s);
    const owners = [IDS.alice, IDS.bob, IDS.sub];
    const totals = () => {
      let usdc = 0n;
      let yes = 0n;
      let no = 0n;
      for (const a of Object.values(s.accounts)) {
        usdc += a.usdc;
        yes += a.positions[YES]?.shares ?? 0n;
        no += a.positions[NO]?.shares ?? 0n;
      }
      return { usdc, yes, no, fees: BigInt(s.feesCollected ?? '0') };
    };
    const t0 = totals();
    let accepted = 0;
    let matched = 0;
    for (let i = 0; i < 400; i += 1) {
      const owner = owners[Math.floor(rnd() * owners.length)] ?? IDS.alice;
      if (rnd() < 0.1) {
        const live = s.orders.filter((o) => o.status === 'LIVE' && o.ownerId === owner);
        const victim = live[Math.floor(rnd() * live.length)];
        if (victim) expect(cancelOrder(s, victim.id, owner, NOW).ok).toBe(true);
        continue;
      }
      const typeRoll = rnd();
      const type: OrderType = typeRoll < 0.6 ? 'GTC' : typeRoll < 0.8 ? 'FAK' : 'FOK';
      const side: Side = rnd() < 0.5 ? 'BUY' : 'SELL';
      const price = BigInt(300 + Math.floor(rnd() * 400)) * 1000n; // 0.300 … 0.699
      const size = BigInt(1 + Math.floor(rnd() * 20_000)) * 1000n; // 0.001 … 20 shares
      const amount = side === 'BUY' ? BigInt(1 + Math.floor(rnd() * 5_000_000)) : size;
      const r = submitOrder(
        s,
        input(s, { owner, outcome: rnd() < 0.5 ? 'YES' : 'NO', side, type, price, size, amount, fee: Math.floor(rnd() * 500) }),
        NOW + i,
      );
      if (r.ok) {
        accepted += 1;
        if (r.fills.length > 0) matched += 1;
      } else {
        expect(['Insufficient collateral balance', 'Insufficient conditional token balance']).toContain(r.message);
      }
      const t = totals();
      // Minting creates one YES and one NO per USDC paid in; merging does the reverse.
      expect(t.usdc + t.fees + t.yes).toBe(t0.usdc + t0.fees + t0.yes);
      expect(t.yes - t.no).toBe(t0.yes - t0.no);
      expect(auditState(s)).toEqual([]);
    }
    expect(accepted).toBeGreaterThan(100);
    expect(matched).toBeGreaterThan(20);
  });
});
