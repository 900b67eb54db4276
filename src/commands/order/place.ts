import { readFileSync } from 'node:fs';
import type { Handler } from '../../cli/command.js';
import { optBool, optNum, optStr } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { confirm } from '../../cli/prompt.js';
import { PartialFailureError, PmError, UsageError, ValidationError } from '../../core/errors.js';
import { buildSignedOrder, parseOrderInput, placeOrder } from '../../core/trade/index.js';
import type { OrderInput, OrderSummary, ParsedOrder, Placed } from '../../core/trade/index.js';
import { toPmError } from '../../cli/errors.js';
import { formatUnits } from '../../core/money.js';
import { tradingDeps } from './deps.js';
import { placedJson, placedText } from './render.js';

/** Reads the batch input: a file path or `-` for stdin. */
async function readBatch(ctx: Context, file: string): Promise<string> {
  if (file !== '-') {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
  }
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** One NDJSON line in the same fields as the flags (market/slug, side, outcome, type, price, size, amount, postOnly, clientId, onBehalfOf, delegated, expires). */
export function lineInput(o: unknown): OrderInput {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ValidationError('each line must be a JSON object');
  const r = o as Record<string, unknown>;
  const known = new Set(['market', 'slug', 'side', 'outcome', 'type', 'price', 'size', 'amount', 'postOnly', 'clientId', 'clientOrderId', 'onBehalfOf', 'delegated', 'expires']);
  const unknown = Object.keys(r).filter((k) => !known.has(k));
  if (unknown.length) throw new ValidationError(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`, { hint: `Fields: ${[...known].join(', ')}` });
  const obo = r['onBehalfOf'];
  return {
    market: s(r['market']) ?? s(r['slug']),
    side: s(r['side']),
    outcome: s(r['outcome']),
    type: s(r['type']),
    price: s(r['price']),
    size: s(r['size']),
    amount: s(r['amount']),
    postOnly: r['postOnly'] === true,
    clientId: s(r['clientId']) ?? s(r['clientOrderId']),
    onBehalfOf: typeof obo === 'number' ? obo : typeof obo === 'string' && /^\d+$/.test(obo) ? Number(obo) : undefined,
    delegated: r['delegated'] === true,
    expires: s(r['expires']),
  };
}

async function confirmPlace(ctx: Context, sandbox: boolean, what: string): Promise<void> {
  if (ctx.flags.yes || sandbox) return;
  if (!ctx.interactive) {
    throw new UsageError('placing an order on the real exchange needs confirmation', { hint: 'Pass --yes (scripts), or run in a terminal to confirm.' });
  }
  if (!(await confirm(ctx, what))) throw new UsageError('not placed: declined');
}

function describe(s: OrderSummary): string {
  const qty = s.type === 'FOK' ? `${s.amount ?? ''} ${s.side === 'BUY' ? 'USDC of' : 'shares of'}` : `${s.size ?? ''} ${s.outcome} @ ${s.price ?? ''}`;
  return `${s.type} ${s.side} ${qty}${s.type === 'FOK' ? ` ${s.outcome}` : ''} on ${s.market} (${s.side === 'BUY' ? 'up to' : 'at least'} $${s.notional} + fee at ${s.feeRateBps} bps)`;
}

const run: Handler = async (ctx, { args, opts }) => {
  const file = optStr(opts, 'file');
  if (file !== undefined) {
    if (args.length > 0) throw new UsageError('give either <slug> <side> <outcome> or --file, not both');
    return placeBatch(ctx, file, optBool(opts, 'dryRun'));
  }
  // Everything that can be checked offline is checked before any request.
  const parsed = parseOrderInput({
    market: args[0],
    side: args[1],
    outcome: args[2],
    type: optStr(opts, 'type'),
    price: optStr(opts, 'price'),
    size: optStr(opts, 'size'),
    amount: optStr(opts, 'amount'),
    postOnly: optBool(opts, 'postOnly'),
    clientId: optStr(opts, 'clientId'),
    onBehalfOf: optNum(opts, 'onBehalfOf') ?? ctx.profile().onBehalfOf,
    delegated: optBool(opts, 'delegated'),
    expires: optStr(opts, 'expires'),
  });
  const deps = await tradingDeps(ctx);
  if (parsed.expiration !== 0n && !deps.sandbox) {
    ctx.out.warn('the exchange is reported to reject orders with a non-zero expiration; cancel the order yourself instead of --expires if it is refused');
  }
  const signed = await buildSignedOrder(deps, parsed);
  if (optBool(opts, 'dryRun')) {
    ctx.io.stdout.write(`${JSON.stringify(signed.body, null, ctx.out.isJson ? undefined : 2)}\n`);
    ctx.out.info(`dry run: ${describe(signed.summary)}; nothing was sent (POST /orders with this exact body).`);
    return 0;
  }
  await confirmPlace(ctx, deps.sandbox, `Place ${describe(signed.summary)}?`);
  ctx.out.info(`placing ${describe(signed.summary)} (client id ${parsed.clientOrderId})`);
  const placed = await placeOrder(deps.api, signed.body, deps.journal, { onNote: (n) => ctx.out.info(n) });
  ctx.out.data(placedJson(placed, signed.summary), () => placedText(ctx.out, placed, signed.summary));
  return 0;
};

interface LineResult {
  line: number;
  ok: boolean;
  placed?: Placed;
  summary?: OrderSummary;
  error?: PmError;
  clientOrderId?: string;
}

async function placeBatch(ctx: Context, file: string, dryRun: boolean): Promise<number> {
  const text = await readBatch(ctx, file);
  const lines = text.split('\n').map((l, i) => ({ n: i + 1, text: l.trim() })).filter((l) => l.text && !l.text.startsWith('#'));
  if (lines.length === 0) throw new UsageError(`no orders in ${file === '-' ? 'stdin' : file}`);
  const results: LineResult[] = [];
  const parsed: { n: number; p: ParsedOrder }[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    try {
      const p = parseOrderInput(lineInput(JSON.parse(l.text) as unknown));
      if (seen.has(p.clientOrderId)) throw new ValidationError(`client id ${p.clientOrderId} appears twice in the batch`);
      seen.add(p.clientOrderId);
      parsed.push({ n: l.n, p });
    } catch (e) {
      const err = e instanceof SyntaxError ? new ValidationError(`not valid JSON: ${e.message}`) : toPmError(e);
      results.push({ line: l.n, ok: false, error: err });
    }
  }
  const emit = (r: LineResult): void => {
    if (ctx.out.format === 'table') return;
    ctx.out.record(
      r.ok && r.placed
        ? { line: r.line, ok: true, ...placedJson(r.placed, r.summary ?? null) }
        : { line: r.line, ok: false, ...(r.clientOrderId ? { clientOrderId: r.clientOrderId } : {}), error: { code: r.error?.code ?? 'UNEXPECTED', message: r.error?.shortMessage ?? 'failed', ...(r.error?.status !== undefined ? { status: r.error.status } : {}) } },
    );
  };
  for (const r of results) emit(r);
  let deps: Awaited<ReturnType<typeof tradingDeps>> | undefined;
  if (parsed.length > 0) {
    deps = await tradingDeps(ctx);
    if (!dryRun) await confirmPlace(ctx, deps.sandbox, `Place ${parsed.length} orders from ${file === '-' ? 'stdin' : file}?`);
  }
  // Sign everything first (fast, local), then send as fast as the per-token limit allows.
  const started = Date.now();
  await Promise.all(
    parsed.map(async ({ n, p }) => {
      const d = deps;
      if (!d) return;
      let r: LineResult;
      try {
        const signed = await buildSignedOrder(d, p);
        if (dryRun) {
          ctx.out.record({ line: n, dryRun: true, body: signed.body });
          return;
        }
        const placed = await placeOrder(d.api, signed.body, d.journal, { onNote: (msg) => ctx.out.info(`line ${n}: ${msg}`) });
        r = { line: n, ok: true, placed, summary: signed.summary };
      } catch (e) {
        r = { line: n, ok: false, error: toPmError(e), clientOrderId: p.clientOrderId };
      }
      results.push(r);
      emit(r);
    }),
  );
  if (dryRun) return 0;
  results.sort((a, b) => a.line - b.line);
  const failed = results.filter((r) => !r.ok);
  if (ctx.out.format === 'table') {
    ctx.out.table(
      [{ header: 'LINE', align: 'right' }, { header: 'RESULT' }, { header: 'ORDER ID' }, { header: 'CLIENT ID' }, { header: 'STATUS' }, { header: 'FILLED', align: 'right' }],
      results.map((r) =>
        r.ok && r.placed
          ? [String(r.line), 'placed', r.placed.orderId, r.placed.clientOrderId, r.placed.settlementStatus, formatUnits(r.placed.totals.contractsNet)]
          : [String(r.line), 'FAILED', '-', r.clientOrderId ?? '-', r.error?.shortMessage ?? '', '-'],
      ),
    );
  }
  ctx.out.info(`${results.length - failed.length} placed, ${failed.length} failed, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (failed.length > 0) {
    for (const f of failed) ctx.io.stderr.write(`line ${f.line}: ${f.error?.shortMessage ?? 'failed'}\n`);
    throw new PartialFailureError(`${failed.length} of ${results.length} orders failed`, { hint: 'Fix those lines and run them again; re-sending placed lines with the same clientId is safe.' });
  }
  return 0;
}

export default run;
