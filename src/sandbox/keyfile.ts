// server.key: the sandbox's server key (hex, 0600), which token secrets and server-wallet keys
// derive from (keys.ts). Kept apart so that neither the snapshot nor the log holds it; created
// with the data dir.
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fsyncDir, SandboxStateError } from './stateerror.js';

/** The file holding the sandbox's server key (never the snapshot or the log). */
export function keyFile(dir: string): string {
  return join(dir, 'server.key');
}

/** A new server key (hex). */
export function newServerKey(): string {
  return randomBytes(32).toString('hex');
}

/** Reads server.key: null when absent; a damaged one is an error naming it. */
export function readKeyFile(dir: string): string | null {
  const file = keyFile(dir);
  if (!existsSync(file)) return null;
  const key = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(key)) throw new SandboxStateError(file, 'it should hold one 64-digit hex key');
  return key;
}

/** Writes server.key (0600) atomically and durably: temp file, fsync, rename, fsync the dir. */
export function writeKeyFile(dir: string, key: string): void {
  const file = keyFile(dir);
  const tmp = join(dir, `.state.key-${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  fsyncDir(dir);
}
