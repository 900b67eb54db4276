import { searchMarkets } from '../../core/markets.js';
import { marketTable } from './render.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['markets', 'search'],
  effect: 'read',
  summary: 'Search markets by text',
  args: { query: { description: 'words to look for', required: true, variadic: true } },
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'results per page', default: 10 },
    page: { type: 'positiveInt', value: 'n', description: 'page number, from 1', default: 1 },
  },
  examples: ['pm markets search bitcoin', 'pm --json markets search "fed rate" | jq length'],
  run: async (ctx, { args, opts }) => {
    const query = args.query.join(' ').trim();
    const res = await searchMarkets(await ctx.api(), query, { limit: opts.limit, page: opts.page });
    ctx.out.data(
      res.markets.map((m) => m.raw),
      () => {
        marketTable(ctx.out, res.markets);
        ctx.out.info(`${res.markets.length} of ${res.total} matches for "${query}"`);
      },
    );
  },
});
