// The library's public types: one name for every result and stream record, each the type of the
// function in src/core that produces it (the CLI's --json uses the same functions), so a name can
// never drift from what a call returns. Nothing here reaches a package: the published .d.ts
// needs no dependency installed (test/lib/types.test.ts).
import type {
  OrderInput as CoreOrderInput,
  OrderType as CoreOrderType,
  Outcome as CoreOutcome,
  Side as CoreSide,
} from '../core/trade/terms.js';
import type { SubAccountCreated } from '../core/partner.js';

export type Side = CoreSide;
export type Outcome = CoreOutcome;
export type OrderType = CoreOrderType;

/** A side as a call takes it: 'buy' or 'sell' (either case). */
export type SideInput = Side | Lowercase<Side>;
/** An outcome as a call takes it: 'yes' or 'no' (either case). */
export type OutcomeInput = Outcome | Lowercase<Outcome>;
/** An order type as a call takes it: 'gtc' (default), 'fok' or 'fak' (either case). */
export type OrderTypeInput = OrderType | Lowercase<OrderType>;

/** One order for `orders.place` (and a line of `orders.placeBatch`): prices and sizes as decimal strings. */
export interface OrderRequest extends Omit<CoreOrderInput, 'market' | 'side' | 'outcome' | 'type' | 'stp'> {
  /** The market's slug (or its limitless.exchange URL). */
  market: string;
  side: SideInput;
  outcome: OutcomeInput;
  type?: OrderTypeInput | undefined;
  /** Self-trade prevention (the exchange's default: cancel_maker). */
  stp?: 'cancel_maker' | 'cancel_taker' | 'cancel_both' | undefined;
}

export type { MarketJson as Market, OrderBookJson, BookLevelJson as BookLevel } from '../core/market-wire.js';
export type { PricePointJson as PricePoint } from '../core/markets.js';
export type { OpenOrderJson as Order, StatusJson as OrderStatus, FilledJson, PlaceResult } from '../core/trade/views.js';
export type { BatchResult, CancelEntry, CancelResult } from '../core/trade/views.js';
export type { CancelAllResult, ReplaceResult } from '../core/trade/replace.js';
export type { ExecutionJson as Execution, OrderTerms } from '../core/trade/views.js';
export type {
  PositionJson as Position,
  PositionTotalsJson as PositionTotals,
  PnlJson as Pnl,
  PnlPointJson as PnlPoint,
  TradeJson as Trade,
  HistoryEntryJson as HistoryEntry,
} from '../core/portfolio.js';
export type {
  WatchRecord,
  OrderEventRecord,
  OmeOrderEvent,
  SettlementOrderEvent,
  OmeEventType,
  SettlementEventType,
  PositionsRecord,
  PositionBalance,
  OrderbookUpdateRecord,
  NewPriceDataRecord,
  MarketCreatedRecord,
  MarketResolvedRecord,
  LifecycleRecord,
  OtherRecord,
} from '../core/watch-records.js';
export type { Lifecycle } from '../core/stream.js';
export type { Allowances, AllowanceTarget, PartnerAccount, PartnerAccountItem, PartnerPage, SubAccountCreated } from '../core/partner.js';
export type { AllowlistEntry, AllowlistRemoval } from '../core/funds.js';
export type { MarketPageJson as MarketPage } from '../core/markets.js';

/** partner.create's input for a server-wallet sub-account (the exchange signs its orders). */
export interface ServerWalletCreate {
  serverWallet: true;
  /** At most 44 visible characters (default: the address). */
  displayName?: string | undefined;
}

/** partner.create's input for an EOA sub-account: its own key signs (given here, else made). */
export interface EoaCreate {
  serverWallet: false;
  displayName?: string | undefined;
  /** The child's key (hex), made and stored by the caller first; left out: made here. */
  privateKey?: string | undefined;
}

export interface ServerWalletSubAccount extends SubAccountCreated {
  mode: 'server-wallet';
}

/** An EOA sub-account whose key went into the profile's keystore (a client with `profile`). */
export interface KeystoreEoaSubAccount extends SubAccountCreated {
  mode: 'eoa';
  /** The keystore wallet holding its key (child-<address prefix>). */
  wallet: string;
}

/** An EOA sub-account whose key the caller keeps (a client without `profile`): pass it as subAccountKeys later. */
export interface KeyedEoaSubAccount extends SubAccountCreated {
  mode: 'eoa';
  /** The child's private key: pm stores it nowhere. */
  privateKey: `0x${string}`;
}

export type EoaSubAccount = KeystoreEoaSubAccount | KeyedEoaSubAccount;
export type { RedeemJson, WithdrawJson } from '../core/funds-json.js';
export type { WithdrawOutcome } from '../core/withdrawals.js';
