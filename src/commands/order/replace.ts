import { defineCommand } from '../../cli/command.js';
import { readInput } from '../../cli/files.js';
import type { Context } from '../../cli/context.js';
import { withRerunHint } from '../../cli/rerun.js';
import { PartialFailureError, PmError, UsageError, ValidationError } from '../../core/errors.js';
import { replaceOrder, replaceRefusal } from '../../core/trade/replace.js';
import type { ReplaceInput, ReplaceOutcome } from '../../core/trade/replace.js';

function outcomeText(ctx: Context, r: ReplaceOutcome): void {
  const o = r.replacement.order;
  ctx.out.keyValue([
    ['cancelled', `${r.cancel.orderId} (${r.cancel.status}${r.cancel.error ? `: ${r.cancel.error.message}` : ''})`],
    [
      'replacement',
      o
        ? `${String(o['orderId'])} ${String(o['side'])} ${String(o['outcome'])} ${String(o['size'])} @ ${String(o['price'])} (client id ${r.replacement.clientOrderId}${r.replacement.alreadyPlaced ? ', already placed' : ''})`
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
    ? `matched at once: ${f.shares ?? '?'} shares at avg ${f.averagePrice ?? '?'}, ${settlement}`
    : `resting on the book, ${settlement}`;
}

/** One batch line: {"orderId"|"clientId", "price"?, "size"?, "newClientId"?}. */
function lineInput(raw: unknown, n: number): ReplaceInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`line ${n}: not a JSON object`);
  const o = raw as Record<string, unknown>;
  const s = (k: string): string | undefined => {
    const v = o[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') throw new ValidationError(`line ${n}: ${k} must be a string`);
    return String(v);
  };
  for (const k of Object.keys(o))
    if (!['orderId', 'clientId', 'price', 'size', 'newClientId'].includes(k)) throw new ValidationError(`line ${n}: unknown field "${k}"`);
  return { orderId: s('orderId'), oldClientId: s('clientId'), price: s('price'), size: s('size'), clientId: s('newClientId') };
}

export default defineCommand({
  path: ['order', 'replace'],
  summary: 'Move a resting order in one request: the old one cancelled, the new one resting (cancel-replace)',
  description:
    'One POST /orders/cancel-replace: the old order is cancelled and the replacement placed, or (mode STOP_ON_FAILURE, the default) nothing is placed when the cancel fails, so there is never a second order beside one that could not be cancelled. The replacement keeps the old order\'s market, side and outcome; --price and --size change it (size defaults to the old order\'s remaining size). It gets its own client id (--new-client-id, else generated, always reported) and is exactly-once like any order: journaled before it is sent, looked up after a lost answer, so re-running the same command never places it twice.\n\n--file takes NDJSON lines {"orderId"|"clientId", "price", "size", "newClientId"?}, one result per line.\n\nExit codes: 0 both parts done, 2 bad input (nothing sent), 4 no such order, 7 outcome unknown (re-run the same command), 8 some lines of a --file failed, 9 the exchange refused the cancel or the replacement (both results printed).',
  args: { orderId: { description: 'the order to replace (or --client-id)' } },
  options: {
    clientId: { type: 'string', value: 'id', description: 'the order to replace, by its client id' },
    price: { type: 'string', value: 'p', description: 'new limit price (default: the old one)' },
    size: { type: 'string', value: 'shares', description: "new size (default: the old order's remaining size)" },
    newClientId: { type: 'string', value: 'id', description: "the replacement's client id (default: generated)" },
    allowFailure: { type: 'boolean', description: 'place the replacement even when the cancel fails (mode ALLOW_FAILURE)' },
    file: { type: 'string', value: 'file', description: 'NDJSON lines of replacements, or - for stdin' },
    onBehalfOf: { type: 'positiveInt', value: 'profileId', description: 'for a partner sub-account' },
  },
  examples: [
    'pm order replace 7d0c… --price 0.43',
    'pm order replace --client-id bot-42 --price 0.41 --size 20 --new-client-id bot-43',
    'pm --json order replace 7d0c… --size 5 | jq .replacement.order.orderId',
    'pm --json order replace --file moves.ndjson',
  ],
  run: async (ctx, { args, opts }) => {
    const mode = opts.allowFailure ? ('ALLOW_FAILURE' as const) : ('STOP_ON_FAILURE' as const);
    const deps = await ctx.tradingDeps({ onBehalfOf: opts.onBehalfOf });
    if (opts.file !== undefined) {
      if (args.orderId !== undefined || opts.clientId !== undefined) throw new UsageError('give either an order or --file, not both');
      const text = await readInput(ctx, opts.file);
      const lines = text
        .split('\n')
        .map((l, i) => ({ n: i + 1, l: l.trim() }))
        .filter((x) => x.l && !x.l.startsWith('#'));
      if (lines.length === 0) throw new UsageError(`no replacements in ${opts.file}`);
      let failed = 0;
      for (const { n, l } of lines) {
        let rec: Record<string, unknown>;
        try {
          const r = await replaceOrder(deps, { ...lineInput(JSON.parse(l), n), mode }, { journal: deps.journal, signal: ctx.signal });
          if (!r.ok) failed++;
          rec = { line: n, ...r };
        } catch (e) {
          if (ctx.signal?.aborted) throw e;
          failed++;
          const pe = e instanceof PmError ? e : new PmError(e instanceof SyntaxError ? `line ${n}: not JSON` : String(e));
          rec = { line: n, ok: false, error: { code: pe.code, message: pe.shortMessage } };
        }
        ctx.out.record(rec);
        if (ctx.out.format === 'table')
          ctx.out.line(
            `line ${n}: ${rec['ok'] ? 'replaced' : `failed${rec['error'] ? ` (${(rec['error'] as { message: string }).message})` : ''}`}`,
          );
      }
      if (failed > 0) throw new PartialFailureError(`${failed} of ${lines.length} replacements failed`);
      return 0;
    }
    const r = await replaceOrder(
      deps,
      { orderId: args.orderId, oldClientId: opts.clientId, price: opts.price, size: opts.size, clientId: opts.newClientId, mode },
      { journal: deps.journal, signal: ctx.signal },
    ).catch((e: unknown) => {
      // In order replace, --client-id names the old order: the replacement's is --new-client-id.
      throw withRerunHint(ctx, e, '--new-client-id');
    });
    ctx.out.data(r, () => outcomeText(ctx, r));
    if (!r.ok) throw replaceRefusal(r);
    return 0;
  },
});
