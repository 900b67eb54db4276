import type { Context } from '../../cli/context.js';
import { CONFIG_KEYS } from '../../core/config.js';
import type { WsSource } from '../../core/endpoints.js';
import { defineCommand } from '../../cli/command.js';

export interface ConfigRow {
  key: string;
  value: string | number | null;
  source: WsSource | 'unset';
  doc: string;
}

/** Every setting with its effective value and where that value comes from. */
export function configRows(ctx: Context): ConfigRow[] {
  const p = ctx.profile();
  const f = ctx.flags;
  const e = ctx.env;
  const pick = (
    flag: string | number | undefined,
    env: string | undefined,
    prof: string | number | undefined,
    def: string | number | null,
  ): Pick<ConfigRow, 'value' | 'source'> =>
    flag !== undefined
      ? { value: flag, source: 'flag' }
      : env !== undefined
        ? { value: env, source: 'env' }
        : prof !== undefined
          ? { value: prof, source: 'profile' }
          : def !== null
            ? { value: def, source: 'default' }
            : { value: null, source: 'unset' };
  const urls = ctx.endpointsUnchecked();
  const rows: Record<string, Pick<ConfigRow, 'value' | 'source'>> = {
    'base-url': { value: urls.baseUrl, source: urls.baseSource },
    'ws-url': { value: urls.wsUrl, source: urls.wsSource },
    'rpc-url': pick(undefined, e.PM_RPC_URL, p.rpcUrl, null),
    timeout: pick(f.timeout, e.PM_TIMEOUT, p.timeout, 30000),
    output: pick(f.output ?? (f.json ? 'json' : undefined), e.PM_OUTPUT, p.output, 'table'),
    wallet: pick(undefined, undefined, p.wallet, null),
    'on-behalf-of': pick(undefined, undefined, p.onBehalfOf, null),
  };
  return Object.entries(CONFIG_KEYS).map(([key, k]) => ({ key, doc: k.doc, ...(rows[key] ?? { value: null, source: 'unset' as const }) }));
}

export default defineCommand({
  path: ['config', 'list'],
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
          [{ header: 'KEY' }, { header: 'VALUE' }, { header: 'SOURCE' }, { header: 'MEANING' }],
          rows.map((r) => [r.key, r.value === null ? '-' : String(r.value), r.source, r.doc]),
        );
      },
      { records: rows },
    );
  },
});
