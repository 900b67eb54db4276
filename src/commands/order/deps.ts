// What the order commands share: the authenticated client (acting for a sub-account when
// asked), caches, the journal, the signer.
import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import type { LocalAccount } from 'viem/accounts';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Credentials } from '../../keystore/index.js';
import type { ApiClient } from '../../core/http.js';
import { Journal, TradeCache } from '../../core/trade/index.js';
import type { SignDeps } from '../../core/trade/index.js';

export interface TradingDeps extends SignDeps {
  journal: Journal;
}

/**
 * Who signs an order. The caller's own wallet for its own orders. For a partner's sub-account:
 * the child's own key, as `partner create` recorded it (EOA mode), or the profile's wallet when
 * the profile is the child's (`partner onboard` saves one acting for it), or PM_PRIVATE_KEY
 * (the script's explicit choice). A server-wallet child signs nothing (exit 2: --delegated); a
 * child whose key pm does not hold is refused before anything is sent (exit 2), never signed
 * with the partner's wallet (the exchange refuses that: maker is not the child).
 */
async function signingAccount(ctx: Context, creds: Credentials, actingAs: number | undefined): Promise<LocalAccount | null> {
  if (actingAs === undefined || creds.sources.wallet === 'env') return creds.account();
  const p = ctx.profile();
  const rec = p.subAccounts?.[String(actingAs)];
  if (rec?.serverWallet) {
    throw new UsageError(`sub-account ${actingAs} has a server wallet: the exchange signs its orders, pm cannot`, {
      hint: `Add --delegated (pm order place … --on-behalf-of ${actingAs} --delegated).`,
    });
  }
  if (rec?.wallet) return creds.walletAccount(rec.wallet);
  if (p.onBehalfOf === actingAs) return creds.account();
  throw new UsageError(`pm holds no key for sub-account ${actingAs}: its orders must be signed by its own wallet, not this profile's`, {
    hint:
      'For a server-wallet sub-account add --delegated. For an EOA one, use the profile pm partner onboard saved for it, ' +
      "or set PM_PRIVATE_KEY to the child's key.",
  });
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
    account: (actingAs) => signingAccount(ctx, creds, actingAs),
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
