import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { batchFromTerminal, fileOnce, readInput } from '../../cli/files.js';
import type { Context } from '../../cli/context.js';
import { sameCommand, statusLine, withRerunHint } from '../../cli/rerun.js';
import { InterruptedError, PartialFailureError, UsageError } from '../../core/errors.js';
import { buildSignedOrder, parseBatch, parseOrderInput, placeParsed, runBatch, unfinishedBatch } from '../../core/trade/index.js';
import type { LineResult, OrderSummary, ParsedOrder } from '../../core/trade/index.js';
import { formatUnits, priceText } from '../../core/money.js';
import { placedJson, placedText } from './render.js';
import { batchLineJson } from '../../core/trade/views.js';

function describe(s: OrderSummary): string {
  const qty =
    s.type === 'FOK'
      ? `${s.amount ?? ''} ${s.side === 'BUY' ? 'USDC of' : 'shares of'}`
      : `${s.size ?? ''} ${s.outcome} @ ${priceText(s.price ?? '')}`;
  return `${s.type} ${s.side} ${qty}${s.type === 'FOK' ? ` ${s.outcome}` : ''} on ${s.market} (${s.side === 'BUY' ? 'up to' : 'at least'} $${s.notional} + fee at ${s.feeRateBps} bps)`;
}

const TYPES = ['gtc', 'fok', 'fak', 'GTC', 'FOK', 'FAK'] as const;

