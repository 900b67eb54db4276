// The price-level book index (src/sandbox/bookindex.ts): after any flow of placements, fills,
// cancels and resolutions it equals the book computed from scratch from the orders, the YES book
// read from it equals the old full scan, and replaying the event log rebuilds the same index
// (whether it is built cold at the end or maintained while the replay runs).
import { describe, expect, it } from 'vitest';
import { describeIndex } from '../../src/sandbox/bookindex.js';
import { midpoint, yesBook, yesMidpoint } from '../../src/sandbox/book.js';
import { auditState } from '../../src/sandbox/engine.js';
import { cancel, submit } from '../helpers/engine.js';
import { book } from '../../src/sandbox/ledger.js';
import { IDS, tradingFixture } from '../helpers/fixture.js';
import { apply } from '../../src/sandbox/reducer.js';
import type { OrderRecord, SandboxState } from '../../src/sandbox/types.js';
import type { StateEvent } from '../../src/sandbox/events.js';

const ONE = 1_000_000n;

/** The index as it must be: LIVE resting orders grouped by book and price, oldest first. */
function fromScratch(state: SandboxState): ReturnType<typeof describeIndex> {
  const books = new Map<string, Map<bigint, OrderRecord[]>>();
  for (const o of state.orders) {
    if (o.status !== 'LIVE' || o.price === null || o.remainingSize <= 0n) continue;
    const k = `${o.marketSlug}|${o.tokenId}|${o.side}`;
    const b = books.get(k) ?? new Map<bigint, OrderRecord[]>();
    books.set(k, b);
    b.set(o.price, [...(b.get(o.price) ?? []), o]);
  }
  const out: ReturnType<typeof describeIndex> = {};
  for (const k of [...books.keys()].sort()) {
    const b = books.get(k) ?? new Map<bigint, OrderRecord[]>();
    out[k] = [...b.entries()]
      .sort(([a], [c]) => (a < c ? -1 : 1))
      .map(([p, os]) => ({
        price: p.toString(),
        size: os.reduce((s, o) => s + o.remainingSize, 0n).toString(),
        orders: [...os].sort((x, y) => x.seq - y.seq).map((o) => o.id),
      }));
  }
  return out;
}

/** The YES book by a full scan of every order (the implementation before the index). */
function scanBook(state: SandboxState, slug: string): { bids: [bigint, bigint][]; asks: [bigint, bigint][] } {
  const m = state.markets.find((x) => x.slug === slug);
  const yes = m?.positionIds?.[0];
  const bids = new Map<bigint, bigint>();
  const asks = new Map<bigint, bigint>();
  for (const o of state.orders) {
    if (o.marketSlug !== slug || o.status !== 'LIVE' || o.price === null || o.remainingSize <= 0n) continue;
    const isYes = o.tokenId === yes;
    const price = isYes ? o.price : ONE - o.price;
    const side = (o.side === 'BUY') === isYes ? bids : asks;
    side.set(price, (side.get(price) ?? 0n) + o.remainingSize);
  }
  const sorted = (x: Map<bigint, bigint>, desc: boolean): [bigint, bigint][] =>
    [...x.entries()].sort(([a], [b]) => (desc ? (b > a ? 1 : -1) : a > b ? 1 : -1));
  return { bids: sorted(bids, true), asks: sorted(asks, false) };
}

