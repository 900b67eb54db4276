import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { slugFrom } from '../../core/market-input.js';
import { getMarket } from '../../core/markets.js';
import { formatUnits } from '../../core/money.js';
import { fetchPositions, positionsJson, positionTotals } from '../../core/portfolio.js';
import type { PositionRow } from '../../core/portfolio.js';
import { amounts } from './common.js';

export default defineCommand({
  path: ['portfolio', 'positions'],
  effect: 'read',
  actsFor: true,
  summary: 'Positions: shares, average price, cost, value, unrealised and realised PnL, open orders, locked collateral',
  description:
    "One row per market and outcome, with a totals line. Numbers come from the exchange's positions (average cost basis): cost is what the shares still held cost (fees included), value is shares × the last price (1 or 0 once resolved), unrealised = value − cost, realised is booked by sales and redemptions. --json prints {positions: [...], totals}, every amount also as a *Raw integer string.",
  options: {
    market: { type: 'string', value: 'slug', description: 'only this market (or NegRisk group)' },
    resolved: { type: 'boolean', description: 'only resolved markets' },
    redeemable: { type: 'boolean', description: 'only positions that can be redeemed now' },
  },
  examples: [
    'pm portfolio positions',
    'pm positions --market btc-100k-2026',
    "pm --json portfolio positions | jq '.totals'",
    'pm portfolio positions --redeemable',
  ],
  run: async (ctx, { opts }) => {
    const { usd, shares } = amounts(ctx.out);
    const api = await ctx.tradingApi();
    const market = opts.market;
    const slug = market === undefined ? undefined : slugFrom(market);
    let rows = (await fetchPositions(api)).rows;
    if (slug !== undefined) rows = rows.filter((r) => r.market === slug || r.group === slug);
    // No row for it: a market the exchange does not know is exit 4 (with suggestions), not an empty list.
    if (slug !== undefined && rows.length === 0) await getMarket(api, slug);
    if (opts.resolved) rows = rows.filter((r) => r.resolved);
    if (opts.redeemable) rows = rows.filter((r) => r.redeemable);
    const totals = positionTotals(rows);
    const json = positionsJson(rows);
    ctx.out.data(
      json,
      () => {
        if (rows.length === 0) return ctx.out.info('(no positions)');
        const pnl = (v: bigint): string => (v > 0n ? ctx.out.c.green(`+${usd(v)}`) : v < 0n ? ctx.out.c.red(usd(v)) : usd(v));
        const state = (r: PositionRow): string =>
          r.redeemable
            ? 'redeemable'
            : r.payoutPending
              ? 'resolved (payout pending)'
              : r.resolved
                ? r.won
                  ? r.shares === 0n
                    ? 'redeemed'
                    : 'won'
                  : 'lost'
                : 'open';
        ctx.out.table(
          [
            { header: 'MARKET' },
            { header: 'OUTCOME' },
            { header: 'SHARES', align: 'right' },
            { header: 'AVG', align: 'right', fit: hideFirst(2) },
            { header: 'COST', align: 'right', fit: hideFirst(6) },
            { header: 'PRICE', align: 'right', fit: hideFirst(3) },
            { header: 'VALUE', align: 'right' },
            { header: 'UNREALISED', align: 'right' },
            { header: 'REALISED', align: 'right', fit: hideFirst(5) },
            { header: 'ORDERS', align: 'right', fit: hideFirst(1) },
            { header: 'LOCKED', align: 'right', fit: hideFirst(4) },
            { header: 'STATE', fit: cutFirst(7, 10) },
          ],
          [
            ...rows.map((r) => [
              r.market,
              r.outcome,
              shares(r.shares),
              // Prices as every table prints them (0.620), an average exactly (0.6489).
              formatUnits(r.avgPrice, 6, 3),
              usd(r.cost),
              formatUnits(r.price, 6, 3),
              usd(r.value),
              pnl(r.unrealisedPnl),
              pnl(r.realisedPnl),
              String(r.openOrders),
              usd(r.lockedCollateral),
              state(r),
            ]),
            [
              'TOTAL',
              '',
              '',
              '',
              usd(totals.cost),
              '',
              usd(totals.value),
              pnl(totals.unrealisedPnl),
              pnl(totals.realisedPnl),
              '',
              usd(totals.lockedCollateral),
              '',
            ],
          ],
        );
      },
      { records: json.positions },
    );
  },
});
