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
