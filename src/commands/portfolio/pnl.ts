import type { Handler } from '../../cli/command.js';
import { optStr } from '../../cli/command.js';
import { formatUnits } from '../../core/money.js';
import { fetchPnl } from '../../core/portfolio.js';
import { drawChart, sparkline } from './chart.js';
import { portfolioApi, usd } from './common.js';

const run: Handler = async (ctx, { opts }) => {
  const timeframe = optStr(opts, 'timeframe') ?? '7d';
  const pnl = await fetchPnl(await portfolioApi(ctx, opts), timeframe);
  const json = {
    timeframe: pnl.timeframe,
    points: pnl.points,
    currentValue: pnl.currentValue,
    previousValue: pnl.previousValue,
    percentChange: pnl.percentChange,
    realised: pnl.realised === null ? null : formatUnits(pnl.realised),
    realisedRaw: pnl.realised?.toString() ?? null,
    unrealised: pnl.unrealised === null ? null : formatUnits(pnl.unrealised),
    unrealisedRaw: pnl.unrealised?.toString() ?? null,
  };
  if (ctx.out.isJson) return ctx.out.json(json);
  const values = pnl.points.map((p) => p.value);
  const tty = ctx.io.stdout.isTTY === true;
  const columns = ctx.io.stdout.columns ?? (tty ? 80 : undefined);
  const first = pnl.points[0];
  const last = pnl.points[pnl.points.length - 1];
  ctx.out.keyValue([
    ['timeframe', pnl.timeframe],
    ['realised PnL', pnl.realised === null ? String(pnl.currentValue) : usd(pnl.realised)],
    ['unrealised PnL', pnl.unrealised === null ? '-' : usd(pnl.unrealised)],
    ['at window start', String(pnl.previousValue)],
    ['change', `${pnl.percentChange}%`],
    ['from', first ? new Date(first.timestamp).toISOString() : '-'],
    ['to', last ? new Date(last.timestamp).toISOString() : '-'],
  ]);
  if (values.length === 0) return;
  // A line chart on a terminal; a sparkline when narrow or piped.
  ctx.out.line(tty ? await drawChart(values, columns, { label: (v) => v.toFixed(2) }) : sparkline(values));
};
export default run;
