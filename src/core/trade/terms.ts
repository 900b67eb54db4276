// The words of an order, in a module of their own that imports nothing: the library's public
// types (src/lib/types.ts) name them without reaching the signing code (and its viem types).
export type Side = 'BUY' | 'SELL';
export type Outcome = 'YES' | 'NO';
export type OrderType = 'GTC' | 'FOK' | 'FAK';

/** One order as a user gives it: flags, a batch file's line, or the library's call (all text). */
export interface OrderInput {
  market?: string | undefined;
  side?: string | undefined;
  outcome?: string | undefined;
  type?: string | undefined;
  price?: string | undefined;
  size?: string | undefined;
  amount?: string | undefined;
  postOnly?: boolean | undefined;
  clientId?: string | undefined;
  onBehalfOf?: number | undefined;
  delegated?: boolean | undefined;
  /** Self-trade prevention: cancel_maker (the exchange's default), cancel_taker or cancel_both. */
  stp?: string | undefined;
}
