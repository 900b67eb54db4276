// Admin routes for market lifecycle (sandbox only, no auth): create a CLOB market and resolve
// one. Each commits one logged event (market.created / market.resolved), which the streams
// project as market.created/marketCreated and market.resolved/marketResolved. For benchmarks,
// POST /__sandbox/markets/synthetic {"count": n} adds n synthetic CLOB markets in one event
// (markets.synthetic, which the streams do not announce).
import { randomBytes } from 'node:crypto';
import { chainOf } from '../chainref.js';
import { marketBySlug } from '../indexes.js';
import { clobMarket, syntheticSlug } from '../seedmarkets.js';
import type { Route } from '../handlers.js';
import { secondWinner } from '../resolution.js';

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
/** At most this many synthetic markets per request. */
const MAX_SYNTHETIC = 100_000;

export const lifecycleRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/__sandbox/markets',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const b = (req.json ?? {}) as Record<string, unknown>;
      const slug = b['slug'];
      if (typeof slug !== 'string' || !SLUG.test(slug))
        return { status: 400, body: { message: 'slug must be lower-case letters, digits and dashes' } };
      if (ctx.state.markets.some((m) => m.slug === slug)) return { status: 409, body: { message: `Market ${slug} already exists` } };
      const title = typeof b['title'] === 'string' && b['title'] !== '' ? b['title'] : slug;
      const id = Math.max(0, ...ctx.state.markets.map((m) => m.id)) + 1;
      const at = ctx.now();
      ctx.apply({ type: 'market.created', at, market: clobMarket(slug, title, id, at) });
      return { status: 201, body: { slug, id, title } };
    },
  },
  {
    method: 'POST',
    pattern: '/__sandbox/markets/synthetic',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const count = ((req.json ?? {}) as Record<string, unknown>)['count'];
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SYNTHETIC)
        return { status: 400, body: { message: `count must be an integer from 1 to ${MAX_SYNTHETIC}` } };
      let maxId = 0;
      for (const m of ctx.state.markets) if (m.id > maxId) maxId = m.id;
      const firstId = maxId + 1;
      for (let id = firstId; id < firstId + count; id++) {
        if (marketBySlug(ctx.state, syntheticSlug(id)))
          return { status: 409, body: { message: `Market ${syntheticSlug(id)} already exists` } };
      }
      ctx.apply({ type: 'markets.synthetic', at: ctx.now(), firstId, count });
      return {
        status: 201,
        body: {
          firstId,
          count,
          first: syntheticSlug(firstId),
          last: syntheticSlug(firstId + count - 1),
          markets: ctx.state.markets.length,
        },
      };
    },
  },
  {
    method: 'POST',
    pattern: '/__sandbox/markets/:slug/resolve',
    auth: { kind: 'public' },
    handler: async (req, ctx) => {
      const slug = req.params['slug'] ?? '';
      const m = ctx.state.markets.find((x) => x.slug === slug);
      if (!m) return { status: 404, body: { message: `Market ${slug} not found` } };
      if (m.status === 'RESOLVED') return { status: 409, body: { message: `Market ${slug} is already resolved` } };
      const w = (req.json as Record<string, unknown> | undefined)?.['winner'];
      if (w !== 'YES' && w !== 'NO') return { status: 400, body: { message: 'winner must be "YES" or "NO"' } };
      const second = secondWinner(ctx.state, m, w === 'YES' ? 0 : 1);
      if (second !== null) return { status: 409, body: { message: second } };
      const canceled = ctx.state.orders.filter((o) => o.marketSlug === slug && o.status === 'LIVE').map((o) => o.id);
      ctx.apply({
        type: 'market.resolved',
        at: ctx.now(),
        slug,
        winningOutcomeIndex: w === 'YES' ? 0 : 1,
        payoutPosted: true,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        canceled,
      });
      // With a chain (--chain), the payout is posted on chain before answering, so an on-chain
      // redemption can follow at once.
      const chain = chainOf(ctx);
      if (chain) await chain.postPayout(m, w === 'YES' ? 0 : 1);
      return {
        status: 200,
        body: {
          slug,
          status: 'RESOLVED',
          winningOutcome: w,
          winningOutcomeIndex: w === 'YES' ? 0 : 1,
          canceledOrders: canceled.length,
          payoutOnChain: chain !== undefined,
        },
      };
    },
  },
];
