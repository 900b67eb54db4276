// The sandbox's shared model: the state and its records (the events that change it are in
// events.ts; what a route handler sees, the context included, in handlers.ts).
// The sandbox is an independent implementation of the exchange protocol: nothing here (or
// anywhere under src/sandbox) may import src/core or src/keystore.
// Money is bigint in raw units (USDC and shares have 6 decimals); prices are bigint
// micro-units too (0.42 → 420_000n), on a tick of 1_000n.

export type Hex = `0x${string}`;
export type Scope = 'trading' | 'account_creation' | 'delegated_signing' | 'withdrawal' | 'admin';
export type Outcome = 'YES' | 'NO';
export type Side = 'BUY' | 'SELL';
export type OrderType = 'GTC' | 'FOK' | 'FAK';
export type SettlementStatus = 'UNMATCHED' | 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED' | 'CANCELED';
export type OrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'UNMATCHED';

export interface Profile {
  id: number;
  name: string; // alice, bob, partner, or a sub-account display name
  role: 'trader' | 'market_maker' | 'partner' | 'sub_account';
  address: Hex; // EIP-55 checksummed
  /** In memory only, never logged or stored: a public dev key, or derived from walletSalt (keys.ts). */
  privateKey?: Hex;
  feeRateBps: number;
  parentProfileId?: number; // sub-accounts of a partner
  serverWallet?: boolean;
  /** A managed server wallet the profile trades from, when it is not the profile address itself. */
  serverWalletAddress?: Hex;
  /** A server wallet the sandbox created: its key derives from the server key and this salt (keys.ts). */
  walletSalt?: string;
  displayName: string;
  createdAt: string;
}

