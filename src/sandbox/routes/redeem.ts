// POST /portfolio/redeem: a resolved market's shares paid out from the ledger, one
// position.redeemed event. With a chain (--chain), redemptions made on the chain are carried
// into the ledger first and the exchange's redemption burns the same shares there
// (../redemptions.ts), so a share is never paid twice.
import { randomBytes, randomUUID } from 'node:crypto';
import { chainOf } from '../chainref.js';
import { projectAccount } from '../ledger.js';
import { ledgerOf, payoutPosted, tradingWallet } from '../portfolio.js';
import { burnOnChain, syncRedemptions } from '../redemptions.js';
import { actingProfile, asObject, fail, isResponse, needScope } from './http.js';
import { knownKeysError } from './order-shape.js';
import type { MarketRecord, Profile } from '../types.js';
import type { SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Redemptions running with a chain, by profile and condition (a second one at once is a 409). */
const redeeming = new WeakMap<SandboxContext, Set<string>>();

export async function redeem(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const scope = needScope(req, 'trading');
  if (scope) return scope;
  const shape = knownKeysError(req.json, ['conditionId', 'onBehalfOf'], 'a redeem request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object: {conditionId, onBehalfOf?}');
  const cid = body['conditionId'];
  if (typeof cid !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(cid))
    return fail(400, 'conditionId must be a bytes32 hex string (0x + 64 hex digits)');
  const who = actingProfile(ctx, req.auth?.profileId ?? 0, body['onBehalfOf']);
  if (isResponse(who)) return who;
  const chain = chainOf(ctx);
  if (!chain) return redeemNow(ctx, who.id, cid);
  // With a chain, one record of who holds which shares: a redemption made on the chain is in
  // the ledger before this one is judged, and this one burns the same shares on the chain.
  const key = `${who.id}:${cid.toLowerCase()}`;
  const running = redeeming.get(ctx) ?? new Set<string>();
  redeeming.set(ctx, running);
  if (running.has(key))
    return fail(409, `A redemption of condition ${cid} for profile ${who.id} is running already; check again in a moment`);
  running.add(key);
  try {
    await syncRedemptions(ctx);
    const plan = redeemPlan(ctx, who.id, cid);
    if (isResponse(plan)) return plan;
    await burnOnChain(ctx, plan.who, plan.payouts);
    await syncRedemptions(ctx); // one made on the chain meanwhile
    return redeemNow(ctx, who.id, cid);
  } catch (e) {
    return fail(
      503,
      `The local chain did not answer (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): nothing was redeemed; try again`,
    );
  } finally {
    running.delete(key);
  }
}

interface RedeemPlan {
  who: Profile;
  market: MarketRecord;
  win: string;
  winShares: bigint;
  loseShares: bigint;
  payouts: { tokenId: string; shares: bigint; usdc: bigint }[];
}

/** What redeeming `conditionId` for a profile pays now (from the ledger), or the refusal. */
function redeemPlan(ctx: SandboxContext, profileId: number, cid: string): RedeemPlan | SandboxResponse {
  const who = ctx.state.profiles.find((p) => p.id === profileId);
  if (!who) return fail(404, `Profile ${profileId} not found`);
  const market = ctx.state.markets.find((m) => m.conditionId !== null && same(m.conditionId, cid));
  if (!market?.positionIds) return fail(404, `No market has condition id ${cid}`);
  if (market.status !== 'RESOLVED' || market.winningOutcomeIndex === null)
    return fail(400, `Market ${market.slug} is not resolved: positions can be redeemed only after resolution`);
  if (!payoutPosted(market))
    return fail(
      400,
      `Market ${market.slug} is resolved (${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'}) but its payout is not posted on chain yet: not redeemable yet, try again later`,
    );
  const acct = projectAccount(ledgerOf(ctx.state, who.id));
  const win = market.positionIds[market.winningOutcomeIndex];
  const lose = market.positionIds[market.winningOutcomeIndex === 0 ? 1 : 0];
  const winShares = acct.positions[win]?.shares ?? 0n;
  const loseShares = acct.positions[lose]?.shares ?? 0n;
  if (winShares === 0n) {
    const done = ledgerOf(ctx.state, who.id).find(
      (e) => e.kind === 'redemption' && e.conditionId !== undefined && same(e.conditionId, cid),
    );
    if (done)
      return fail(
        409,
        `Already redeemed${done.onChain ? ' on chain' : ''}: the winning shares of ${market.slug} were paid out (tx ${done.txHash ?? '?'}); nothing is left to redeem`,
      );
    return fail(
      400,
      `Nothing to redeem: profile ${who.id} holds no winning ${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'} shares of ${market.slug}`,
    );
  }
  const payouts = [{ tokenId: win, shares: winShares, usdc: winShares }];
  if (loseShares > 0n) payouts.push({ tokenId: lose, shares: loseShares, usdc: 0n });
  return { who, market, win, winShares, loseShares, payouts };
}

/** Redeems as the ledger stands now (no await between the decision and the commit). */
function redeemNow(ctx: SandboxContext, profileId: number, cid: string): SandboxResponse {
  const plan = redeemPlan(ctx, profileId, cid);
  if (isResponse(plan)) return plan;
  const { who, market, winShares, loseShares, payouts } = plan;
  const hash = txHash();
  ctx.apply({
    type: 'position.redeemed',
    at: ctx.now(),
    profileId: who.id,
    conditionId: market.conditionId ?? cid,
    payouts,
    txHash: hash,
  });
  return {
    status: 201,
    body: {
      hash: '',
      userOperationHash: hash,
      transactionId: randomUUID(),
      walletAddress: tradingWallet(who),
      conditionId: market.conditionId,
      marketId: market.id,
      // sandbox additions
      marketSlug: market.slug,
      profileId: who.id,
      winningOutcome: market.winningOutcomeIndex === 0 ? 'YES' : 'NO',
      sharesRedeemed: winShares.toString(),
      losingSharesBurnt: loseShares.toString(),
      payout: winShares.toString(),
    },
  };
}
