// What the data dir's files leave out, and how it comes back: private keys and token secrets
// are derived again on load (dev keys from the public mnemonic table, secrets and server-wallet
// keys from the server key), the seeded API keys and identity tokens from the seed's names.
import { DEV_KEYS, profileKey, tokenSecret } from './keys.js';
import { keyFile } from './keyfile.js';
import { encode } from './codec.js';
import { DEV_ACCOUNTS, seededCredentials, seededToken } from './seed.js';
import { SandboxStateError } from './stateerror.js';
import type { ApiToken, Hex, Profile, SandboxState } from './types.js';

/**
 * Serialises state with tagged bigints. Private keys and token secrets are left out: they are
 * derived again on load (dev keys from the public mnemonic table, secrets and server-wallet keys
 * from the server key), so the file holds no key or secret in plain text.
 */
export function serialize(state: SandboxState): string {
  const { serverKey: _inKeyFile, ...rest } = state;
  const seeded = seededCredentials();
  const slim = {
    ...rest,
    profiles: state.profiles.map(slimProfile),
    tokens: state.tokens.map((t) => slimToken(state, t)),
    // The seeded API keys and identity tokens derive from the seed's names: not written.
    apiKeys: state.apiKeys.filter((k) => !seeded.apiKeys.some((s) => s.key === k.key)),
    identityTokens: state.identityTokens.filter((k) => !seeded.identityTokens.some((s) => s.token === k.token)),
  };
  return encode(slim);
}

/**
 * A profile as stored: without its private key when that is derivable (a public dev key, or a
 * server wallet with a salt). Only a server wallet an older version created (a random key, no
 * salt) keeps it, or its key would be lost.
 */
function slimProfile(p: Profile): Omit<Profile, 'privateKey'> & { privateKey?: Hex } {
  const { privateKey, ...rest } = p;
  const derivable = p.walletSalt !== undefined || DEV_KEYS.get(p.address.toLowerCase()) === privateKey;
  return privateKey && !derivable ? { ...rest, privateKey } : rest;
}

/** A token as stored: without its secret when the server key (or the seed) derives it. */
function slimToken(state: SandboxState, t: ApiToken): Omit<ApiToken, 'secret'> & { secret?: string } {
  const { secret, ...rest } = t;
  return secret === expectedSecret(state, t.tokenId) ? rest : { ...rest, secret };
}

/** The seeded tokens' secrets by token id (computed once). */
let seededSecrets: Map<string, string> | null = null;
/** Derived secrets by server key and token id: the event log asks for each token at every commit. */
const derivedSecrets = new Map<string, string>();

function expectedSecret(state: SandboxState, tokenId: string): string | undefined {
  seededSecrets ??= new Map(DEV_ACCOUNTS.map((a) => [seededToken(a.name).tokenId, seededToken(a.name).secret]));
  const seeded = seededSecrets.get(tokenId);
  if (seeded !== undefined) return seeded;
  if (!state.serverKey) return undefined;
  const k = `${state.serverKey}|${tokenId}`;
  let secret = derivedSecrets.get(k);
  if (secret === undefined) {
    if (derivedSecrets.size >= 100_000) derivedSecrets.clear();
    secret = tokenSecret(state.serverKey, tokenId);
    derivedSecrets.set(k, secret);
  }
  return secret;
}

/**
 * Restores what serialize (and the events) left out: private keys, token secrets. With `dir`,
 * a live token or a server wallet whose secret cannot be derived (no server key) is an error
 * naming the key file, not a token that silently never authenticates.
 */
export function rehydrate(state: SandboxState, dir?: string): SandboxState {
  const seeded = seededCredentials();
  const has = (id: number): boolean => state.profiles.some((p) => p.id === id);
  state.apiKeys = [
    ...seeded.apiKeys.filter((k) => has(k.profileId)),
    ...state.apiKeys.filter((k) => !seeded.apiKeys.some((s) => s.key === k.key)),
  ];
  state.identityTokens = [
    ...seeded.identityTokens.filter((k) => has(k.profileId)),
    ...state.identityTokens.filter((k) => !seeded.identityTokens.some((s) => s.token === k.token)),
  ];
  for (const p of state.profiles)
    if (!p.privateKey) {
      const k = profileKey(state.serverKey, p);
      if (k) p.privateKey = k;
      else if (dir !== undefined && p.walletSalt !== undefined)
        throw new SandboxStateError(keyFile(dir), `it is missing, and server wallet ${p.address} needs it to derive its key`);
    }
  for (const t of state.tokens) {
    if (typeof t.secret === 'string' && t.secret) continue;
    const s = expectedSecret(state, t.tokenId);
    if (s) t.secret = s;
    else if (dir !== undefined && t.revokedAt === null) {
      throw new SandboxStateError(keyFile(dir), `it is missing, and token ${t.tokenId} needs it to derive its secret`);
    }
  }
  return state;
}
