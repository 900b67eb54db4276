// What the client core signs and authenticates with. The layer that owns secrets (the keystore
// and its session agent, src/keystore) resolves them (environment > session agent > keystore) and
// hands them in; nothing under src/core opens a secret itself.
import type { LocalAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { AuthProvider } from './auth.js';

export type CredentialSource = 'env' | 'keystore' | null;

/** Which credential a request needs: the HMAC token / API key, the identity token, or all. */
export type UnlockMode = 'auto' | 'identity' | 'all';

export interface Credentials {
  /**
   * The request credentials. Environment ones are present at once; stored ones are filled in
   * (in place, on this same object) by `unlock()`.
   */
  auth: AuthProvider;
  /**
   * Decrypts the stored secrets if `mode` needs them (once; later calls reuse the result) and
   * returns `auth`. Commands that send authenticated requests call this before the first one.
   */
  unlock: (mode?: UnlockMode) => Promise<AuthProvider>;
  /** The signing account, decrypting the keystore wallet on first call; null when none is set. */
  account: () => Promise<LocalAccount | null>;
  /** The wallet's address, known without the passphrase (null when there is no wallet). */
  address: Hex | null;
  /**
   * Another keystore wallet by name (a partner's EOA sub-account signs its orders with its own
   * key): through the session agent when it holds it, else decrypted with the one passphrase.
   */
  walletAccount: (name: string) => Promise<LocalAccount>;
  /** The keystore wallet whose address is `address`, if any (read without the passphrase). */
  walletNamed: (address: string) => Promise<string | undefined>;
  sources: { wallet: CredentialSource; token: CredentialSource; apiKey: CredentialSource; identity: CredentialSource };
}
