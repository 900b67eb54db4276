// Who signs an order: one rule for the CLI and the library, in every credential mode.
// - The caller's own order: its own wallet.
// - For a partner's server-wallet sub-account: nobody here; the order goes unsigned (delegated)
//   and the exchange signs it with the wallet it manages.
// - For an EOA sub-account: that child's own key, wherever pm holds it (a key the library's
//   caller handed in, the wallet the partner's records name, PM_PRIVATE_KEY or the profile's wallet when it is the child's, any keystore
//   wallet with the child's address); never the partner's key, which the exchange refuses
//   ("maker does not match"). Without it: exit 2 before anything is sent, naming both addresses.
import type { OrderAccount } from './eip712.js';
import { UsageError, ValidationError } from '../errors.js';

/** What a credential set offers for signing (the secrets layer's Credentials fits it). */
export interface SigningKeys {
  /** The caller's own wallet (null when none). */
  account(): Promise<OrderAccount | null>;
  /** The own wallet's address, known without decrypting anything (null when none). */
  address: string | null;
  /** Another keystore wallet by name. */
  walletAccount(name: string): Promise<OrderAccount>;
  /** The keystore wallet holding `address`, if pm holds one (no decryption). */
  walletNamed(address: string): Promise<string | undefined>;
}

/** A partner's sub-account as pm knows it: from the records `partner create` keeps, else from the exchange. */
export interface SubAccount {
  profileId: number;
  /** 'unknown' when neither pm's records nor the exchange say. */
  mode: 'server-wallet' | 'eoa' | 'unknown';
  /** The child's wallet address (its orders' maker). */
  address: string | undefined;
  /** The keystore wallet holding an EOA child's key, as recorded. */
  wallet?: string | undefined;
}

/** How an order is sent: unsigned for the exchange to sign, or signed by `account`. */
export type OrderSigner = { delegated: true } | { delegated: false; account: OrderAccount };

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The signer of an order acting for `onBehalfOf` (undefined: the caller's own order).
 * `delegated` is what the caller said (--delegated, a batch line's field): only a check once the
 * sub-account's mode is known, and the answer when it is not.
 * @example await orderSigner(creds, { onBehalfOf: 2001, delegated: false, subAccount })
 */
export async function orderSigner(
  keys: SigningKeys,
  o: {
    onBehalfOf: number | undefined;
    delegated: boolean;
    subAccount: (id: number) => Promise<SubAccount>;
    /** Keys of EOA sub-accounts the caller holds (the library's subAccountKeys), by address. */
    held?: ((address: string) => Promise<OrderAccount | undefined>) | undefined;
    /** Whose words the hints use (the library's: its options). */
    words?: 'flags' | 'keys' | undefined;
  },
): Promise<OrderSigner> {
  const id = o.onBehalfOf;
  if (id === undefined) {
    const own = await keys.account();
    if (!own)
      throw new ValidationError('no wallet to sign with', {
        hint:
          o.words === 'keys'
            ? "Pass privateKey to createClient (or a profile with a wallet: createClient's profile)."
            : 'Create or import one (pm wallet create / pm init), or set PM_PRIVATE_KEY.',
      });
    return { delegated: false, account: own };
  }
  const sub = await o.subAccount(id);
  if (sub.mode === 'server-wallet') return { delegated: true };
  const signed = (sub.address !== undefined ? await o.held?.(sub.address) : undefined) ?? (await childKey(keys, sub));
  if (signed) {
    if (o.delegated)
      throw new UsageError(`sub-account ${id} is an EOA: its orders are signed by its own key, not by the exchange`, {
        hint: 'Drop --delegated (or "delegated": true from the line): pm signs with the sub-account\'s key.',
      });
    return { delegated: false, account: signed };
  }
  if (sub.mode === 'unknown' && o.delegated) return { delegated: true };
  const maker = keys.address ?? '(no wallet)';
  throw new UsageError(
    `pm holds no key for sub-account ${id}: the order's maker would be ${maker}, but the sub-account's wallet is ${sub.address ?? 'unknown'}`,
    {
      hint:
        sub.mode === 'unknown'
          ? `If ${id} has a server wallet, add --delegated. For an EOA sub-account, set PM_PRIVATE_KEY to its key, or import it: pm wallet import.`
          : `Set PM_PRIVATE_KEY to the sub-account's key, import it (pm wallet import), or use the profile pm partner onboard saved for it (the library: createClient({ subAccountKeys: [its key] })).`,
    },
  );
}

/** The EOA child's own key, if pm holds it. */
async function childKey(keys: SigningKeys, sub: SubAccount): Promise<OrderAccount | null> {
  if (sub.wallet !== undefined) return keys.walletAccount(sub.wallet);
  if (sub.address === undefined) return null;
  if (keys.address !== null && same(keys.address, sub.address)) return keys.account();
  const named = await keys.walletNamed(sub.address);
  return named === undefined ? null : keys.walletAccount(named);
}
