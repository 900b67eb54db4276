import type { Handler } from '../cli/command.js';
import { optBool, optNum } from '../cli/command.js';
import { bookJson, formatPrice, getOrderBook, slugFrom } from '../core/markets.js';
import { formatUnits } from '../core/money.js';

const run: Handler = async (ctx, input) => {
  const { args, opts } = input;
  if (optBool(opts, 'watch')) return (await import('./watch/run.js')).watch(ctx, 'book', input, args.slice(0, 1));
  const slug = slugFrom(args[0] ?? '');
  const book = await getOrderBook(await ctx.api(), slug);
  ctx.out.data(bookJson(book), () => {
    const depth = optNum(opts, 'depth') ?? 10;
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
  });
};
export default run;
