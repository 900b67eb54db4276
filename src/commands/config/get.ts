import type { Handler } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { configRows } from './list.js';

const run: Handler = async (ctx, { args }) => {
  const key = args[0] ?? '';
  const row = configRows(ctx).find((r) => r.key === key);
  if (!row) throw new UsageError(`unknown setting "${key}"`, { hint: `Settings: ${configRows(ctx).map((r) => r.key).join(', ')}` });
  ctx.out.data({ key: row.key, value: row.value, source: row.source }, () => ctx.out.line(row.value === null ? '' : String(row.value)));
};
export default run;
