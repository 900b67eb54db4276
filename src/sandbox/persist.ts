// State on disk: one JSON file written atomically (temp file, fsync, rename; dir 0700, file
// 0600), so an acknowledged order survives kill -9. bigints are tagged as {"$bigint":"…"}:
// an object, so no user string (a client order id, say) can ever be mistaken for one.
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEV_ACCOUNTS, SPARE_DEV_KEYS, seededToken } from './seed.js';
import type { Hex, SandboxState } from './types.js';

export function stateFile(dir: string): string {
  return join(dir, 'state.json');
}

/** Known dev keys by address (public mnemonic), so private keys need not be written to disk. */
const DEV_KEYS = new Map<string, Hex>([...DEV_ACCOUNTS.map((a) => [a.address.toLowerCase(), a.key as Hex] as const), ...SPARE_DEV_KEYS.map((k) => [k.address.toLowerCase(), k.key] as const)]);

/** A token secret, derived from the server key and the token id (nothing secret is stored). */
export function tokenSecret(serverKey: string, tokenId: string): string {
  return createHmac('sha256', Buffer.from(serverKey, 'hex')).update(`token:${tokenId}`).digest('base64');
}

/**
 * Serialises state with tagged bigints. Private keys of dev accounts and token secrets are
 * left out: they are recomputed on load (dev keys from the public mnemonic table, secrets
 * from the server key), so the file holds no key or secret in plain text.
 */
export function serialize(state: SandboxState): string {
  const slim = {
    ...state,
    profiles: state.profiles.map(({ privateKey, ...p }) => (privateKey && DEV_KEYS.get(p.address.toLowerCase()) !== privateKey ? { ...p, privateKey } : p)),
    tokens: state.tokens.map(({ secret, ...t }) => (secret === expectedSecret(state, t.tokenId) ? t : { ...t, secret })),
  };
  return JSON.stringify(slim, (_k, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v));
}

function expectedSecret(state: SandboxState, tokenId: string): string | undefined {
  const seeded = DEV_ACCOUNTS.find((a) => seededToken(a.name).tokenId === tokenId);
  if (seeded) return seededToken(seeded.name).secret;
  return state.serverKey ? tokenSecret(state.serverKey, tokenId) : undefined;
}

/** Restores what serialize left out. */
function rehydrate(state: SandboxState): SandboxState {
  for (const p of state.profiles) if (!p.privateKey) {
    const k = DEV_KEYS.get(p.address.toLowerCase());
    if (k) p.privateKey = k;
  }
  for (const t of state.tokens) {
    if (typeof t.secret === 'string' && t.secret) continue;
    const s = expectedSecret(state, t.tokenId);
    if (s) t.secret = s;
  }
  return state;
}

/** Parses serialised state, restoring bigints. */
export function deserialize(text: string): SandboxState {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const b = o['$bigint'];
      if (typeof b === 'string' && Object.keys(o).length === 1) return BigInt(b);
    }
    return v;
  }) as SandboxState;
}

/** Loads the state file, or null when there is none; a corrupt file is a clear error. */
export function loadState(dir: string): SandboxState | null {
  const file = stateFile(dir);
  if (!existsSync(file)) return null;
  try {
    const s = deserialize(readFileSync(file, 'utf8'));
    if (s.version !== 1 || !Array.isArray(s.markets) || !Array.isArray(s.orders)) throw new Error('unknown layout');
    return rehydrate(s);
  } catch (e) {
    throw new Error(`the sandbox state file ${file} is corrupt (${e instanceof Error ? e.message : String(e)}); run \`pm sandbox reset\` to start from the seed`);
  }
}

/** Writes the state atomically. */
export function saveState(dir: string, state: SandboxState): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = stateFile(dir);
  const tmp = join(dir, `.state.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, serialize(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
