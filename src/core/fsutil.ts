// Private files: directories 0700, files 0600 (re-applied on every write: `mode` only applies
// when a file is created), writes atomic (temp file in the same directory, fsync, rename).
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { nodeCrypto } from './node-crypto.js';

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
  const tmp = join(dir, `.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
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

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(3, '0');

/**
 * Why a file holding a secret (a passphrase file, a key file) cannot be trusted, or undefined.
 * As ssh treats a key: readable by group or others, or owned by another user. And as ssh's strict
 * modes treat its path: a directory on the way to it (as named, and after symlinks) that anyone
 * may write to without the sticky bit lets anyone replace the file with one of their own. A
 * sticky directory such as /tmp is fine (only a file's owner may rename or delete it there); a
 * group-writable one is too (on many systems the group is the user's own).
 * @example secretFileProblem('/home/me/.pm-pass') // undefined, or { why, hint }
 */
export function secretFileProblem(file: string): { why: string; hint: string } | undefined {
  if (process.platform === 'win32') return undefined;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch {
    return undefined; // reading it reports the problem
  }
  if ((st.mode & 0o077) !== 0) return { why: `is readable by others (mode ${octal(st.mode & 0o777)})`, hint: `chmod 600 ${file}` };
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    return { why: `belongs to another user (uid ${st.uid})`, hint: `Use a passphrase file of your own (chmod 600).` };
  const dirs = new Set<string>();
  const chain = (p: string): void => {
    for (let d = dirname(resolve(p)); !dirs.has(d); d = dirname(d)) dirs.add(d);
  };
  chain(file);
  try {
    chain(realpathSync(file));
  } catch {
    // stat found it: the named path is what was checked
  }
  for (const d of dirs) {
    let mode: number;
    try {
      mode = statSync(d).mode;
    } catch {
      continue;
    }
    if ((mode & 0o002) !== 0 && (mode & 0o1000) === 0)
      return {
        why: `is inside ${d}, which anyone may write to (mode ${octal(mode)}, not sticky): anyone could replace the file`,
        hint: `Keep it in a directory only you can write to (e.g. under your home directory, or chmod o-w ${d}).`,
      };
  }
  return undefined;
}
