// EIP-55 addresses with keccak from @noble/hashes (already in every bundle that signs), so the
// library's entry loads no viem until a call needs the chain.
import { keccak_256 } from './keccak.js';

/**
 * The EIP-55 checksummed form of a 0x + 40 hex address (any case).
 * @example checksumAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266') // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 */
export function checksumAddress(address: string): `0x${string}` {
  const hex = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? (hex[i] ?? '').toUpperCase() : (hex[i] ?? '');
  return out as `0x${string}`;
}
