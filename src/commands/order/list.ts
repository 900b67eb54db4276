import { defineCommand } from '../../cli/command.js';
import { slugFrom } from '../../core/market-input.js';
import { UsageError } from '../../core/errors.js';
import { listOpenOrders } from '../../core/trade/index.js';
import type { OpenOrder } from '../../core/trade/index.js';
import { openOrderJson } from '../../core/trade/views.js';

export default defineCommand({
  path: ['order', 'list'],
  summary: 'Your open orders, in every market or in one (--market), with remaining size',
  options: {
    market: { type: 'string', value: 'slug', description: 'only this market (default: every market)' },
    all: { type: 'boolean', description: 'include matched, canceled and unmatched orders' },
    onBehalfOf: { type: 'positiveInt', value: 'profileId', description: 'orders of a partner sub-account' },
  },
  examples: [
    'pm order list',
    'pm order list --market btc-100k-2026',
    'pm --json order list --market btc-100k-2026 | jq length',
    'pm -o ndjson order list --market btc-100k-2026 | jq -r .id',
  ],
  run: async (ctx, { opts }) => {
    const market = opts.market;
    const api = await ctx.tradingApi({ onBehalfOf: opts.onBehalfOf });
    if (market === undefined) {
      // No market: every open order, from the portfolio's live orders across markets.
      if (opts.all)
        throw new UsageError('--all (closed orders too) needs --market <slug>', { hint: 'pm order list --market btc-100k-2026 --all' });
      const { openOrdersEverywhere } = await import('./everywhere.js');
      return openOrdersEverywhere(ctx, api);
    }
    const slug = slugFrom(market);
    const statuses = opts.all ? ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] : undefined;
    const orders: OpenOrder[] = await listOpenOrders(api, slug, statuses);
    const json = orders.map((o) => openOrderJson(o, slug));
    ctx.out.data(json, () =>
      ctx.out.table(
        [
          { header: 'ORDER ID' },
          { header: 'CLIENT ID' },
          { header: 'SIDE' },
          { header: 'OUTCOME' },
          { header: 'PRICE', align: 'right' },
          { header: 'SIZE', align: 'right' },
          { header: 'REMAINING', align: 'right' },
          { header: 'STATUS' },
        ],
        json.map((o) => [o.id, o.clientOrderId ?? '-', o.side, o.outcome, o.price, o.size, o.remaining, o.status]),
      ),
    );
  },
});
