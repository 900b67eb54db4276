// The report's PnL curve and drawdown (src/sandbox/report.ts), on the engine and the reducer with
// a clock of our own, so every point is worked out by hand: alice's position moves with trades
// she is no part of, and with the resolution.
import { describe, expect, it } from 'vitest';
import type { SubmitInput } from '../../src/sandbox/engine.js';
import { apply } from '../../src/sandbox/reducer.js';
import { profileReport } from '../../src/sandbox/report.js';
import type { Profile, SandboxState, Side } from '../../src/sandbox/types.js';
import { submit } from '../helpers/engine.js';
import { IDS, tradingFixture } from '../helpers/fixture.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z'); // the fixture's opening entries
const M = 1_000_000n;
const at = (s: number): number => T0 + s * 1000;

function place(state: SandboxState, owner: number, side: Side, price: bigint, size: bigint, when: number): string {
  const yes = state.markets.find((m) => m.slug === 'btc-100k')?.positionIds?.[0] ?? '';
  const collateral = (size * price) / M;
  const input: SubmitInput = {
    ownerId: owner,
    marketSlug: 'btc-100k',
    tokenId: yes,
    side,
    orderType: 'GTC',
    price,
    size,
    makerAmount: side === 'BUY' ? collateral : size,
    takerAmount: side === 'BUY' ? size : collateral,
    postOnly: false,
    clientOrderId: null,
    feeRateBps: owner === IDS.alice ? 300 : 0,
    signedOrder: {},
  };
  const r = submit(state, input, when);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.order.id;
}

function alice(state: SandboxState): Profile {
  const p = state.profiles.find((x) => x.id === IDS.alice);
  if (!p) throw new Error('no alice');
  return p;
}

describe('profileReport', () => {
  it('marks at each trade in the market (hers or not) and at the resolution; the drawdown is the fall from the peak', () => {
    const state = tradingFixture();
    place(state, IDS.bob, 'SELL', 400_000n, 10n * M, at(1));
    const later = place(state, IDS.bob, 'SELL', 550_000n, 10n * M, at(1));
    // t2: alice buys 10 YES @ 0.40: 4 USDC + 3% fee = 4.12 cost, marked at 0.40: −0.12.
    place(state, IDS.alice, 'BUY', 400_000n, 10n * M, at(2));
    // t3: the sub-account buys 5 @ 0.55 from bob: alice's 10 YES are worth 5.50 now: +1.38.
    place(state, IDS.sub, 'BUY', 550_000n, 5n * M, at(3));
    // t4: NO wins (bob's rest of the 0.55 ask is cancelled): her YES are worth 0: −4.12.
    apply(state, {
      type: 'market.resolved',
      at: at(4),
      slug: 'btc-100k',
      winningOutcomeIndex: 1,
      payoutPosted: true,
      txHash: '0x01',
      canceled: [later],
    });
    const r = profileReport(state, alice(state), at(9));
    expect(r.curve).toEqual([
      { t: T0, pnl: 0n },
      { t: at(2), pnl: -120_000n },
      { t: at(3), pnl: 1_380_000n },
      { t: at(4), pnl: -4_120_000n },
      { t: at(9), pnl: -4_120_000n },
    ]);
    expect(r.markets).toHaveLength(1);
    expect(r.markets[0]).toMatchObject({
      slug: 'btc-100k',
      resolved: true,
      yesPrice: 0n,
      placed: 1,
      filled: 1,
      cancelled: 0,
      fills: 1,
      volume: 4_000_000n,
      fees: 120_000n,
      realisedPnl: 0n,
      unrealisedPnl: -4_120_000n,
      pnl: -4_120_000n,
      maxDrawdown: 5_500_000n, // from +1.38 to −4.12
    });
    const [only] = r.markets;
    if (!only) throw new Error('no market line');
    const { slug: _s, title: _t, resolved: _r, yesPrice: _y, ...figures } = only;
    expect(r.total).toEqual(figures); // one market: the total is its line
  });

  it('an account that never traded has no markets, a flat curve and no drawdown', () => {
    const state = tradingFixture();
    const r = profileReport(state, alice(state), at(5));
    expect(r.markets).toEqual([]);
    expect(r.curve).toEqual([
      { t: T0, pnl: 0n },
      { t: at(5), pnl: 0n },
    ]);
    expect(r.total.maxDrawdown).toBe(0n);
  });
});
