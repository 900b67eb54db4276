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

/**
 * How an error names an order's inputs: as the CLI's flags (`--size`, `--type fok`) or as the keys
 * of a library call and of a batch file's line (`size`, `type: 'fok'`).
 */
export type InputWords = 'flags' | 'keys';
const KEYS = {
  price: 'price',
  size: 'size',
  amount: 'amount',
  type: 'type',
  'post-only': 'postOnly',
  delegated: 'delegated',
  'on-behalf-of': 'onBehalfOf',
  'client-id': 'clientId',
} as const;
export type InputName = keyof typeof KEYS;
/** The input as said in a sentence: `--size` or `size`. */
export const inputName = (w: InputWords, f: InputName): string => (w === 'flags' ? `--${f}` : KEYS[f]);
/** The input's bare label (a headline's subject): `client-id` or `clientId`. */
export const inputLabel = (w: InputWords, f: InputName): string => (w === 'flags' ? f : KEYS[f]);
/** An example of the input with a value: `--price 0.42` or `price: '0.42'`. */
export const inputExample = (w: InputWords, f: InputName, v: string): string => (w === 'flags' ? `--${f} ${v}` : `${KEYS[f]}: '${v}'`);
/**
 * A sub-account's profile id for a delegated order, with where to find one: `--on-behalf-of 1234`
 * or `onBehalfOf: 1234` (a number).
 */
export const onBehalfOfExample = (w: InputWords): string =>
  w === 'flags'
    ? "for example --on-behalf-of 1234 (your sub-accounts' profile ids: pm partner list)"
    : "for example onBehalfOf: 1234 (a sub-account's profile id)";
