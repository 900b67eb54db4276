// Private files: directories 0700, files 0600 (re-applied on every write: `mode` only applies
// when a file is created), writes atomic (temp file in the same directory, fsync, rename).
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Creates `dir` (and parents) and forces mode 0700 on it. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Atomically replaces `file` with `data`, mode 0600, fsynced before the rename. */
export function writePrivateFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = dirname(file);
  ensurePrivateDir(dir);
  const tmp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  try {
    const dfd = openSync(dir, 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic.
  }
}
