// The state events: every change of sandbox state is one of these, applied by the reducer
// (reducer.ts) and recorded in the event log, so replaying the log from the seed rebuilds the
// state exactly. None carries a key or a secret.
import type { AllowanceTarget, ApiToken, MarketRecord, OrderRecord, Profile, ReplayProgress, WithdrawalAddress } from './types.js';

/** One executed fill, seen from the taker (as the engine decides it and the log records it). */
export interface Fill {
  makerOrderId: string;
  /** direct: same token, opposite side; mint: both BUY; merge: both SELL. */
  kind: 'direct' | 'mint' | 'merge';
  size: bigint;
  /** The maker's limit price: every fill executes at it. */
  makerPrice: bigint;
  /** Price per share the taker pays (BUY) or receives (SELL): the complement on mint/merge. */
  takerPrice: bigint;
  makerUsd: bigint;
  takerUsd: bigint;
  matchId: string;
}

/** A token as its event records it: no secret (derived from the server key), no lastUsedAt. */
export type TokenRecord = Omit<ApiToken, 'secret' | 'lastUsedAt' | 'revokedAt'>;

/**
 * A state change. The reducer `apply(state, event)` (reducer.ts) is the only code that changes
 * state; the event log holds these, so replaying it from the seed rebuilds the state exactly.
 * None carries a key or a secret. EVENT_TYPES (shape.ts) lists every type, for the loader.
 */
export type StateEvent =
  | { type: 'seed'; at: number }
  | { type: 'reset'; at: number }
  | {
      type: 'order.placed';
      at: number;
      /** The new order as it stands after matching (status, remainingSize, makerMatches…). */
      order: OrderRecord;
      fills: Fill[];
      /** The taker's own resting orders cancelled by self-trade prevention. */
      stpCanceled: string[];
      totals: { contracts: bigint; usdGross: bigint; usdFee: bigint; usdNet: bigint };
      /** The NEW_TRADE feed entry, when something matched. */
      feed: Record<string, unknown> | null;
    }
  | { type: 'order.cancelled'; at: number; orderId: string }
  | { type: 'market.created'; at: number; market: MarketRecord }
  /** `count` synthetic markets with ids `firstId`… (seed.ts syntheticMarkets), for benchmarks. */
  | { type: 'markets.synthetic'; at: number; firstId: number; count: number }
  /** A profile created after the seed: a partner's sub-account (EOA or server wallet), a simulator bot. */
  | { type: 'profile.created'; at: number; profile: Profile }
  | { type: 'token.derived'; at: number; token: TokenRecord }
  | { type: 'token.revoked'; at: number; tokenId: string }
  /** One allowance step of a server wallet: its targets as they now stand (whole record). */
  | { type: 'allowances'; at: number; profileId: number; targets: AllowanceTarget[] }
  | {
      type: 'settlement';
      at: number;
      tradeEventId: string;
      takerOrderId: string;
      makerOrderIds: string[];
      to: 'MINED' | 'CONFIRMED';
      txHash: string;
    }
  | { type: 'funds.deposited'; at: number; profileId: number; amount: bigint; txHash: string }
  | { type: 'funds.withdrawn'; at: number; profileId: number; amount: bigint; token: string; destination: string; txHash: string }
  | {
      type: 'market.resolved';
      at: number;
      slug: string;
      winningOutcomeIndex: 0 | 1;
      /** false: resolved, but the payout is not posted yet (redeem refused until a later resolve posts it). */
      payoutPosted: boolean;
      txHash: string;
      /** LIVE orders of the market, cancelled as it resolves. */
      canceled: string[];
    }
  | {
      type: 'position.redeemed';
      at: number;
      profileId: number;
      conditionId: string;
      /** Each token burnt: winners pay 1 USDC per share, losers 0. */
      payouts: { tokenId: string; shares: bigint; usdc: bigint }[];
      txHash: string;
      /** Redeemed on the local chain (seen there): the payout went to the wallet, not to the balance here. */
      onChain?: boolean;
    }
  /**
   * Where a replay of a recording stands (replay.ts): lines applied (of the file, this pass),
   * the recorded time reached, passes completed (--loop), and whether it ended. Committed with
   * the replay's own order of a recorded trade, so a restart continues exactly after it.
   */
  | { type: 'replay.progress'; at: number; progress: ReplayProgress }
  | { type: 'allowlist.added'; entry: WithdrawalAddress }
  | { type: 'allowlist.removed'; id: string; at: string };

/** The event of a placed order (what the engine decides for one). */
export type OrderPlaced = Extract<StateEvent, { type: 'order.placed' }>;

/** A logged event: its monotonic sequence number and wall time of the commit. */
export type LogEntry = StateEvent & { seq: number };