function randomFlow(seed: number, n: number): { initial: SandboxState; state: SandboxState; log: StateEvent[]; checks: number } {
  const state = tradingFixture();
  const m = state.markets[0];
  if (!m?.positionIds) throw new Error('fixture');
  // Everyone holds plenty of both tokens and USDC, so orders of all kinds are accepted.
  for (const id of [IDS.alice, IDS.bob, IDS.partner]) {
    const a = state.accounts[String(id)];
    if (!a) throw new Error('fixture');
    book(state, id, { kind: 'deposit', at: '2026-01-01T00:00:00.000Z', usdc: 10n ** 12n - a.usdc });
    for (const t of m.positionIds)
      book(state, id, {
        kind: 'grant',
        at: '2026-01-01T00:00:00.000Z',
        usdc: 0n,
        tokenId: t,
        shares: 10n ** 12n - (a.positions[t]?.shares ?? 0n),
        cost: 0n,
      });
  }
  const initial = structuredClone(state);
  const log: StateEvent[] = [];
  let s = seed;
  const rnd = (k: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * k);
  };
  let checks = 0;
  for (let i = 0; i < n; i++) {
    const live = state.orders.filter((o) => o.status === 'LIVE');
    if (live.length > 0 && rnd(5) === 0) {
      const o = live[rnd(live.length)] as OrderRecord;
      expect(cancel(state, o.id, o.ownerId, 1_700_000_000_000 + i, (ev) => log.push(ev)).ok).toBe(true);
    } else {
      const owner = [IDS.alice, IDS.bob, IDS.partner][rnd(3)] as number;
      const type = (['GTC', 'GTC', 'GTC', 'FAK', 'FOK'] as const)[rnd(5)] ?? 'GTC';
      const side = rnd(2) === 0 ? 'BUY' : 'SELL';
      const fokUsd = 1_000_000n * BigInt(1 + rnd(20));
      const res = submit(
        state,
        {
          ownerId: owner,
          marketSlug: m.slug,
          tokenId: m.positionIds[rnd(2)] as string,
          side,
          orderType: type,
          price: type === 'FOK' ? null : BigInt(440 + rnd(21)) * 1000n,
          size: 1_000_000n * BigInt(1 + rnd(8)),
          makerAmount: type === 'FOK' ? (side === 'BUY' ? fokUsd : 1_000_000n * BigInt(1 + rnd(8))) : 0n,
          takerAmount: type === 'FOK' ? 1n : 0n,
          postOnly: type === 'GTC' && rnd(6) === 0,
          clientOrderId: null,
          feeRateBps: owner === IDS.bob ? 0 : 300,
          signedOrder: {},
          id: `o-${seed}-${i}`,
        },
        1_700_000_000_000 + i,
        (ev) => log.push(ev),
      );
      if (!res.ok) expect(res.message).toMatch(/Post-only|Insufficient/);
    }
    if (i % 25 === 0) {
      checks += 1;
      expect(describeIndex(state)).toEqual(fromScratch(state));
      const b = yesBook(state, m.slug);
      const scan = scanBook(state, m.slug);
      expect(b?.bids.map((l) => [l.price, l.size])).toEqual(scan.bids);
      expect(b?.asks.map((l) => [l.price, l.size])).toEqual(scan.asks);
      expect(b ? midpoint(b) : null).toBe(yesMidpoint(state, m.slug));
    }
  }
  return { initial, state, log, checks };
}

describe('price-level book index', () => {
  it('equals the book computed from the orders after placements, fills, cancels (seeds 1–3)', () => {
    for (const seed of [1, 2, 3]) {
      const { state, checks } = randomFlow(seed, 600);
      expect(checks).toBeGreaterThan(20);
      expect(state.orders.some((o) => o.status === 'MATCHED')).toBe(true);
      expect(state.orders.some((o) => o.status === 'CANCELED')).toBe(true);
      expect(Object.keys(describeIndex(state)).length).toBeGreaterThan(0);
      expect(auditState(state)).toEqual([]);
    }
  });

  it('replaying the event log rebuilds the same index, cold or maintained during the replay', () => {
    const { initial, state, log } = randomFlow(7, 800);
    const live = describeIndex(state);
    expect(live).toEqual(fromScratch(state));
    // Cold: nothing reads the index until the replay is over, so it is built from the orders.
    let cold = structuredClone(initial);
    for (const ev of log) cold = apply(cold, ev);
    expect(describeIndex(cold)).toEqual(live);
    // Warm: the index is read every 10 events, so the reducer's hooks maintain it.
    let warm = structuredClone(initial);
    log.forEach((ev, i) => {
      warm = apply(warm, ev);
      if (i % 10 === 0) describeIndex(warm);
    });
    expect(describeIndex(warm)).toEqual(live);
    expect(warm.orders.map((o) => [o.id, o.status, o.remainingSize])).toEqual(state.orders.map((o) => [o.id, o.status, o.remainingSize]));
  });

  it('a resolution that cancels the resting orders empties their books', () => {
    const { state } = randomFlow(11, 200);
    const m = state.markets[0];
    const canceled = state.orders.filter((o) => o.marketSlug === m?.slug && o.status === 'LIVE').map((o) => o.id);
    expect(canceled.length).toBeGreaterThan(0);
    apply(state, {
      type: 'market.resolved',
      at: 1_700_000_200_000,
      slug: m?.slug ?? '',
      winningOutcomeIndex: 0,
      canceled,
      payoutPosted: true,
      txHash: '0x',
    });
    expect(describeIndex(state)).toEqual({});
    expect(yesBook(state, m?.slug ?? '')?.bids).toEqual([]);
  });
});
