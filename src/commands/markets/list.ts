import { categoryId, listAllMarkets, listMarkets } from '../../core/markets.js';
import { marketTable } from './render.js';
import type { Progress } from '../../cli/output.js';

const SORTS = ['lp_rewards', 'ending_soon', 'newest', 'high_value', 'liquidity'] as const;
const TRADE_TYPES = ['clob', 'amm', 'group'] as const;
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['markets', 'list'],
  effect: 'read',
  summary: 'List active markets',
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'markets per page (1-25)', default: 10 },
    page: { type: 'positiveInt', value: 'n', description: 'page number, from 1', default: 1 },
    all: { type: 'boolean', description: 'follow every page' },
    sort: { type: 'string', value: 'by', description: 'sort order', choices: SORTS },
    type: { type: 'string', value: 'type', description: 'trade type', choices: TRADE_TYPES },
    category: { type: 'string', value: 'name|id', description: 'only this category, by name or id (pm markets categories lists them)' },
  },
  examples: [
    'pm markets list',
    'pm markets list --sort ending_soon --limit 5',
    'pm markets list --category crypto',
    "pm --json markets list --all | jq -r '.[].slug'",
    'pm -o ndjson markets list --all | jq -r .slug',
  ],
  run: async (ctx, { opts }) => {
    const api = await ctx.api();
    const category = opts.category === undefined ? undefined : await categoryId(api, opts.category);
    const params = { limit: opts.limit, page: opts.page, sortBy: opts.sort, tradeType: opts.type, categoryId: category };
    if (opts.all) {
      // Progress on a TTY once it takes more than a moment.
      const after = 700;
      const t0 = Date.now();
      let bar: Progress | null | undefined;
      let markets;
      try {
        markets = await listAllMarkets(api, params, (fetched, total) => {
          if (bar === undefined && Date.now() - t0 >= after)
            bar = ctx.out.progress(total, 'markets {bar} {value}/{total} | ETA {eta_formatted}');
          bar?.setTotal(total);
          bar?.update(fetched, {});
        });
      } finally {
        bar?.stop();
      }
      ctx.out.data(
        markets.map((m) => m.raw),
        () => marketTable(ctx.out, markets),
      );
      return;
    }
    const page = await listMarkets(api, params);
    ctx.out.data(
      page.markets.map((m) => m.raw),
      () => {
        marketTable(ctx.out, page.markets);
        ctx.out.info(`${page.markets.length} of ${page.total} active markets (page ${params.page ?? 1}; --all for every page)`);
      },
    );
  },
});
