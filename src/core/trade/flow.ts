// From user input (flags or one batch line) to a signed request body: validation first (no
// network), then market and owner lookups, then signing.
import type { ApiClient } from '../http.js';
import { ExchangeValidationError, ValidationError } from '../errors.js';
import type { PmError } from '../errors.js';
import { slugFrom } from '../market-input.js';
import { formatUnits } from '../money.js';
import { checkFokSellAmount, parseAmount, parsePrice, parseSize } from './amounts.js';
import { checkClientOrderId, checkShape, newClientOrderId, newSalt, prepareOrder, STP_POLICIES } from './build.js';
import type { OrderBody, StpPolicy } from './build.js';
import { inputLabel, onBehalfOfExample } from './terms.js';
import type { InputWords, OrderInput, OrderType, Outcome, Side } from './terms.js';
import { signOrder } from './eip712.js';
import type { Hex } from './eip712.js';
import type { TradeCache } from './session.js';
import type { Journal } from './journal.js';
import { isFeeRefusal, placeOrder, sameTerms } from './place.js';
import { exchangeId } from '../journal-account.js';
import type { Placed } from './place.js';
import type { OrderSigner } from './signer.js';

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
  /** pm made the client id up (none was given): see PlaceParsedOptions.completeUnknownTwin. */
  generatedId?: boolean | undefined;
  onBehalfOf: number | undefined;
  delegated: boolean;
  stpPolicy: StpPolicy | undefined;
  /** How errors and hints about this order name its inputs (absent: the CLI's flags). */
  words?: InputWords | undefined;
}

/** `v` as one of `allowed` (either case), else a ValidationError: "outcome must be one of yes, no". */
export function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], field: string, hint?: string): T {
  const u = (v ?? '').toUpperCase();
  const hit = allowed.find((a) => a === u);
  if (!hit)
    throw new ValidationError(`${field} must be one of ${allowed.map((a) => a.toLowerCase()).join(', ')}${v ? `, got "${v}"` : ''}`, {
      hint,
    });
  return hit;
}

/** The hint of a side or outcome that is neither: the order's shape, with an example from its own inputs. */
function shapeHint(i: OrderInput, slug: string, side: Side | undefined, w: InputWords): string {
  const s = (side ?? 'BUY').toLowerCase();
  const sized =
    i.amount !== undefined && i.price === undefined
      ? { flags: `--type fok --amount ${i.amount}`, keys: `type: 'fok', amount: '${i.amount}'` }
      : {
          flags: `--price ${i.price ?? '0.42'} --size ${i.size ?? '10'}`,
          keys: `price: '${i.price ?? '0.42'}', size: '${i.size ?? '10'}'`,
        };
  return w === 'flags'
    ? `pm order place <slug> <buy|sell> <yes|no> …, e.g. pm order place ${slug} ${s} yes ${sized.flags}`
    : `side is 'buy' or 'sell', outcome 'yes' or 'no', e.g. { market: '${slug}', side: '${s}', outcome: 'yes', ${sized.keys} }`;
}

/**
 * Checks everything that can be checked without the network; errors name the inputs as `w` says
 * (the CLI's flags, or the keys of a library call or a batch line).
 */
export function parseOrderInput(i: OrderInput, w: InputWords = 'flags'): ParsedOrder {
  if (!i.market)
    throw new ValidationError('market is missing', {
      hint:
        w === 'flags'
          ? 'pm order place <slug> <buy|sell> <yes|no> …'
          : "e.g. pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10' })",
    });
  const slug = slugFrom(i.market);
  const side = oneOf(i.side, ['BUY', 'SELL'] as const, 'side', shapeHint(i, slug, undefined, w));
  const outcome = oneOf(i.outcome, ['YES', 'NO'] as const, 'outcome', shapeHint(i, slug, side, w));
  const type = oneOf(
    i.type ?? 'gtc',
    ['GTC', 'FOK', 'FAK'] as const,
    'type',
    w === 'flags'
      ? '--type gtc (rests until filled or cancelled, the default), fok (fill all at once or nothing) or fak (fill what it can, cancel the rest)'
      : "type: 'gtc' (rests until filled or cancelled, the default), 'fok' (fill all at once or nothing) or 'fak' (fill what it can, cancel the rest)",
  );
  const price = i.price !== undefined ? parsePrice(i.price, w) : undefined;
  const size = i.size !== undefined ? parseSize(i.size, 'size', w) : undefined;
  const amount = i.amount !== undefined ? parseAmount(i.amount, w) : undefined;
  checkShape(type, price, size, amount, i.postOnly === true, w);
  if (type === 'FOK' && side === 'SELL' && amount !== undefined) checkFokSellAmount(amount, i.amount ?? '', w);
  if (i.delegated && i.onBehalfOf === undefined)
    throw new ValidationError(
      w === 'flags' ? '--delegated needs --on-behalf-of <profileId>' : "delegated needs onBehalfOf (the sub-account's profile id)",
      { hint: onBehalfOfExample(w) },
    );
  if (i.onBehalfOf !== undefined && (!Number.isInteger(i.onBehalfOf) || i.onBehalfOf <= 0))
    throw new ValidationError(`${inputLabel(w, 'on-behalf-of')} must be a profile id (a positive whole number)`);
  return {
    slug,
    side,
    outcome,
    type,
    price,
    size,
    amount,
    postOnly: i.postOnly === true,
    clientOrderId: checkClientOrderId(i.clientId ?? newClientOrderId(), w),
    ...(i.clientId === undefined ? { generatedId: true } : {}),
    onBehalfOf: i.onBehalfOf,
    delegated: i.delegated === true,
    words: w,
    stpPolicy:
      i.stp === undefined
        ? undefined
        : (oneOf(
            i.stp,
            STP_POLICIES.map((x) => x.toUpperCase()),
            'stp',
            `${w === 'flags' ? '--stp' : 'stp'} cancel_maker (the exchange's default), cancel_taker or cancel_both`,
          ).toLowerCase() as StpPolicy),
  };
}

