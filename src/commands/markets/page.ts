import type { Handler } from '../../cli/command.js';
import { optBool, optNum, optStr } from '../../cli/command.js';
import { pageByPath, pageMarkets } from '../../core/markets.js';
import type { Market } from '../../core/markets.js';
import { marketTable } from './render.js';

const run: Handler = async (ctx, { args, opts }) => {
  const api = await ctx.api();
  const page = await pageByPath(api, args[0] ?? '');
  const limit = optNum(opts, 'limit');
  const sort = optStr(opts, 'sort');
  if (optBool(opts, 'all')) {
    const all: Market[] = [];
    let cursor: string | undefined = optStr(opts, 'cursor') ?? '';
    for (let i = 0; i < 1000; i++) {
      const res = await pageMarkets(api, page.id, { limit: limit ?? 25, cursor, sort });
      all.push(...res.markets);
      if (!res.nextCursor) break;
      cursor = res.nextCursor;
    }
    ctx.out.data(all.map((m) => m.raw), () => marketTable(ctx.out, all));
    return;
  }
  const res = await pageMarkets(api, page.id, { limit, page: optNum(opts, 'page') ?? (optStr(opts, 'cursor') ? undefined : 1), cursor: optStr(opts, 'cursor'), sort });
  ctx.out.data({ page: { id: page.id, name: page.name, path: page.fullPath }, markets: res.markets.map((m) => m.raw), nextCursor: res.nextCursor, pagination: res.pagination }, () => {
    ctx.out.info(`${page.name || page.id} (${page.fullPath})`);
    marketTable(ctx.out, res.markets);
    if (res.pagination) ctx.out.info(`page ${res.pagination.page} of ${res.pagination.totalPages} (${res.pagination.total} markets)`);
    if (res.nextCursor) ctx.out.info(`more: pm markets page ${args[0] ?? ''} --cursor ${res.nextCursor}`);
  });
};
export default run;
