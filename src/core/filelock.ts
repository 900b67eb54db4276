// A lock between pm processes: a file created with O_EXCL that holds "<pid> <random>". A
// holder that died leaves a stale file, which the next taker removes after checking the pid
// (and, as a last resort, the file's age). Used for every read-modify-write of PM_HOME's
// config and secrets, so parallel writers never lose each other's changes.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConflictError, InterruptedError } from './errors.js';
import { nodeCrypto } from './node-crypto.js';

/** Whether a process lives (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false; // kill(0) would signal the whole group
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class LockFile {
  constructor(
    readonly path: string,
    /** A lock older than this is broken even if its holder lives. */
    private readonly staleMs: number,
    /** The clock (tests). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the lock (returns its token) or null when another live process holds it. */
  tryLock(): string | null {
    const token = `${process.pid} ${nodeCrypto().randomBytes(6).toString('hex')}`;
    for (let i = 0; i < 3; i++) {
      try {
        const fd = openSync(this.path, 'wx', 0o600);
        try {
          writeSync(fd, token);
        } finally {
          closeSync(fd);
        }
        return token;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
          continue;
        }
        if (code !== 'EEXIST') throw e;
        if (!this.breakStale()) return null;
      }
    }
    return null;
  }

  /** The pid holding the lock, if it can be read. */
  holder(): number | undefined {
    try {
      const pid = Number(readFileSync(this.path, 'utf8').split(' ')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes the lock when its holder died or it is too old; true when it was removed. */
  private breakStale(): boolean {
    let held: string;
    let age: number;
    try {
      held = readFileSync(this.path, 'utf8');
      age = this.now() - statSync(this.path).mtimeMs;
    } catch {
      return true; // released meanwhile
    }
    const pid = Number(held.split(' ')[0]);
    // An empty lock is one being written this very moment, unless it is old.
    const dead = held !== '' && Number.isInteger(pid) && pid > 0 && !processAlive(pid);
    if (!dead && age <= this.staleMs) return false;
    try {
      // Re-check right before removing, so a lock just taken by someone else survives.
      if (readFileSync(this.path, 'utf8') !== held) return false;
      unlinkSync(this.path);
    } catch {
      // someone else removed it first
    }
    return true;
  }

  unlock(token: string): void {
    try {
      if (readFileSync(this.path, 'utf8') === token) unlinkSync(this.path);
    } catch {
      // already gone (broken as stale)
    }
  }
}

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new InterruptedError('interrupted while waiting for a lock'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs `fn` holding the lock at `path`, waiting up to `waitMs` for it; a writer that cannot get
 * it in time gets ConflictError (exit 5) saying who holds it. `fn` must re-read what it changes.
 * @example await withLock(join(home, 'run', 'config.lock'), () => edit(loadConfig(home)), { what: 'the config' })
 */
export async function withLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  o: { what: string; waitMs?: number; staleMs?: number; signal?: AbortSignal | undefined },
): Promise<T> {
  const lock = new LockFile(path, o.staleMs ?? 60_000);
  const deadline = Date.now() + (o.waitMs ?? 10_000);
  let token = lock.tryLock();
  for (let n = 0; token === null; n++) {
    if (o.signal?.aborted) throw new InterruptedError('interrupted while waiting for a lock');
    if (Date.now() >= deadline) {
      const pid = lock.holder();
      throw new ConflictError(`another pm process${pid ? ` (pid ${pid})` : ''} is writing ${o.what}: nothing was changed`, {
        hint: `Try again when it is done; a lock left by a crashed process is removed automatically (${path}).`,
      });
    }
    await pause(Math.min(5 + n * 5, 50) * (0.5 + Math.random()), o.signal);
    token = lock.tryLock();
  }
  try {
    return await fn();
  } finally {
    lock.unlock(token);
  }
}
