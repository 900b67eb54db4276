// Admin route: POST /__sandbox/markets/:slug/resolve {winner: "YES"|"NO"} resolves a market
// (its resting orders are cancelled) and, when the sandbox runs a chain, posts the payout on
// chain before answering, so an on-chain redemption can follow at once.
import { chainOf } from '../chainref.js';
import { commit } from '../reducer.js';
import type { Route } from '../types.js';

export const resolveRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/__sandbox/markets/:slug/resolve',
    auth: { kind: 'public' },
    handler: async (req, ctx) => {
      const slug = req.params['slug'] ?? '';
      const body = (req.json ?? {}) as Record<string, unknown>;
      const w = body['winner'];
      const winner = w === 'YES' || w === 0 ? 0 : w === 'NO' || w === 1 ? 1 : null;
      if (winner === null) return { status: 400, body: { message: 'winner must be "YES" or "NO"' } };
      const market = ctx.state.markets.find((m) => m.slug === slug);
      if (!market) return { status: 404, body: { message: `Market ${slug} not found` } };
      if (!market.positionIds) return { status: 400, body: { message: `Market ${slug} has no positions to resolve` } };
      if (market.status === 'RESOLVED' || market.winningOutcomeIndex !== null) return { status: 409, body: { message: `Market ${slug} is already resolved` } };
      commit(ctx.state, { type: 'market.resolved', at: ctx.now(), slug, winner });
      ctx.persist();
      ctx.emit({ type: 'marketResolved', payload: { slug, winningOutcomeIndex: winner } });
      const chain = chainOf(ctx);
      if (chain) await chain.postPayout(market, winner);
      return { status: 200, body: { slug, status: 'RESOLVED', winningOutcomeIndex: winner, payoutOnChain: chain !== undefined } };
    },
  },
];
