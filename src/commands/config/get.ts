import { CONFIG_KEYS, configKey } from '../../core/config.js';
import { configRows } from './list.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'get'],
  effect: 'read',
  summary: 'Print one setting of the active profile',
  args: { key: { description: 'setting name (see pm config list)', required: true, suggestions: Object.keys(CONFIG_KEYS) } },
  examples: ['pm config get base-url'],
  run: async (ctx, { args }) => {
    const key = args.key;
    configKey(key); // an unknown name: the usage error listing the settings
    const row = configRows(ctx).find((r) => r.key === key);
    if (!row) throw new Error(`internal: no row for the setting ${key}`);
    ctx.out.data({ key: row.key, value: row.value, source: row.source }, () => ctx.out.line(row.value === null ? '' : String(row.value)));
  },
});
