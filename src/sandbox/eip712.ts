// EIP-712 order signatures as the exchange checks them (wire-facts §3.1). Written against viem
// directly, never src/core, so a client-side signing bug cannot be mirrored here.
import { invert } from '@noble/curves/abstract/modular';
import { secp256k1 } from '@noble/curves/secp256k1';
import { domainSeparator, hashTypedData, isAddress, keccak256, recoverAddress, recoverPublicKey, toHex, type TypedDataDomain } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import type { Hex } from './types.js';

const CHAIN_ID = 8453;
const DOMAIN_NAME = 'Limitless CTF Exchange';
const DOMAIN_VERSION = '1';
export const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';

/** The 12 signed fields, in the order the contract hashes them. */
export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

/** The signed part of an order, already normalised to bigint and checksummed hex. */
export interface SignedOrderFields {
  salt: bigint;
  maker: Hex;
  signer: Hex;
  taker: Hex;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  side: number;
  signatureType: number;
}

/** The domain for a market's venue: verifyingContract is `venue.exchange`. */
export function orderDomain(verifyingContract: Hex): TypedDataDomain {
  return { name: DOMAIN_NAME, version: DOMAIN_VERSION, chainId: CHAIN_ID, verifyingContract };
}

/**
 * The EIP-712 digest of an order under a venue's exchange: the order's hash, which the
 * exchange accepts once (a signed order cannot be replayed under another client id).
 */
export function orderDigest(order: SignedOrderFields, verifyingContract: Hex): Hex {
  // The same hash as viem's hashTypedData (pinned in the tests), its two constant parts computed
  // once: the type hash, and each venue's domain separator. viem rebuilt both on every call, ~2 ms
  // of the sandbox's CPU an order (it hashes each order twice). Input out of range goes to viem,
  // which refuses it as before.
  const words = ORDER_TYPES.Order.map((f) => word(f.type, order[f.name]));
  if (words.includes(undefined)) return viemDigest(order, verifyingContract);
  let separator = separators.get(verifyingContract);
  if (separator === undefined) {
    if (separators.size >= 64) separators.clear();
    separator = domainSeparator({ domain: orderDomain(verifyingContract) });
    separators.set(verifyingContract, separator);
  }
  const struct = keccak256(`0x${ORDER_TYPE_HASH.slice(2)}${words.join('')}`);
  return keccak256(`0x1901${separator.slice(2)}${struct.slice(2)}`);
}

const viemDigest = (order: SignedOrderFields, verifyingContract: Hex): Hex =>
  hashTypedData({ domain: orderDomain(verifyingContract), types: ORDER_TYPES, primaryType: 'Order', message: order });
const ORDER_TYPE_HASH = keccak256(toHex(`Order(${ORDER_TYPES.Order.map((f) => `${f.type} ${f.name}`).join(',')})`));
const separators = new Map<Hex, Hex>();
const UINT256_MAX = 2n ** 256n - 1n;

/** One field ABI-encoded as a 32-byte word (64 hex digits), or undefined when viem would refuse it (out of range, or not an address as viem checks one). */
function word(type: 'uint256' | 'uint8' | 'address', v: bigint | number | string): string | undefined {
  if (type === 'address') return typeof v === 'string' && isAddress(v) ? v.slice(2).toLowerCase().padStart(64, '0') : undefined;
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (n === undefined || n < 0n || n > (type === 'uint8' ? 255n : UINT256_MAX)) return undefined;
  return n.toString(16).padStart(64, '0');
}

type Point = InstanceType<typeof secp256k1.ProjectivePoint>;
const N = secp256k1.CURVE.n;
const G = secp256k1.ProjectivePoint.BASE;

/**
 * 65 bytes of hex with s in the lower half of the curve order. Every signature has a twin
 * (r, n−s, v^1) that recovers the same signer; the exchange's contract (OpenZeppelin's ECDSA,
 * as in the CTF exchange) refuses the high-s one so that an order has one signature only.
 */
function wellFormed(signature: string): signature is Hex {
  return /^0x[0-9a-fA-F]{130}$/.test(signature) && !isHighS(signature);
}

/**
 * 65 bytes of hex whose s is in the upper half of the curve order: the malleable twin of a valid
 * signature, which the exchange's check refuses (the refusal says so rather than "malformed").
 */
export function isHighS(signature: string): boolean {
  return /^0x[0-9a-fA-F]{130}$/.test(signature) && BigInt(`0x${signature.slice(66, 130)}`) > N / 2n;
}

