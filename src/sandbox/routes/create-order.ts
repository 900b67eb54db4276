// POST /orders: parse and check a create-order request exactly as exchange-api.md and
// wire-facts §3 describe, then place it (place.ts: engine, ctx.apply, settlement). Every
// refusal is {status, message}. The steps, in order: the request around the order, the market,
// the signed fields, price and size, the owner and the signer, the signature, the chain's
// approvals (with --chain), the duplicates (client id, order hash), the placement.
import { getAddress, isAddress } from 'viem';
import { ZERO_ADDRESS, checkOrderSignature, isHighS, orderDigest, signOrderWithKey, type SignedOrderFields } from '../eip712.js';
import { STP_POLICIES, type StpPolicy } from '../match.js';
import { missingFor } from '../partner/allowances.js';
import { orderChainRefusal } from '../chainref.js';
import { placeOrder } from '../place.js';
import { ONE, PRICE_TICK, SIZE_STEP, ceilDiv, formatRaw, parseDecimal6, parseWireInt } from '../orders/amounts.js';
import { clientIdTaken, orderHashAccepted } from '../orders/accepted.js';
import { createdView } from '../orders/views.js';
import { createOrderShapeError } from './order-shape.js';
import { actingProfile, asObject, fail, isResponse, parseId, refused } from './http.js';
import type { Hex, MarketRecord, OrderType, Profile } from '../types.js';
import type { AuthContext, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

/** The request around the signed order, checked. */
interface Envelope {
  body: Record<string, unknown>;
  order: Record<string, unknown>;
  type: OrderType;
  slug: string;
  postOnly: boolean;
  clientOrderId: string | null;
  stpPolicy: StpPolicy;
}

/** The signed order's fields as numbers, with its price and size on the grid. */
interface Terms {
  tokenId: string;
  tokenIdInt: bigint;
  isBuy: boolean;
  salt: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  /** null when absent (delegated orders use the profile's rate). */
  feeRateBps: number | null;
  price: bigint | null;
  size: bigint;
}

/** Who signs: the owner's own wallet (signature checked), or its server wallet (delegated, signed here). */
interface Signer {
  maker: Hex;
  signer: Hex;
  signatureType: number;
  signature: Hex | null;
  delegated: boolean;
}

/** A step's result, or the answer that ends the request (no step result has a `status` field). */
type Step<T> = T | SandboxResponse;
const refusal = <T extends object>(v: Step<T>): v is SandboxResponse => isResponse(v);

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Largest receive window a request may ask for, in ms (wire-facts §3.6). */
const MAX_RECV_WINDOW_MS = 10_000;

/**
 * The optional, unsigned `timestamp` (ms) and `recvWindow` (1..10000 ms) of a create-order
 * request: malformed values are a 400; a request whose timestamp lies further than recvWindow
 * from the server's clock is refused with 425 (wire-facts §5). A timestamp without a window is
 * accepted as is: the exchange's default window is not documented.
 */
function receiveWindowRefusal(timestamp: unknown, recvWindow: unknown, now: number): SandboxResponse | null {
  const asInt = (v: unknown): number | null => {
    if (v === undefined || v === null) return null;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : Number.NaN;
  };
  const ts = asInt(timestamp);
  const win = asInt(recvWindow);
  if (Number.isNaN(ts)) return fail(400, 'timestamp must be the order time in Unix milliseconds (an integer)');
  if (Number.isNaN(win) || (win !== null && (win < 1 || win > MAX_RECV_WINDOW_MS)))
    return fail(400, `recvWindow must be an integer from 1 to ${MAX_RECV_WINDOW_MS} (milliseconds)`);
  if (ts === null || win === null) return null;
  if (Math.abs(now - ts) > win) {
    return fail(
      425,
      `Request outside recvWindow: timestamp ${ts} is ${now - ts} ms from server time ${now}, more than recvWindow ${win} ms`,
    );
  }
  return null;
}

/** The request's shape and its top-level fields. */
function envelope(req: SandboxRequest, now: number): Step<Envelope> {
  // Shape first: only known keys and scalar values get any further (nothing else can be stored).
  const shapeError = createOrderShapeError(req.json, Buffer.byteLength(req.rawBody, 'utf8'));
  if (shapeError !== null) return fail(400, shapeError);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object');
  const order = asObject(body['order']);
  if (!order) return fail(400, 'order is required and must be an object');
  const type = body['orderType'];
  if (type !== 'GTC' && type !== 'FOK' && type !== 'FAK') return fail(400, 'orderType must be one of GTC, FOK, FAK');
  const slug = body['marketSlug'];
  if (typeof slug !== 'string' || slug === '') return fail(400, 'marketSlug is required');
  const postOnly = body['postOnly'];
  if (postOnly !== undefined && typeof postOnly !== 'boolean') return fail(400, 'postOnly must be a boolean');
  if (postOnly === true && type !== 'GTC') return fail(400, `postOnly is only supported for GTC orders, not ${type}`);
  const cid = body['clientOrderId'] ?? null;
  if (cid !== null && (typeof cid !== 'string' || cid === '' || cid.length > 128))
    return fail(400, 'clientOrderId must be a non-empty string of at most 128 characters');
  // Self-trade prevention (wire-facts §3.7: top level, unsigned; the exchange's default is cancel_maker).
  const stp = body['stpPolicy'] ?? 'cancel_maker';
  if (!STP_POLICIES.includes(stp as StpPolicy)) return fail(400, `stpPolicy must be one of ${STP_POLICIES.join(', ')}`);
  const stale = receiveWindowRefusal(body['timestamp'], body['recvWindow'], now);
  if (stale !== null) return stale;
  return { body, order, type, slug, postOnly: postOnly === true, clientOrderId: cid, stpPolicy: stp as StpPolicy };
}

/** The market, open for CLOB trading now, and the exchange its orders are signed for. */
function tradableMarket(ctx: SandboxContext, slug: string, now: number): Step<{ market: MarketRecord; exchange: Hex }> {
  const market = ctx.state.markets.find((m) => m.slug === slug);
  if (!market) return fail(404, `Market ${slug} not found`);
  const venue = market.venue;
  if (market.tradeType !== 'clob' || !market.positionIds || !venue)
    return fail(400, `Market ${slug} is not a CLOB market${market.tradeType === 'group' ? '; trade its sub-markets' : ''}`);
  if (market.status === 'RESOLVED' || market.winningOutcomeIndex !== null) return fail(400, `Market ${slug} is resolved`);
  if (market.status !== 'FUNDED') return fail(400, `Market ${slug} is not open for trading (status ${market.status})`);
  if (market.expired || market.expirationTimestamp <= now) return fail(400, `Market ${slug} has passed deadline`);
  return { market, exchange: venue.exchange };
}

/** A market's minimum order size in raw shares: `settings.minSize` when set, else 1 share. */
function marketMinSize(market: MarketRecord): bigint {
  const v = parseWireInt(asObject(market.extra['settings'])?.['minSize']);
  return v === null ? ONE : v;
}

/** The signed fields (tokenId, side, salt, amounts, expiration, nonce, fee, taker). */
function signedTerms(order: Record<string, unknown>, market: MarketRecord): Step<Omit<Terms, 'price' | 'size'>> {
  const ids = market.positionIds ?? ['', ''];
  const tokenIdInt = parseWireInt(order['tokenId']);
  if (tokenIdInt === null) return fail(400, 'order.tokenId must be a decimal string');
  const tokenId = tokenIdInt.toString();
  if (tokenId !== ids[0] && tokenId !== ids[1])
    return fail(400, `order.tokenId ${tokenId} is not a position of market ${market.slug} (YES ${ids[0]}, NO ${ids[1]})`);
  const side = order['side'];
  if (side !== 0 && side !== 1 && side !== '0' && side !== '1') return fail(400, 'order.side must be 0 (BUY) or 1 (SELL)');
  const salt = parseWireInt(order['salt']);
  if (salt === null) return fail(400, 'order.salt must be a non-negative integer (number or string)');
  const makerAmount = parseWireInt(order['makerAmount']);
  const takerAmount = parseWireInt(order['takerAmount']);
  if (makerAmount === null || makerAmount <= 0n) return fail(400, 'order.makerAmount must be a positive integer in raw units');
  if (takerAmount === null || takerAmount <= 0n) return fail(400, 'order.takerAmount must be a positive integer in raw units');
  if (parseWireInt(order['expiration'] ?? '0') !== 0n) return fail(400, 'expiration must be "0": orders do not expire on this exchange');
  if (parseWireInt(order['nonce'] ?? 0) !== 0n) return fail(400, 'order.nonce must be 0');
  const fee = order['feeRateBps'];
  const feeParsed = typeof fee === 'string' && /^\d+$/.test(fee) ? Number(fee) : (fee ?? null);
  // Absent is allowed only for delegated orders (the server then uses the profile's rate).
  if (feeParsed !== null && (typeof feeParsed !== 'number' || !Number.isSafeInteger(feeParsed) || feeParsed < 0))
    return fail(400, 'order.feeRateBps must be a non-negative integer');
  const taker = order['taker'] ?? ZERO_ADDRESS;
  if (typeof taker !== 'string' || !sameAddress(taker, ZERO_ADDRESS))
    return fail(400, 'order.taker must be the zero address (directed orders are not supported)');
  return { tokenId, tokenIdInt, isBuy: Number(side) === 0, salt, makerAmount, takerAmount, feeRateBps: feeParsed as number | null };
}

/** Price and size on the grid (wire-facts §3.3–3.4), and the market's minimum size. */
function priceAndSize(
  order: Record<string, unknown>,
  type: OrderType,
  t: Omit<Terms, 'price' | 'size'>,
  market: MarketRecord,
): Step<Terms> {
  const { isBuy, makerAmount, takerAmount } = t;
  const priceRaw = order['price'];
  let price: bigint | null = null;
  let size = 0n;
  if (type === 'FOK') {
    if (priceRaw !== undefined && priceRaw !== null) return fail(400, 'FOK orders must not carry a price; use makerAmount');
    if (takerAmount !== 1n) return fail(400, 'FOK orders must have takerAmount 1');
    if (!isBuy && makerAmount % SIZE_STEP !== 0n)
      return fail(400, `FOK SELL makerAmount ${makerAmount} (shares) must be a multiple of ${SIZE_STEP}`);
  } else {
    if (priceRaw === undefined || priceRaw === null) return fail(400, `price is required for ${type} orders`);
    price = parseDecimal6(priceRaw);
    if (price === null || price <= 0n || price > ONE) return fail(400, `price ${String(priceRaw)} must be a decimal in (0, 1]`);
    if (price % PRICE_TICK !== 0n) {
      const lo = (price / PRICE_TICK) * PRICE_TICK;
      return fail(
        400,
        `price ${String(priceRaw)} is not on the 0.001 tick; nearest valid prices are ${Number(lo) / 1e6} and ${Number(lo + PRICE_TICK) / 1e6}`,
      );
    }
    size = isBuy ? takerAmount : makerAmount;
    const collateral = isBuy ? makerAmount : takerAmount;
    if (size % SIZE_STEP !== 0n)
      return fail(400, `order size ${size} (raw shares, ${isBuy ? 'takerAmount' : 'makerAmount'}) must be a multiple of ${SIZE_STEP}`);
    if (collateral !== (size * price) / ONE && collateral !== ceilDiv(size * price, ONE))
      return fail(
        400,
        `${isBuy ? 'makerAmount' : 'takerAmount'} ${collateral} does not match price ${String(priceRaw)} × size ${size}: expected ${ceilDiv(size * price, ONE)}`,
      );
  }
  // The market's minimum size counts shares: GTC/FAK size, FOK SELL shares sold (a FOK BUY spends USDC).
  const minSize = marketMinSize(market);
  const shares = type === 'FOK' ? (isBuy ? null : makerAmount) : size;
  if (shares !== null && shares < minSize)
    return fail(400, `Order size ${formatRaw(shares)} is below the market minimum size ${formatRaw(minSize)}`);
  return { ...t, price, size };
}

/** Who signs the order for `owner`: its own wallet, or (delegated) the server wallet the sandbox holds. */
async function signerOf(
  ctx: SandboxContext,
  auth: AuthContext,
  e: Envelope,
  owner: Profile,
  market: MarketRecord,
  isBuy: boolean,
): Promise<Step<Signer>> {
  const { body, order } = e;
  const ownerIdRaw = parseId(body['ownerId']);
  const signature = order['signature'];
  const delegated =
    (signature === undefined || signature === null || signature === '') &&
    (order['maker'] === undefined || (typeof order['maker'] === 'string' && sameAddress(order['maker'], ZERO_ADDRESS)));
  if (Number.isNaN(ownerIdRaw) || (ownerIdRaw === null && !delegated)) return fail(400, 'ownerId is required and must be a profile id');
  if (ownerIdRaw !== null && ownerIdRaw !== owner.id) return fail(400, 'Profile ID does not match the order owner');
  if (delegated) {
    if (auth.method !== 'hmac' || !auth.scopes.includes('delegated_signing'))
      return fail(403, 'Delegated signing requires an API token with the delegated_signing scope');
    if (parseId(body['onBehalfOf']) === null || owner.id === auth.profileId)
      return fail(400, 'Delegated orders need onBehalfOf (a server-wallet sub-account)');
    if (!owner.serverWallet) return fail(400, `Profile ${owner.id} has no server wallet; sign the order yourself`);
    if (order['signer'] !== undefined && !(typeof order['signer'] === 'string' && sameAddress(order['signer'], ZERO_ADDRESS)))
      return fail(400, 'Delegated orders must leave maker and signer as the zero address');
    const side = isBuy ? 'BUY' : 'SELL';
    const pending = await missingFor(ctx, owner.id, market, side);
    if (pending.length > 0)
      return fail(
        400,
        `Allowances of profile ${owner.id} for ${side} orders on this venue are not confirmed (${pending.map((t) => `${t.label} ${t.status}`).join(', ')}): run the allowance check (GET /profiles/partner-accounts/${owner.id}/allowances, POST …/allowances/retry) until ready`,
      );
    return { maker: owner.address, signer: owner.address, signatureType: 0, signature: null, delegated };
  }
  const st = order['signatureType'] ?? 0;
  if (st !== 0 && st !== '0') return fail(400, `order.signatureType ${String(st)} is not supported; use 0 (EOA)`);
  const m = order['maker'];
  const s = order['signer'];
  if (typeof m !== 'string' || !isAddress(m, { strict: false })) return fail(400, 'order.maker must be an address');
  if (typeof s !== 'string' || !isAddress(s, { strict: false })) return fail(400, 'order.signer must be an address');
  if (typeof signature !== 'string') return fail(400, 'order.signature must be a 0x-prefixed hex string');
  const maker = getAddress(m);
  const signer = getAddress(s);
  if (maker !== signer) return fail(400, 'order.signer must equal order.maker for signatureType 0');
  if (maker !== getAddress(owner.address)) return fail(400, 'Maker does not match expected profile wallet');
  return { maker, signer, signatureType: 0, signature: signature as Hex, delegated };
}

/** Checks a client's signature (against the signer's cached key when it signed before), or signs a delegated order. */
async function signed(fields: SignedOrderFields, who: Signer, owner: Profile, exchange: Hex): Promise<Step<{ signature: Hex | null }>> {
  if (who.signature === null) return { signature: owner.privateKey ? await signOrderWithKey(fields, owner.privateKey, exchange) : null };
  const check = await checkOrderSignature(fields, who.signature, exchange, who.signer);
  if (check.ok) return { signature: who.signature };
  if (check.recovered === null && isHighS(who.signature))
    return fail(
      400,
      'Invalid order signature: s is in the upper half of the curve order (a malleable signature), which the exchange refuses; sign with a low-s signer, or use the twin (r, n - s, v flipped)',
    );
  if (check.recovered === null) return fail(400, 'order.signature is not a valid 65-byte signature');
  return fail(
    400,
    `Invalid order signature: recovered ${check.recovered}, expected signer ${who.signer} (domain verifyingContract ${exchange})`,
  );
}

/** Handles POST /orders (see the module comment). */
export async function createOrder(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  const e = envelope(req, ctx.now());
  if (refusal(e)) return e;
  const open = tradableMarket(ctx, e.slug, ctx.now());
  if (refusal(open)) return open;
  const { market, exchange } = open;
  const signedPart = signedTerms(e.order, market);
  if (refusal(signedPart)) return signedPart;
  const t = priceAndSize(e.order, e.type, signedPart, market);
  if (refusal(t)) return t;
  const owner = actingProfile(ctx, auth.profileId, e.body['onBehalfOf']);
  if (isResponse(owner)) return owner;
  const who = await signerOf(ctx, auth, e, owner, market, t.isBuy);
  if (refusal(who)) return who;
  if (t.feeRateBps === null && !who.delegated) return fail(400, 'order.feeRateBps is required');
  const feeRateBps = t.feeRateBps ?? owner.feeRateBps;
  if (feeRateBps !== owner.feeRateBps)
    return fail(400, `feeRateBps[${feeRateBps}] is out of user's band (profile rate ${owner.feeRateBps})`);
  const fields: SignedOrderFields = {
    salt: t.salt,
    maker: who.maker,
    signer: who.signer,
    taker: ZERO_ADDRESS,
    tokenId: t.tokenIdInt,
    makerAmount: t.makerAmount,
    takerAmount: t.takerAmount,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: BigInt(feeRateBps),
    side: t.isBuy ? 0 : 1,
    signatureType: who.signatureType,
  };
  const sig = await signed(fields, who, owner, exchange);
  if (refusal(sig)) return sig;
  // With a chain (--chain): an EOA order needs its on-chain allowance or approvals.
  const chainCheck = orderChainRefusal(ctx, { owner, market, buy: t.isBuy, makerAmount: t.makerAmount });
  const chainRefusal = chainCheck === null ? null : await chainCheck;
  if (chainRefusal !== null) return fail(400, chainRefusal);
  // No await past this point: the duplicate checks and the commit must not interleave.
  if (e.clientOrderId !== null && clientIdTaken(ctx.state, owner.id, e.clientOrderId))
    return fail(409, `Order with clientOrderId ${e.clientOrderId} already exists`);
  // A signed order is accepted once, whatever its client id (the same request sent again, or
  // the same signature under a new clientOrderId): the exchange keys orders by their hash.
  const orderHash = orderDigest(fields, exchange);
  if (orderHashAccepted(ctx.state, orderHash))
    return fail(409, `Order ${orderHash} was already accepted: a signed order is placed once (sign a new one, with a new salt)`);
  const signedOrder: Record<string, unknown> = {
    ...e.order,
    maker: who.maker,
    signer: who.signer,
    signatureType: who.signatureType,
    feeRateBps,
  };
  if (sig.signature !== null) signedOrder['signature'] = sig.signature;
  const placed = placeOrder(ctx, {
    ownerId: owner.id,
    marketSlug: e.slug,
    tokenId: t.tokenId,
    side: t.isBuy ? 'BUY' : 'SELL',
    orderType: e.type,
    price: t.price,
    size: t.size,
    makerAmount: t.makerAmount,
    takerAmount: t.takerAmount,
    postOnly: e.postOnly,
    clientOrderId: e.clientOrderId,
    feeRateBps,
    signedOrder,
    stpPolicy: e.stpPolicy,
    orderHash,
  });
  if (!placed.ok) return refused(placed);
  return { status: 201, body: createdView(ctx.state, placed.order) };
}
