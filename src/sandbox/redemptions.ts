// One record of who holds which shares, on the local chain or off it (`--chain`). The ledger is
// the exchange's record; a redemption made on one side is carried to the other before a second
// claim is judged: a redemption on the chain (CTF redeemPositions from a profile's wallet) is
// committed as position.redeemed {onChain: true} (the shares leave the ledger, the payout went
// to the wallet), and one made through the exchange burns the same shares on the chain.
// Without a chain nothing here runs.
import { chainOf } from './chainref.js';
import { tradingWallet } from './portfolio.js';
import type { Profile } from './types.js';
import type { SandboxContext } from './handlers.js';

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * Commits the chain's redemptions not in the ledger yet (by transaction hash), each capped at
 * the shares the ledger holds. Resolves at once without a chain.
 */
export async function syncRedemptions(ctx: SandboxContext): Promise<void> {
  const chain = chainOf(ctx);
  if (!chain) return;
  const found = await chain.redemptions();
  const state = ctx.state; // after the await: a reset may have replaced it
  for (const r of found) {
    const profile = state.profiles.find((p) => same(p.address, r.redeemer) || same(p.serverWalletAddress, r.redeemer));
    const market = state.markets.find((m) => m.conditionId !== null && same(m.conditionId, r.conditionId));
    if (!profile || !market?.positionIds || market.winningOutcomeIndex === null) continue;
    const ledger = state.ledger?.[String(profile.id)] ?? [];
    if (ledger.some((e) => e.kind === 'redemption' && e.txHash === r.txHash)) continue;
    const winner = market.positionIds[market.winningOutcomeIndex];
    const held = state.accounts[String(profile.id)]?.positions ?? {};
    const payouts = r.burns
      .filter((b) => market.positionIds?.includes(b.tokenId))
      .map((b) => {
        const have = held[b.tokenId]?.shares ?? 0n;
        const shares = b.shares < have ? b.shares : have;
        return { tokenId: b.tokenId, shares, usdc: b.tokenId === winner ? shares : 0n };
      })
      .filter((p) => p.shares > 0n);
    if (payouts.length === 0) continue;
    ctx.apply({
      type: 'position.redeemed',
      at: ctx.now(),
      profileId: profile.id,
      conditionId: market.conditionId ?? r.conditionId,
      payouts,
      txHash: r.txHash,
      onChain: true,
    });
  }
}

/** Burns on the chain what the exchange is about to redeem for `profile` (where the chain holds its shares). */
export async function burnOnChain(
  ctx: SandboxContext,
  profile: Profile,
  burns: readonly { tokenId: string; shares: bigint }[],
): Promise<void> {
  // (From the wallet the shares were minted to and trade from: a server wallet, if it has one.)
  await chainOf(ctx)?.burnRedeemed(tradingWallet(profile), burns);
}