export default defineCommand({
  path: ['order', 'place'],
  effect: 'order',
  // A batch file none of whose lines can be sent sends nothing: its lines are reported, never
  // asked about (stdin is read by the run only).
  effectNote: 'With `--dry-run`, or a batch file without a valid line: **read**',
  effectOf: ({ opts }, ctx) =>
    opts.dryRun || (opts.file !== undefined && opts.file !== '-' && !batchFile(ctx, opts.file, opts).some((l) => l.parsed))
      ? 'read'
      : 'order',
  actsFor: true,
  describe: async (ctx, { args, opts }) => {
    if (opts.file !== undefined) {
      if (opts.file === '-') throw batchFromTerminal('order place', 'orders');
      const all = batchFile(ctx, opts.file, opts);
      const lines = all.filter((l) => l.parsed);
      const markets = new Set(lines.map((l) => l.parsed?.slug));
      const invalid = all.length - lines.length;
      return `Place ${lines.length} order${lines.length === 1 ? '' : 's'} in ${markets.size} market${markets.size === 1 ? '' : 's'} from ${opts.file}${invalid === 0 ? '' : ` (${invalid} invalid line${invalid === 1 ? '' : 's'}, not sent)`}${ctx.onBehalfOf === undefined ? '' : ` for sub-account ${ctx.onBehalfOf}`}`;
    }
    const deps = await ctx.tradingDeps();
    const signed = await buildSignedOrder(deps, parseOrderInput(orderInput(ctx, withMarket(args, opts.market), opts)));
    return `Place ${describe(signed.summary)}${ctx.onBehalfOf === undefined ? '' : ` for sub-account ${ctx.onBehalfOf}`}`;
  },
  summary: 'Place a signed order (GTC, FOK, FAK), or a batch from NDJSON',
  description:
    "Place a signed order. Every order carries a client id (generated when absent, always shown) and is journaled under PM_HOME before it is sent; if an answer is lost, pm asks the exchange by client id before sending again, so re-running the same command with the same --client-id never creates a second order; run again as first typed (no --client-id) within 15 minutes of an unknown outcome, an identical order completes that one under its client id instead of placing a second. If the client id already holds an order, pm compares it with the request: the same order is reported (exit 0, alreadyPlaced), a different one is a conflict (exit 5).\n\nBatch: --file orders.ndjson (or - for stdin), one JSON object per line with the fields market, side, outcome, type, price, size, amount, postOnly, stp, clientId, onBehalfOf, delegated, each typed as its flag (postOnly and delegated JSON booleans). A line without clientId gets a deterministic one (pmb-…, from the line's order fields and --batch-id), so running the same batch again skips the lines the journal says were placed and places the rest: an interrupted batch is resumed by re-running it. One result per line (NDJSON with --json); exit 8 when some failed, 7 when none failed but the outcome of some is unknown (counted apart; run the same command, which looks them up first), 2 when every line is invalid, 130 on Ctrl-C (placed and unsent lines are listed).\n\nExit codes: 0 placed (or already placed with the same parameters), 2 refused locally (nothing sent), 5 the client id holds a different order, 7 unknown outcome (re-run the same command), 9 refused by the exchange, 130 Ctrl-C (an order already on the wire is waited for, and shown placed).",
  args: {
    // Checked by parseOrderInput (not by commander's choices), so that with --market the words shift by one.
    slug: { description: 'market slug (a child market for NegRisk groups); or give it as --market' },
    side: { description: 'buy or sell', suggestions: ['buy', 'sell'] },
    outcome: { description: 'yes or no', suggestions: ['yes', 'no'] },
  },
  options: {
    type: {
      type: 'string',
      value: 'type',
      description: 'gtc (rests), fok (all or nothing by amount), fak (fill what it can)',
      choices: TYPES,
      default: 'gtc',
    },
    price: { type: 'string', value: 'p', description: 'limit price, 0.001 to 1 on a 0.001 tick (GTC, FAK)' },
    size: { type: 'string', value: 'shares', description: 'shares, up to 3 decimals (GTC, FAK)' },
    amount: { type: 'string', value: 'n', description: 'FOK: USDC to spend (BUY) or shares to sell (SELL)' },
    postOnly: { type: 'boolean', description: 'GTC only: refuse if it would match immediately' },
    stp: {
      type: 'string',
      value: 'policy',
      description:
        'if it would match your own resting order: cancel_maker (the exchange default: cancel that order and go on), cancel_taker (stop this order there), cancel_both',
      choices: ['cancel_maker', 'cancel_taker', 'cancel_both'],
    },
    clientId: { type: 'string', value: 'id', description: 'your idempotency key (≤128 chars); generated when absent' },
    delegated: {
      type: 'boolean',
      description:
        "a check that the sub-account's orders are signed by the exchange (a server wallet); pm tells the mode itself, so it is needed only when it cannot",
    },
    dryRun: { type: 'boolean', description: 'print the exact signed request body and send nothing' },
    market: { type: 'string', value: 'slug', description: 'the market, as the <slug> argument (as order list --market takes it)' },
    file: { type: 'string', value: 'file', description: 'NDJSON batch file, or - for stdin' },
    batchId: {
      type: 'string',
      value: 'id',
      description: 'with --file: namespace for generated client ids (a new id places the same lines again as new orders)',
    },
  },
  examples: [
    'pm order place btc-100k-2026 buy yes --price 0.42 --size 10',
    'pm order place btc-100k-2026 buy yes --type fok --amount 25',
    'pm order place btc-100k-2026 sell no --type fak --price 0.61 --size 5 --client-id bot-42',
    'pm order place btc-100k-2026 buy yes --price 0.40 --size 10 --post-only --dry-run',
    'pm order place btc-100k-2026 buy yes --price 0.55 --size 10 --stp cancel_taker',
    "pm --json order place --file orders.ndjson | jq -c 'select(.ok | not)'",
    'pm order place --file orders.ndjson --batch-id 2026-01-31',
  ],
  check: (ctx, { args, opts }) => {
    const line = commandLine(ctx, args, opts);
    // A batch file that cannot be read, or holds no order, is said before the confirmation, as the
    // run would say it (stdin is read by the run only).
    if ('file' in line && line.file !== '-' && batchFile(ctx, line.file, opts).length === 0) throw noOrders(line.file);
  },
  run: async (ctx, { args, opts }) => {
    // Everything that can be checked offline is checked before any request.
    const line = commandLine(ctx, args, opts);
    if ('file' in line)
      return placeBatch(ctx, line.file, {
        dryRun: opts.dryRun,
        batchId: opts.batchId,
        delegated: opts.delegated,
      });
    const { parsed } = line;
    const deps = await ctx.tradingDeps();
    if (opts.dryRun) {
      const signed = await buildSignedOrder(deps, parsed);
      ctx.io.stdout.write(`${JSON.stringify(signed.body, null, ctx.out.isJson ? undefined : 2)}\n`);
      ctx.out.info(`dry run: ${describe(signed.summary)}; nothing was sent (POST /orders with this exact body).`);
      return;
    }
    const { placed, summary } = await placeParsed(deps, parsed, {
      journal: deps.journal,
      signal: ctx.signal,
      // The same command run again as typed after an unknown outcome completes that order.
      completeUnknownTwin: true,
      onNote: (n) => ctx.out.info(n),
      // Said only now: an unknown market or a size below the minimum fails before this, with nothing sent.
      onSending: (s) =>
        ctx.out.info(
          `placing ${s.side} ${s.outcome} on ${s.market}${ctx.onBehalfOf === undefined ? '' : ` for sub-account ${ctx.onBehalfOf}`} (client id ${s.clientOrderId})`,
        ),
    }).catch((e: unknown) => {
      throw withRerunHint(ctx, e, '--client-id');
    });
    ctx.out.data(placedJson(placed), () => placedText(ctx.out, placed, summary));
    // Ctrl-C while the order was on the wire: it was waited for, and it is placed (shown above).
    if (ctx.signal?.aborted)
      throw new InterruptedError(`interrupted after order ${placed.clientOrderId} was sent: it is placed (above)`, {
        hint: `pm order status --client-id ${placed.clientOrderId} shows it.`,
      });
  },
});

