import { checkPageSort } from '../../core/market-input.js';
import type { Market } from '../../core/market-wire.js';
import { pageByPath, pageMarkets } from '../../core/markets.js';
import { marketTable } from './render.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['markets', 'page'],
  effect: 'read',
  summary: 'Markets of a market page (e.g. /crypto), with paging and sorting',
  args: { path: { description: 'page path such as /crypto, or "home"', required: true } },
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'markets per page', default: 10 },
    page: { type: 'positiveInt', value: 'n', description: 'page number (offset paging)' },
    cursor: { type: 'string', value: 'c', description: 'cursor from a previous call (cursor paging)' },
    sort: { type: 'string', value: 'field', description: 'createdAt, updatedAt, deadline or id; prefix - for descending' },
    all: { type: 'boolean', description: 'follow every page' },
  },
  examples: ['pm markets page /crypto', 'pm markets page home --sort -deadline --limit 5', 'pm --json markets page /crypto --all'],
  run: async (ctx, { args, opts }) => {
    // Checked before anything is sent.
    const sort = checkPageSort(opts.sort);
    const api = await ctx.api();
    const page = await pageByPath(api, args.path);
    const limit = opts.limit;
    if (opts.all) {
      const all: Market[] = [];
      let cursor: string | undefined = opts.cursor ?? '';
      for (let i = 0; i < 1000; i++) {
        const res = await pageMarkets(api, page.id, { limit: opts.limit, cursor, sort });
        all.push(...res.markets);
        if (!res.nextCursor) break;
        cursor = res.nextCursor;
      }
      ctx.out.data(
        all.map((m) => m.raw),
        () => marketTable(ctx.out, all),
      );
      return;
    }
    const res = await pageMarkets(api, page.id, { limit, page: opts.page ?? (opts.cursor ? undefined : 1), cursor: opts.cursor, sort });
    ctx.out.data(
      {
        page: { id: page.id, name: page.name, path: page.fullPath },
        markets: res.markets.map((m) => m.raw),
        nextCursor: res.nextCursor,
        pagination: res.pagination,
      },
      () => {
        ctx.out.info(`${page.name || page.id} (${page.fullPath})`);
        marketTable(ctx.out, res.markets);
        if (res.pagination) ctx.out.info(`page ${res.pagination.page} of ${res.pagination.totalPages} (${res.pagination.total} markets)`);
        if (res.nextCursor) ctx.out.info(`more: pm markets page ${args.path} --cursor ${res.nextCursor}`);
      },
      { records: res.markets.map((m) => m.raw) },
    );
  },
});
