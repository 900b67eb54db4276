import type { Handler } from '../../cli/command.js';
import { optList, optNum, optStr } from '../../cli/command.js';
import { PartialFailureError, UsageError } from '../../core/errors.js';
import { slugFrom } from '../../core/markets.js';
import { cancelOrders } from '../../core/trade/index.js';
import { tradingApi } from './deps.js';

const run: Handler = async (ctx, { rest, opts }) => {
  const ids = rest;
  const clientIds = optList(opts, 'clientId');
  const all = optStr(opts, 'all');
  const modes = [ids.length > 0, clientIds.length > 0, all !== undefined].filter(Boolean).length;
  if (modes !== 1) throw new UsageError('give order ids, or --client-id <ids…>, or --all <slug> (exactly one of them)');
  const onBehalfOf = optNum(opts, 'onBehalfOf') ?? ctx.profile().onBehalfOf;
  const api = await tradingApi(ctx, { actingAs: onBehalfOf });
  const res = await cancelOrders(api, { ids, clientIds, ...(all !== undefined ? { slug: slugFrom(all) } : {}) });
  ctx.out.data(res, () => {
    if (res.canceled.length) ctx.out.table([{ header: 'CANCELED' }], res.canceled.map((id) => [id]));
    else if (!res.failed.length) ctx.out.info('nothing to cancel');
    if (res.failed.length) ctx.out.table([{ header: 'FAILED' }, { header: 'REASON' }, { header: 'MESSAGE' }], res.failed.map((f) => [f.orderId, f.reason, f.message]));
  });
  ctx.out.info(`${res.canceled.length} canceled, ${res.failed.length} failed`);
  if (res.failed.length) throw new PartialFailureError(`${res.failed.length} order${res.failed.length > 1 ? 's' : ''} could not be canceled`, { hint: 'ORDER_NOT_FOUND means the id is unknown, not yours, or already filled or canceled.' });
  return 0;
};
export default run;
