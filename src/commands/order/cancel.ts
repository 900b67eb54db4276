import { defineCommand } from '../../cli/command.js';
import { NotFoundError, PartialFailureError, UsageError } from '../../core/errors.js';
import { slugFrom } from '../../core/market-input.js';
import { getMarket } from '../../core/markets.js';
import { cancelOrders, checkClientOrderId } from '../../core/trade/index.js';
import type { CancelOutcome } from '../../core/trade/index.js';
import type { Context } from '../../cli/context.js';
import { confirm } from '../../cli/prompt.js';
import type { ApiClient } from '../../core/http.js';
import { cancelEverywhere, countText } from '../../core/trade/replace.js';
import type { EverywhereOutcome } from '../../core/trade/replace.js';

export default defineCommand({
  path: ['order', 'cancel'],
  summary: 'Cancel orders by id, by client id, all in a market, or all everywhere (the kill switch)',
  description:
    'By order ids or --client-id (batches of 50); --all <slug> (or --market <slug>) cancels every open order of one market; --all alone cancels every open order in every market (the exchange cancels per market, so pm fans out over the markets of your open orders and reports each; on the real exchange it asks first unless --yes).\n\nExit codes: 0 done, 2 bad input or declined, 4 not one of the orders named was found, 8 some orders or markets failed.',
  args: { ids: { description: 'order ids (with --all: market slugs)', variadic: true } },
  options: {
    clientId: { type: 'list', value: 'ids', description: 'cancel by client order ids' },
    all: { type: 'boolean', description: 'every open order: of the markets named, or of every market' },
    market: { type: 'list', value: 'slugs', description: 'every open order of these markets (the same as --all <slug>…)' },
    onBehalfOf: { type: 'positiveInt', value: 'profileId', description: 'cancel for a partner sub-account' },
  },
  examples: [
    'pm order cancel 7d0c…',
    'pm order cancel --client-id bot-41 bot-42',
    'pm order cancel --all btc-100k-2026',
    'pm order cancel --market btc-100k-2026 sol-500-2026',
    'pm --json order cancel --all btc-100k-2026 | jq .canceled',
    'pm order cancel --all --yes',
  ],
  run: async (ctx, { args, opts }) => {
    const byMarket = opts.all || opts.market.length > 0;
    const ids = opts.all ? [] : args.ids;
    const clientIds = opts.clientId;
    const modes = [ids.length > 0, clientIds.length > 0, byMarket].filter(Boolean).length;
    if (modes !== 1)
      throw new UsageError('give order ids, or --client-id <ids…>, or --all [<slug>…] / --market <slug…> (exactly one of them)');
    for (const c of clientIds) checkClientOrderId(c);
    const api = await ctx.tradingApi({ onBehalfOf: opts.onBehalfOf });
    if (byMarket) return cancelAll(ctx, api, [...(opts.all ? args.ids : []), ...opts.market].map(slugFrom));
    const res = await cancelOrders(api, { ids, clientIds });
    return report(ctx, res);
  },
});

/** --all: every open order of the markets named, or (none named) of every market: one result per market. */
async function cancelAll(ctx: Context, api: ApiClient, slugs: string[]): Promise<number> {
  if (slugs.length === 0 && !ctx.sandbox && !ctx.flags.yes) {
    if (!ctx.interactive)
      throw new UsageError('cancelling every order in every market on the real exchange needs confirmation', {
        hint: 'Pass --yes (scripts), or run in a terminal to confirm.',
      });
    if (!(await confirm(ctx, 'Cancel every open order in every market?'))) throw new UsageError('nothing cancelled: declined');
  }
  // Every market named is checked first: a typo among them cancels nothing (exit 4).
  if (slugs.length > 1) await Promise.all(slugs.map((slug) => getMarket(api, slug)));
  if (slugs.length === 1) return report(ctx, await cancelOrders(api, { slug: slugs[0] as string }));
  const res: EverywhereOutcome =
    slugs.length === 0
      ? await cancelEverywhere(api)
      : { markets: await Promise.all(slugs.map(async (market) => ({ market, ...(await cancelOrders(api, { slug: market })) }))) };
  ctx.out.data(res, () => {
    if (res.markets.length === 0) return ctx.out.info('no open orders');
    ctx.out.table(
      [{ header: 'MARKET' }, { header: 'CANCELED', align: 'right' }, { header: 'FAILED', align: 'right' }, { header: 'ERROR' }],
      res.markets.map((m) => [m.market, String(m.canceled.length), String(m.failed.length), m.error?.message ?? '']),
    );
  });
  ctx.out.info(`${countText(res)} canceled`);
  const bad = res.markets.filter((m) => m.error || m.failed.length > 0);
  if (bad.length)
    throw new PartialFailureError(
      `${bad.length} market${bad.length > 1 ? 's' : ''} not fully cancelled: ${bad.map((m) => m.market).join(', ')}`,
      {
        hint: 'Run it again: cancelling is idempotent. pm order list shows what is still open.',
      },
    );
  return 0;
}

const NOT_FOUND_HINT = 'ORDER_NOT_FOUND means the id is unknown, not yours, or already filled or canceled';

/** One set of cancellations (by ids, client ids or one market): {canceled, failed}; exit 8 when some failed. */
function report(ctx: Context, res: CancelOutcome): number {
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
  // None of them found: exit 4 (a partial failure is some done, some not).
  if (res.canceled.length === 0 && res.failed.length > 0 && res.failed.every((f) => f.reason === 'ORDER_NOT_FOUND'))
    throw new NotFoundError(
      `no order to cancel: ${res.failed.length > 1 ? `none of the ${res.failed.length} was found` : 'it was not found'}`,
      {
        hint: `${NOT_FOUND_HINT} (pm order list shows open orders).`,
      },
    );
  if (res.failed.length)
    throw new PartialFailureError(`${res.failed.length} order${res.failed.length > 1 ? 's' : ''} could not be canceled`, {
      hint: `${NOT_FOUND_HINT}.`,
    });
  return 0;
}
