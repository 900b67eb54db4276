// secp256k1 for pm's own accounts: public key, address and signatures of digests, byte for byte
// what viem's privateKeyToAccount gives (RFC 6979 deterministic nonce, low s, v 27/28; tests pin
// it to published RFC 6979 vectors, to viem and to ethers).
//
// Speed (issue 15): every signature multiplies on node:crypto (OpenSSL: ECDH's k·G, ~0.5 ms, no
// table to build) with the nonce from RFC 6979's HMAC-DRBG on node:crypto's HMAC-SHA256; the few
// bigint steps (k⁻¹, s) are done here. A one-order command so signs without loading a curve
// library and building its base-point table (~24 ms of CPU, ~75 ms with a window-8 table). Bulk
// signing would be ~10% faster per signature on a precomputed table, but the exchange's per-token
// limit (~3.3 orders a second) makes that worth nothing (issue 22).
import { createECDH, createHmac, randomBytes } from 'node:crypto';
import type { ECDH } from 'node:crypto';
import { keccak_256 } from '../core/keccak.js';
import type { Hex } from 'viem';
import { ValidationError } from '../core/errors.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
let ecdh: ECDH | undefined;

const hex32 = (x: bigint): string => x.toString(16).padStart(64, '0');

/** The uncompressed public key (0x04…) of a 32-byte private key. */
export function publicKeyOf(privateKey: Hex): Hex {
  const e = createECDH('secp256k1');
  e.setPrivateKey(Buffer.from(privateKey.slice(2), 'hex'));
  return `0x${e.getPublicKey('hex', 'uncompressed')}`;
}

/** EIP-55 checksummed form of a 20-byte hex address (with or without 0x). */
export function checksumAddress(address: string): Hex {
  const lower = address.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new ValidationError(`"${address}" is not a 20-byte hex address`);
  const h = keccak_256(Buffer.from(lower, 'latin1'));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const byte = h[i >> 1] ?? 0;
    out += (i % 2 === 0 ? byte >> 4 : byte & 0x0f) >= 8 ? lower.charAt(i).toUpperCase() : lower.charAt(i);
  }
  return out as Hex;
}

/** The EIP-55 checksummed address of an uncompressed public key (0x04…). */
export function addressOfPublicKey(publicKey: Hex): Hex {
  return checksumAddress(Buffer.from(keccak_256(Buffer.from(publicKey.slice(4), 'hex'))).toString('hex', 12));
}

/** A new random private key (32 bytes from the OS's CSPRNG, 0 < key < n, as viem's generatePrivateKey). */
export function randomPrivateKey(): Hex {
  for (;;) {
    const key = randomBytes(32);
    const k = BigInt(`0x${key.toString('hex')}`);
    if (k > 0n && k < N) return `0x${key.toString('hex')}`;
  }
}

/** The checksummed address of a private key. */
export const addressOfKey = (privateKey: Hex): Hex => addressOfPublicKey(publicKeyOf(privateKey));

/** k⁻¹ mod n (extended Euclid; 0 < k < n). */
function invertN(k: bigint): bigint {
  let r0 = N;
  let r1 = k;
  let x0 = 0n;
  let x1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    const r2 = r0 - q * r1;
    r0 = r1;
    r1 = r2;
    const x2 = x0 - q * x1;
    x0 = x1;
    x1 = x2;
  }
  return x0 < 0n ? x0 + N : x0;
}

const hmac = (key: Buffer, ...parts: Buffer[]): Buffer => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
};
const BYTE0 = Buffer.of(0);
const BYTE1 = Buffer.of(1);

/** RFC 6979 §3.2 with HMAC-SHA256 (as @noble/curves, no extra entropy): the candidate nonces for a hash (reduced mod n) and key. */
function* nonces(m: bigint, privateKey: Hex): Generator<Buffer> {
  const seed = Buffer.concat([Buffer.from(privateKey.slice(2), 'hex'), Buffer.from(hex32(m), 'hex')]);
  let v: Buffer = Buffer.alloc(32, 1);
  let k: Buffer = Buffer.alloc(32, 0);
  k = hmac(k, v, BYTE0, seed);
  v = hmac(k, v);
  k = hmac(k, v, BYTE1, seed);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const nonce = BigInt(`0x${v.toString('hex')}`);
    if (nonce > 0n && nonce < N) yield v;
    k = hmac(k, v, BYTE0);
    v = hmac(k, v);
  }
}

const reduce = (hash: Hex): bigint => {
  const m = BigInt(hash);
  return m >= N ? m - N : m;
};

/** The deterministic nonce k that signing `hash` with `privateKey` uses (tests: the published vectors give k). */
export function rfc6979Nonce(hash: Hex, privateKey: Hex): Hex {
  for (const k of nonces(reduce(hash), privateKey)) return `0x${k.toString('hex')}`;
  throw new Error('unreachable');
}

/** A 65-byte r‖s‖v signature (v 27 or 28) of a 32-byte hash, as viem's sign({ hash, privateKey, to: 'hex' }): RFC 6979 nonce, OpenSSL's k·G, low s. */
export function signDigestNative(hash: Hex, privateKey: Hex): Hex {
  const d = BigInt(privateKey);
  const m = reduce(hash);
  ecdh ??= createECDH('secp256k1');
  for (const k of nonces(m, privateKey)) {
    ecdh.setPrivateKey(k);
    const point = ecdh.getPublicKey();
    const x = BigInt(`0x${point.toString('hex', 1, 33)}`);
    const r = x >= N ? x - N : x;
    if (r === 0n) continue;
    let s = (invertN(BigInt(`0x${k.toString('hex')}`)) * ((m + r * d) % N)) % N;
    if (s === 0n) continue;
    let recovery = (x === r ? 0 : 2) | ((point[64] ?? 0) & 1);
    if (s > HALF_N) {
      s = N - s;
      recovery ^= 1;
    }
    return `0x${hex32(r)}${hex32(s)}${recovery ? '1c' : '1b'}`;
  }
  throw new Error('unreachable');
}

/** signDigestNative behind the promise callers of an account expect. */
export const signDigest = (hash: Hex, privateKey: Hex): Promise<Hex> => Promise.resolve(signDigestNative(hash, privateKey));
