import { formatPrice, priceHistory, slugFrom } from '../../core/markets.js';
import { formatUnits } from '../../core/money.js';
import { defineCommand } from '../../cli/command.js';
import { drawChart } from '../portfolio/chart.js';

const BARS = '▁▂▃▄▅▆▇█';

export default defineCommand({
  path: ['markets', 'history'],
  summary: 'YES price history of a market',
  args: { slug: { description: 'market slug', required: true } },
  options: {
    interval: { type: 'string', value: 'i', description: 'bucket size', choices: ['1h', '6h', '1d', '1w', '1m', 'all'], default: '1h' },
    from: { type: 'string', value: 'iso', description: 'start time (ISO 8601)' },
    to: { type: 'string', value: 'iso', description: 'end time (ISO 8601)' },
  },
  examples: ['pm markets history btc-100k-2026', 'pm --json markets history btc-100k-2026 --interval 1d'],
  run: async (ctx, { args, opts }) => {
    const slug = slugFrom(args.slug);
    const res = await priceHistory(await ctx.api(), slug, { interval: opts.interval, from: opts.from, to: opts.to });
    const tty = ctx.io.stdout.isTTY === true;
    const chart = tty && !ctx.out.isJson && res.points.length > 1 ? await drawChart(res.points.map((p) => Number(formatUnits(p.price))), ctx.io.stdout.columns ?? 80, { label: (v) => v.toFixed(3) }) : null;
    ctx.out.data(res.points.map((p) => ({ timestamp: p.timestamp, price: formatUnits(p.price) })), () => {
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
        ['from', pts[0]?.timestamp ?? '-'],
        ['to', pts[pts.length - 1]?.timestamp ?? '-'],
        ['low / high', `${formatPrice(lo)} / ${formatPrice(hi)}`],
        ['last', formatPrice(prices[prices.length - 1] ?? null)],
        ['YES', spark],
      ]);
      // On a terminal, the same series as a line chart (asciichart; a sparkline when narrow).
      if (chart !== null) ctx.out.line(chart);
    });
  },
});
