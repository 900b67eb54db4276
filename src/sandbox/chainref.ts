// Where a sandbox's chain is attached (see chain.ts, loaded only with --chain). This module is
// tiny on purpose: order and admin routes ask it, and without a chain nothing else loads.
import type { AllowanceTarget, Hex, MarketRecord, SandboxState } from './types.js';
import type { SandboxContext } from './handlers.js';

/** What the chain says about one allowance target of a server wallet. */
export interface TargetRead {
  /** The allowance (USDC, > 0) or the CTF operator approval is in place. */
  approved: boolean;
  /** The receipt of the target's transaction (txHash), when it has one: null = not mined yet. */
  receipt: 'success' | 'reverted' | null;
}

/** One redemption made on the chain itself (CTF redeemPositions), with what it burnt. */
export interface ChainRedemption {
  txHash: Hex;
  redeemer: Hex;
  conditionId: Hex;
  burns: { tokenId: string; shares: bigint }[];
}

export interface ChainHooks {
  /** The deployed test contracts (one object for the chain's life; a redeploy updates it in place). */
  contracts: { usdc: Hex; conditionalTokens: Hex };
  /** Why an EOA order must be refused (the exchange's message), or null. */
  orderRefusal(o: { owner: string; market: MarketRecord; buy: boolean; makerAmount: bigint }): Promise<string | null>;
  /** Posts the payout of a resolved market on chain (winner 0 = YES, 1 = NO). */
  postPayout(market: MarketRecord, winner: 0 | 1): Promise<void>;
  /**
   * Sends a server wallet's allowance target as a real transaction signed with its key (USDC
   * approve(spender, max) or CTF setApprovalForAll(operator, true)), funding its gas first;
   * resolves with the hash once the node accepted it, without waiting for the receipt.
   */
  submitTarget(key: Hex, target: AllowanceTarget): Promise<Hex>;
  /** The chain's view of `owner`'s targets, in order. */
  readTargets(owner: Hex, targets: readonly AllowanceTarget[]): Promise<TargetRead[]>;
  /** The redemptions made on the chain since the last call (all of them at the first), oldest first. */
  redemptions(): Promise<ChainRedemption[]>;
  /**
   * Burns on the chain the shares the exchange redeemed off it (never more than `holder` holds),
   * so they cannot be redeemed there too; resolves once mined.
   */
  burnRedeemed(holder: Hex, burns: readonly { tokenId: string; shares: bigint }[]): Promise<void>;
  /**
   * A withdrawal on chain: the server wallet (its key) sends `amount` USDC to `to`; topped up by
   * the owner first when the chain holds less than the ledger gave it. Resolves once mined.
   */
  withdraw(key: Hex, to: Hex, amount: bigint): Promise<Hex>;
  /** Puts the chain back to the state deployed for `state` (the seed, on sandbox reset). */
  reset(state: SandboxState): Promise<void>;
}

const chains = new WeakMap<SandboxContext, ChainHooks>();

export function setChain(ctx: SandboxContext, chain: ChainHooks | null): void {
  if (chain) chains.set(ctx, chain);
  else chains.delete(ctx);
}

/** The chain attached to a sandbox, if it runs with one. */
export function chainOf(ctx: SandboxContext): ChainHooks | undefined {
  return chains.get(ctx);
}

/**
 * For POST /orders: the refusal when the owner's on-chain approvals are missing. Returns null at
 * once (no await, no chain read) without a chain or for a server wallet.
 */
export function orderChainRefusal(
  ctx: SandboxContext,
  o: { owner: { address: string; serverWallet?: boolean | undefined }; market: MarketRecord; buy: boolean; makerAmount: bigint },
): Promise<string | null> | null {
  const chain = chains.get(ctx);
  if (!chain || o.owner.serverWallet) return null; // server wallets get approvals provisioned by the backend
  return chain.orderRefusal({ owner: o.owner.address, market: o.market, buy: o.buy, makerAmount: o.makerAmount });
}
