import { cutFirst } from '../../cli/output.js';
import { priceText } from '../../core/money.js';
import { defineCommand } from '../../cli/command.js';
import { NotFoundError, PartialFailureError, UnknownStateError, UsageError, withHint } from '../../core/errors.js';
import { slugFrom } from '../../core/market-input.js';
import { getMarket } from '../../core/markets.js';
import { cancelOrders, checkClientOrderId } from '../../core/trade/index.js';
import type { CancelOutcome } from '../../core/trade/index.js';
import type { Context } from '../../cli/context.js';
import { fetchPositions } from '../../core/portfolio.js';
import { liveOrderJson } from '../../core/trade/views.js';
import type { ApiClient } from '../../core/http.js';
import { cancelEverywhere, countText } from '../../core/trade/replace.js';
import type { EverywhereOutcome } from '../../core/trade/replace.js';
import { actingWords, clientIdHint, pmLine, sameCommand } from '../../cli/rerun.js';

export default defineCommand({
  path: ['order', 'cancel'],
  effect: 'order',
  actsFor: true,
  // Counted before asking: how many of the open orders the cancel will end, in how many markets.
  describe: async (ctx, { args, opts }) => {
    const { mode, ids, clientIds, slugs } = request(args.ids, opts);
    const open = (await fetchPositions(await ctx.tradingApi())).liveOrders.map(liveOrderJson);
    const hit =
      mode === 'market'
        ? open.filter((o) => slugs.length === 0 || slugs.includes(o.market))
        : open.filter((o) => ids.includes(o.id) || (o.clientOrderId !== null && clientIds.includes(o.clientOrderId)));
    const markets = new Set(hit.map((o) => o.market));
    const what =
      mode === 'market'
        ? slugs.length === 0
          ? 'every open order in every market'
          : `every open order of ${slugs.join(', ')}`
        : `${ids.length + clientIds.length} order${ids.length + clientIds.length === 1 ? '' : 's'} named`;
    const lines = hit
      .slice(0, 10)
      .map((o) => `\n  ${o.side} ${o.outcome} ${o.remaining} @ ${priceText(o.price ?? '-')} on ${o.market} (${o.id})`);
    return `Cancel ${what}: ${hit.length} open order${hit.length === 1 ? '' : 's'} in ${markets.size} market${markets.size === 1 ? '' : 's'}${lines.join('')}${hit.length > 10 ? `\n  … and ${hit.length - 10} more` : ''}${ctx.onBehalfOf === undefined ? '' : `\n  for sub-account ${ctx.onBehalfOf}`}`;
  },
  summary: 'Cancel orders by id, by client id, all in a market, or all everywhere (the kill switch)',
  description:
    'By order ids or --client-id (batches of 50); --all <slug> (or --market <slug>) cancels every open order of one market; --all alone cancels every open order in every market (the exchange cancels per market, so pm asks every market of your open orders at once and reports each; on the real exchange it asks first unless --yes). An order named that an earlier cancel ended is reported already canceled (JSON alreadyCanceled), not as not found: running a cancel again is harmless.\n\nExit codes: 0 done (or already canceled), 2 bad input or declined, 4 not one of the orders named was found, 7 the outcome is unknown (no answer, and the exchange could not be asked: run the same command again, cancelling is harmless), 8 some orders or markets failed.',
  args: { ids: { description: 'order ids (with --all: market slugs)', variadic: true } },
  options: {
    clientId: { type: 'list', value: 'ids', description: 'cancel by client order ids' },
    all: { type: 'boolean', description: 'every open order: of the markets named, or of every market' },
    market: { type: 'list', value: 'slugs', description: 'every open order of these markets (the same as --all <slug>…)' },
  },
  examples: [
    'pm order cancel 7d0c…',
    'pm order cancel --client-id bot-41 bot-42',
    'pm order cancel --all btc-100k-2026',
    'pm order cancel --market btc-100k-2026 sol-500-2026',
    'pm --json order cancel --all btc-100k-2026 | jq .canceled',
    'pm order cancel --all --yes',
  ],
  check: (_ctx, { args, opts }) => void request(args.ids, opts),
  run: async (ctx, { args, opts }) => {
    const { mode, ids, clientIds, slugs } = request(args.ids, opts);
    const api = await ctx.tradingApi();
    if (mode === 'market') return cancelAll(ctx, api, slugs);
    const res = await cancelOrders(api, { ids, clientIds }).catch((e: unknown) => {
      if (!(e instanceof UnknownStateError)) throw e;
      // The status of every order named tells what this cancel did (asking it is harmless).
      const named = ids.length > 0 ? ids : ['--client-id', ...clientIds];
      const check = pmLine(ctx, ['order', 'status', ...named, ...actingWords(ctx)], { yes: false });
      throw withHint(
        e,
        `Cancel again (harmless): ${sameCommand(ctx)}\nOr check it first (CANCELED: done; LIVE: cancel it again):\n  ${check}`,
        'replace',
      );
    });
    report(ctx, res, undefined, ids.length > 0 ? api.baseUrl : undefined);
  },
});