type PlaceArgs = { slug: string | undefined; side: string | undefined; outcome: string | undefined };

/**
 * The positional words with --market taken as the slug: `--market X buy yes` is `X buy yes` (the
 * words shift by one). Both at once is refused unless they name the same market.
 */
function withMarket(args: PlaceArgs, market: string | undefined): PlaceArgs {
  if (market === undefined) return args;
  if (args.outcome !== undefined) {
    if (args.slug === market) return args;
    throw new UsageError(`two markets: --market ${market} and "${args.slug ?? ''}"`, {
      hint: 'Give the market once: as <slug> or as --market.',
    });
  }
  return { slug: market, side: args.slug, outcome: args.side };
}

type BatchOpts = { batchId: string | undefined; delegated: boolean };

/** A batch's lines as the run reads them: the command line's --on-behalf-of and --delegated apply to every line that does not say. */
function batchOf(ctx: Context, text: string, opts: BatchOpts): ReturnType<typeof parseBatch> {
  return parseBatch(text, { batchId: opts.batchId, defaults: { onBehalfOf: ctx.onBehalfOf, delegated: opts.delegated || undefined } });
}

/** A batch file's lines, read and parsed once per command (fileOnce). */
function batchFile(ctx: Context, file: string, opts: BatchOpts): ReturnType<typeof parseBatch> {
  return fileOnce(ctx, file, (text) => batchOf(ctx, text, opts));
}

const noOrders = (file: string): UsageError => new UsageError(`no orders in ${file === '-' ? 'stdin' : file}`);

type PlaceOpts = Parameters<typeof orderInput>[2] & { market: string | undefined; file: string | undefined; batchId: string | undefined };

/** The command line, read offline: a batch file, or one order (refused here when it cannot be one). */
function commandLine(ctx: Context, given: PlaceArgs, opts: PlaceOpts): { file: string } | { parsed: ParsedOrder } {
  const args = withMarket(given, opts.market);
  if (opts.file !== undefined) {
    if (args.slug !== undefined) throw new UsageError('give either <slug> <side> <outcome> (or --market) or --file, not both');
    return { file: opts.file };
  }
  if (opts.batchId !== undefined) throw new UsageError('--batch-id goes with --file');
  return { parsed: parseOrderInput(orderInput(ctx, args, opts)) };
}

/** The single order's fields as parseOrderInput takes them (the flags' names). */
function orderInput(
  ctx: Context,
  args: { slug: string | undefined; side: string | undefined; outcome: string | undefined },
  opts: {
    type: string;
    price: string | undefined;
    size: string | undefined;
    amount: string | undefined;
    postOnly: boolean;
    clientId: string | undefined;
    delegated: boolean;
    stp: string | undefined;
  },
) {
  return {
    market: args.slug,
    side: args.side,
    outcome: args.outcome,
    type: opts.type,
    price: opts.price,
    size: opts.size,
    amount: opts.amount,
    postOnly: opts.postOnly,
    clientId: opts.clientId,
    onBehalfOf: ctx.onBehalfOf,
    delegated: opts.delegated,
    stp: opts.stp,
  };
}

