// Builds the exact POST /orders body (wire-facts §3.6), validating everything the exchange
// would refuse before anything is sent.
import { randomBytes, randomInt } from 'node:crypto';
import { ValidationError } from '../errors.js';
import type { Market } from '../market-wire.js';
import { fokAmounts, limitAmounts } from './amounts.js';
import { inputExample, inputLabel, inputName, onBehalfOfExample } from './terms.js';
import type { InputName, InputWords, OrderType, Outcome, Side } from './terms.js';
import { ZERO_ADDRESS } from './eip712.js';
import type { Hex, UnsignedOrder } from './eip712.js';

/** Self-trade prevention policies (wire-facts §3.7; unsigned, at the top level of the create body). */
export const STP_POLICIES = ['cancel_maker', 'cancel_taker', 'cancel_both'] as const;
export type StpPolicy = (typeof STP_POLICIES)[number];

export interface OrderParams {
  market: Market;
  outcome: Outcome;
  side: Side;
  type: OrderType;
  price?: bigint | undefined;
  size?: bigint | undefined;
  amount?: bigint | undefined;
  postOnly?: boolean | undefined;
  clientOrderId: string;
  ownerId: number;
  onBehalfOf?: number | undefined;
  delegated?: boolean | undefined;
  /** Self-trade prevention (absent: the exchange's default, cancel_maker). */
  stpPolicy?: StpPolicy | undefined;
  feeRateBps: number;
  /** The signing wallet; null for delegated orders. */
  maker: Hex | null;
  salt: bigint;
  expiration?: bigint | undefined;
  /** How errors name the inputs (absent: the CLI's flags). */
  words?: InputWords | undefined;
}

export interface WireOrder {
  salt: number;
  maker: Hex;
  signer: Hex;
  taker: Hex;
  tokenId: string;
  makerAmount: number;
  takerAmount: number;
  expiration: string;
  nonce: number;
  feeRateBps: number;
  side: 0 | 1;
  signatureType: 0;
  price?: number;
  signature?: Hex;
}

