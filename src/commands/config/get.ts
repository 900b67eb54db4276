import { UsageError } from '../../core/errors.js';
import { configRows } from './list.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'get'],
  summary: 'Print one setting of the active profile',
  args: { key: { description: 'setting name (see pm config list)', required: true } },
  examples: ['pm config get base-url'],
  run: async (ctx, { args }) => {
    const key = args.key;
    const row = configRows(ctx).find((r) => r.key === key);
    if (!row)
      throw new UsageError(`unknown setting "${key}"`, {
        hint: `Settings: ${configRows(ctx)
          .map((r) => r.key)
          .join(', ')}`,
      });
    ctx.out.data({ key: row.key, value: row.value, source: row.source }, () => ctx.out.line(row.value === null ? '' : String(row.value)));
  },
});
