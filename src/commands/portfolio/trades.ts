import { textTime } from '../../cli/text.js';
import { hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { priceFromWire, rawFromWire } from '../../core/money.js';
import { formatPrice } from '../markets/render.js';
import { fetchTrades } from '../../core/portfolio.js';
import { amounts } from './common.js';

export default defineCommand({
  path: ['portfolio', 'trades'],
  effect: 'read',
  actsFor: true,
  summary: 'Your fills, newest first',
  examples: ['pm portfolio trades', 'pm --json portfolio trades | jq length'],
  run: async (ctx) => {
    const trades = await fetchTrades(await ctx.tradingApi());
    ctx.out.data(trades, () => {
      const { usd, shares } = amounts(ctx.out);
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
          { header: 'FEE', align: 'right', fit: hideFirst(1) },
        ],
        trades.map((t) => {
          const m = (t['market'] ?? {}) as Record<string, unknown>;
          // The exchange's time: an ISO string (the sandbox), or epoch seconds as in the history.
          const bt = t['blockTimestamp'];
          return [
            textTime(typeof bt === 'number' ? bt * 1000 : typeof bt === 'string' ? bt : undefined),
            String(m['slug'] ?? ''),
            String(t['strategy'] ?? ''),
            t['outcomeIndex'] === 0 ? 'YES' : 'NO',
            shares(rawFromWire(t['outcomeTokenAmount'])),
            formatPrice(priceFromWire(t['outcomeTokenPrice'])),
            usd(rawFromWire(t['collateralAmount'])),
            usd(rawFromWire(t['fee'])),
          ];
        }),
      );
    });
  },
});
