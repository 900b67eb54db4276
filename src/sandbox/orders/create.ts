// POST /orders: parse and check a create-order request exactly as exchange-api.md and
// wire-facts §3 describe, then hand it to the engine. Every refusal is {status, message}.
import { getAddress, isAddress } from 'viem';
import { ZERO_ADDRESS, checkOrderSignature, isHighS, orderDigest, signOrderWithKey, type SignedOrderFields } from '../eip712.js';
import { STP_POLICIES, submitOrder } from '../engine.js';
import type { StpPolicy } from '../engine.js';
import { missingFor } from '../partner/allowances.js';
import { orderChainRefusal } from '../chainref.js';
import { scheduleSettlement } from '../settlement.js';
import { ONE, PRICE_TICK, SIZE_STEP, ceilDiv, formatRaw, parseDecimal6, parseWireInt } from './amounts.js';
import { clientIdTaken, orderHashAccepted } from './accepted.js';
import { createOrderShapeError } from './shape.js';
import { createdView } from './views.js';
import type { Hex, MarketRecord, OrderType, Profile, SandboxContext, SandboxRequest, SandboxResponse } from '../types.js';

/** A JSON error answer: `{message}` with a status. */
export function fail(status: number, message: string): SandboxResponse {
  return { status, body: { message } };
}

/** A plain JSON object, or null. */
export function asObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** An integer id from a number or numeric string; null when absent, NaN when malformed. */
export function parseId(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return Number.NaN;
}

/**
 * The profile a request acts for: the caller, or with `onBehalfOf` one of its sub-accounts.
 * Returns the profile or a refusal (403 when the target is not the caller's child).
 */
export function actingProfile(ctx: SandboxContext, callerId: number, onBehalfOf: unknown): Profile | SandboxResponse {
  const id = parseId(onBehalfOf);
  if (Number.isNaN(id)) return fail(400, 'onBehalfOf must be a profile id (integer)');
  const state = ctx.state;
  if (id === null || id === callerId) {
    const self = state.profiles.find((p) => p.id === callerId);
    return self ?? fail(401, 'Authenticated profile not found');
  }
  const target = state.profiles.find((p) => p.id === id);
  if (!target || target.parentProfileId !== callerId) {
    return fail(403, `Profile ${id} is not a sub-account of the authenticated profile`);
  }
  return target;
}

/** Narrowing helper: was a value returned by actingProfile a refusal? */
export function isResponse<T extends object>(v: T | SandboxResponse): v is SandboxResponse {
  return 'status' in v;
}

/** Default minimum order size in raw shares (1 share), as the order book reports it. */
const DEFAULT_MIN_SIZE = ONE;

/** A market's minimum order size in raw shares: `settings.minSize` when set, else 1 share. */
function marketMinSize(market: MarketRecord): bigint {
  const settings = asObject(market.extra['settings']);
  const v = parseWireInt(settings?.['minSize']);
  return v === null ? DEFAULT_MIN_SIZE : v;
}

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

