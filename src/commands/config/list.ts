import { cutFirst } from '../../cli/output.js';
import type { Context } from '../../cli/context.js';
import { CONFIG_KEYS } from '../../core/config.js';
import type { WsSource } from '../../core/endpoints.js';
import { defineCommand } from '../../cli/command.js';

export interface ConfigRow {
  key: string;
  value: string | number | null;
  source: WsSource | 'unset' | 'sandbox chain';
  doc: string;
}

/** Every setting with its effective value and where that value comes from (the core's one precedence table). */
export function configRows(ctx: Context): ConfigRow[] {
  const rows = ctx.configSettings().rows();
  return Object.entries(CONFIG_KEYS).map(([key, k]) => {
    const r = rows[key];
    return { key, doc: k.doc, value: r?.value ?? null, source: (r?.source ?? 'unset') as ConfigRow['source'] };
  });
}

export default defineCommand({
  path: ['config', 'list'],
  effect: 'read',
  summary: 'List the settings of the active profile and where each value comes from',
  examples: ['pm config list', 'pm --json config list', 'pm -o ndjson config list | jq -r .key'],
  run: async (ctx) => {
    const rows = configRows(ctx);
    const profile = ctx.profileName() ?? null;
    const mismatch = ctx.endpointsUnchecked().mismatch;
    if (mismatch) ctx.out.warn(`${mismatch.shortMessage}. ${mismatch.hint ?? ''}`);
    ctx.out.data(
      { profile, home: ctx.home, settings: rows },
      () => {
        ctx.out.info(`profile: ${profile ?? '(none)'}   home: ${ctx.home}`);
        ctx.out.table(
          [{ header: 'KEY' }, { header: 'VALUE', fit: cutFirst(2, 16) }, { header: 'SOURCE' }, { header: 'MEANING', fit: cutFirst(1, 12) }],
          rows.map((r) => [r.key, r.value === null ? '-' : String(r.value), r.source, r.doc]),
        );
      },
      { records: rows },
    );
  },
});