export interface SignDeps {
  api: ApiClient;
  cache: TradeCache;
  /**
   * How an order acting for `onBehalfOf` is sent (trade/signer.ts): signed by the caller's own
   * wallet, unsigned for a server-wallet sub-account, or signed by an EOA sub-account's own key
   * (refused, exit 2, when pm holds none). `delegated` is what the caller said: a check.
   */
  signer: (onBehalfOf: number | undefined, delegated: boolean) => Promise<OrderSigner>;
  /** Identifies the credential, for the owner cache. */
  credentialId: string;
  /** Profile id and fee rate known from the profile config, skipping a lookup. */
  owner?: { profileId: number; feeRateBps: number } | undefined;
  /** Called with fresh owner data after a fee refusal (to update the profile). */
  onOwnerRefresh?: ((o: { profileId: number; feeRateBps: number }) => void) | undefined;
  /** The USDC free to trade of the account acting (`onBehalfOf`), to say it when a BUY is refused for lack of it. */
  freeUsdc?: ((onBehalfOf: number | undefined) => Promise<bigint>) | undefined;
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
  const actingFor = p.onBehalfOf ?? deps.api.onBehalfOf;
  const signer = await deps.signer(actingFor, p.delegated);
  const account = signer.delegated ? null : signer.account;
  // The caller's own order: the exchange takes it only signed by the token's account (an older
  // cache may not know that account: then the exchange says).
  const tokenAccount = 'account' in owner && typeof owner.account === 'string' ? owner.account : '';
  if (account && actingFor === undefined && tokenAccount && account.address.toLowerCase() !== tokenAccount.toLowerCase())
    throw new ValidationError(
      `the wallet ${account.address} is not the account of this API token (${tokenAccount}): the exchange refuses the orders it signs; nothing was sent`,
      {
        hint:
          p.words === 'flags'
            ? "pm whoami shows both. Sign with the token's account (its wallet: pm wallet import, or PM_PRIVATE_KEY), or use a token of this wallet's account."
            : "Give createClient the token's account's key, or a token of this key's account.",
      },
    );
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
    delegated: signer.delegated,
    stpPolicy: p.stpPolicy,
    feeRateBps: owner.feeRateBps,
    maker: account ? (account.address as Hex) : null,
    salt: newSalt(),
    words: p.words,
  });
  if (account) body.order.signature = await signOrder(account, exchange, unsigned);
  const notional =
    p.type === 'FOK' ? (p.side === 'BUY' ? unsigned.makerAmount : 0n) : p.side === 'BUY' ? unsigned.makerAmount : unsigned.takerAmount;
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

export interface PlaceParsedOptions {
  journal: Journal;
  signal?: AbortSignal | undefined;
  onNote?: ((note: string) => void) | undefined;
  lookupFirst?: boolean | undefined;
  /** Called once, when the order is signed and about to be sent (after every local check). */
  onSending?: ((summary: OrderSummary) => void) | undefined;
  /**
   * An order whose client id pm made up, identical to one whose outcome the journal says is
   * unknown (within TWIN_WINDOW_MS): complete that one under its client id (ask the exchange
   * first, place it if absent) rather than place a second. The CLI's `order place` run again as
   * first typed after an unknown outcome (a new id each run) placed a second order.
   */
  completeUnknownTwin?: boolean | undefined;
}

/** How long after an unknown outcome an identical order without a client id completes it (15 minutes). */
const TWIN_WINDOW_MS = 15 * 60_000;