/** Handles POST /orders (see the module comment). */
export async function createOrder(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  // Shape first: only known keys and scalar values get any further (nothing else can be stored).
  const shapeError = createOrderShapeError(req.json, Buffer.byteLength(req.rawBody, 'utf8'));
  if (shapeError !== null) return fail(400, shapeError);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object');
  const order = asObject(body['order']);
  if (!order) return fail(400, 'order is required and must be an object');

  const orderType = body['orderType'];
  if (orderType !== 'GTC' && orderType !== 'FOK' && orderType !== 'FAK') {
    return fail(400, 'orderType must be one of GTC, FOK, FAK');
  }
  const type: OrderType = orderType;
  const slug = body['marketSlug'];
  if (typeof slug !== 'string' || slug === '') return fail(400, 'marketSlug is required');
  const postOnlyRaw = body['postOnly'];
  if (postOnlyRaw !== undefined && typeof postOnlyRaw !== 'boolean') return fail(400, 'postOnly must be a boolean');
  const postOnly = postOnlyRaw === true;
  if (postOnly && type !== 'GTC') return fail(400, `postOnly is only supported for GTC orders, not ${type}`);
  const clientOrderIdRaw = body['clientOrderId'];
  let clientOrderId: string | null = null;
  if (clientOrderIdRaw !== undefined && clientOrderIdRaw !== null) {
    if (typeof clientOrderIdRaw !== 'string' || clientOrderIdRaw === '' || clientOrderIdRaw.length > 128) {
      return fail(400, 'clientOrderId must be a non-empty string of at most 128 characters');
    }
    clientOrderId = clientOrderIdRaw;
  }
  // Self-trade prevention (wire-facts §3.7: top level, unsigned; the exchange's default is cancel_maker).
  const stpRaw = body['stpPolicy'];
  if (stpRaw !== undefined && stpRaw !== null && !STP_POLICIES.includes(stpRaw as StpPolicy)) {
    return fail(400, `stpPolicy must be one of ${STP_POLICIES.join(', ')}`);
  }
  const stpPolicy: StpPolicy = (stpRaw ?? 'cancel_maker') as StpPolicy;
  const stale = receiveWindowRefusal(body['timestamp'], body['recvWindow'], ctx.now());
  if (stale !== null) return stale;

  // ---- market ----
  const state = ctx.state;
  const now = ctx.now();
  const market = state.markets.find((m) => m.slug === slug);
  if (!market) return fail(404, `Market ${slug} not found`);
  if (market.tradeType !== 'clob' || !market.positionIds || !market.venue) {
    return fail(400, `Market ${slug} is not a CLOB market${market.tradeType === 'group' ? '; trade its sub-markets' : ''}`);
  }
  if (market.status === 'RESOLVED' || market.winningOutcomeIndex !== null) return fail(400, `Market ${slug} is resolved`);
  if (market.status !== 'FUNDED') return fail(400, `Market ${slug} is not open for trading (status ${market.status})`);
  if (market.expired || market.expirationTimestamp <= now) return fail(400, `Market ${slug} has passed deadline`);
  const exchange = market.venue.exchange;

  // ---- signed fields ----
  const tokenIdInt = parseWireInt(order['tokenId']);
  if (tokenIdInt === null) return fail(400, 'order.tokenId must be a decimal string');
  const tokenId = tokenIdInt.toString();
  if (tokenId !== market.positionIds[0] && tokenId !== market.positionIds[1]) {
    return fail(
      400,
      `order.tokenId ${tokenId} is not a position of market ${slug} (YES ${market.positionIds[0]}, NO ${market.positionIds[1]})`,
    );
  }
  const side = order['side'];
  if (side !== 0 && side !== 1 && side !== '0' && side !== '1') return fail(400, 'order.side must be 0 (BUY) or 1 (SELL)');
  const isBuy = Number(side) === 0;
  const salt = parseWireInt(order['salt']);
  if (salt === null) return fail(400, 'order.salt must be a non-negative integer (number or string)');
  const makerAmount = parseWireInt(order['makerAmount']);
  const takerAmount = parseWireInt(order['takerAmount']);
  if (makerAmount === null || makerAmount <= 0n) return fail(400, 'order.makerAmount must be a positive integer in raw units');
  if (takerAmount === null || takerAmount <= 0n) return fail(400, 'order.takerAmount must be a positive integer in raw units');
  const expiration = parseWireInt(order['expiration'] ?? '0');
  if (expiration !== 0n) return fail(400, 'expiration must be "0": orders do not expire on this exchange');
  const nonce = parseWireInt(order['nonce'] ?? 0);
  if (nonce !== 0n) return fail(400, 'order.nonce must be 0');
  const fee = order['feeRateBps'];
  const feeParsed = typeof fee === 'string' && /^\d+$/.test(fee) ? Number(fee) : fee;
  // Absent is allowed only for delegated orders (the server then uses the profile's rate).
  let feeRateBps: number | null = null;
  if (feeParsed !== undefined && feeParsed !== null) {
    if (typeof feeParsed !== 'number' || !Number.isSafeInteger(feeParsed) || feeParsed < 0) {
      return fail(400, 'order.feeRateBps must be a non-negative integer');
    }
    feeRateBps = feeParsed;
  }
  const takerAddr = order['taker'] ?? ZERO_ADDRESS;
  if (typeof takerAddr !== 'string' || !sameAddress(takerAddr, ZERO_ADDRESS)) {
    return fail(400, 'order.taker must be the zero address (directed orders are not supported)');
  }

  // ---- price, size and amounts (wire-facts §3.3–3.4) ----
  const priceRaw = order['price'];
  let price: bigint | null = null;
  let size = 0n;
  if (type === 'FOK') {
    if (priceRaw !== undefined && priceRaw !== null) return fail(400, 'FOK orders must not carry a price; use makerAmount');
    if (takerAmount !== 1n) return fail(400, 'FOK orders must have takerAmount 1');
    if (!isBuy && makerAmount % SIZE_STEP !== 0n) {
      return fail(400, `FOK SELL makerAmount ${makerAmount} (shares) must be a multiple of ${SIZE_STEP}`);
    }
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
    if (size % SIZE_STEP !== 0n) {
      return fail(400, `order size ${size} (raw shares, ${isBuy ? 'takerAmount' : 'makerAmount'}) must be a multiple of ${SIZE_STEP}`);
    }
    const floor = (size * price) / ONE;
    const ceil = ceilDiv(size * price, ONE);
    if (collateral !== floor && collateral !== ceil) {
      return fail(
        400,
        `${isBuy ? 'makerAmount' : 'takerAmount'} ${collateral} does not match price ${String(priceRaw)} × size ${size}: expected ${ceil}`,
      );
    }
  }
  // The market's minimum size counts shares: GTC/FAK size, FOK SELL shares sold (a FOK BUY spends USDC).
  const minSize = marketMinSize(market);
  const shares = type === 'FOK' ? (isBuy ? null : makerAmount) : size;
  if (shares !== null && shares < minSize) {
    return fail(400, `Order size ${formatRaw(shares)} is below the market minimum size ${formatRaw(minSize)}`);
  }

  // ---- owner, maker and signature ----
  const onBehalfOf = body['onBehalfOf'];
  const owner = actingProfile(ctx, auth.profileId, onBehalfOf);
  if (isResponse(owner)) return owner;
  const ownerIdRaw = parseId(body['ownerId']);
  const signature = order['signature'];
  const delegated =
    (signature === undefined || signature === null || signature === '') &&
    (order['maker'] === undefined || (typeof order['maker'] === 'string' && sameAddress(order['maker'], ZERO_ADDRESS)));
  if (Number.isNaN(ownerIdRaw) || (ownerIdRaw === null && !delegated)) return fail(400, 'ownerId is required and must be a profile id');
  if (ownerIdRaw !== null && ownerIdRaw !== owner.id) return fail(400, 'Profile ID does not match the order owner');

  let maker: Hex;
  let signer: Hex;
  let signatureType = 0;
  let sig: Hex | null = null;
  if (delegated) {
    if (auth.method !== 'hmac' || !auth.scopes.includes('delegated_signing')) {
      return fail(403, 'Delegated signing requires an API token with the delegated_signing scope');
    }
    if (parseId(onBehalfOf) === null || owner.id === auth.profileId)
      return fail(400, 'Delegated orders need onBehalfOf (a server-wallet sub-account)');
    if (!owner.serverWallet) return fail(400, `Profile ${owner.id} has no server wallet; sign the order yourself`);
    if (order['signer'] !== undefined && !(typeof order['signer'] === 'string' && sameAddress(order['signer'], ZERO_ADDRESS))) {
      return fail(400, 'Delegated orders must leave maker and signer as the zero address');
    }
    const pending = await missingFor(ctx, owner.id, market, isBuy ? 'BUY' : 'SELL');
    if (pending.length > 0) {
      return fail(
        400,
        `Allowances of profile ${owner.id} for ${isBuy ? 'BUY' : 'SELL'} orders on this venue are not confirmed (${pending.map((t) => `${t.label} ${t.status}`).join(', ')}): run the allowance check (GET /profiles/partner-accounts/${owner.id}/allowances, POST …/allowances/retry) until ready`,
      );
    }
    maker = owner.address;
    signer = owner.address;
  } else {
    const st = order['signatureType'] ?? 0;
    if (st !== 0 && st !== '0') return fail(400, `order.signatureType ${String(st)} is not supported; use 0 (EOA)`);
    const m = order['maker'];
    const s = order['signer'];
    if (typeof m !== 'string' || !isAddress(m, { strict: false })) return fail(400, 'order.maker must be an address');
    if (typeof s !== 'string' || !isAddress(s, { strict: false })) return fail(400, 'order.signer must be an address');
    if (typeof signature !== 'string') return fail(400, 'order.signature must be a 0x-prefixed hex string');
    maker = getAddress(m);
    signer = getAddress(s);
    if (maker !== signer) return fail(400, 'order.signer must equal order.maker for signatureType 0');
    if (maker !== getAddress(owner.address)) return fail(400, 'Maker does not match expected profile wallet');
    signatureType = 0;
    sig = signature as Hex;
  }
  if (feeRateBps === null) {
    if (!delegated) return fail(400, 'order.feeRateBps is required');
    feeRateBps = owner.feeRateBps;
  }
  if (feeRateBps !== owner.feeRateBps) {
    return fail(400, `feeRateBps[${feeRateBps}] is out of user's band (profile rate ${owner.feeRateBps})`);
  }
  const fields: SignedOrderFields = {
    salt,
    maker,
    signer,
    taker: ZERO_ADDRESS,
    tokenId: tokenIdInt,
    makerAmount,
    takerAmount,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: BigInt(feeRateBps),
    side: isBuy ? 0 : 1,
    signatureType,
  };
  if (sig !== null) {
    // Against the signer's known key (a cached point) when it has signed before; recovery otherwise.
    const check = await checkOrderSignature(fields, sig, exchange, signer);
    if (!check.ok) {
      if (check.recovered === null && isHighS(sig))
        return fail(
          400,
          'Invalid order signature: s is in the upper half of the curve order (a malleable signature), which the exchange refuses; sign with a low-s signer, or use the twin (r, n - s, v flipped)',
        );
      if (check.recovered === null) return fail(400, 'order.signature is not a valid 65-byte signature');
      return fail(
        400,
        `Invalid order signature: recovered ${check.recovered}, expected signer ${signer} (domain verifyingContract ${exchange})`,
      );
    }
  } else if (owner.privateKey) {
    sig = await signOrderWithKey(fields, owner.privateKey, exchange);
  }

  // With a chain (--chain): an EOA order needs its on-chain allowance or approvals.
  const chainCheck = orderChainRefusal(ctx, { owner, market, buy: isBuy, makerAmount });
  const chainRefusal = chainCheck === null ? null : await chainCheck;
  if (chainRefusal !== null) return fail(400, chainRefusal);

  // No await past this point: the duplicate checks and the commit must not interleave.
  if (clientOrderId !== null && clientIdTaken(ctx.state, owner.id, clientOrderId)) {
    return fail(409, `Order with clientOrderId ${clientOrderId} already exists`);
  }
  // A signed order is accepted once, whatever its client id (the same request sent again, or
  // the same signature under a new clientOrderId): the exchange keys orders by their hash.
  const orderHash = orderDigest(fields, exchange);
  if (orderHashAccepted(ctx.state, orderHash)) {
    return fail(409, `Order ${orderHash} was already accepted: a signed order is placed once (sign a new one, with a new salt)`);
  }
  const signedOrder: Record<string, unknown> = { ...order, maker, signer, signatureType, feeRateBps };
  if (sig !== null) signedOrder['signature'] = sig;
  const result = submitOrder(
    ctx.state,
    {
      ownerId: owner.id,
      marketSlug: slug,
      tokenId,
      side: isBuy ? 'BUY' : 'SELL',
      orderType: type,
      price,
      size,
      makerAmount,
      takerAmount,
      postOnly,
      clientOrderId,
      feeRateBps,
      signedOrder,
      stpPolicy,
      orderHash,
    },
    ctx.now(),
  );
  if (!result.ok) return fail(result.status, result.message);
  ctx.persist();
  for (const e of result.events) ctx.emit(e);
  if (result.order.tradeEventId !== null) scheduleSettlement(ctx, result.order.id);
  return { status: 201, body: createdView(ctx.state, result.order) };
}
