// What the portfolio and money commands share: the authenticated client, acting for a
// partner's sub-account with --on-behalf-of, and money formatting.
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/http.js';
import { formatUnits } from '../../core/money.js';

/** --on-behalf-of, as every portfolio and money command takes it. */
export const ON_BEHALF = {
  type: 'positiveInt',
  value: 'profileId',
  description: 'a partner sub-account instead of your own profile',
} as const;

/** The portfolio client: the caller's own profile, or --on-behalf-of (or the profile's default). */
export async function portfolioApi(ctx: Context, opts: { onBehalfOf?: number | undefined }): Promise<ApiClient> {
  return ctx.tradingApi({ onBehalfOf: opts.onBehalfOf });
}

/** A signed USDC amount with 2+ decimals for tables: -1.5 → "-1.50". */
export const usd = (raw: bigint): string => formatUnits(raw, 6, 2);

/** A word as a POSIX shell reads it back: quoted unless it holds only safe characters. */
const shellWord = (w: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * A pm command line for a hint to write out: `pm`, the global options of this run that say where
 * and as whom and how it prints (--profile, --base-url, --json or -o, --yes), then `words`.
 * @example pmLine(ctx, ['redeem', 'eth-5k-2025']) // 'pm --json redeem eth-5k-2025'
 */
export function pmLine(ctx: Context, words: readonly string[]): string {
  const f = ctx.flags;
  const globals: string[] = [];
  if (f.profile !== undefined) globals.push('--profile', f.profile);
  if (f.baseUrl !== undefined) globals.push('--base-url', f.baseUrl);
  if (f.output !== undefined) globals.push('-o', f.output);
  else if (f.json) globals.push('--json');
  if (f.yes) globals.push('--yes');
  return ['pm', ...[...globals, ...words].map(shellWord)].join(' ');
}