/** The newest order of the last TWIN_WINDOW_MS whose outcome is unknown and that asks for what `body` asks, on this exchange. */
function unknownTwin(journal: Journal, body: OrderBody, exchange: string): { clientOrderId: string; at: number } | undefined {
  return journal.unknownSince(Date.now() - TWIN_WINDOW_MS).find((u) => u.exchange === exchange && sameTerms(body, u.request));
}

/**
 * Signs and places one parsed order exactly once, acting for its `onBehalfOf` (or the
 * client's own acting profile), within one deadline (the client's timeout from now). A refusal
 * for a stale fee rate refreshes the owner data and signs again once.
 */
export async function placeParsed(
  deps: SignDeps,
  p: ParsedOrder,
  o: PlaceParsedOptions,
): Promise<{ placed: Placed; summary: OrderSummary }> {
  // One deadline for the whole placement: market and owner lookups, attempts and lookups.
  deps = { ...deps, api: deps.api.withDeadline() };
  const api = deps.api.withOnBehalfOf(p.onBehalfOf ?? deps.api.onBehalfOf);
  const market = await deps.cache.market(deps.api, p.slug);
  let signed = await buildSignedOrder(deps, p);
  let lookupFirst = o.lookupFirst;
  const twin = o.completeUnknownTwin && p.generatedId ? unknownTwin(o.journal, signed.body, exchangeId(api.baseUrl)) : undefined;
  if (twin) {
    const ms = Date.now() - twin.at;
    // Seconds under a minute ("5 s ago"; it said "1 min ago" of an order sent seconds before).
    const ago = ms < 59_500 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;
    o.onNote?.(
      `the outcome of an identical order (client id ${twin.clientOrderId}, ${ago} ago) is unknown: completing it under that client id, not placing a second one (to place another as well, give it a --client-id)`,
    );
    p = { ...p, clientOrderId: twin.clientOrderId, generatedId: false };
    signed = await buildSignedOrder(deps, p);
    lookupFirst = true;
  }
  o.onSending?.(signed.summary);
  const send = (s: SignedOrder): Promise<Placed> =>
    placeOrder(api, s.body, o.journal, {
      signal: o.signal,
      onNote: o.onNote,
      lookupFirst,
      positionIds: market.positionIds,
      words: p.words,
    });
  try {
    return { placed: await send(signed), summary: signed.summary };
  } catch (e) {
    if (isCollateralRefusal(e)) throw await withFunds(e, deps, signed, p.onBehalfOf ?? deps.api.onBehalfOf);
    if (!isFeeRefusal(e)) throw e;
    const fresh = await deps.cache.owner(deps.api, deps.credentialId, { refresh: true });
    if (fresh.feeRateBps === signed.summary.feeRateBps) throw e;
    o.onNote?.(`the fee rate changed from ${signed.summary.feeRateBps} to ${fresh.feeRateBps} bps: signing again`);
    deps.onOwnerRefresh?.({ profileId: fresh.profileId, feeRateBps: fresh.feeRateBps });
    signed = await buildSignedOrder({ ...deps, owner: { profileId: fresh.profileId, feeRateBps: fresh.feeRateBps } }, p);
    return { placed: await send(signed), summary: signed.summary };
  }
}

/** The exchange's refusal of a BUY for want of USDC ("Insufficient collateral balance"; an allowance is another matter). */
function isCollateralRefusal(e: unknown): e is ExchangeValidationError {
  return e instanceof ExchangeValidationError && /insufficient collateral/i.test(e.shortMessage) && !/allowance/i.test(e.shortMessage);
}

/**
 * The refusal, saying how much USDC is free and how much the order needs (its collateral, plus
 * the taker fee it may pay at most). Free is read afresh; when it cannot be read, the refusal
 * stays as the exchange gave it.
 */
async function withFunds(e: ExchangeValidationError, deps: SignDeps, s: SignedOrder, onBehalfOf: number | undefined): Promise<PmError> {
  if (!deps.freeUsdc || s.body.order.side !== 0) return e;
  const free = await deps.freeUsdc(onBehalfOf).catch(() => null);
  if (free === null) return e;
  const need = BigInt(s.body.order.makerAmount);
  const fee = (need * BigInt(s.summary.feeRateBps)) / 10_000n;
  const feeText = fee > 0n ? ` (plus up to ${formatUnits(fee)} USDC taker fee)` : '';
  return new ExchangeValidationError(
    `${e.shortMessage}: ${formatUnits(free)} USDC free, this order needs ${formatUnits(need)} USDC${feeText}`,
    {
      status: e.status,
      details: e.details,
      hint: e.hint,
      cause: e,
    },
  );
}