/** What the arguments ask to cancel: exactly one of ids, client ids, or markets (none named: every market). */
function request(
  words: string[],
  opts: { all: boolean; market: string[]; clientId: string[] },
): { mode: 'ids' | 'market'; ids: string[]; clientIds: string[]; slugs: string[] } {
  const byMarket = opts.all || opts.market.length > 0;
  const ids = opts.all ? [] : words;
  const clientIds = opts.clientId;
  const modes = [ids.length > 0, clientIds.length > 0, byMarket].filter(Boolean).length;
  if (modes !== 1)
    throw new UsageError('give order ids, or --client-id <ids…>, or --all [<slug>…] / --market <slug…> (exactly one of them)', {
      hint: 'pm order cancel <orderId…>, pm order cancel --client-id <id…>, or pm order cancel --all; pm order list shows the open ones.',
    });
  for (const c of clientIds) checkClientOrderId(c);
  return { mode: byMarket ? 'market' : 'ids', ids, clientIds, slugs: [...(opts.all ? words : []), ...opts.market].map(slugFrom) };
}

/** --all: every open order of the markets named, or (none named) of every market: one result per market. */
async function cancelAll(ctx: Context, api: ApiClient, slugs: string[]): Promise<void> {
  // Every market named is checked first: a typo among them cancels nothing (exit 4).
  if (slugs.length > 1) await Promise.all(slugs.map((slug) => getMarket(api, slug)));
  if (slugs.length === 1) {
    const slug = slugs[0] as string;
    const res = await cancelOrders(api, { slug }).catch((e: unknown) => {
      if (e instanceof NotFoundError) return getMarket(api, slug).then(() => Promise.reject(e));
      // Its answer lost and the open orders unreadable: what to run, in the CLI's words.
      if (e instanceof UnknownStateError)
        throw withHint(
          e,
          `See what is open: ${pmLine(ctx, ['order', 'list', '--market', slug, ...actingWords(ctx)], { yes: false })}\nOr cancel again (harmless): ${sameCommand(ctx)}`,
          'replace',
        );
      throw e;
    });
    // Nothing to cancel there: a typo of a market says so (exit 4, with the market it probably meant).
    if (res.canceled.length === 0 && res.failed.length === 0 && !res.answerLost) await getMarket(api, slug);
    return report(ctx, res, slug);
  }
  const res: EverywhereOutcome =
    slugs.length === 0
      ? await cancelEverywhere(api)
      : { markets: await Promise.all(slugs.map(async (market) => ({ market, ...(await cancelOrders(api, { slug: market })) }))) };
  ctx.out.data(res, () => {
    if (res.markets.length === 0) return ctx.out.info('no open orders');
    ctx.out.table(
      [
        { header: 'MARKET' },
        { header: 'CANCELED', align: 'right' },
        { header: 'FAILED', align: 'right' },
        { header: 'ERROR', fit: cutFirst(1, 16) },
      ],
      res.markets.map((m) => [
        m.market,
        m.answerLost ? `${m.canceled.length}+` : String(m.canceled.length),
        String(m.failed.length),
        m.error?.message ?? (m.answerLost ? LOST : ''),
      ]),
    );
  });
  ctx.out.info(`${countText(res)} canceled`);
  const bad = res.markets.filter((m) => m.error || m.failed.length > 0);
  const list = pmLine(ctx, ['order', 'list', ...actingWords(ctx)], { yes: false });
  // A market whose cancel may have acted (no answer, and nothing could tell): unknown, exit 7.
  const unknown = res.markets.filter((m) => m.error?.code === 'UNKNOWN_STATE').map((m) => m.market);
  if (unknown.length)
    throw new UnknownStateError(
      `the outcome of the cancel of ${unknown.length === 1 ? `the orders of ${unknown[0]}` : `the orders of ${unknown.length} markets (${unknown.join(', ')})`} is unknown${bad.length > unknown.length ? `, and ${bad.length - unknown.length} more market${bad.length - unknown.length > 1 ? 's were' : ' was'} not fully cancelled` : ''}`,
      { hint: `Cancel again (harmless): ${sameCommand(ctx)}\nOr see what is open first: ${list}` },
    );
  if (bad.length)
    throw new PartialFailureError(
      `${bad.length} market${bad.length > 1 ? 's' : ''} not fully cancelled: ${bad.map((m) => m.market).join(', ')}`,
      { hint: `Run it again (cancelling is harmless): ${sameCommand(ctx)}\nSee what is still open: ${list}` },
    );
}

