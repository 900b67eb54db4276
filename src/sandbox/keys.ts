// What the sandbox derives from its server key (server.key, 0600) rather than store: token
// secrets and the keys of server wallets it creates. Records, events and snapshots then hold
// only a token id or a wallet's salt, never a secret; the loader and the reducer derive them
// again. Dev-account keys come from the public mnemonic table.
import { createHmac } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS, SERVER_WALLET_KEYS, SERVER_WALLETS, SPARE_DEV_KEYS } from './seed.js';
import type { Hex, Profile } from './types.js';

/** Known dev keys by lower-case address (public mnemonic), so none needs writing down. */
export const DEV_KEYS = new Map<string, Hex>([
  ...DEV_ACCOUNTS.map((a) => [a.address.toLowerCase(), a.key as Hex] as const),
  ...SPARE_DEV_KEYS.map((k) => [k.address.toLowerCase(), k.key] as const),
  ...Object.entries(SERVER_WALLETS).map(([name, a]) => [a.toLowerCase(), SERVER_WALLET_KEYS[name] as Hex] as const),
]);

/** A token secret, derived from the server key and the token id. */
export function tokenSecret(serverKey: string, tokenId: string): string {
  return createHmac('sha256', Buffer.from(serverKey, 'hex')).update(`token:${tokenId}`).digest('base64');
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n; // secp256k1 order

/** A server wallet's private key, derived from the server key and the wallet's salt. */
function walletKey(serverKey: string, salt: string): Hex {
  for (let i = 0; ; i++) {
    const h = createHmac('sha256', Buffer.from(serverKey, 'hex')).update(`wallet:${salt}:${i}`).digest('hex');
    const k = BigInt(`0x${h}`);
    if (k > 0n && k < N) return `0x${h}`;
  }
}

/** The address of a server wallet with this salt. */
export function walletAddress(serverKey: string, salt: string): Hex {
  return privateKeyToAccount(walletKey(serverKey, salt)).address;
}

/** The private key the sandbox holds for a profile: a public dev key, or derived from its wallet salt. */
export function profileKey(serverKey: string | undefined, p: Pick<Profile, 'address' | 'walletSalt'>): Hex | undefined {
  const dev = DEV_KEYS.get(p.address.toLowerCase());
  if (dev) return dev;
  if (p.walletSalt !== undefined && serverKey) return walletKey(serverKey, p.walletSalt);
  return undefined;
}
