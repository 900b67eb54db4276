// GET /__sandbox/balance?profileId=N: the exchange's own USDC figures of one profile (held, and
// locked by its open BUY orders), which the real exchange keeps on chain. `pm balance` reads
// them against a sandbox without --chain. Loopback only, like every admin route.
import { tradingWallet } from '../portfolio.js';
import type { Route } from '../handlers.js';
import { queriedProfile } from './http.js';

export const balanceAdminRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/__sandbox/balance',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const profile = queriedProfile(req, ctx);
      if (!('id' in profile)) return profile;
      const id = profile.id;
      const acct = ctx.state.accounts[String(id)];
      return {
        status: 200,
        body: {
          profileId: id,
          wallet: tradingWallet(profile),
          usdc: (acct?.usdc ?? 0n).toString(),
          lockedUsdc: (acct?.lockedUsdc ?? 0n).toString(),
        },
      };
    },
  },
];