/** "1-4, 7, 9-12" */
function ranges(ns: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length; i++) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === (ns[j] as number) + 1) j++;
    out.push(j > i ? `${ns[i]}-${ns[j]}` : String(ns[i]));
    i = j;
  }
  return out.join(', ');
}

/**
 * Records written in the order of `lines` when `ordered` (each once every line before it has its
 * record; `flush` writes what is left, in order), else as they come.
 */
function inputOrder(ordered: boolean, lines: number[], write: (r: unknown) => void) {
  const ready = new Map<number, unknown>();
  let next = 0;
  const release = (all: boolean): void => {
    for (; next < lines.length; next++) {
      const line = lines[next] ?? 0;
      if (!ready.has(line)) {
        if (all) continue;
        return;
      }
      write(ready.get(line));
      ready.delete(line);
    }
  };
  return {
    add: (line: number, r: unknown): void => {
      if (!ordered) return write(r);
      ready.set(line, r);
      release(false);
    },
    flush: (): void => release(true),
  };
}

async function placeBatch(
  ctx: Context,
  file: string,
  o: { dryRun: boolean; batchId: string | undefined; delegated: boolean },
): Promise<void> {
  const lines = file === '-' ? batchOf(ctx, await readInput(ctx, file), o) : batchFile(ctx, file, o);
  if (lines.length === 0) throw noOrders(file);
  const invalid = lines.filter((l) => l.error);
  // The records: with --json in the input's order (each as soon as every line before it has its
  // result), with -o ndjson as each line completes (each says its line).
  const emit = inputOrder(
    ctx.out.format === 'json',
    lines.map((l) => l.line),
    (r) => ctx.out.record(r),
  );
  // Locally invalid lines are reported (once) before anything is sent.
  for (const l of invalid) {
    if (ctx.out.format === 'table') ctx.io.stderr.write(`line ${l.line}: ${l.error?.shortMessage ?? 'invalid'}\n`);
    else
      emit.add(l.line, {
        line: l.line,
        ok: false,
        sent: 'no',
        error: { code: l.error?.code ?? 'VALIDATION', message: l.error?.shortMessage ?? 'invalid' },
      });
  }
  if (invalid.length === lines.length) throw new UsageError(`every line of the batch is invalid (${invalid.length}); nothing was sent`);
  const deps = await ctx.tradingDeps();
  const started = Date.now();
  // Live progress on a TTY (stderr): placed / failed / unknown / remaining, rate, ETA.
  const total = lines.length - invalid.length;
  const counts = { placed: 0, failed: 0, unknown: 0, remaining: total, rate: '0.0' };
  const bar = o.dryRun
    ? null
    : ctx.out.progress(
        total,
        'placing {bar} {value}/{total} | {placed} placed, {failed} failed, {unknown} unknown, {remaining} left | {rate}/s | ETA {eta_formatted}',
        counts,
      );
  let results: LineResult[];
  try {
    results = await runBatch(deps, lines, {
      signal: ctx.signal,
      dryRun: o.dryRun,
      onResult: (r) => {
        if (ctx.out.format !== 'table' || 'dryRun' in r) emit.add(r.line, batchLineJson(r));
        else if (o.dryRun && !r.ok) ctx.io.stderr.write(`line ${r.line}: ${r.error.shortMessage}\n`);
        if (r.ok) counts.placed++;
        else if (r.sent === 'unknown') counts.unknown++;
        else counts.failed++;
        counts.remaining--;
        const ended = counts.placed + counts.failed + counts.unknown;
        counts.rate = (ended / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1);
        bar?.update(ended, counts);
      },
      onNote: (n) => (bar ? bar.log(n) : ctx.out.info(n)),
    });
  } finally {
    bar?.stop();
    emit.flush();
  }
  const all = [
    ...results,
    ...invalid.map((l) => ({
      line: l.line,
      ok: false as const,
      error: l.error as NonNullable<typeof l.error>,
      clientOrderId: undefined,
      sent: 'no' as const,
    })),
  ].sort((a, b) => a.line - b.line);
  const placed = all.filter((r) => r.ok);
  const skipped = results.filter((r) => r.ok && 'skipped' in r && r.skipped);
  const failed = all.filter((r): r is Extract<LineResult, { ok: false }> => !r.ok);
  // A line whose outcome is unknown may have been placed: counted apart, never as failed.
  const unknown = failed.filter((f) => f.sent === 'unknown');
  const refused = failed.filter((f) => f.sent !== 'unknown');
  if (o.dryRun) {
    // A dry run exits as the real run would: 8 when some lines would fail (2, every line invalid, came earlier).
    if (failed.length === 0) return;
    throw new PartialFailureError(`dry run: ${failed.length} of ${all.length} lines would fail; nothing was sent`, {
      details: ctx.out.format === 'table' ? undefined : failed.map((f) => `line ${f.line}: ${f.error.shortMessage}`).join('\n'),
      hint: 'Fix those lines and run the dry run again.',
    });
  }
  if (ctx.out.format === 'table') {
    ctx.out.table(
      [
        { header: 'LINE', align: 'right' },
        { header: 'RESULT', fit: cutFirst(1, 16) },
        { header: 'ORDER ID', fit: cutFirst(3, 12) },
        { header: 'CLIENT ID', fit: hideFirst(2) },
        { header: 'STATUS' },
        { header: 'FILLED', align: 'right' },
      ],
      // Every line, the locally invalid ones too (NOT SENT): the summary below counts these rows.
      all.map((r) =>
        r.ok && 'placed' in r
          ? [
              String(r.line),
              r.skipped ? 'already placed (skipped)' : 'placed',
              r.placed.orderId,
              r.placed.clientOrderId,
              r.placed.settlementStatus,
              r.skipped && r.known === 'journal' ? '-' : formatUnits(r.placed.totals.contractsNet),
            ]
          : !r.ok
            ? [
                String(r.line),
                r.sent === 'no' ? 'NOT SENT' : r.sent === 'unknown' ? 'UNKNOWN' : 'FAILED',
                '-',
                r.clientOrderId ?? '-',
                r.error.shortMessage,
                '-',
              ]
            : [String(r.line), '', '', '', '', ''],
      ),
    );
  }
  if (skipped.length > 0) {
    // --batch-id changes only the ids pm makes up: a line's own clientId stays what it is.
    const own = new Set(lines.filter((l) => l.ownId).map((l) => l.line));
    const byFile = skipped.filter((r) => own.has(r.line)).length;
    const again =
      byFile === 0
        ? 'pass a new --batch-id'
        : byFile === skipped.length
          ? 'give them new clientIds in the file (--batch-id changes only the ids pm makes up for lines without one)'
          : 'pass a new --batch-id for the lines without a clientId and give the others new clientIds';
    ctx.out.info(
      `${skipped.length} line${skipped.length > 1 ? 's were' : ' was'} already placed by an earlier run (journal) and skipped; to place them again as new orders, ${again}.`,
    );
  }
  ctx.out.info(
    `${placed.length - skipped.length} placed, ${skipped.length} skipped, ${refused.length} failed${unknown.length > 0 ? `, ${unknown.length} unknown` : ''}, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const notSent = failed.filter((f) => f.sent === 'no' && f.error instanceof InterruptedError);
  if (ctx.signal?.aborted) {
    const details = [
      `placed: ${placed.length ? `line${placed.length > 1 ? 's' : ''} ${ranges(placed.map((r) => r.line))}` : 'none'}`,
      `not sent: ${notSent.length ? `line${notSent.length > 1 ? 's' : ''} ${ranges(notSent.map((r) => r.line))}` : 'none'}`,
      ...(unknown.length ? [`unknown: lines ${ranges(unknown.map((r) => r.line))}`] : []),
    ].join('\n');
    throw new InterruptedError(`interrupted: ${placed.length} of ${all.length} lines placed, ${notSent.length} not sent`, {
      details,
      hint: 'Run the same command again: it skips the placed lines and places the rest.',
    });
  }
  const end = unfinishedBatch({
    total: all.length,
    failed: refused.length,
    unknown: unknown.length,
    noun: 'order',
    // The same command: the lines' client ids come from the file (and --batch-id), not from this run.
    command: sameCommand(ctx),
    safe: unknown.length > 0 ? 'placed lines are skipped, the unknown ones looked up first' : 'placed lines are skipped',
    fix: 'Fix the failed lines',
    details: ctx.out.format === 'table' ? undefined : failed.map((f) => `line ${f.line}: ${f.error.shortMessage}`).join('\n'),
    check: statusLine(
      ctx,
      unknown.map((f) => f.clientOrderId),
    ),
  });
  if (end) throw end;
}
