// Where a sandbox's chain is attached (see chain.ts, loaded only with --chain). This module is
// tiny on purpose: order and admin routes ask it, and without a chain nothing else loads.
import type { MarketRecord, SandboxContext } from './types.js';

export interface ChainHooks {
  /** Why an EOA order must be refused (the exchange's message), or null. */
  orderRefusal(o: { owner: string; market: MarketRecord; buy: boolean; makerAmount: bigint }): Promise<string | null>;
  /** Posts the payout of a resolved market on chain (winner 0 = YES, 1 = NO). */
  postPayout(market: MarketRecord, winner: 0 | 1): Promise<void>;
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
export function orderChainRefusal(ctx: SandboxContext, o: { owner: { address: string; serverWallet?: boolean | undefined }; market: MarketRecord; buy: boolean; makerAmount: bigint }): Promise<string | null> | null {
  const chain = chains.get(ctx);
  if (!chain || o.owner.serverWallet) return null; // server wallets get approvals provisioned by the backend
  return chain.orderRefusal({ owner: o.owner.address, market: o.market, buy: o.buy, makerAmount: o.makerAmount });
}
