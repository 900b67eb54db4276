import { errorMessage, NotFoundError } from '../core/errors.js';
import { noTokenError } from '../core/http.js';
import { formatUnits } from '../core/money.js';
import { listTokens, profileMe } from '../core/tokens.js';
import { defineCommand } from '../cli/command.js';

export default defineCommand({
  path: ['whoami'],
  effect: 'read',
  // A profile that acts for a partner's sub-account (or --on-behalf-of) is shown with it: the
  // identity is the partner's, the orders and money the sub-account's.
  actsFor: true,
  summary: 'Show the active identity, verified with the exchange (profile, fee rate, scopes, credential source)',
  description:
    "Show the active identity and verify it with an authenticated call (GET /profiles/me): a bad or revoked secret fails here with exit 3.\n\nCredentials, first match wins: PM_TOKEN_ID + PM_TOKEN_SECRET, or PM_API_KEY (the environment replaces the stored token and key together); else the profile's encrypted token, else its legacy key. The signing wallet: PM_PRIVATE_KEY, else the profile's keystore wallet. Identity-only routes use PM_IDENTITY_TOKEN or the stored identity token.",
  examples: ['pm whoami', 'pm --json whoami | jq .profileId', 'PM_TOKEN_ID=… PM_TOKEN_SECRET=… pm whoami'],
  run: async (ctx) => {
    const creds = await ctx.credentials();
    const auth = await creds.unlock('auto');
    if (!auth.hmac && !auth.apiKey) {
      throw noTokenError('no API token is set');
    }
    const api = await ctx.api(auth);
    const me = await profileMe(api);
    let scopes: string[] | null = null;
    if (auth.hmac) {
      const tokens = await listTokens(api).catch(() => []);
      scopes = tokens.find((t) => t.tokenId === auth.hmac?.tokenId)?.scopes ?? null;
    }
    // What it can trade with (pm balance has the whole picture); a balance that cannot be read
    // (no RPC answer, a token without the portfolio scope) leaves it out, with why.
    const { accountBalance } = await import('../core/balance.js');
    const balance = await accountBalance(ctx.core).then(
      (b) => ({ ok: true as const, b }),
      (e: unknown) => ({ ok: false as const, why: errorMessage(e) }),
    );
    // The sub-account acted for, with its address where the partner's list (or the config) has it.
    // One that is not the partner's is said after the rest (exit 4); one pm cannot look up (a token
    // that may not list sub-accounts) is shown without its address.
    const actingFor =
      ctx.onBehalfOf === undefined
        ? null
        : await ctx.core.subAccount(api.withOnBehalfOf(undefined), ctx.onBehalfOf).then(
            (a) => ({ profileId: ctx.onBehalfOf as number, address: a.address ?? null, notOurs: undefined }),
            (e: unknown) => ({ profileId: ctx.onBehalfOf as number, address: null, notOurs: e instanceof NotFoundError ? e : undefined }),
          );
    const using = auth.hmac ? 'hmac' : 'apiKey';
    const source = using === 'hmac' ? creds.sources.token : creds.sources.apiKey;
    const result = {
      profile: ctx.profileName() ?? null,
      baseUrl: ctx.baseUrl,
      address: me.account || creds.address,
      walletAddress: creds.address,
      profileId: me.id,
      displayName: me.displayName || null,
      feeRateBps: me.feeRateBps,
      auth: using,
      tokenId: auth.hmac?.tokenId ?? null,
      scopes,
      sources: creds.sources,
      source,
      onBehalfOf: actingFor?.profileId ?? null,
      onBehalfOfAddress: actingFor?.address ?? null,
      usdc: balance.ok
        ? { free: formatUnits(balance.b.usdc.free), freeRaw: balance.b.usdc.free.toString(), source: balance.b.source }
        : null,
    };
    // whoami refreshes what orders are signed with: the profile's pinned fee rate and the cache.
    const { TradeCache } = await import('../core/trade/session.js');
    new TradeCache(ctx.home).rememberOwner(api.baseUrl, auth.hmac ? `hmac:${auth.hmac.tokenId}` : `key:${auth.apiKey?.id ?? ''}`, {
      profileId: me.id,
      feeRateBps: me.feeRateBps,
      account: me.account,
    });
    const name = ctx.profileName();
    const p = ctx.profile();
    if (name !== undefined && source === 'keystore' && (p.feeRateBps !== me.feeRateBps || p.profileId !== me.id)) {
      if (p.feeRateBps !== undefined && p.feeRateBps !== me.feeRateBps)
        ctx.out.info(`fee rate updated in profile ${name}: ${p.feeRateBps} → ${me.feeRateBps} bps`);
      await ctx.updateProfile({ feeRateBps: me.feeRateBps, profileId: me.id }, name);
    }
    if (creds.address && me.account && creds.address.toLowerCase() !== me.account.toLowerCase()) {
      ctx.out.warn(`the wallet ${creds.address} is not the account of this token (${me.account}): orders would be refused`);
    }
    ctx.out.data(result, () =>
      ctx.out.keyValue([
        ['profile', result.profile ?? '(none)'],
        ['exchange', result.baseUrl],
        ['account', result.address ?? '-'],
        ['profile id', String(result.profileId)],
        ['name', result.displayName ?? '-'],
        ['fee rate', `${result.feeRateBps} bps`],
        [
          'auth',
          `${using === 'hmac' ? `HMAC token ${result.tokenId ?? ''}` : 'legacy API key'} (from ${source === 'env' ? 'the environment' : 'the keystore'})`,
        ],
        ['scopes', scopes ? scopes.join(', ') : '-'],
        ...(actingFor
          ? [
              [
                'acts for',
                actingFor.notOurs
                  ? `sub-account ${actingFor.profileId}: not one of this partner's sub-accounts`
                  : `sub-account ${actingFor.profileId}${actingFor.address ? ` (${actingFor.address})` : ''}: its orders, positions and USDC`,
              ] as [string, string],
            ]
          : []),
        [
          'USDC free',
          balance.ok
            ? `${ctx.out.usd(formatUnits(balance.b.usdc.free))} (${actingFor ? `sub-account ${actingFor.profileId}'s; ` : ''}pm balance for held and locked)`
            : `? (${balance.why})`,
        ],
        [
          'wallet',
          creds.address
            ? `${creds.address} (from ${creds.sources.wallet === 'env' ? 'PM_PRIVATE_KEY' : 'the keystore'})`
            : '(none: needed to sign orders)',
        ],
      ]),
    );
    if (actingFor?.notOurs) throw actingFor.notOurs;
  },
});
