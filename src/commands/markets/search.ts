import type { Handler } from '../../cli/command.js';
import { optNum } from '../../cli/command.js';
import { searchMarkets } from '../../core/markets.js';
import { marketTable } from './render.js';

const run: Handler = async (ctx, { rest, opts }) => {
  const query = rest.join(' ').trim();
  const res = await searchMarkets(await ctx.api(), query, { limit: optNum(opts, 'limit'), page: optNum(opts, 'page') });
  ctx.out.data(res.markets.map((m) => m.raw), () => {
    marketTable(ctx.out, res.markets);
    ctx.out.info(`${res.markets.length} of ${res.total} matches for "${query}"`);
  });
};
export default run;
