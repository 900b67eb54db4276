import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { actingWords, clientIdHint } from '../../cli/rerun.js';
import { NotFoundError, PartialFailureError, UsageError } from '../../core/errors.js';
import { checkClientOrderId } from '../../core/trade/index.js';
import { orderStatus, settleFromStatus } from '../../core/trade/index.js';
import { statusJson } from '../../core/trade/views.js';

export default defineCommand({
  path: ['order', 'status'],
  effect: 'read',
  actsFor: true,
  summary: 'Status of orders by id or client id (settlement, fills)',
  args: { ids: { description: 'order ids', variadic: true } },
  options: {
    clientId: { type: 'list', value: 'ids', description: 'look up by client order ids' },
  },
  examples: [
    'pm order status 7d0c…',
    'pm order status --client-id bot-42',
    "pm --json order status --client-id bot-42 | jq '.[0].settlementStatus'",
  ],
  run: async (ctx, { args, opts }) => {
    const rest = args.ids;
    const clientIds = opts.clientId;
    if (rest.length === 0 && clientIds.length === 0)
      throw new UsageError('give order ids or --client-id <ids…>', {
        hint: 'pm order status <orderId…>, or pm order status --client-id <id…>; pm order list shows the open ones, pm order journal the ones pm sent.',
      });
    for (const c of clientIds) checkClientOrderId(c);
    const api = await ctx.tradingApi();
    const results = await orderStatus(api, { ids: rest, clientIds });
    // An order found under a client id whose outcome the journal has open was placed: say so there.
    if (clientIds.length > 0) settleFromStatus(ctx.core.orderJournal(), api.baseUrl, results);
    const rows = results.map(statusJson);
    ctx.out.data(rows, () =>
      ctx.out.table(
        [
          { header: 'ORDER ID', fit: cutFirst(3, 12) },
          { header: 'CLIENT ID', fit: hideFirst(1) },
          { header: 'MARKET' },
          { header: 'STATE' },
          { header: 'SETTLEMENT', fit: hideFirst(2) },
          { header: 'FILLED', align: 'right' },
        ],
        rows.map((r) => {
          const x = r as Record<string, unknown>;
          const filled = (x['filledTotal'] ?? x['filled'] ?? {}) as { shares?: string };
          return r.found
            ? [
                String(x['orderId'] ?? ''),
                String(x['clientOrderId'] ?? ''),
                String(x['market'] ?? ''),
                String(x['status'] ?? '-'),
                String(x['settlementStatus'] ?? ''),
                filled.shares ?? '0',
              ]
            : [
                String(x['orderId'] ?? '-'),
                String(x['clientOrderId'] ?? '-'),
                '-',
                String(x['status'] ?? 'not_found'),
                String(x['error'] ?? ''),
                '-',
              ];
        }),
      ),
    );
    const missing = rows.filter((r) => !r.found);
    if (missing.length === 0) return;
    // A client id given as an order id (pm order place prints the client id): the command that names it so.
    const asClientIds = clientIdHint(
      ctx,
      api.baseUrl,
      missing.flatMap((r) => (r.orderId && rest.includes(r.orderId) ? [r.orderId] : [])),
      (cids) => ['order', 'status', '--client-id', ...cids, ...actingWords(ctx)],
      { yes: false },
    );
    if (missing.length === rows.length)
      throw new NotFoundError(rows.length === 1 ? 'no such order' : `none of the ${rows.length} orders was found`, {
        hint: asClientIds ?? 'Check the id (or --client-id); with a partner token, add --on-behalf-of <profileId> for a sub-account.',
      });
    throw new PartialFailureError(`${missing.length} of ${rows.length} orders not found`, {
      hint:
        asClientIds ??
        'Check the ids shown as not_found: pm order list shows your open orders and their ids (a client id goes after --client-id); with a partner token, add --on-behalf-of <profileId> for a sub-account.',
    });
  },
});
