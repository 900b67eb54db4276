import { defineCommand } from '../../cli/command.js';
import { listCategories } from '../../core/markets.js';

export default defineCommand({
  path: ['markets', 'categories'],
  effect: 'read',
  summary: 'The categories of markets: what markets list --category takes (name or id)',
  examples: ['pm markets categories', 'pm markets list --category crypto', "pm --json markets categories | jq -r '.[].name'"],
  run: async (ctx) => {
    const categories = await listCategories(await ctx.api());
    ctx.out.data(categories, () =>
      ctx.out.table(
        [{ header: 'ID', align: 'right' }, { header: 'NAME' }],
        categories.map((c) => [String(c.id), c.name]),
      ),
    );
  },
});
