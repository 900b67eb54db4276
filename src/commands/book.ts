import { bookJson, formatPrice, getOrderBook, slugFrom } from '../core/markets.js';
import { formatUnits } from '../core/money.js';
import { defineCommand } from '../cli/command.js';

export default defineCommand({
  path: ['book'],
  summary: 'Order book of a market: both sides, spread, midpoint, depth',
  args: { slug: { description: 'market slug', required: true } },
  options: {
    depth: { type: 'positiveInt', value: 'n', description: 'price levels per side to show', default: 10 },
    watch: { type: 'boolean', description: 'keep the book live (full screen on a terminal, NDJSON snapshots otherwise)' },
    count: { type: 'positiveInt', value: 'n', description: 'with --watch: stop after this many updates' },
    until: { type: 'string', value: 'iso', description: 'with --watch: stop at this time (ISO 8601)' },
  },
  examples: ['pm book btc-100k-2026', 'pm book btc-100k-2026 --watch', 'pm --json book btc-100k-2026 | jq .spread', "pm -o ndjson book btc-100k-2026 | jq -c 'select(.side == \"bid\")'"],
  run: async (ctx, { args, opts }) => {
    if (opts.watch) return (await import('./watch/run.js')).watch(ctx, 'book', { args: [args.slug], rest: [], opts }, [args.slug]);
    const slug = slugFrom(args.slug);
    const book = await getOrderBook(await ctx.api(), slug);
    const json = bookJson(book);
    // -o ndjson: one line per price level, asks then bids, best first.
    const level = (side: 'ask' | 'bid') => (l: unknown) => ({ slug, side, ...(l as object) });
    const records = [...(json['asks'] as unknown[]).map(level('ask')), ...(json['bids'] as unknown[]).map(level('bid'))];
    ctx.out.data(json, () => {
      const depth = opts.depth;
      const c = ctx.out.c;
      const asks = book.asks.slice(0, depth).reverse();
      const bids = book.bids.slice(0, depth);
      const rows = [
        ...asks.map((l) => [c.red('ask'), c.red(formatPrice(l.price)), formatUnits(l.size, 6, 0), formatUnits((l.size * l.price) / 1_000_000n, 6, 2)]),
        ['', c.dim(`spread ${formatPrice(book.spread)}`), '', ''],
        ...bids.map((l) => [c.green('bid'), c.green(formatPrice(l.price)), formatUnits(l.size, 6, 0), formatUnits((l.size * l.price) / 1_000_000n, 6, 2)]),
      ];
      ctx.out.table([{ header: 'SIDE' }, { header: 'PRICE', align: 'right' }, { header: 'SHARES', align: 'right' }, { header: 'USD', align: 'right' }], rows);
      ctx.out.keyValue([
        ['market', slug],
        ['best bid / ask', `${formatPrice(book.bestBid)} / ${formatPrice(book.bestAsk)}`],
        ['midpoint', formatPrice(book.midpoint)],
        ['last trade', formatPrice(book.lastTradePrice)],
        ['depth', `${formatUnits(book.bidDepth, 6, 0)} shares bid ($${formatUnits(book.bidNotional, 6, 2)}), ${formatUnits(book.askDepth, 6, 0)} shares asked ($${formatUnits(book.askNotional, 6, 2)})`],
      ]);
    }, { records });
  },
});
