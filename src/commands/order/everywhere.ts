// `pm order list` without --market: the open orders of every market, from the portfolio's
// live orders (one request), in the same shape as the per-market list.
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/http.js';
import { fetchPositions } from '../../core/portfolio.js';
import { liveOrderJson } from '../../core/trade/views.js';

export async function openOrdersEverywhere(ctx: Context, api: ApiClient): Promise<void> {
  const { liveOrders } = await fetchPositions(api);
  const json = liveOrders.map(liveOrderJson);
  ctx.out.data(json, () =>
    ctx.out.table(
      [
        { header: 'MARKET' },
        { header: 'ORDER ID' },
        { header: 'CLIENT ID' },
        { header: 'SIDE' },
        { header: 'OUTCOME' },
        { header: 'PRICE', align: 'right' },
        { header: 'SIZE', align: 'right' },
        { header: 'REMAINING', align: 'right' },
        { header: 'STATUS' },
      ],
      json.map((o) => [o.market, o.id, o.clientOrderId ?? '-', o.side, o.outcome, o.price ?? '-', o.size, o.remaining, o.status]),
    ),
  );
}
