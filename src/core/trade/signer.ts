// Who signs an order: one rule for the CLI and the library.
import type { LocalAccount } from 'viem/accounts';
import { UsageError } from '../errors.js';

/** What a credential set offers for signing (the keystore's Credentials fits it). */
export interface SigningKeys {
  /** The caller's own wallet (null when none). */
  account(): Promise<LocalAccount | null>;
  /** Another keystore wallet by name. */
  walletAccount(name: string): Promise<LocalAccount>;
  /** Where the own wallet comes from: an explicit key ('env') wins for every order. */
  sources: { wallet: 'env' | 'keystore' | null };
}

/** A partner's sub-accounts as the profile recorded them (see partner create). */
export type SubAccounts = Record<string, { address: string; wallet?: string | undefined; serverWallet?: boolean | undefined }>;

/**
 * The signing account for an order acting for `actingAs` (undefined: the caller's own). For a
 * partner's sub-account: the child's own key as `partner create` recorded it (EOA mode), or the
 * own wallet when the profile is the child's (`actingFor` is its id: `partner onboard` saves one),
 * or an explicit key (PM_PRIVATE_KEY, the library's privateKey). A server-wallet child signs
 * nothing (exit 2: --delegated); a child whose key pm does not hold is refused before anything is
 * sent (exit 2), never signed with the partner's wallet (the exchange refuses that: maker is not
 * the child).
 */
export async function signingAccount(
  keys: SigningKeys,
  o: { actingAs: number | undefined; subAccounts?: SubAccounts | undefined; actingFor?: number | undefined },
): Promise<LocalAccount | null> {
  const id = o.actingAs;
  if (id === undefined || keys.sources.wallet === 'env') return keys.account();
  const rec = o.subAccounts?.[String(id)];
  if (rec?.serverWallet) {
    throw new UsageError(`sub-account ${id} has a server wallet: the exchange signs its orders, pm cannot`, {
      hint: `Add --delegated (pm order place … --on-behalf-of ${id} --delegated).`,
    });
  }
  if (rec?.wallet) return keys.walletAccount(rec.wallet);
  if (o.actingFor === id) return keys.account();
  throw new UsageError(`pm holds no key for sub-account ${id}: its orders must be signed by its own wallet, not this profile's`, {
    hint:
      'For a server-wallet sub-account add --delegated. For an EOA one, use the profile pm partner onboard saved for it, ' +
      "or set PM_PRIVATE_KEY to the child's key.",
  });
}
