// Private files: directories 0700, files 0600 (re-applied on every write: `mode` only applies
// when a file is created), writes atomic (temp file in the same directory, fsync, rename).
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Creates `dir` (and parents) and forces mode 0700 on it. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Atomically writes `file` with `data`, mode 0600, fsynced first: a temp file in the same
 * directory, then rename (replace) or link (no clobber: fails with EEXIST, after calling
 * `onExists`, when the name appeared meanwhile, so two creators cannot both win).
 */
export function writePrivateFileAtomic(
  file: string,
  data: string | Uint8Array,
  opts: { replace?: boolean; onExists?: () => void } = {},
): void {
  const dir = dirname(file);
  ensurePrivateDir(dir);
  const tmp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
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
  try {
    if (opts.replace !== false) renameSync(tmp, file);
    else {
      try {
        linkSync(tmp, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') opts.onExists?.();
        throw e;
      }
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  chmodSync(file, 0o600);
  try {
    const dfd = openSync(dir, 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic.
  }
}
