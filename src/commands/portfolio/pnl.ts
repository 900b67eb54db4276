import { textTime } from '../../cli/text.js';
import { defineCommand } from '../../cli/command.js';
import { fetchPnl, pnlJson } from '../../core/portfolio.js';
import { drawChart, sparkline } from './chart.js';
import { amounts } from './common.js';

export default defineCommand({
  path: ['portfolio', 'pnl'],
  effect: 'read',
  actsFor: true,
  summary: 'Realised PnL over time: a line chart on a terminal, the series with --json',
  options: {
    timeframe: { type: 'string', value: 'tf', description: 'window', choices: ['1d', '7d', '30d', 'all'], default: '7d' },
  },
  examples: ['pm portfolio pnl', 'pm portfolio pnl --timeframe 30d', "pm --json portfolio pnl --timeframe all | jq '.points[-1]'"],
  run: async (ctx, { opts }) => {
    const { usd } = amounts(ctx.out);
    const timeframe = opts.timeframe ?? '7d';
    const pnl = await fetchPnl(await ctx.tradingApi(), timeframe);
    const json = pnlJson(pnl);
    // -o ndjson: one point per line ({timestamp, at, value, valueRaw}); --json: the whole object.
    if (ctx.out.isJson) return ctx.out.data(json, () => undefined, { records: json.points });
    // (A chart's y axis: drawing only, the figures printed are exact.)
    const values = json.points.map((p) => Number(p.value));
    const tty = ctx.io.stdout.isTTY === true;
    const columns = ctx.io.stdout.columns ?? (tty ? 80 : undefined);
    const first = pnl.points[0];
    const last = pnl.points[pnl.points.length - 1];
    ctx.out.keyValue([
      ['timeframe', pnl.timeframe],
      ['realised PnL', usd(pnl.realised ?? pnl.currentValue)],
      ['unrealised PnL', pnl.unrealised === null ? '-' : usd(pnl.unrealised)],
      ['at window start', usd(pnl.previousValue)],
      ['change', `${pnl.percentChange}%`],
      ['from', textTime(first?.timestamp)],
      ['to', textTime(last?.timestamp)],
    ]);
    if (values.length === 0) return;
    // A line chart on a terminal; a sparkline when narrow or piped.
    ctx.out.line(tty ? await drawChart(values, columns, { label: (v) => v.toFixed(2) }) : sparkline(values));
  },
});
