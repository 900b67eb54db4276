import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { slugFrom } from '../../core/market-input.js';
import { NotFoundError, UsageError } from '../../core/errors.js';
import { getMarket } from '../../core/markets.js';
import { fetchPositions } from '../../core/portfolio.js';
import { listOpenOrders } from '../../core/trade/index.js';
import type { OpenOrder } from '../../core/trade/index.js';
import { liveOrderJson, openOrderJson } from '../../core/trade/views.js';
import type { OpenOrderJson } from '../../core/trade/views.js';

export default defineCommand({
  path: ['order', 'list'],
  effect: 'read',
  actsFor: true,
  summary: 'Your open orders, in every market or in one (--market), with remaining size',
  options: {
    market: { type: 'string', value: 'slug', description: 'only this market (default: every market)' },
    all: { type: 'boolean', description: 'include matched, canceled and unmatched orders' },
  },
  examples: [
    'pm order list',
    'pm order list --market btc-100k-2026',
    'pm --json order list --market btc-100k-2026 | jq length',
    'pm -o ndjson order list --market btc-100k-2026 | jq -r .id',
  ],
  run: async (ctx, { opts }) => {
    const market = opts.market;
    const api = await ctx.tradingApi();
    if (market === undefined) {
      // No market: every open order, from the portfolio's live orders across markets.
      if (opts.all)
        throw new UsageError('--all (closed orders too) needs --market <slug>', { hint: 'pm order list --market btc-100k-2026 --all' });
      // (One request: the portfolio's live orders, the same shape as the per-market list.)
      return ordersTable(ctx, (await fetchPositions(api)).liveOrders.map(liveOrderJson), true);
    }
    const slug = slugFrom(market);
    const statuses = opts.all ? ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] : undefined;
    const orders: OpenOrder[] = await listOpenOrders(api, slug, statuses).catch((e: unknown) =>
      e instanceof NotFoundError ? getMarket(api, slug).then(() => Promise.reject(e)) : Promise.reject(e),
    );
    // None: a typo of a market also has none; say so (exit 4, with the market it probably meant).
    if (orders.length === 0) await getMarket(api, slug);
    ordersTable(
      ctx,
      orders.map((o) => openOrderJson(o, slug)),
      false,
    );
  },
});

/** The orders as --json has them, else a table (with a MARKET column when they span markets). */
function ordersTable(ctx: Context, json: OpenOrderJson[], markets: boolean): void {
  ctx.out.data(json, () =>
    ctx.out.table(
      [
        ...(markets ? [{ header: 'MARKET' }] : []),
        { header: 'ORDER ID', fit: cutFirst(2) },
        { header: 'CLIENT ID', fit: hideFirst(1) },
        { header: 'SIDE' },
        { header: 'OUTCOME' },
        { header: 'PRICE', align: 'right' as const },
        { header: 'SIZE', align: 'right' as const },
        { header: 'REMAINING', align: 'right' as const },
        { header: 'STATUS' },
      ],
      json.map((o) => [
        ...(markets ? [o.market] : []),
        o.id,
        o.clientOrderId ?? '-',
        o.side ?? '-',
        o.outcome ?? '-',
        o.price ?? '-',
        o.size,
        o.remaining,
        o.status,
      ]),
    ),
  );
}
