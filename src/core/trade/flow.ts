// From user input (flags or one batch line) to a signed request body: validation first (no
// network), then market and owner lookups, then signing.
import type { LocalAccount } from 'viem/accounts';
import type { ApiClient } from '../http.js';
import { ValidationError } from '../errors.js';
import { slugFrom } from '../markets.js';
import { formatUnits } from '../money.js';
import { parseAmount, parsePrice, parseSize } from './amounts.js';
import type { Side } from './amounts.js';
import { checkClientOrderId, checkShape, newClientOrderId, newSalt, prepareOrder } from './build.js';
import type { OrderBody, OrderType, Outcome } from './build.js';
import { signOrder } from './eip712.js';
import type { Hex } from './eip712.js';
import type { TradeCache } from './session.js';

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
  expires?: string | undefined;
}

export interface ParsedOrder {
  slug: string;
  side: Side;
  outcome: Outcome;
  type: OrderType;
  price: bigint | undefined;
  size: bigint | undefined;
  amount: bigint | undefined;
  postOnly: boolean;
  clientOrderId: string;
  onBehalfOf: number | undefined;
  delegated: boolean;
  expiration: bigint;
}

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], field: string): T {
  const u = (v ?? '').toUpperCase();
  const hit = allowed.find((a) => a === u);
  if (!hit) throw new ValidationError(`${field} must be one of ${allowed.map((a) => a.toLowerCase()).join(', ')}${v ? `, got "${v}"` : ''}`);
  return hit;
}

/** Parses `+30m`, `+2h`, `+1d` or an ISO time into unix seconds (0 = never). */
export function parseExpiry(v: string | undefined, nowMs = Date.now()): bigint {
  if (v === undefined || v === '' || v === '0' || v === 'never') return 0n;
  const rel = /^\+(\d+)([smhd])$/.exec(v);
  const ms = rel ? nowMs + Number(rel[1]) * { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[rel[2] as 's' | 'm' | 'h' | 'd'] : Date.parse(v);
  if (!Number.isFinite(ms)) throw new ValidationError(`expires "${v}" is not a time`, { hint: 'Use +30m, +2h, +1d or an ISO 8601 time.' });
  if (ms <= nowMs) throw new ValidationError(`expires ${v} is in the past`);
  return BigInt(Math.floor(ms / 1000));
}

/** Checks everything that can be checked without the network. */
export function parseOrderInput(i: OrderInput): ParsedOrder {
  if (!i.market) throw new ValidationError('market is missing', { hint: 'pm order place <slug> <buy|sell> <yes|no> …' });
  const slug = slugFrom(i.market);
  const side = oneOf(i.side, ['BUY', 'SELL'] as const, 'side');
  const outcome = oneOf(i.outcome, ['YES', 'NO'] as const, 'outcome');
  const type = oneOf(i.type ?? 'gtc', ['GTC', 'FOK', 'FAK'] as const, 'type');
  const price = i.price !== undefined ? parsePrice(i.price) : undefined;
  const size = i.size !== undefined ? parseSize(i.size) : undefined;
  const amount = i.amount !== undefined ? parseAmount(i.amount) : undefined;
  checkShape(type, price, size, amount, i.postOnly === true);
  if (i.delegated && i.onBehalfOf === undefined) throw new ValidationError('--delegated needs --on-behalf-of <profileId>');
  if (i.onBehalfOf !== undefined && (!Number.isInteger(i.onBehalfOf) || i.onBehalfOf <= 0)) throw new ValidationError('on-behalf-of must be a profile id (a positive whole number)');
  return {
    slug,
    side,
    outcome,
    type,
    price,
    size,
    amount,
    postOnly: i.postOnly === true,
    clientOrderId: checkClientOrderId(i.clientId ?? newClientOrderId()),
    onBehalfOf: i.onBehalfOf,
    delegated: i.delegated === true,
    expiration: parseExpiry(i.expires),
  };
}

export interface SignDeps {
  api: ApiClient;
  cache: TradeCache;
  /** Resolves the signing account lazily (not needed for delegated orders). */
  account: () => Promise<LocalAccount | null>;
  /** Identifies the credential, for the owner cache. */
  credentialId: string;
  /** Profile id and fee rate known from the profile config, skipping a lookup. */
  owner?: { profileId: number; feeRateBps: number } | undefined;
}

export interface SignedOrder {
  body: OrderBody;
  summary: OrderSummary;
}

export interface OrderSummary {
  market: string;
  side: Side;
  outcome: Outcome;
  type: OrderType;
  price: string | null;
  size: string | null;
  amount: string | null;
  /** Most USDC this order can spend (BUY) or least it receives (SELL), before fees. */
  notional: string;
  feeRateBps: number;
  clientOrderId: string;
  exchange: Hex;
  negRisk: boolean;
}

/** Looks up what the order needs, builds it and signs it. */
export async function buildSignedOrder(deps: SignDeps, p: ParsedOrder): Promise<SignedOrder> {
  const market = await deps.cache.market(deps.api, p.slug);
  const owner = deps.owner ?? (await deps.cache.owner(deps.api, deps.credentialId));
  const account = p.delegated ? null : await deps.account();
  if (!p.delegated && !account) throw new ValidationError('no wallet to sign with', { hint: 'Create or import one (pm wallet create / pm init), or set PM_PRIVATE_KEY.' });
  const { unsigned, body, exchange } = prepareOrder({
    market,
    outcome: p.outcome,
    side: p.side,
    type: p.type,
    price: p.price,
    size: p.size,
    amount: p.amount,
    postOnly: p.postOnly,
    clientOrderId: p.clientOrderId,
    ownerId: owner.profileId,
    onBehalfOf: p.onBehalfOf,
    delegated: p.delegated,
    feeRateBps: owner.feeRateBps,
    maker: account ? (account.address as Hex) : null,
    salt: newSalt(),
    expiration: p.expiration,
  });
  if (account) body.order.signature = await signOrder(account, exchange, unsigned);
  const notional = p.type === 'FOK' ? (p.side === 'BUY' ? unsigned.makerAmount : 0n) : p.side === 'BUY' ? unsigned.makerAmount : unsigned.takerAmount;
  return {
    body,
    summary: {
      market: p.slug,
      side: p.side,
      outcome: p.outcome,
      type: p.type,
      price: p.price === undefined ? null : formatUnits(p.price),
      size: p.size === undefined ? null : formatUnits(p.size),
      amount: p.amount === undefined ? null : formatUnits(p.amount),
      notional: formatUnits(notional, 6, 2),
      feeRateBps: owner.feeRateBps,
      clientOrderId: p.clientOrderId,
      exchange,
      negRisk: market.negRisk,
    },
  };
}
