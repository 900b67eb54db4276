// Admin routes that play a market's money life cycle (sandbox only, loopback, JSON bodies):
// POST /__sandbox/fund credits a profile's trading wallet (funds.deposited), POST
// /__sandbox/resolve resolves a market (market.resolved; with --chain the payout is posted
// there too).
import { randomBytes } from 'node:crypto';
import { chainOf } from '../chainref.js';
import { tradingWallet } from '../portfolio.js';
import { secondWinner } from '../resolution.js';
import { asObject, fail, header, parseId } from './http.js';
import { knownKeysError } from './order-shape.js';
import type { Route, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;

function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  return addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.');
}

/** Admin writes: loopback peers only, JSON bodies only. */
function adminGuard(req: SandboxRequest): SandboxResponse | null {
  if (!isLoopback(req.remoteAddress)) return fail(403, 'Sandbox admin routes answer only on loopback (127.0.0.1 / ::1)');
  const ct = header(req, 'content-type') ?? '';
  if (!ct.includes('application/json')) return fail(415, 'Send a JSON body with content-type: application/json');
  if (!asObject(req.json)) return fail(400, 'Request body must be a JSON object');
  return null;
}

function fund(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const g = adminGuard(req);
  if (g) return g;
  const shape = knownKeysError(req.json, ['profileId', 'amount'], 'a fund request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json) ?? {};
  const id = parseId(body['profileId']);
  if (id === null || Number.isNaN(id)) return fail(400, 'profileId must be a profile id (integer)');
  const amountRaw = body['amount'];
  if (typeof amountRaw !== 'string' || !/^\d{1,30}$/.test(amountRaw) || BigInt(amountRaw) === 0n)
    return fail(400, 'amount must be a positive integer string of raw USDC units (1000000 is one USDC)');
  const profile = ctx.state.profiles.find((p) => p.id === id);
  if (!profile) return fail(404, `Profile ${id} not found`);
  const amount = BigInt(amountRaw);
  const hash = txHash();
  ctx.apply({ type: 'funds.deposited', at: ctx.now(), profileId: id, amount, txHash: hash });
  const acct = ctx.state.accounts[String(id)];
  return {
    status: 200,
    body: {
      profileId: id,
      wallet: tradingWallet(profile),
      amount: amount.toString(),
      balance: (acct?.usdc ?? 0n).toString(),
      txHash: hash,
    },
  };
}

async function resolve(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const g = adminGuard(req);
  if (g) return g;
  const shape = knownKeysError(req.json, ['slug', 'winningOutcome', 'payout'], 'a resolve request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json) ?? {};
  const slug = body['slug'];
  if (typeof slug !== 'string' || slug === '') return fail(400, 'slug is required');
  const w = body['winningOutcome'];
  if (w !== 'YES' && w !== 'NO') return fail(400, 'winningOutcome must be "YES" or "NO"');
  const payoutRaw = body['payout'] ?? true;
  if (typeof payoutRaw !== 'boolean')
    return fail(400, 'payout must be true (post the payout now, the default) or false (resolved, not redeemable yet)');
  const market = ctx.state.markets.find((m) => m.slug === slug);
  if (!market) return fail(404, `Market ${slug} not found`);
  if (!market.positionIds || !market.conditionId)
    return fail(
      400,
      `Market ${slug} has no outcome tokens to resolve${market.marketType === 'group' ? ': resolve its child markets' : ''}`,
    );
  const index: 0 | 1 = w === 'YES' ? 0 : 1;
  if (market.status === 'RESOLVED' && market.winningOutcomeIndex !== null) {
    if (market.winningOutcomeIndex !== index)
      return fail(409, `Market ${slug} is already resolved ${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'}`);
    if (!market.payoutPending || !payoutRaw)
      return fail(
        409,
        `Market ${slug} is already resolved ${w}${market.payoutPending ? ' (payout pending: resolve again with payout true to post it)' : ''}`,
      );
  }
  const second = secondWinner(ctx.state, market, index);
  if (second !== null) return fail(409, second);
  const canceled = ctx.state.orders.filter((o) => o.marketSlug === slug && o.status === 'LIVE').map((o) => o.id);
  const hash = txHash();
  ctx.apply({
    type: 'market.resolved',
    at: ctx.now(),
    slug,
    winningOutcomeIndex: index,
    payoutPosted: payoutRaw,
    txHash: hash,
    canceled,
  });
  const payload = {
    marketId: market.id,
    slug,
    conditionId: market.conditionId,
    winningOutcome: w,
    winningOutcomeIndex: index,
    payoutPosted: payoutRaw,
    txHash: hash,
  };
  // With a chain (--chain), the payout goes on chain too before answering.
  const chain = chainOf(ctx);
  if (chain && payoutRaw) await chain.postPayout(market, index);
  return { status: 200, body: { ...payload, status: market.status, canceledOrders: canceled.length } };
}

export const portfolioAdminRoutes: Route[] = [
  { method: 'POST', pattern: '/__sandbox/fund', auth: { kind: 'public' }, handler: fund },
  { method: 'POST', pattern: '/__sandbox/resolve', auth: { kind: 'public' }, handler: resolve },
];
