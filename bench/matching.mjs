// Sandbox matching throughput, in-process: orders per second through the engine, for a flow
// of resting orders and for a crossing flow, side by side in one run (no HTTP, no signing).
import { performance } from 'node:perf_hooks';

export async function run() {
  const { submitOrder } = await import('../dist/sandbox/engine.js');
  const { tradingFixture, IDS } = await import('../dist/sandbox/orders/fixture.js');
  const n = Number(process.env.BENCH_ORDERS ?? 20000);
  function flow(crossing) {
    const state = tradingFixture();
    const m = state.markets.find((x) => x.tradeType === 'clob' && x.positionIds);
    // Deep pockets, so every order is accepted and the figure measures matching, not refusals.
    for (const id of [IDS.alice, IDS.bob]) {
      const a = state.accounts[String(id)];
      a.usdc = 10n ** 15n;
      a.positions[m.positionIds[0]] = { shares: 10n ** 15n, locked: a.positions[m.positionIds[0]]?.locked ?? 0n, cost: 0n, realisedPnl: 0n };
    }
    let ok = 0;
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const buy = crossing ? i % 2 === 0 : true;
      const owner = buy ? IDS.alice : IDS.bob;
      const tick = crossing ? 450 + Math.floor(rnd() * 100) : 100 + Math.floor(rnd() * 300);
      const price = BigInt(tick) * 1000n;
      const size = 1_000_000n * BigInt(1 + Math.floor(rnd() * 5));
      const res = submitOrder(state, {
        ownerId: owner, marketSlug: m.slug, tokenId: m.positionIds[0], side: buy ? 'BUY' : 'SELL', orderType: 'GTC',
        price, size, makerAmount: 0n, takerAmount: 0n, postOnly: false, clientOrderId: null, feeRateBps: 0, signedOrder: {}, id: `b-${crossing}-${i}`,
      }, 1_700_000_000_000 + i);
      if (res.ok) ok++;
    }
    const ms = performance.now() - t;
    return { ms, ok, perSec: (n / ms) * 1000 };
  }
  const resting = flow(false);
  const crossing = flow(true);
  return {
    title: 'Sandbox matching (in-process)',
    text: `${n} GTC orders per flow through \`submitOrder\` on the trading fixture, one run each, same process.\n\n| flow | accepted | time | orders/s |\n|---|---|---|---|\n| resting bids only | ${resting.ok} | ${resting.ms.toFixed(0)} ms | ${Math.round(resting.perSec)} |\n| alternating BUY/SELL around 0.50 (crossing) | ${crossing.ok} | ${crossing.ms.toFixed(0)} ms | ${Math.round(crossing.perSec)} |\n\nCrossing vs resting: ${(crossing.perSec / resting.perSec).toFixed(2)}×.`,
  };
}
