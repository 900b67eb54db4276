import { ExchangeValidationError, withHint } from '../../core/errors.js';
import { marketPage } from '../../core/markets.js';
import { marketTable } from './render.js';
import { defineCommand } from '../../cli/command.js';
import { pmLine } from '../../cli/rerun.js';

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
    const res = await marketPage(await ctx.api(), args.path, opts).catch((e: unknown) => {
      // A cursor the exchange refuses: one comes from the page before.
      if (opts.cursor !== undefined && e instanceof ExchangeValidationError && !e.hint)
        throw withHint(
          e,
          `A cursor is the one the page before gave (its 'more:' line, or nextCursor in --json); start without --cursor (or with --cursor '' for cursor paging).`,
        );
      throw e;
    });
    const page = res.page;
    if (opts.all) {
      ctx.out.data(
        res.markets.map((m) => m.raw),
        () => marketTable(ctx.out, res.markets),
      );
      return;
    }
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
        // The next page, asked the same way (its order and size; a page without them is another list).
        const next = (more: string[]) =>
          pmLine(ctx, ['markets', 'page', args.path, ...(opts.sort ? ['--sort', opts.sort] : []), '--limit', String(opts.limit), ...more]);
        const p = res.pagination;
        if (p) ctx.out.info(`page ${p.page} of ${p.totalPages} (${p.total} markets)`);
        if (res.nextCursor) ctx.out.info(`more: ${next(['--cursor', res.nextCursor])}`);
        else if (p && p.page < p.totalPages) ctx.out.info(`more: ${next(['--page', String(p.page + 1)])}`);
      },
      { records: res.markets.map((m) => m.raw) },
    );
  },
});
