import { slugFrom } from '../core/market-input.js';
import { bookJson } from '../core/market-wire.js';
import { getMarket, getOrderBook, outcomeBook } from '../core/markets.js';
import { InterruptedError, NetworkError, NotFoundError, PmError, RateLimitError, UsageError, withHint } from '../core/errors.js';
import { formatPrice, groupChildren } from './markets/render.js';
import { formatUnits } from '../core/money.js';
import { defineCommand } from '../cli/command.js';

export default defineCommand({
  path: ['book'],
  effect: 'read',
  longRunning: ({ opts }) => opts.watch,
  summary: 'Order book of a market: both sides, spread, midpoint, depth',
  description:
    'Shows the best --depth price levels a side, in every format: the table, --json (bids and asks; its depth totals are the whole book), -o ndjson (one level a line) and --watch.\n\n' +
    'On a terminal: asks above bids with the spread between them, then a summary (best bid and ask, spread, midpoint, last trade, depth). Piped (pm book X > f), stdout has the levels alone as tab-separated lines (SIDE, PRICE, SHARES, USD, a header first) and the summary goes to stderr; -o table keeps both on stdout.\n\n' +
    '--watch keeps the book live: full screen on a terminal, one NDJSON snapshot per update otherwise; --count and --until end it (without --watch they are refused).',
  args: { slug: { description: 'market slug (any case) or its limitless.exchange URL; a group lists its child markets', required: true } },
  options: {
    depth: { type: 'positiveInt', value: 'n', description: 'price levels per side to show', default: 10 },
    outcome: {
      type: 'string',
      value: 'yes|no',
      description: "which outcome's book: yes, or no (the YES book mirrored)",
      choices: ['yes', 'no'],
      default: 'yes',
    },
    watch: { type: 'boolean', description: 'keep the book live (full screen on a terminal, NDJSON snapshots otherwise)' },
    count: { type: 'positiveInt', value: 'n', description: 'with --watch: stop after this many updates' },
    until: { type: 'string', value: 'iso', description: 'with --watch: stop at this time (ISO 8601)' },
  },
  examples: [
    'pm book btc-100k-2026',
    'pm book btc-100k-2026 --outcome no',
    'pm book btc-100k-2026 --watch',
    'pm --json book btc-100k-2026 | jq .spread',
    'pm -o ndjson book btc-100k-2026 | jq -c \'select(.side == "bid")\'',
  ],
  run: async (ctx, { args, opts }) => {
    if (!opts.watch && (opts.count !== undefined || opts.until !== undefined))
      throw new UsageError(`${opts.count !== undefined ? '--count' : '--until'} is for --watch: a snapshot is one book`, {
        hint: `Add --watch to follow the book: pm book ${args.slug} --watch${opts.count !== undefined ? ` --count ${opts.count}` : ''}`,
      });
    if (opts.watch) {
      if (opts.outcome !== 'yes')
        throw new UsageError('--watch streams the YES book as the exchange sends it: --outcome no is for a snapshot', {
          hint: 'A NO price is 1 - the YES price (a NO bid at 0.40 is a YES ask at 0.60). Drop --outcome no, or leave out --watch.',
        });
      return (await import('./watch/run.js')).watch(ctx, 'book', opts, [args.slug]);
    }
    const slug = slugFrom(args.slug);
    const api = await ctx.api();
    let yes;
    try {
      yes = await getOrderBook(api, slug);
    } catch (e) {
      // A group has no book of its own: list its child markets (and their prices) instead.
      // A lookup that could not be made (deadline, network, rate limit, Ctrl-C) is the outcome, not the book's 400.
      const m =
        e instanceof NotFoundError
          ? undefined
          : await getMarket(api, slug).catch((e2: unknown) => {
              if (e2 instanceof NetworkError || e2 instanceof RateLimitError || e2 instanceof InterruptedError) throw e2;
              return undefined;
            });
      if (m && m.children.length > 0) return groupChildren(ctx, m, 'book');
      // An AMM market has no order book: where its prices are.
      if (m && m.tradeType !== 'clob' && e instanceof PmError && !e.hint)
        throw withHint(
          e,
          `${m.tradeType === 'amm' ? 'An AMM' : `A ${m.tradeType}`} market has no order book; its prices now: pm markets show ${slug}`,
        );
      throw e;
    }
    // (The NO book is the YES book mirrored, under the NO token's id, which the market names.)
    const whole = await outcomeBook(api, slug, opts.outcome === 'no' ? 'NO' : 'YES', yes);
    // --depth cuts the levels of every format alike; the depth totals stay the whole book's.
    const book = { ...whole, asks: whole.asks.slice(0, opts.depth), bids: whole.bids.slice(0, opts.depth) };
    const json: Record<string, unknown> = { ...bookJson(book), outcome: opts.outcome.toUpperCase() };
    // -o ndjson: one line per price level, asks then bids, best first.
    const level = (side: 'ask' | 'bid') => (l: unknown) => ({ slug, side, ...(l as object) });
    const records = [...(json['asks'] as unknown[]).map(level('ask')), ...(json['bids'] as unknown[]).map(level('bid'))];
    ctx.out.data(
      json,
      () => {
        const c = ctx.out.c;
        const piped = ctx.out.tableStyle.kind === 'tsv';
        const asks = [...book.asks].reverse();
        const bids = book.bids;
        const rows = [
          ...asks.map((l) => [
            c.red('ask'),
            c.red(formatPrice(l.price)),
            ctx.out.num(formatUnits(l.size, 6, 0)),
            ctx.out.num(formatUnits((l.size * l.price) / 1_000_000n, 6, 2)),
          ]),
          // Piped, the table is data: its levels only (the spread is in the summary).
          ...(piped ? [] : [['', c.dim(`spread ${formatPrice(book.spread)}`), '', '']]),
          ...bids.map((l) => [
            c.green('bid'),
            c.green(formatPrice(l.price)),
            ctx.out.num(formatUnits(l.size, 6, 0)),
            ctx.out.num(formatUnits((l.size * l.price) / 1_000_000n, 6, 2)),
          ]),
        ];
        ctx.out.table(
          [
            { header: 'SIDE' },
            { header: 'PRICE', align: 'right' },
            { header: 'SHARES', align: 'right' },
            { header: 'USD', align: 'right' },
          ],
          rows,
        );
        const summary: [string, string][] = [
          ['market', `${slug} (${opts.outcome.toUpperCase()})`],
          ['best bid / ask', `${formatPrice(book.bestBid)} / ${formatPrice(book.bestAsk)}`],
          ['spread', formatPrice(book.spread)],
          ['midpoint', formatPrice(book.midpoint)],
          ['last trade', formatPrice(book.lastTradePrice)],
          [
            'depth',
            `${ctx.out.num(formatUnits(book.bidDepth, 6, 0))} shares bid (${ctx.out.usd(formatUnits(book.bidNotional, 6, 2))}), ${ctx.out.num(formatUnits(book.askDepth, 6, 0))} shares asked (${ctx.out.usd(formatUnits(book.askNotional, 6, 2))})`,
          ],
        ];
        // Piped, the summary is for the person watching (stderr), so that stdout stays one table.
        ctx.out.keyValue(summary, piped ? 'info' : 'data');
      },
      { records },
    );
    return;
  },
});
