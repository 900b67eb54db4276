// State on disk: one JSON file written atomically (temp file, fsync, rename; dir 0700, file
// 0600), so an acknowledged order survives kill -9. bigints are tagged as {"$bigint":"…"}:
// an object, so no user string (a client order id, say) can ever be mistaken for one.
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SandboxState } from './types.js';

export function stateFile(dir: string): string {
  return join(dir, 'state.json');
}

/** Serialises state with tagged bigints. */
export function serialize(state: SandboxState): string {
  return JSON.stringify(state, (_k, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v));
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
    return s;
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
