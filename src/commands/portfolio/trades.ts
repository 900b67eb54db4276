import { defineCommand } from '../../cli/command.js';
import { formatUnits, rawFromWire } from '../../core/money.js';
import { fetchTrades } from '../../core/portfolio.js';
import { ON_BEHALF, portfolioApi } from './common.js';

export default defineCommand({
  path: ['portfolio', 'trades'],
  summary: 'Your fills, newest first',
  options: { onBehalfOf: ON_BEHALF },
  examples: ['pm portfolio trades', 'pm --json portfolio trades | jq length'],
  run: async (ctx, { opts }) => {
    const trades = await fetchTrades(await portfolioApi(ctx, opts));
    ctx.out.data(trades, () => {
      if (trades.length === 0) return ctx.out.info('(no trades)');
      ctx.out.table(
        [
          { header: 'TIME' },
          { header: 'MARKET' },
          { header: 'SIDE' },
          { header: 'OUTCOME' },
          { header: 'SHARES', align: 'right' },
          { header: 'PRICE', align: 'right' },
          { header: 'USDC', align: 'right' },
          { header: 'FEE', align: 'right' },
        ],
        trades.map((t) => {
          const m = (t['market'] ?? {}) as Record<string, unknown>;
          return [
            String(t['blockTimestamp'] ?? ''),
            String(m['slug'] ?? ''),
            String(t['strategy'] ?? ''),
            t['outcomeIndex'] === 0 ? 'YES' : 'NO',
            formatUnits(rawFromWire(t['outcomeTokenAmount'])),
            String(t['outcomeTokenPrice'] ?? ''),
            formatUnits(rawFromWire(t['collateralAmount'])),
            formatUnits(rawFromWire(t['fee'])),
          ];
        }),
      );
    });
  },
});
