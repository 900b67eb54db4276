import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { listOrders } from '../../core/trade/list.js';
import { priceFromWire } from '../../core/money.js';
import { formatPrice } from '../markets/render.js';
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
    const orders = await listOrders(await ctx.tradingApi(), { market: opts.market, all: opts.all });
    // (A MARKET column when they span markets.)
    ordersTable(ctx, orders, opts.market === undefined);
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
        formatPrice(priceFromWire(o.price)),
        o.size,
        o.remaining,
        o.status,
      ]),
    ),
  );
}
