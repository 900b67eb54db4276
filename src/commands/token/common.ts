// Shared by the token commands: where the profile keeps its token.
import { existsSync } from 'node:fs';
import type { Context } from '../../cli/context.js';
import { hmacSigner } from '../../core/auth.js';
import { profileMe } from '../../core/tokens.js';
import type { Profile } from '../../core/tokens.js';
import type { Keystore, StoredSecrets } from '../../keystore/store.js';

/**
 * The token fields to store for the profile, keeping the token they replace (encrypted in the
 * same file) so that pm token use can switch back to it.
 */
export async function replacingToken(
  ks: Keystore,
  name: string,
  pass: string,
  tokenId: string,
  tokenSecret: string,
): Promise<StoredSecrets> {
  const old = ks.hasSecrets(name) ? await ks.loadSecrets(name, pass) : {};
  const keep = old.tokenId !== undefined && old.tokenSecret !== undefined && old.tokenId !== tokenId;
  return { tokenId, tokenSecret, ...(keep ? { previousTokenId: old.tokenId, previousTokenSecret: old.tokenSecret } : {}) };
}

/** The secrets name of the active profile (its own name; "default" without profiles). */
export function secretsName(ctx: Context): string {
  return ctx.profile().secrets ?? ctx.profileName() ?? 'default';
}

/** The profile a token belongs to: GET /profiles/me signed with it (a wrong id or secret is refused). */
export async function verifyToken(ctx: Context, tokenId: string, secret: string, baseUrl?: string): Promise<Profile> {
  const api = await ctx.api({ hmac: hmacSigner(tokenId, secret) }, { baseUrl });
  try {
    return await profileMe(api);
  } finally {
    await api.close();
  }
}

/**
 * After the profile's token changed: a running session agent (pm unlock) holds the secrets as
 * they were when it started, so commands would ask for the passphrase again. Said.
 */
export async function agentNote(ctx: Context): Promise<void> {
  // (The agent's module loads node:net: only here, not for every command importing this file.)
  const { agentSocketPath } = await import('../../keystore/agent.js');
  if (existsSync(agentSocketPath(ctx.home)))
    ctx.out.info(
      'note: the session agent of pm unlock holds the token it started with: pm lock, then pm unlock, to use this one without the passphrase',
    );
}
