// The shape of trading request bodies, checked at the edge before anything else reads them:
// known keys only at each level (wire-facts §3.6), scalar values of the types the official
// SDKs send, bounded strings. Whatever passes holds only these keys, so nothing a client adds
// (a deeply nested extra object, say) can reach the state, the state file or a log.

type Kind = 'string' | 'number' | 'boolean' | 'null';

/** Longest string accepted in any field (a 65-byte signature is 132 characters). */
const MAX_FIELD_CHARS = 256;
/** Largest create-order body accepted; a real one is well under 1 KiB. */
const MAX_ORDER_BODY_BYTES = 16 * 1024;

const AMOUNT: Kind[] = ['number', 'string'];

/** The signed order (`order`): amounts as numbers or strings, salt number or string, expiration "0". */
const ORDER_FIELDS: Record<string, Kind[]> = {
  salt: AMOUNT,
  maker: ['string'],
  signer: ['string'],
  taker: ['string'],
  tokenId: AMOUNT,
  makerAmount: AMOUNT,
  takerAmount: AMOUNT,
  expiration: AMOUNT,
  nonce: AMOUNT,
  feeRateBps: AMOUNT,
  side: AMOUNT,
  signatureType: AMOUNT,
  price: ['number', 'string', 'null'],
  signature: ['string', 'null'],
};

/** The create-order request around it (also a cancel-replace `replacement`). */
const CREATE_FIELDS: Record<string, Kind[]> = {
  orderType: ['string'],
  marketSlug: ['string'],
  ownerId: ['number', 'string', 'null'],
  postOnly: ['boolean', 'null'],
  clientOrderId: ['string', 'null'],
  onBehalfOf: ['number', 'string', 'null'],
  stpPolicy: ['string', 'null'],
  timestamp: ['number', 'string', 'null'],
  recvWindow: ['number', 'string', 'null'],
};

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function checkScalars(obj: Record<string, unknown>, fields: Record<string, Kind[]>, prefix: string, what: string): string | null {
  for (const [key, value] of Object.entries(obj)) {
    const name = `${prefix}${key}`;
    const kinds = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!kinds) return `${name} is not a field of ${what}; known fields: ${Object.keys(fields).join(', ')}`;
    const k = kindOf(value);
    if (!(kinds as string[]).includes(k)) return `${name} must be ${kinds.join(' or ')}, not ${k}`;
    if (typeof value === 'string' && value.length > MAX_FIELD_CHARS) return `${name} is longer than ${MAX_FIELD_CHARS} characters`;
  }
  return null;
}

/**
 * Checks a POST /orders body (or a cancel-replace replacement): returns null when its shape is
 * acceptable, else a message naming the offending field. Values are checked further by the route.
 */
export function createOrderShapeError(body: unknown, rawBytes: number): string | null {
  if (kindOf(body) !== 'object') return 'Request body must be a JSON object';
  const b = body as Record<string, unknown>;
  const { order, ...rest } = b;
  if (order === undefined) return 'order is required and must be an object';
  if (kindOf(order) !== 'object') return `order must be an object, not ${kindOf(order)}`;
  const top = checkScalars(rest, CREATE_FIELDS, '', 'a create-order request');
  if (top) return top;
  const inner = checkScalars(order as Record<string, unknown>, ORDER_FIELDS, 'order.', 'a signed order');
  if (inner) return inner;
  if (rawBytes > MAX_ORDER_BODY_BYTES)
    return `Request body is ${rawBytes} bytes; a create-order request may be at most ${MAX_ORDER_BODY_BYTES}`;
  return null;
}

/**
 * Checks that a body is an object with only `allowed` top-level keys (batch cancels, status
 * batch); the route checks the values. Returns a message naming the field, or null.
 */
export function knownKeysError(body: unknown, allowed: readonly string[], what: string): string | null {
  if (kindOf(body) !== 'object') return 'Request body must be a JSON object';
  for (const key of Object.keys(body as Record<string, unknown>)) {
    if (!allowed.includes(key)) return `${key} is not a field of ${what}; known fields: ${allowed.join(', ')}`;
  }
  return null;
}
