import { defineCommand } from '../../cli/command.js';
import { batchFromTerminal, fileOnce, readInput } from '../../cli/files.js';
import type { Context } from '../../cli/context.js';
import { actingWords, clientIdHint, sameCommand, statusLine, withRerunHint } from '../../cli/rerun.js';
import { NotFoundError, PmError, UsageError, ValidationError, withHint } from '../../core/errors.js';
import { formatUnits, priceText } from '../../core/money.js';
import { decimal, sentOf, text, unfinishedBatch } from '../../core/trade/batch.js';
import { checkReplaceInput, oldOrder, replaceOrder, replaceRefusal, replaceUnknown } from '../../core/trade/replace.js';
import type { ReplaceInput, ReplaceOutcome } from '../../core/trade/replace.js';
import { onBehalfOfExample } from '../../core/trade/terms.js';

function outcomeText(ctx: Context, r: ReplaceOutcome): void {
  const o = r.replacement.order;
  ctx.out.keyValue([
    ['cancelled', `${r.cancel.orderId} (${r.cancel.status}${r.cancel.error ? `: ${r.cancel.error.message}` : ''})`],
    [
      'replacement',
      o
        ? `${String(o['orderId'])} ${String(o['side'])} ${String(o['outcome'])} ${String(o['size'])} @ ${priceText(String(o['price']))} (client id ${r.replacement.clientOrderId}${r.replacement.alreadyPlaced ? ', already placed' : ''})`
        : `${r.replacement.status}${r.replacement.error ? `: ${r.replacement.error.message}` : ''} (client id ${r.replacement.clientOrderId})`,
    ],
    ...(o ? [['status', replacementState(o)] as [string, string]] : []),
  ]);
}

/** What became of the replacement: like every order, it may match at once. */
function replacementState(o: Record<string, unknown>): string {
  const f = (o['filled'] ?? {}) as { shares?: string; averagePrice?: string | null };
  const settlement = `settlement ${String(o['settlementStatus'])}`;
  if (o['status'] === 'CANCELED') return `cancelled, ${settlement}`;
  return o['matched'] === true
    ? `matched at once: ${f.shares ?? '?'} shares at avg ${f.averagePrice ? priceText(f.averagePrice) : '?'}, ${settlement}`
    : `resting on the book, ${settlement}`;
}

/** --file replaces the orders its lines name: an order named on the command line too is refused. */
function notBoth(orderId: string | undefined, clientId: string | undefined): void {
  if (orderId !== undefined || clientId !== undefined) throw new UsageError('give either an order or --file, not both');
}

/** One batch line: {"orderId"|"clientId", "price"?, "size"?, "newClientId"?}. */
function lineInput(raw: unknown, n: number): ReplaceInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`line ${n}: not a JSON object`);
  const o = raw as Record<string, unknown>;
  // Typed as a line of order place --file is: a wrongly typed field (a JSON number price) refuses the line.
  const s = (k: string): string | undefined => text(o[k], `line ${n}: ${k}`);
  const money = (k: string): string | undefined => decimal(o[k], `line ${n}: ${k}`);
  for (const k of Object.keys(o))
    if (!['orderId', 'clientId', 'price', 'size', 'newClientId', 'delegated'].includes(k))
      throw new ValidationError(`line ${n}: unknown field "${k}"`);
  const delegated = o['delegated'];
  if (delegated !== undefined && typeof delegated !== 'boolean') throw new ValidationError(`line ${n}: delegated must be true or false`);
  return {
    orderId: s('orderId'),
    oldClientId: s('clientId'),
    price: money('price'),
    size: money('size'),
    clientId: s('newClientId'),
    ...(delegated === undefined ? {} : { delegated }),
  };
}

/** The lines of a replace --file that say something (not blank, not a # comment), numbered from 1. */
function movesIn(text: string): { n: number; l: string }[] {
  return text
    .split('\n')
    .map((l, i) => ({ n: i + 1, l: l.trim() }))
    .filter((x) => x.l && !x.l.startsWith('#'));
}

const noMoves = (file: string): UsageError => new UsageError(`no replacements in ${file === '-' ? 'stdin' : file}`);

