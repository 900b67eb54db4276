import type { Handler } from '../../cli/command.js';
import { optBool, optNum, optStr } from '../../cli/command.js';
import { listAllMarkets, listMarkets } from '../../core/markets.js';
import { marketTable } from './render.js';

const run: Handler = async (ctx, { opts }) => {
  const params = { limit: optNum(opts, 'limit'), page: optNum(opts, 'page'), sortBy: optStr(opts, 'sort'), tradeType: optStr(opts, 'type'), categoryId: optNum(opts, 'category') };
  const api = await ctx.api();
  if (optBool(opts, 'all')) {
    const markets = await listAllMarkets(api, params);
    ctx.out.data(markets.map((m) => m.raw), () => marketTable(ctx.out, markets));
    return;
  }
  const page = await listMarkets(api, params);
  ctx.out.data(page.markets.map((m) => m.raw), () => {
    marketTable(ctx.out, page.markets);
    ctx.out.info(`${page.markets.length} of ${page.total} active markets (page ${params.page ?? 1}; --all for every page)`);
  });
};
export default run;
