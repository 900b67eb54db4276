// Your orders, as `pm order list` and the library's orders.list show them: the open orders of
// every market (one request: the portfolio's live orders), or of one market, closed ones too
// with `all`.
import { NotFoundError, UsageError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { slugFrom } from '../market-input.js';
import { getMarket } from '../markets.js';
import { fetchPositions } from '../portfolio.js';
import { listOpenOrders } from './place.js';
import { liveOrderJson, openOrderJson } from './views.js';
import type { OpenOrderJson } from './views.js';

/** The statuses `all` adds to the open (LIVE) ones. */
const EVERY_STATUS = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];

/**
 * Open orders of every market (no `market`), or of one market (with `all`: matched, cancelled and
 * unmatched ones too, which the exchange lists per market only: `all` without a market is exit 2).
 * @example await listOrders(api, { market: 'btc-100k-2026', all: true })
 */
export async function listOrders(
  api: ApiClient,
  q: { market?: string | undefined; all?: boolean | undefined } = {},
): Promise<OpenOrderJson[]> {
  if (q.market === undefined) {
    if (q.all)
      throw api.words === 'flags'
        ? new UsageError('closed orders too (--all) needs a market (--market <slug>)', {
            hint: 'Name the market: pm order list --market btc-100k-2026 --all.',
          })
        : new UsageError('closed orders too (all: true) needs a market (market)', {
            hint: "Name the market: pm.orders.list({ market: 'btc-100k-2026', all: true }).",
          });
    return (await fetchPositions(api)).liveOrders.map(liveOrderJson);
  }
  const slug = slugFrom(q.market);
  const orders = await listOpenOrders(api, slug, q.all ? EVERY_STATUS : undefined).catch((e: unknown) =>
    e instanceof NotFoundError ? getMarket(api, slug).then(() => Promise.reject(e)) : Promise.reject(e),
  );
  // None: a typo of a market also has none; say so (exit 4, with the market it probably meant).
  if (orders.length === 0) await getMarket(api, slug);
  return orders.map((o) => openOrderJson(o, slug));
}