export interface OrderBody {
  order: WireOrder;
  orderType: OrderType;
  marketSlug: string;
  ownerId: number;
  postOnly?: boolean;
  clientOrderId: string;
  stpPolicy?: StpPolicy;
  onBehalfOf?: number;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A fresh client order id: `pm-` and 20 random base32 characters. */
export function newClientOrderId(): string {
  const bytes = randomBytes(20);
  let s = 'pm-';
  for (const b of bytes) s += BASE32[b % 32];
  return s;
}

/** A random salt below 2^53, so it is exact as a JSON number. */
export function newSalt(): bigint {
  return BigInt(randomInt(0, 2 ** 47)) * 64n + BigInt(randomInt(0, 64));
}

/** Checks a client order id. */
export function checkClientOrderId(id: string, w: InputWords = 'flags'): string {
  const label = inputLabel(w, 'client-id');
  // (A library caller's id may be anything: a number is refused here, not a TypeError on trim.)
  if (typeof id !== 'string') throw new ValidationError(`${label} must be a string, got ${JSON.stringify(id) ?? String(id)}`);
  if (id.trim().length === 0) throw new ValidationError(`${label} must not be ${id.length === 0 ? 'empty' : 'blank'}`);
  if (id.length > 128)
    throw new ValidationError(`${label} is ${id.length} characters; the exchange allows at most 128`, {
      hint: `Use an id of at most 128 characters, or leave ${inputName(w, 'client-id')} out and pm makes one (pm- and 20 letters and digits).`,
    });
  if (/[\u0000-\u001f]/.test(id)) throw new ValidationError(`${label} must not contain control characters`);
  return id;
}

const safe = (v: bigint, field: string): number => {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ValidationError(`${field} ${v} is too large for the exchange's JSON numbers`);
  return Number(v);
};

/** The decimal text of a micro-unit price as a JSON number (e.g. 550000n → 0.55). */
function priceNumber(p: bigint): number {
  return Number(`${p / 1_000_000n}.${(p % 1_000_000n).toString().padStart(6, '0')}`);
}

/** The inputs each order type takes: FOK an amount and no price; GTC/FAK a price and a size. */
export function checkShape(
  type: OrderType,
  price: bigint | undefined,
  size: bigint | undefined,
  amount: bigint | undefined,
  postOnly: boolean,
  w: InputWords = 'flags',
): void {
  const n = (f: InputName): string => inputName(w, f);
  if (type === 'FOK') {
    if (price !== undefined)
      throw new ValidationError(`FOK orders take ${n('amount')} and no ${n('price')}`, {
        hint: `FOK spends ${n('amount')} USDC (BUY) or sells ${n('amount')} shares (SELL), all or nothing.`,
      });
    if (size !== undefined) throw new ValidationError(`FOK orders take ${n('amount')}, not ${n('size')}`);
    if (amount === undefined)
      throw new ValidationError(`FOK orders need ${n('amount')} (USDC to spend on BUY, shares to sell on SELL)`, {
        hint: `for example ${inputExample(w, 'amount', '25')}`,
      });
  } else {
    if (amount !== undefined)
      throw new ValidationError(`${type} orders take ${n('price')} and ${n('size')}, not ${n('amount')}`, {
        hint: `Use ${inputExample(w, 'type', 'fok')} to spend an amount at market prices.`,
      });
    if (price === undefined)
      throw new ValidationError(`${type} orders need ${n('price')} (0.001 to 1)`, {
        hint: `for example ${inputExample(w, 'price', '0.42')}`,
      });
    if (size === undefined)
      throw new ValidationError(`${type} orders need ${n('size')} (shares)`, { hint: `for example ${inputExample(w, 'size', '10')}` });
  }
  if (postOnly && type !== 'GTC') throw new ValidationError(`${n('post-only')} works with GTC orders only, not ${type}`);
}

/**
 * Refuses a market an order cannot go to (a group, an AMM market, resolved, past its deadline,
 * not trading, not a CLOB market): exit 2, with the reason (and a group's markets).
 * @example checkTradable(await getMarket(api, 'us-election-2028')) // throws: a NegRisk group
 */
export function checkTradable(m: OrderParams['market'], w: InputWords = 'flags'): void {
  if (m.tradeType === 'group' || m.children.length > 0) {
    const children = m.children.map((c) => c.slug).join(', ');
    throw new ValidationError(`${m.slug} is a NegRisk group: orders go to one of its child markets${children ? ` (${children})` : ''}`, {
      hint: w === 'flags' ? `See pm markets show ${m.slug}` : `Name one of them as market; pm.markets.get('${m.slug}') shows them.`,
    });
  }
  if (m.tradeType === 'amm') throw new ValidationError(`${m.slug} is an AMM market: it has no order book`);
  if (m.status === 'RESOLVED' || m.winningOutcomeIndex !== null)
    throw new ValidationError(`${m.slug} is resolved: it no longer trades`, {
      hint: w === 'flags' ? 'Claim winnings with pm redeem.' : `Claim winnings with pm.funds.redeem('${m.slug}').`,
    });
  if (m.expired || (m.expirationTimestamp !== null && m.expirationTimestamp < Date.now()))
    throw new ValidationError(`${m.slug} is past its deadline: it no longer trades`);
  if (m.status && m.status !== 'FUNDED') throw new ValidationError(`${m.slug} is ${m.status}: it does not trade now`);
  if (!m.venue || !m.positionIds) throw new ValidationError(`${m.slug} has no venue or position ids: it is not a CLOB market`);
}

/** Validates the parameters against the market and returns the unsigned order and body. */
export function prepareOrder(p: OrderParams): { unsigned: UnsignedOrder; body: OrderBody; exchange: Hex } {
  const m = p.market;
  const w = p.words ?? 'flags';
  checkTradable(m, w);
  // (Said by checkTradable; here for the types.)
  if (!m.venue || !m.positionIds) throw new ValidationError(`${m.slug} has no venue or position ids: it is not a CLOB market`);
  checkClientOrderId(p.clientOrderId, w);
  checkShape(p.type, p.price, p.size, p.amount, p.postOnly === true, w);
  if (p.delegated && p.onBehalfOf === undefined)
    throw new ValidationError(
      w === 'flags'
        ? '--delegated needs --on-behalf-of <profileId> (the server signs for that sub-account)'
        : "delegated needs onBehalfOf (the sub-account's profile id: the server signs for it)",
      { hint: onBehalfOfExample(w) },
    );
  if (!p.delegated && p.maker === null)
    throw new ValidationError('no wallet to sign with', {
      hint: w === 'flags' ? 'Create or import one (pm wallet create), or set PM_PRIVATE_KEY.' : 'Pass privateKey to createClient.',
    });
  // The share size of the order: GTC/FAK size, or the shares a FOK SELL sells.
  const shares = p.type === 'FOK' ? (p.side === 'SELL' ? p.amount : undefined) : p.size;
  if (m.minSize !== null && shares !== undefined && shares < m.minSize) {
    const fmt = (v: bigint): string =>
      v % 1_000_000n === 0n
        ? String(v / 1_000_000n)
        : `${v / 1_000_000n}.${(v % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')}`;
    throw new ValidationError(
      `${p.type === 'FOK' ? 'amount' : 'size'} ${fmt(shares)} is below the market's minimum order size of ${fmt(m.minSize)} shares`,
      { hint: `Use ${inputExample(w, p.type === 'FOK' ? 'amount' : 'size', fmt(m.minSize))} or more.` },
    );
  }
  const { makerAmount, takerAmount } = p.type === 'FOK' ? fokAmounts(p.amount ?? 0n) : limitAmounts(p.side, p.price ?? 0n, p.size ?? 0n);
  const maker = p.delegated ? ZERO_ADDRESS : (p.maker ?? ZERO_ADDRESS);
  const tokenId = p.outcome === 'YES' ? m.positionIds[0] : m.positionIds[1];
  const unsigned: UnsignedOrder = {
    salt: p.salt,
    maker,
    signer: maker,
    taker: ZERO_ADDRESS,
    tokenId: BigInt(tokenId),
    makerAmount,
    takerAmount,
    expiration: p.expiration ?? 0n,
    nonce: 0n,
    feeRateBps: BigInt(p.feeRateBps),
    side: p.side === 'BUY' ? 0 : 1,
    signatureType: 0,
  };
  const order: WireOrder = {
    salt: safe(p.salt, 'salt'),
    maker,
    signer: maker,
    taker: ZERO_ADDRESS,
    tokenId,
    makerAmount: safe(makerAmount, 'makerAmount'),
    takerAmount: safe(takerAmount, 'takerAmount'),
    expiration: unsigned.expiration.toString(),
    nonce: 0,
    feeRateBps: p.feeRateBps,
    side: unsigned.side,
    signatureType: 0,
  };
  if (p.type !== 'FOK' && p.price !== undefined) order.price = priceNumber(p.price);
  const ownerId = p.onBehalfOf ?? p.ownerId;
  // Key order as the official SDK sends it (the HMAC signs these exact bytes).
  const body: OrderBody = {
    order,
    orderType: p.type,
    marketSlug: m.slug,
    ownerId,
    ...(p.postOnly && p.type === 'GTC' ? { postOnly: true } : {}),
    clientOrderId: p.clientOrderId,
    ...(p.stpPolicy !== undefined ? { stpPolicy: p.stpPolicy } : {}),
    ...(p.onBehalfOf !== undefined ? { onBehalfOf: p.onBehalfOf } : {}),
  };
  return { unsigned, body, exchange: m.venue.exchange as Hex };
}
