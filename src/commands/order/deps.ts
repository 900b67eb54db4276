// What the order commands share: the authenticated client (acting for a sub-account when
// asked), caches, the journal, the signer.
import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import { AuthError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http.js';
import { Journal, TradeCache } from '../../core/trade/index.js';
import type { SignDeps } from '../../core/trade/index.js';
import { signingAccount } from '../../core/trade/signer.js';

export interface TradingDeps extends SignDeps {
  journal: Journal;
}

/**
 * An authenticated API client for trading commands (HMAC token or legacy key) that acts for
 * `actingAs` (a partner's sub-account) on every call, or for the caller's own profile.
 */
export async function tradingApi(ctx: Context, o: { actingAs?: number | undefined } = {}): Promise<ApiClient> {
  const creds = await ctx.credentials();
  const auth = await creds.unlock('auto');
  if (!auth.hmac && !auth.apiKey) {
    throw new AuthError('trading needs an API token', {
      hint: 'Run pm init (pm init --sandbox for the sandbox), or set PM_TOKEN_ID and PM_TOKEN_SECRET.',
    });
  }
  return ctx.api(auth, { actingAs: o.actingAs });
}

export async function tradingDeps(ctx: Context, o: { actingAs?: number | undefined } = {}): Promise<TradingDeps> {
  const creds = await ctx.credentials();
  const api = await tradingApi(ctx, o);
  const auth = api.auth;
  const p = ctx.profile();
  // The profile's stored owner id and fee rate apply only to its own stored token.
  const own = creds.sources.token === 'keystore' || creds.sources.apiKey === 'keystore';
  const name = ctx.profileName();
  return {
    api,
    cache: new TradeCache(ctx.home),
    account: (actingAs) => signingAccount(creds, { actingAs, subAccounts: p.subAccounts, actingFor: p.onBehalfOf }),
    credentialId: auth.hmac ? `hmac:${auth.hmac.tokenId}` : `key:${auth.apiKey?.id ?? ''}`,
    owner:
      own && p.profileId !== undefined && p.feeRateBps !== undefined ? { profileId: p.profileId, feeRateBps: p.feeRateBps } : undefined,
    // A fee refusal refreshed the rate: the profile must not pin the stale one.
    onOwnerRefresh:
      own && name !== undefined
        ? (fresh) => void ctx.updateProfile({ feeRateBps: fresh.feeRateBps, profileId: fresh.profileId }, name).catch(() => undefined)
        : undefined,
    journal: new Journal(join(ctx.home, 'journal')),
  };
}
