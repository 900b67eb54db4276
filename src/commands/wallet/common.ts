// Shared by the wallet commands.
import type { EffectOf } from '../../cli/command.js';
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

/** A wallet's address for a prompt or a message, or why there is none to show. */
async function shownAddress(ctx: Context, name: string): Promise<string> {
  try {
    return (await ctx.keystore()).walletAddress(name);
  } catch {
    return '(address unreadable)';
  }
}

/**
 * The effect of writing wallet `name` (create, import, init): `local`, unless --force would
 * replace a wallet that exists under that name, whose key is then gone for good: destructive,
 * asked for as pm wallet remove is (the guard: a prompt, or --yes in a script).
 */
export async function replaceEffect(ctx: Context, name: string, force: boolean, otherwise: EffectOf = 'local'): Promise<EffectOf> {
  if (!force) return otherwise;
  let exists: boolean;
  try {
    exists = (await ctx.keystore()).hasWallet(name);
  } catch {
    exists = false; // (not a wallet name: the command says so itself)
  }
  if (!exists) return otherwise;
  return {
    effect: 'destructive',
    why: `it replaces the key of wallet ${name} ${await shownAddress(ctx, name)}, lost unless backed up`,
  };
}

/** The confirmation's text when --force replaces wallet `name` (see replaceEffect). */
export async function describeReplace(ctx: Context, name: string): Promise<string> {
  return `Replace wallet ${name} (${await shownAddress(ctx, name)}) with a new key: without a backup the old key is gone for good`;
}