/**
 * Recovers the address that signed `order` for the venue `verifyingContract`; null when the
 * signature is malformed (not 65 bytes of hex, s in the upper half, or not a valid curve point).
 */
export async function recoverOrderSigner(order: SignedOrderFields, signature: string, verifyingContract: Hex): Promise<Hex | null> {
  if (!wellFormed(signature)) return null;
  try {
    return await recoverAddress({ hash: orderDigest(order, verifyingContract), signature });
  } catch {
    return null;
  }
}

/**
 * Public keys already proven to belong to an address (lower-case), each a "cached point" with
 * a precomputed multiplication table, newest last. Bounded: the oldest go first.
 */
const knownKeys = new Map<string, Point>();
const KNOWN_KEYS_MAX = 1024;
/** Window of the per-key table: 2^(w−1) points per window, ~30 ms and ~0.5 MB per key at 8. */
const KEY_WINDOW = 8;

const modInv = (a: bigint): bigint => invert(a, N);

/**
 * Does `signature` over `digest` verify against the cached key `q` with the recovery bit it
 * carries? Equivalent to "recovery yields q": with R = (e·G + r·Q)/s, recovery from (r, v)
 * takes the point with x = r and y-parity v, and gets back Q exactly when that point is R.
 * null when the signature cannot be read this way (the recovery path then decides).
 */
function verifiesAgainst(q: Point, digest: Hex, signature: string): boolean | null {
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const bit = v === 0 || v === 27 ? 0n : v === 1 || v === 28 ? 1n : null;
  if (bit === null || r <= 0n || r >= N || s <= 0n || s >= N) return null;
  const e = BigInt(digest) % N;
  const w = modInv(s);
  const u1 = (e * w) % N;
  const u2 = (r * w) % N;
  // multiply(), not multiplyUnsafe(): in @noble/curves 1.9.1 the latter returns wrong points for
  // full-size scalars once a point has a precomputed table (checked in the tests).
  const R = (u1 === 0n ? secp256k1.ProjectivePoint.ZERO : G.multiply(u1)).add(q.multiply(u2));
  if (R.equals(secp256k1.ProjectivePoint.ZERO)) return false;
  const { x, y } = R.toAffine();
  return x === r && (y & 1n) === bit;
}

/** The outcome of checking an order's signature against the signer it names. */
export type SignatureCheck = { ok: true; via: 'cached-key' | 'recovery' } | { ok: false; recovered: Hex | null };

/**
 * Checks that `signer` signed `order` for the venue `verifyingContract`. The first signature of
 * an address recovers its public key (and caches it with a precomputed table); later ones verify
 * against that cached point, which costs about a third of a recovery. A signature that does not
 * verify falls back to recovery, so what is refused, and the address the refusal names, are the
 * same as with recovery alone.
 */
export async function checkOrderSignature(
  order: SignedOrderFields,
  signature: string,
  verifyingContract: Hex,
  signer: Hex,
): Promise<SignatureCheck> {
  if (!wellFormed(signature)) return { ok: false, recovered: null };
  const digest = orderDigest(order, verifyingContract);
  const key = signer.toLowerCase();
  const q = knownKeys.get(key);
  if (q && verifiesAgainst(q, digest, signature) === true) return { ok: true, via: 'cached-key' };
  let pub: Hex;
  try {
    pub = await recoverPublicKey({ hash: digest, signature });
  } catch {
    return { ok: false, recovered: null };
  }
  const recovered = publicKeyToAddress(pub);
  if (recovered.toLowerCase() !== key) return { ok: false, recovered };
  if (!q) {
    const point = secp256k1.ProjectivePoint.fromHex(pub.slice(2));
    secp256k1.utils.precompute(KEY_WINDOW, point);
    if (knownKeys.size >= KNOWN_KEYS_MAX) {
      const oldest = knownKeys.keys().next();
      if (!oldest.done) knownKeys.delete(oldest.value);
    }
    knownKeys.set(key, point);
  }
  return { ok: true, via: 'recovery' };
}

/** Forgets every cached key (tests). */
export function forgetKnownKeys(): void {
  knownKeys.clear();
}

/** Signs an order with a managed key (delegated signing for server-wallet sub-accounts). */
export async function signOrderWithKey(order: SignedOrderFields, privateKey: Hex, verifyingContract: Hex): Promise<Hex> {
  const account = privateKeyToAccount(privateKey);
  return account.signTypedData({ domain: orderDomain(verifyingContract), types: ORDER_TYPES, primaryType: 'Order', message: order });
}
