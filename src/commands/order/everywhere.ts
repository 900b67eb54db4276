// `pm order list` without --market: the open orders of every market, from the portfolio's
// live orders (one request), in the same shape as the per-market list.
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/http.js';
import { formatUnits, priceFromWire, rawFromWire } from '../../core/money.js';
import { fetchPositions } from '../../core/portfolio.js';

export async function openOrdersEverywhere(ctx: Context, api: ApiClient): Promise<void> {
  const { liveOrders } = await fetchPositions(api);
  const json = liveOrders.map((o) => {
    const size = rawFromWire(o['originalSize']);
    const remaining = rawFromWire(o['remainingSize']);
    const price = priceFromWire(o['price']);
    return {
      id: String(o['id'] ?? ''),
      clientOrderId: typeof o['clientOrderId'] === 'string' ? o['clientOrderId'] : null,
      market: String(o['market'] ?? ''),
      side: String(o['side'] ?? ''),
      outcome: String(o['token'] ?? ''),
      type: String(o['type'] ?? ''),
      price: price === null ? null : formatUnits(price),
      size: formatUnits(size),
      sizeRaw: size.toString(),
      remaining: formatUnits(remaining),
      remainingRaw: remaining.toString(),
      status: String(o['status'] ?? ''),
      createdAt: String(o['createdAt'] ?? ''),
    };
  });
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