const NOT_FOUND_HINT = 'ORDER_NOT_FOUND means the id is unknown, not yours, or already filled or canceled';
const LOST = 'answer lost: what it cancelled is not known by id';

/**
 * One set of cancellations (by ids, client ids or one market): {canceled, failed}; exit 8 when
 * some failed. With `baseUrl` (cancels by order id only), an id not found that pm sent as a
 * client id gets the command that names it so.
 */
function report(ctx: Context, res: CancelOutcome, market?: string, baseUrl?: string): void {
  ctx.out.data(res, () => {
    if (res.canceled.length)
      ctx.out.table(
        [{ header: 'CANCELED' }],
        res.canceled.map((id) => [id]),
      );
    else if (!res.failed.length && !res.answerLost && !res.alreadyCanceled?.length) ctx.out.info('nothing to cancel');
    if (res.failed.length)
      ctx.out.table(
        [{ header: 'FAILED', fit: cutFirst(2, 12) }, { header: 'REASON' }, { header: 'MESSAGE', fit: cutFirst(1, 16) }],
        res.failed.map((f) => [f.orderId, f.reason, f.message]),
      );
  });
  // A lost answer of a whole market's cancel: the orders it ended cannot be named, only what is left.
  if (res.answerLost)
    ctx.out.info(
      `the exchange's answer was lost: the orders it cancelled are not known by id; ${res.failed.length === 0 ? `none${market ? ` of ${market}` : ''} is open now` : `${res.failed.length} still open`}`,
    );
  else ctx.out.info(`${res.canceled.length} canceled, ${res.failed.length} failed`);
  // Ended by an earlier cancel (this one's re-run after an unknown outcome): done, not "not found".
  if (res.alreadyCanceled?.length) ctx.out.info(`already canceled by an earlier cancel: ${res.alreadyCanceled.join(', ')}`);
  const notFound = res.failed.filter((f) => f.reason === 'ORDER_NOT_FOUND').map((f) => f.orderId);
  const asClientIds =
    baseUrl === undefined || notFound.length === 0
      ? undefined
      : clientIdHint(ctx, baseUrl, notFound, (cids) => ['order', 'cancel', '--client-id', ...cids, ...actingWords(ctx)]);
  // None of them found: exit 4 (a partial failure is some done, some not).
  if (res.canceled.length === 0 && res.failed.length > 0 && res.failed.every((f) => f.reason === 'ORDER_NOT_FOUND'))
    throw new NotFoundError(
      `no order to cancel: ${res.failed.length > 1 ? `none of the ${res.failed.length} was found` : 'it was not found'}`,
      {
        hint: asClientIds ?? `${NOT_FOUND_HINT} (pm order list shows open orders).`,
      },
    );
  if (res.failed.length)
    throw new PartialFailureError(`${res.failed.length} order${res.failed.length > 1 ? 's' : ''} could not be canceled`, {
      hint: res.failed.some((f) => f.reason === 'STILL_OPEN')
        ? 'STILL_OPEN: cancel them again (cancelling twice is harmless).'
        : (asClientIds ?? `${NOT_FOUND_HINT}.`),
    });
}
