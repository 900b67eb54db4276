// The state-directory lock: a sandbox that owns a data dir listens on the Unix socket
// `<dir>/lock.sock` for its whole life. The kernel drops the listener when the process dies
// (kill -9 included), so a socket file nobody answers on is stale and is replaced; one that
// answers belongs to a live sandbox, which tells its pid (and base URL) to whoever connects.
// Paths too long for a socket address use a Linux abstract socket named after the dir.
// While a sandbox loads its state its event loop is busy and the socket answers nobody, so the
// holder's pid is also written beside it (`<dir>/lock.pid`), for "starting (pid N)".
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';

export interface LockInfo {
  pid: number;
  startedAt: string;
  baseUrl?: string;
  wsUrl?: string;
  rpcUrl?: string;
  /** The holder did not answer in time: it is still starting (loading its state); pid from lock.pid. */
  starting?: boolean;
}

/** Thrown when another live sandbox holds the data dir. */
export class SandboxLockedError extends Error {
  readonly code = 'ESANDBOXLOCKED';
  constructor(
    readonly holder: LockInfo,
    readonly dir: string,
  ) {
    super(
      holder.starting
        ? `a sandbox is starting on this state${holder.pid ? ` (pid ${holder.pid})` : ''}`
        : `a sandbox is already running on this state (pid ${holder.pid})`,
    );
  }
}

/** The socket address that guards `dir` (a file in it, or an abstract name when too long). */
function lockAddress(dir: string): string {
  const file = join(dir, 'lock.sock');
  if (Buffer.byteLength(file) <= 100 || process.platform !== 'linux') return file;
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // not created yet
  }
  return `\0pm-sandbox-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`;
}

/** The pid file beside the lock socket (see the top of this file). */
const lockPidFile = (dir: string): string => join(dir, 'lock.pid');

/** The pid lock.pid names, when that process is alive; 0 otherwise. */
function livePid(dir: string): number {
  let pid: number;
  try {
    pid = Number(readFileSync(lockPidFile(dir), 'utf8').trim());
  } catch {
    return 0;
  }
  if (!Number.isInteger(pid) || pid <= 0) return 0;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : 0;
  }
}

/** Asks the holder of a lock who it is: its info, or null when nobody answers (stale/absent). */
function probeLock(address: string, timeoutMs = 1000): Promise<LockInfo | null | 'unknown'> {
  return new Promise((resolve) => {
    const s = connect(address);
    let buf = '';
    const done = (v: LockInfo | null | 'unknown'): void => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done('unknown'), timeoutMs);
    s.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const o = JSON.parse(buf.slice(0, nl)) as LockInfo;
        done(typeof o.pid === 'number' ? o : 'unknown');
      } catch {
        done('unknown');
      }
    });
    s.on('end', () => done('unknown'));
    s.on('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNREFUSED' || e.code === 'ENOENT' ? null : 'unknown'));
  });
}

export interface DirLock {
  address: string;
  /** Updates what the lock tells (the base URL once listening). */
  update(info: Partial<LockInfo>): void;
  release(): Promise<void>;
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const onError = (e: NodeJS.ErrnoException): void => resolve(e);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve(null);
    });
  });
}

/** Takes the lock on `dir` for this process, or throws SandboxLockedError naming the holder. */
export async function acquireDirLock(dir: string): Promise<DirLock> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const address = lockAddress(dir);
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString() };
  const server = createServer((sock) => {
    sock.on('error', () => undefined);
    sock.end(`${JSON.stringify(info)}\n`);
  });
  server.unref(); // the lock never keeps the process alive by itself
  for (let attempt = 0; attempt < 3; attempt++) {
    const err = await listen(server, address);
    if (!err) {
      writeFileSync(lockPidFile(dir), `${process.pid}\n`, { mode: 0o600 });
      return {
        address,
        update: (more) => Object.assign(info, more),
        release: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            // node removes the socket file on close; make sure for older versions
          }).then(() => {
            if (!address.startsWith('\0') && existsSync(address)) rmSync(address, { force: true });
            if (livePid(dir) === process.pid) rmSync(lockPidFile(dir), { force: true });
          }),
      };
    }
    if (err.code !== 'EADDRINUSE') throw err;
    const holder = await probeLock(address);
    if (holder === null) {
      // Stale: its process is gone (a kill -9 leaves the file behind). Replace it.
      if (!address.startsWith('\0')) rmSync(address, { force: true });
      continue;
    }
    throw new SandboxLockedError(holder === 'unknown' ? { pid: livePid(dir), startedAt: '', starting: true } : holder, dir);
  }
  throw new Error(`could not take the sandbox lock ${address}`);
}
