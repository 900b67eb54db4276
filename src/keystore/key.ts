// Private key checks, apart from the keystore file code (v3.ts: scrypt, AES) so that a command
// run with PM_PRIVATE_KEY loads none of that.
import type { Hex } from 'viem';
import { ValidationError } from '../core/errors.js';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** True when `key` (32 bytes) is a valid secp256k1 private key: 0 < k < n. */
export function isValidPrivateKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  const k = BigInt(`0x${Buffer.from(key).toString('hex')}`);
  return k > 0n && k < SECP256K1_N;
}

/**
 * Parses a private key typed or pasted by a user: 64 hex digits, with or without 0x.
 * @example parsePrivateKey('ac09…ff80') // '0xac09…ff80'
 */
export function parsePrivateKey(input: string, what = 'private key'): Hex {
  const s = input.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(s)) {
    throw new ValidationError(`${what}: a private key is 32 bytes of hex (64 hex digits)`, {
      details: `got ${s.length} characters${/[^0-9a-fA-F]/.test(s) ? ' including non-hex ones' : ''}`,
    });
  }
  if (!isValidPrivateKey(Buffer.from(s, 'hex'))) {
    throw new ValidationError(`${what} is out of range: it must be above 0 and below the secp256k1 group order`);
  }
  return `0x${s.toLowerCase()}`;
}
