import type { Handler } from '../../cli/command.js';
import { optList, optNum } from '../../cli/command.js';
import { NotFoundError, PartialFailureError, UsageError } from '../../core/errors.js';
import { checkClientOrderId } from '../../core/trade/index.js';
import { orderStatus, parsePlaced } from '../../core/trade/index.js';
import { placedJson } from './render.js';
import { tradingApi } from './deps.js';

const run: Handler = async (ctx, { rest, opts }) => {
  const clientIds = optList(opts, 'clientId');
  if (rest.length === 0 && clientIds.length === 0) throw new UsageError('give order ids or --client-id <ids…>');
  for (const c of clientIds) checkClientOrderId(c);
  const api = await tradingApi(ctx, { actingAs: optNum(opts, 'onBehalfOf') ?? ctx.profile().onBehalfOf });
  const results = await orderStatus(api, { ids: rest, clientIds });
  const rows = results.map((r) => {
    if (r.status !== 'found' || !r.data) return { found: false, status: r.status, orderId: r.orderId, clientOrderId: r.clientOrderId, error: r.error };
    const order = (r.data['order'] ?? {}) as Record<string, unknown>;
    const market = (order['market'] ?? {}) as Record<string, unknown>;
    const slug = typeof market['slug'] === 'string' ? market['slug'] : '';
    return { found: true, ...placedJson(parsePlaced(r.data, r.clientOrderId ?? '', slug, false, 0), null), status: typeof order['status'] === 'string' ? order['status'] : null };
  });
  ctx.out.data(rows, () =>
    ctx.out.table(
      [{ header: 'ORDER ID' }, { header: 'CLIENT ID' }, { header: 'MARKET' }, { header: 'STATE' }, { header: 'SETTLEMENT' }, { header: 'FILLED', align: 'right' }],
      rows.map((r) => {
        const x = r as Record<string, unknown>;
        const filled = (x['filled'] ?? {}) as { shares?: string };
        return r.found
          ? [String(x['orderId'] ?? ''), String(x['clientOrderId'] ?? ''), String(x['market'] ?? ''), String(x['status'] ?? '-'), String(x['settlementStatus'] ?? ''), filled.shares ?? '0']
          : [String(x['orderId'] ?? '-'), String(x['clientOrderId'] ?? '-'), '-', String(x['status'] ?? 'not_found'), String(x['error'] ?? ''), '-'];
      }),
    ),
  );
  const missing = rows.filter((r) => !r.found).length;
  if (missing === rows.length) throw new NotFoundError(rows.length === 1 ? 'no such order' : `none of the ${rows.length} orders was found`, { hint: 'Check the id (or --client-id); with a partner token, add --on-behalf-of <profileId> for a sub-account.' });
  if (missing) throw new PartialFailureError(`${missing} of ${rows.length} orders not found`);
  return 0;
};
export default run;