export default defineCommand({
  path: ['order', 'replace'],
  effect: 'order',
  actsFor: true,
  describe: async (ctx, { args, opts }) => {
    const who = ctx.onBehalfOf === undefined ? '' : `\n  for sub-account ${ctx.onBehalfOf}`;
    if (opts.file !== undefined) {
      if (opts.file === '-') throw batchFromTerminal('order replace', 'replacements');
      const n = fileOnce(ctx, opts.file, movesIn).length;
      return `Replace ${n} order${n === 1 ? '' : 's'} from ${opts.file}${who}`;
    }
    const old = (await oldOrder(await ctx.tradingApi(), { orderId: args.orderId, oldClientId: opts.clientId })).order;
    const market = (old['market'] as { slug?: string } | undefined)?.slug ?? String(old['marketSlug'] ?? '?');
    const side = old['side'] === 0 || old['side'] === 'BUY' ? 'BUY' : 'SELL';
    const remaining = /^\d+$/.test(String(old['remainingSize'])) ? formatUnits(BigInt(String(old['remainingSize']))) : '?';
    return `Replace order ${String(old['id'])}: ${side} ${remaining} @ ${priceText(String(old['price'] ?? '?'))} on ${market}\n  with: ${side} ${opts.size ?? remaining} @ ${priceText(opts.price ?? String(old['price'] ?? '?'))}${opts.allowFailure ? ' (placed even if the cancel fails)' : ''}${who}`;
  },
  summary: 'Move a resting order in one request: the old one cancelled, the new one resting (cancel-replace)',
  description:
    'One POST /orders/cancel-replace: the old order is cancelled and the replacement placed, or (mode STOP_ON_FAILURE, the default) nothing is placed when the cancel fails, so there is never a second order beside one that could not be cancelled. The replacement keeps the old order\'s market, side and outcome; --price and --size change it (size defaults to the old order\'s remaining size). It gets its own client id (--new-client-id, else generated, always reported) and is exactly-once like any order: journaled before it is sent, looked up after a lost answer, so re-running the same command never places it twice.\n\n--file takes NDJSON lines {"orderId"|"clientId", "price", "size", "newClientId"?}, one result per line; price and size are decimal strings (a JSON number refuses its line, as in order place --file).\n\nExit codes: 0 both parts done, 2 bad input (nothing sent), 4 no such order, 7 outcome unknown (re-run the same command; for a --file, no line failed but the outcome of some is unknown), 8 some lines of a --file failed, 9 the exchange refused the cancel or the replacement (both results printed).',
  args: { orderId: { description: 'the order to replace (or --client-id)' } },
  options: {
    clientId: { type: 'string', value: 'id', description: 'the order to replace, by its client id' },
    price: { type: 'string', value: 'p', description: 'new limit price (default: the old one)' },
    size: { type: 'string', value: 'shares', description: "new size (default: the old order's remaining size)" },
    newClientId: { type: 'string', value: 'id', description: "the replacement's client id (default: generated)" },
    allowFailure: { type: 'boolean', description: 'place the replacement even when the cancel fails (mode ALLOW_FAILURE)' },
    file: { type: 'string', value: 'file', description: 'NDJSON lines of replacements, or - for stdin' },
    delegated: {
      type: 'boolean',
      description: "a check that the sub-account's orders are signed by the exchange (server wallet); pm tells the mode itself",
    },
  },
  examples: [
    'pm order replace 7d0c… --price 0.43',
    'pm order replace --client-id bot-42 --price 0.41 --size 20 --new-client-id bot-43',
    'pm --json order replace 7d0c… --size 5 | jq .replacement.order.orderId',
    'pm --json order replace --file moves.ndjson',
  ],
  check: (ctx, { args, opts }) => {
    // (As order place refuses it: only a sub-account's order can be signed by the exchange.)
    if (opts.delegated && ctx.onBehalfOf === undefined)
      throw new ValidationError('--delegated needs --on-behalf-of <profileId> (the server signs for that sub-account)', {
        hint: onBehalfOfExample('flags'),
      });
    if (opts.file === undefined)
      checkReplaceInput({ orderId: args.orderId, oldClientId: opts.clientId, price: opts.price, size: opts.size });
    else {
      notBoth(args.orderId, opts.clientId);
      // A file with no line is said before the confirmation (stdin is read by the run only).
      if (opts.file !== '-' && fileOnce(ctx, opts.file, movesIn).length === 0) throw noMoves(opts.file);
    }
  },
  run: async (ctx, { args, opts }) => {
    const mode = opts.allowFailure ? ('ALLOW_FAILURE' as const) : ('STOP_ON_FAILURE' as const);
    const deps = await ctx.tradingDeps();
    if (opts.file !== undefined) {
      notBoth(args.orderId, opts.clientId);
      const lines = opts.file === '-' ? movesIn(await readInput(ctx, opts.file)) : fileOnce(ctx, opts.file, movesIn);
      if (lines.length === 0) throw noMoves(opts.file);
      let failed = 0;
      // The replacements' client ids of the lines whose outcome is unknown (one each).
      const unknownIds: (string | undefined)[] = [];
      for (const { n, l } of lines) {
        let rec: Record<string, unknown>;
        // Whether the line got as far as its cancel-replace request (an error before it sent nothing).
        let sending = false;
        // Its text line when the replacement is placed but the old order's cancel failed.
        let beside: string | undefined;
        try {
          const line = lineInput(JSON.parse(l), n);
          const r = await replaceOrder(
            deps,
            { ...line, delegated: line.delegated ?? opts.delegated, mode },
            {
              journal: deps.journal,
              signal: ctx.signal,
              onSending: () => {
                sending = true;
              },
            },
          );
          const unsure = replaceUnknown(r);
          if (unsure) {
            // (A part pm could not learn: unknown, never failed.)
            unknownIds.push(r.replacement.clientOrderId);
            rec = {
              line: n,
              ...r,
              clientOrderId: r.replacement.clientOrderId,
              sent: 'unknown',
              error: { code: unsure.code, message: unsure.shortMessage },
            };
          } else {
            if (!r.ok) failed++;
            // (Not ok: the exchange answered and refused a part. ALLOW_FAILURE: the replacement may
            // be placed beside an old order whose cancel failed.)
            rec = { line: n, ...r, ...(r.ok ? {} : { sent: 'yes' }) };
            if (!r.ok && r.replacement.status === 'SUCCESS')
              beside = `replacement placed, but the cancel of ${r.cancel.orderId} failed (${r.cancel.error?.message ?? r.cancel.status})`;
          }
        } catch (e) {
          if (ctx.signal?.aborted) throw e;
          const pe = e instanceof PmError ? e : new PmError(e instanceof SyntaxError ? `line ${n}: not JSON` : String(e));
          // An outcome pm could not read is unknown, counted apart: the replacement may exist.
          const sent = sentOf(pe, sending);
          if (sent === 'unknown') unknownIds.push(pe.unknownClientId);
          else failed++;
          rec = {
            line: n,
            ok: false,
            ...(pe.unknownClientId ? { clientOrderId: pe.unknownClientId } : {}),
            sent,
            error: { code: pe.code, message: pe.shortMessage },
          };
        }
        // One thing per line, in the format asked: a record (json, ndjson) or a text line (table).
        if (ctx.out.format !== 'table') ctx.out.record(rec);
        else {
          const why = rec['error'] ? ` (${(rec['error'] as { message: string }).message})` : '';
          ctx.out.line(`line ${n}: ${rec['ok'] ? 'replaced' : rec['sent'] === 'unknown' ? `unknown${why}` : (beside ?? `failed${why}`)}`);
        }
      }
      const end = unfinishedBatch({
        total: lines.length,
        failed,
        unknown: unknownIds.length,
        noun: 'replacement',
        // The same command: each line's replacement id comes from the line, so a line already
        // replaced is found by it (already placed) and an unknown one is looked up first.
        command: sameCommand(ctx),
        safe:
          unknownIds.length > 0
            ? "each line's replacement keeps its client id, and one that may exist is looked up first"
            : "a line already replaced is found by its replacement's client id",
        fix: 'Fix the failed lines',
        check: statusLine(ctx, unknownIds),
      });
      if (end) throw end;
      return;
    }
    const r = await replaceOrder(
      deps,
      {
        orderId: args.orderId,
        oldClientId: opts.clientId,
        price: opts.price,
        size: opts.size,
        clientId: opts.newClientId,
        delegated: opts.delegated,
        mode,
      },
      { journal: deps.journal, signal: ctx.signal },
    ).catch((e: unknown) => {
      // An order id not found that pm sent as a client id: the same replace, naming it so.
      const asClientId =
        e instanceof NotFoundError && args.orderId !== undefined
          ? clientIdHint(ctx, deps.api.baseUrl, [args.orderId], ([cid]) => [
              'order',
              'replace',
              '--client-id',
              cid ?? '',
              ...(opts.price !== undefined ? ['--price', opts.price] : []),
              ...(opts.size !== undefined ? ['--size', opts.size] : []),
              ...(opts.newClientId !== undefined ? ['--new-client-id', opts.newClientId] : []),
              ...(opts.allowFailure ? ['--allow-failure'] : []),
              ...(opts.delegated ? ['--delegated'] : []),
              ...actingWords(ctx),
            ])
          : undefined;
      if (asClientId !== undefined) throw withHint(e as NotFoundError, asClientId, 'replace');
      // In order replace, --client-id names the old order: the replacement's is --new-client-id.
      throw withRerunHint(ctx, e, '--new-client-id');
    });
    const unsure = replaceUnknown(r);
    if (unsure) throw withRerunHint(ctx, unsure, '--new-client-id', ['order', 'status', r.cancel.orderId]);
    ctx.out.data(r, () => outcomeText(ctx, r));
    if (!r.ok) throw replaceRefusal(r);
    return;
  },
});
