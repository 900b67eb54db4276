import { defineCommand } from '../../cli/command.js';
import { PartialFailureError, UsageError } from '../../core/errors.js';
import { slugFrom } from '../../core/markets.js';
import { cancelOrders, checkClientOrderId } from '../../core/trade/index.js';
import { tradingApi } from './deps.js';

export default defineCommand({
  path: ['order', 'cancel'],
  summary: 'Cancel orders by id, by client id, or all in a market (batches of 50)',
  args: { ids: { description: 'order ids', variadic: true } },
  options: {
    clientId: { type: 'list', value: 'ids', description: 'cancel by client order ids' },
    all: { type: 'string', value: 'slug', description: 'cancel every open order in this market' },
    onBehalfOf: { type: 'positiveInt', value: 'profileId', description: 'cancel for a partner sub-account' },
  },
  examples: [
    'pm order cancel 7d0c…',
    'pm order cancel --client-id bot-41 bot-42',
    'pm order cancel --all btc-100k-2026',
    'pm --json order cancel --all btc-100k-2026 | jq .canceled',
  ],
  run: async (ctx, { args, opts }) => {
    const ids = args.ids;
    const clientIds = opts.clientId;
    const all = opts.all;
    const modes = [ids.length > 0, clientIds.length > 0, all !== undefined].filter(Boolean).length;
    if (modes !== 1) throw new UsageError('give order ids, or --client-id <ids…>, or --all <slug> (exactly one of them)');
    for (const c of clientIds) checkClientOrderId(c);
    const api = await tradingApi(ctx, { actingAs: opts.onBehalfOf ?? ctx.profile().onBehalfOf });
    const res = await cancelOrders(api, { ids, clientIds, ...(all !== undefined ? { slug: slugFrom(all) } : {}) });
    ctx.out.data(res, () => {
      if (res.canceled.length)
        ctx.out.table(
          [{ header: 'CANCELED' }],
          res.canceled.map((id) => [id]),
        );
      else if (!res.failed.length) ctx.out.info('nothing to cancel');
      if (res.failed.length)
        ctx.out.table(
          [{ header: 'FAILED' }, { header: 'REASON' }, { header: 'MESSAGE' }],
          res.failed.map((f) => [f.orderId, f.reason, f.message]),
        );
    });
    ctx.out.info(`${res.canceled.length} canceled, ${res.failed.length} failed`);
    if (res.failed.length)
      throw new PartialFailureError(`${res.failed.length} order${res.failed.length > 1 ? 's' : ''} could not be canceled`, {
        hint: 'ORDER_NOT_FOUND means the id is unknown, not yours, or already filled or canceled.',
      });
    return 0;
  },
});