export interface ApiToken {
  tokenId: string;
  /** base64, as handed out once at derive time; in memory only (derived from the server key, keys.ts). */
  secret: string;
  profileId: number;
  scopes: Scope[];
  label: string | null;
  createdAt: string;
  /** Set by every authenticated request: kept in memory and written with snapshots, never logged. */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Position {
  shares: bigint; // owned, including locked
  locked: bigint; // reserved by resting SELL orders
  cost: bigint; // USDC spent on the shares held (for PnL)
  realisedPnl: bigint;
}

/**
 * A profile's balances: a projection, never edited on its own. usdc and each position's shares,
 * cost and realisedPnl fold the profile's ledger (ledger.ts applyEntry); lockedUsdc and locked
 * are what its LIVE orders reserve.
 */
export interface Account {
  profileId: number;
  usdc: bigint; // total, including locked
  lockedUsdc: bigint; // reserved by resting BUY orders
  positions: Record<string, Position>; // by tokenId (decimal string)
}

export interface MakerMatch {
  id: string;
  createdAt: string;
  matchedSize: string; // raw shares
  orderId: string;
  price: string; // decimal
  ownerId: number;
}

/**
 * One trade an order took part in, with its own id and settlement: a taker order has one per
 * submission that matched, a resting order one per taker that hit it.
 */
export interface OrderTrade {
  /** The match id (maker side) or the trade id (taker side). */
  id: string;
  role: 'taker' | 'maker';
  tradeEventId: string;
  takerOrderId: string;
  matchedSize: string; // raw shares
  price: string; // decimal: the maker's price, or the taker's average
  settlementStatus: SettlementStatus;
  txHash: string | null;
  createdAt: string;
}

export interface OrderRecord {
  id: string; // uuid
  clientOrderId: string | null;
  marketSlug: string;
  ownerId: number;
  tokenId: string;
  outcome: Outcome;
  side: Side;
  orderType: OrderType;
  price: bigint | null; // micro-units; null for FOK
  originalSize: bigint; // raw shares (for FOK: filled size)
  remainingSize: bigint; // raw shares still resting
  makerAmount: bigint;
  takerAmount: bigint;
  postOnly: boolean;
  status: OrderStatus;
  settlementStatus: SettlementStatus;
  createdAt: string;
  updatedAt: string;
  seq: number; // price-time priority tie-breaker
  signedOrder: Record<string, unknown>; // the order JSON as received
  makerMatches: MakerMatch[];
  execution: Record<string, unknown>; // the execution object returned at creation
  tradeEventId: string | null;
  txHash: string | null;
  /** Every trade of the order, each with its own settlement (absent in older state files). */
  trades?: OrderTrade[];
  /**
   * The EIP-712 hash of the signed order (absent for the simulator's orders and in older state
   * files): an order whose hash was accepted once is refused (409).
   */
  orderHash?: string;
}

export interface Venue {
  exchange: Hex;
  adapter: Hex | null;
}

/** A market as the wire shows it (GET /markets/{slug}); see wire-facts §4.1. */
export interface MarketRecord {
  id: number;
  slug: string;
  title: string;
  description: string;
  tradeType: 'clob' | 'amm' | 'group';
  marketType: 'single' | 'group';
  status: 'FUNDED' | 'RESOLVED' | 'CLOSED';
  categories: string[];
  tags: string[];
  createdAt: string;
  updatedAt: string;
  expirationTimestamp: number; // ms
  expired: boolean;
  conditionId: string | null;
  positionIds: [string, string] | null; // YES first
  venue: Venue | null;
  negRiskRequestId: string | null;
  groupSlug: string | null; // NegRisk children point at their group
  winningOutcomeIndex: 0 | 1 | null;
  /** Resolved, but the on-chain payout is not posted yet (redeem refused until it is). */
  payoutPending?: boolean;
  resolutionTxHash?: string | null;
  address: Hex | null; // AMM only
  volume: bigint; // raw USDC
  liquidity: bigint;
  openInterest: bigint;
  lastTradePrice: bigint | null; // micro-units
  priceHistory: { t: number; price: bigint }[]; // YES price history
  extra: Record<string, unknown>; // any further wire fields (metadata, settings, creator…)
}

export interface SandboxState {
  version: 1;
  seededAt: string;
  nextProfileId: number;
  nextSeq: number;
  profiles: Profile[];
  tokens: ApiToken[];
  apiKeys: { key: string; profileId: number }[]; // legacy X-API-Key
  identityTokens: { token: string; profileId: number }[];
  accounts: Record<string, Account>; // by profileId: the projection of `ledger` and the LIVE orders
  markets: MarketRecord[];
  orders: OrderRecord[];
  feed: Record<string, unknown>[]; // NEW_TRADE feed events, newest last
  /** Taker fees the exchange collected, raw USDC as a decimal string (keeps USDC conserved). */
  feesCollected?: string;
  /**
   * The sandbox's own server key (hex), in memory only: it lives in server.key (0600), and token
   * secrets and server-wallet keys derive from it (keys.ts), so neither log nor snapshot holds one.
   */
  serverKey?: string;
  /** Append-only money ledger per profile (by profileId); `accounts` is its projection. */
  ledger?: Record<string, LedgerEntry[]>;
  /** Allowance targets of server-wallet sub-accounts, by profileId (partner/allowances.ts). */
  allowances?: Record<string, AllowanceTarget[]>;
  /** Withdrawal-address allowlist entries of every profile (soft-deleted ones keep deletedAt). */
  withdrawalAddresses?: WithdrawalAddress[];
  /** Where the replay of a recording stands (`--replay`), once one has started. */
  replay?: ReplayProgress;
}

/** The progress of a replay (replay.ts), as the log records it. */
export interface ReplayProgress {
  /** The recording's path as given to the sandbox. */
  file: string;
  /** Lines after the header applied in the current pass. */
  applied: number;
  /** Recorded time reached (epoch ms of the last line applied; the recording's start before any). */
  recordedTime: number;
  /** Passes completed (--loop starts another at the end). */
  passes: number;
  done: boolean;
}

/** One approval a server wallet needs on chain (exchange-api.md, allowance readiness). */
export interface AllowanceTarget {
  type: 'USDC_ALLOWANCE' | 'CTF_APPROVAL';
  tokenAddress: Hex;
  spenderOrOperator: Hex;
  label: string;
  requiredFor: Side;
  status: 'confirmed' | 'missing' | 'submitted' | 'failed';
  retryable: boolean;
  transactionId?: string;
  txHash?: string;
  userOperationHash?: string;
  errorCode?: string;
  errorMessage?: string;
  /** When the (simulated) chain confirms a submitted target, in ms. */
  confirmAt?: number;
}

/** One withdrawal-address allowlist entry (exchange-api.md "Withdrawal-address allowlist entry"). */
export interface WithdrawalAddress {
  id: string;
  profileId: number;
  destinationAddress: Hex;
  label: string;
  createdAt: string;
  deletedAt: string | null;
}

/**
 * One line of a profile's ledger. Amounts are raw units, all ≥ 0; the kind and side say the
 * direction. `trade` is a fill: for a maker one per match (fee 0), for a taker one per order
 * (all its fills at once, with the one fee). `via` says how the exchange matched it.
 */
export interface LedgerEntry {
  kind: 'deposit' | 'withdrawal' | 'grant' | 'trade' | 'redemption';
  at: string;
  usdc: bigint;
  tokenId?: string;
  side?: Side;
  shares?: bigint;
  fee?: bigint;
  /** grant only: the cost basis that comes with the shares. */
  cost?: bigint;
  tradeId?: string | null;
  orderId?: string;
  matchId?: string;
  role?: 'maker' | 'taker';
  via?: string; // direct, mint, merge (a taker's fills may mix: "direct+mint")
  /** deposit/withdrawal/redemption: the transaction, destination, condition it belongs to. */
  txHash?: string;
  destination?: string;
  conditionId?: string;
  /** redemption: redeemed on the chain, the payout went to the wallet there (not to this balance). */
  onChain?: boolean;
}
