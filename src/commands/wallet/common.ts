// Shared by the wallet commands.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';

const KEY_LIKE = /^(0x)?[0-9a-fA-F]{64}$/;

/** A wallet name from argv; refuses anything that looks like a private key. */
export function walletName(arg: string | undefined, fallback = 'default'): string {
  const name = arg ?? fallback;
  if (KEY_LIKE.test(name)) {
    throw new UsageError(
      'that argument looks like a private key: pm never takes keys on the command line (they end up in shell history and process lists)',
      {
        hint: 'Run pm wallet import NAME and paste the key at the hidden prompt, or use --file FILE or --stdin.',
      },
    );
  }
  return name;
}

/** Sets the wallet on the active profile when it has none; returns the profile name if set. */
export async function attachWallet(ctx: Context, name: string, address: string | null): Promise<string | null> {
  const current = ctx.profile();
  if (current.wallet) return null;
  return ctx.updateProfile({ wallet: name, ...(address ? { address } : {}) });
}
