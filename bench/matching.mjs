// Sandbox matching throughput, in-process: crossing orders per second through the engine with
// 1k, 10k and 100k orders resting in the book, side by side in one run (no HTTP, no signing).
// Each crossing order takes one share from the best level, so the resting count stays put.
import { performance } from 'node:perf_hooks';

export async function run() {
  const { decideOrder } = await import('../dist/sandbox/engine.js');
  const { apply } = await import('../dist/sandbox/reducer.js');
  // The seed's alice, bob and partner, each given plenty of USDC and YES shares below.
  const IDS = { alice: 1001, bob: 1002, partner: 1003 };
  const k = Number(process.env.BENCH_ORDERS ?? 5000);
  const sizes = [1000, 10000, 100000];
  function flow(resting) {
    const state = apply(null, { type: 'seed', at: 1_700_000_000_000 });
    const m = state.markets.find((x) => x.tradeType === 'clob' && x.positionIds);
    const [yes] = m.positionIds;
    for (const id of [IDS.alice, IDS.bob, IDS.partner]) {
      state.accounts[String(id)] ??= { profileId: id, usdc: 0n, lockedUsdc: 0n, positions: {} };
      const a = state.accounts[String(id)];
      a.usdc = 10n ** 18n;
      a.positions[yes] = { shares: 10n ** 18n, locked: 0n, cost: 0n, realisedPnl: 0n };
    }
    let i = 0;
    // The engine's decision, applied by the reducer (no log: matching alone is measured).
    const place = (owner, side, tick, size) => {
      const r = decideOrder(
        state,
        {
          ownerId: owner,
          marketSlug: m.slug,
          tokenId: yes,
          side,
          orderType: 'GTC',
          price: BigInt(tick) * 1000n,
          size,
          makerAmount: 0n,
          takerAmount: 0n,
          postOnly: false,
          clientOrderId: null,
          feeRateBps: owner === IDS.bob ? 0 : 300,
          signedOrder: {},
          id: `b-${resting}-${i++}`,
        },
        1_700_000_000_000 + i,
      );
      if (r.ok) apply(state, r.event);
      return r;
    };
    // Resting: bids 0.100–0.449 (alice) and asks 0.551–0.900 (bob), 1,000 shares each.
    for (let n = 0; n < resting; n++) {
      const r =
        n % 2 === 0 ? place(IDS.alice, 'BUY', 100 + (n % 350), 1_000_000_000n) : place(IDS.bob, 'SELL', 551 + (n % 350), 1_000_000_000n);
      if (!r.ok) throw new Error(r.message);
    }
    const live = () => state.orders.filter((o) => o.status === 'LIVE').length;
    const before = live();
    let ok = 0;
    const t = performance.now();
    for (let n = 0; n < k; n++) {
      const r = n % 2 === 0 ? place(IDS.partner, 'BUY', 600, 1_000_000n) : place(IDS.partner, 'SELL', 400, 1_000_000n);
      if (r.ok && r.event.fills.length > 0) ok++;
    }
    const ms = performance.now() - t;
    return { resting: before, after: live(), ms, ok, perSec: (k / ms) * 1000 };
  }
  const rows = sizes.map(flow);
  const ref = rows[0];
  const lines = rows.map(
    (r) =>
      `| ${r.resting.toLocaleString('en-US')} | ${r.ok}/${k} filled | ${r.ms.toFixed(0)} ms | ${Math.round(r.perSec).toLocaleString('en-US')} | ${(ref.perSec / r.perSec).toFixed(2)}× |`,
  );
  const worst = ref.perSec / rows[rows.length - 1].perSec;
  return {
    title: 'Sandbox matching (in-process)',
    text: `${k} crossing GTC orders (alternating BUY at 0.600 and SELL at 0.400, one share each, so each takes from the best level) through the engine (\`decideOrder\`, then the reducer applies the event) on the seeded state, with the book holding the given number of resting orders, one run each, same process.\n\n| resting orders | crossing orders | time | orders/s | slowdown vs 1k |\n|---|---|---|---|---|\n${lines.join('\n')}\n\nTarget: at 100k resting within 2× of 1k — ${worst <= 2 ? 'met' : '**not met**'} (${worst.toFixed(2)}×).`,
  };
}
