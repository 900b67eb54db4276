import { textTime } from '../../cli/text.js';
import { historyQuery, INTERVALS, slugFrom } from '../../core/market-input.js';
import { getMarket, priceHistory, pricePointJson } from '../../core/markets.js';
import { formatUnits } from '../../core/money.js';
import { defineCommand } from '../../cli/command.js';
import { formatPrice, groupChildren } from './render.js';
import { drawChart } from '../portfolio/chart.js';

const BARS = '▁▂▃▄▅▆▇█';

export default defineCommand({
  path: ['markets', 'history'],
  effect: 'read',
  summary: 'YES price history of a market (a group lists its child markets)',
  args: { slug: { description: 'market slug (any case) or its limitless.exchange URL', required: true } },
  options: {
    interval: {
      type: 'string',
      value: 'i',
      description: 'bucket size: 1h, 6h, 1d, 1w, 1mo (a month) or all',
      choices: Object.keys(INTERVALS),
      default: '1h',
    },
    from: { type: 'string', value: 'iso', description: 'start time (ISO 8601, e.g. 2026-01-31 or 2026-01-31T12:00:00Z)' },
    to: { type: 'string', value: 'iso', description: 'end time (ISO 8601), not before --from' },
  },
  examples: [
    'pm markets history btc-100k-2026',
    'pm --json markets history btc-100k-2026 --interval 1d',
    'pm markets history btc-100k-2026 --interval 1mo --from 2026-01-01',
    'pm markets history us-election-2028',
  ],
  run: async (ctx, { args, opts }) => {
    const slug = slugFrom(args.slug);
    const q = historyQuery({ interval: opts.interval, from: opts.from, to: opts.to });
    const api = await ctx.api();
    const res = await priceHistory(api, slug, q);
    if (res.points.length === 0) {
      // A group has no price of its own: show its child markets and their prices instead.
      const m = await getMarket(api, slug);
      if (m.children.length > 0) return groupChildren(ctx, m, 'markets history');
    }
    const tty = ctx.io.stdout.isTTY === true;
    const chart =
      tty && !ctx.out.isJson && res.points.length > 1
        ? await drawChart(
            res.points.map((p) => Number(formatUnits(p.price))),
            ctx.io.stdout.columns ?? 80,
            { label: (v) => v.toFixed(3) },
          )
        : null;
    ctx.out.data(res.points.map(pricePointJson), () => {
      const pts = res.points;
      if (pts.length === 0) return ctx.out.info('(no price history)');
      const prices = pts.map((p) => p.price);
      const lo = prices.reduce((a, b) => (b < a ? b : a));
      const hi = prices.reduce((a, b) => (b > a ? b : a));
      const span = hi - lo || 1n;
      const spark = prices.map((p) => BARS[Number(((p - lo) * 7n) / span)] ?? '').join('');
      ctx.out.keyValue([
        ['market', slug],
        ['points', String(pts.length)],
        ['from', textTime(pts[0]?.timestamp)],
        ['to', textTime(pts[pts.length - 1]?.timestamp)],
        ['low / high', `${formatPrice(lo)} / ${formatPrice(hi)}`],
        ['last', formatPrice(prices[prices.length - 1] ?? null)],
        ['YES', spark],
      ]);
      // On a terminal, the same series as a line chart (asciichart; a sparkline when narrow).
      if (chart !== null) ctx.out.line(chart);
    });
    return;
  },
});
