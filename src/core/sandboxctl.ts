// Managing a sandbox process: the run file under PM_HOME/sandbox, liveness, detach and stop.
// (The server itself is src/sandbox; this module never imports it.)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ConflictError, ExchangeError, NetworkError, PmError, UnknownStateError, UsageError } from './errors.js';
import { formatUnits } from './money.js';
import { isObj } from './wire.js';
import type { ApiClient } from './http.js';
import { ensurePrivateDir, writePrivateFileAtomic } from './fsutil.js';

export interface RunInfo {
  pid: number;
  baseUrl: string;
  wsUrl: string;
  startedAt: string;
  ephemeral: boolean;
  /** The JSON-RPC URL of its chain (started with --chain or --chain-rpc). */
  rpcUrl?: string;
}

export const sandboxDir = (home: string): string => join(home, 'sandbox');
const runFile = (home: string): string => join(sandboxDir(home), 'server.json');

/** Records a running sandbox (for status and stop). */
export function writeRunInfo(home: string, info: RunInfo): void {
  writePrivateFileAtomic(runFile(home), `${JSON.stringify(info)}\n`);
}

/** Removes the run file if it still names `pid`. */
export function clearRunInfo(home: string, pid: number): void {
  const cur = readRunInfo(home);
  if (cur && cur.pid === pid) rmSync(runFile(home), { force: true });
}

function readRunInfo(home: string): RunInfo | null {
  const f = runFile(home);
  if (!existsSync(f)) return null;
  try {
    const o = JSON.parse(readFileSync(f, 'utf8')) as Partial<RunInfo>;
    if (typeof o.pid !== 'number' || typeof o.baseUrl !== 'string') return null;
    return {
      pid: o.pid,
      baseUrl: o.baseUrl,
      wsUrl: o.wsUrl ?? o.baseUrl.replace(/^http/, 'ws'),
      startedAt: o.startedAt ?? '',
      ephemeral: o.ephemeral === true,
      ...(typeof o.rpcUrl === 'string' ? { rpcUrl: o.rpcUrl } : {}),
    };
  } catch {
    return null;
  }
}

/** The socket address of the state-dir lock (mirrors src/sandbox/lock.ts, which this must not import). */
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

/**
 * The pid in `lock.pid` beside the lock socket (written by the holder once it has the lock, as
 * src/sandbox/lock.ts does), when that process is alive.
 */
function lockPid(dir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dir, 'lock.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The sandbox holding the state lock of this PM_HOME, asked over its lock socket; null when
 * nobody holds it. Works when server.json is missing or corrupt (the lock is the truth). A
 * holder that is still starting (not listening yet, or its event loop busy loading its state, so
 * the socket does not answer) has an empty baseUrl.
 */
function lockHolder(home: string, timeoutMs = 1000): Promise<RunInfo | null> {
  const dir = sandboxDir(home);
  const address = lockAddress(dir);
  if (!address.startsWith('\0') && !existsSync(address)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const s = connect(address);
    let buf = '';
    const done = (v: RunInfo | null): void => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    // Connected but no answer: a holder busy loading its state.
    const timer = setTimeout(() => {
      const pid = lockPid(dir);
      done(pid === null ? null : { pid, baseUrl: '', wsUrl: '', startedAt: '', ephemeral: false });
    }, timeoutMs);
    s.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const o = JSON.parse(buf.slice(0, nl)) as Partial<RunInfo>;
        if (typeof o.pid !== 'number') return done(null);
        const baseUrl = typeof o.baseUrl === 'string' ? o.baseUrl : '';
        done({
          pid: o.pid,
          baseUrl,
          wsUrl: typeof o.wsUrl === 'string' ? o.wsUrl : baseUrl.replace(/^http/, 'ws'),
          startedAt: o.startedAt ?? '',
          ephemeral: false,
          ...(typeof o.rpcUrl === 'string' ? { rpcUrl: o.rpcUrl } : {}),
        });
      } catch {
        done(null);
      }
    });
    s.on('error', () => done(null));
    s.on('end', () => done(null));
  });
}

/** The running sandbox from the run file, else from the state lock (a lost run file is rewritten). */
export async function findSandbox(home: string): Promise<RunInfo | null> {
  const info = runningSandbox(home);
  if (info) return info;
  const holder = await lockHolder(home);
  if (holder?.baseUrl) writeRunInfo(home, holder);
  return holder;
}

/**
 * True when a process with this pid runs. One that has exited but that its parent has not reaped
 * yet (a zombie) does not: a sandbox killed with -9 stays one for seconds where PID 1 reaps late
 * (containers), and a start right after the crash must not be refused as "already running".
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** Linux: the process state in /proc/<pid>/stat (after the command name in parentheses) is Z. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** The running sandbox, or null (a stale run file is removed). */
export function runningSandbox(home: string): RunInfo | null {
  const info = readRunInfo(home);
  if (!info) return null;
  if (!isAlive(info.pid)) {
    rmSync(runFile(home), { force: true });
    return null;
  }
  return info;
}

/**
 * Starts `pm sandbox start` detached and resolves with its ready line once it listens.
 * stderr goes to PM_HOME/sandbox/sandbox.log.
 */
export async function spawnDetached(
  home: string,
  binPath: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 15_000,
): Promise<string> {
  ensurePrivateDir(sandboxDir(home));
  const log = openSync(join(sandboxDir(home), 'sandbox.log'), 'a', 0o600);
  const child = spawn(process.execPath, [binPath, ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    env: { ...env, PM_HOME: home },
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(
        new NetworkError(`the sandbox did not become ready within ${timeoutMs} ms`, {
          hint: `See ${join(sandboxDir(home), 'sandbox.log')}`,
        }),
      );
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        child.stdout?.destroy();
        child.unref();
        resolve(buf.slice(0, nl));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      const tail = existsSync(join(sandboxDir(home), 'sandbox.log'))
        ? readFileSync(join(sandboxDir(home), 'sandbox.log'), 'utf8')
            .trim()
            .split('\n')
            .slice(-3)
            .join('\n')
        : '';
      // The child runs with --json: its last line is the error object; a usage error (a port
      // in use…) is the same clean exit 2 as in the foreground, and a state locked by another
      // sandbox (one started at the same moment) the same exit 5.
      const err = lastJsonError(tail);
      const more = err ? { ...(err.details ? { details: err.details } : {}), ...(err.hint ? { hint: err.hint } : {}) } : {};
      if (code === 2 && err) return reject(new UsageError(err.message, more));
      if (code === 5 && err) return reject(new ConflictError(err.message, more));
      reject(
        new PmError(`the sandbox exited with code ${code ?? '?'} before it was ready`, {
          details: tail || undefined,
          hint: `See ${join(sandboxDir(home), 'sandbox.log')}`,
        }),
      );
    });
  });
}

function lastJsonError(text: string): { message: string; details?: string; hint?: string } | null {
  try {
    const e = (JSON.parse(text.split('\n').pop() ?? '') as { error?: { message?: unknown; details?: unknown; hint?: unknown } }).error;
    if (!e || typeof e.message !== 'string') return null;
    return {
      message: e.message,
      ...(typeof e.details === 'string' ? { details: e.details } : {}),
      ...(typeof e.hint === 'string' ? { hint: e.hint } : {}),
    };
  } catch {
    return null;
  }
}

/** Sends SIGTERM and waits for the process to go away. */
export async function stopProcess(pid: number, timeoutMs = 5000): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return true;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** Maps a listen error to a clear message. */
export function listenError(e: unknown, host: string, port: number): PmError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new UsageError(`port ${port} on ${host} is already in use`, {
      hint: 'Pick another with --port, or --port 0 for a free one (pm sandbox status shows a running sandbox).',
    });
  if (code === 'EACCES') return new UsageError(`not allowed to listen on ${host}:${port}`, { hint: 'Use a port above 1024, or --port 0.' });
  if (code === 'EADDRNOTAVAIL') return new UsageError(`cannot listen on ${host}: no such local address`, { hint: 'Use --host 127.0.0.1' });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return new UsageError(`cannot listen on ${host}: no such host name`, { hint: 'Use an address of this machine, e.g. --host 127.0.0.1' });
  // The chain node of --chain-rpc did not answer as a node does: a network error (exit 7).
  if (code === 'ECHAINSETUP')
    return new NetworkError((e as Error).message, {
      cause: e,
      hint: 'Is an Ethereum node (anvil, hardhat) answering JSON-RPC at that URL? Or use --chain: pm starts its own.',
    });
  // A damaged file in the sandbox's data dir (src/sandbox/stateerror.ts): exit 2 with how to recover.
  if (code === 'ESANDBOXSTATE') return new UsageError((e as Error).message, { hint: (e as { hint?: string }).hint });
  return e instanceof PmError ? e : new PmError(e instanceof Error ? e.message : String(e), { cause: e });
}

// ---------------------------------------------------------------------------------------------
// The sandbox's admin routes (/__sandbox/…, loopback only, no credentials): every call of them
// from pm is here.

export interface SeededAccount {
  name: string;
  role: string;
  address: string;
  privateKey: string;
  profileId: number;
  token: { tokenId: string; secret: string; scopes: string[] };
  apiKey: string;
  identityToken: string;
  serverWallet?: string;
}

/** The seeded accounts of a sandbox (GET /__sandbox/accounts); refuses what is no pm sandbox. */
export async function seededAccounts(api: ApiClient): Promise<SeededAccount[]> {
  const d = (await api.request<unknown>({ method: 'GET', path: '/__sandbox/accounts' })).data;
  if (!Array.isArray(d)) throw new ExchangeError(`${api.baseUrl} does not look like a pm sandbox (no seeded accounts)`);
  return d as SeededAccount[];
}

/** What a deposit of `pm sandbox fund` did: raw units, as the sandbox answers. */
export interface Funded {
  profileId: number;
  wallet: string;
  amount: bigint;
  balance: bigint;
  txHash: string | null;
}

/**
 * Credits USDC to a profile (POST /__sandbox/fund): a logged deposit. Sent once: an answer lost
 * or unreadable after sending is unknown (a second call credits again).
 */
export async function fundProfile(api: ApiClient, profileId: number, amount: bigint): Promise<Funded> {
  const unknown = (why: string, cause?: unknown) =>
    new UnknownStateError(`the deposit of ${formatUnits(amount)} USDC to profile ${profileId} may or may not have been made: ${why}`, {
      cause,
      hint: `Look before funding again (a second run credits again): its balance (pm balance, as that profile) or its deposits (pm portfolio history).`,
    });
  let d: unknown;
  try {
    d = (
      await api.request<unknown>({
        method: 'POST',
        path: '/__sandbox/fund',
        body: { profileId, amount: amount.toString() },
        auth: 'none',
        onBehalfOfIn: 'none',
        retry: 'never',
      })
    ).data;
  } catch (e) {
    if (e instanceof NetworkError && e.ambiguous) throw unknown(`the answer was lost (${e.shortMessage})`, e);
    throw e;
  }
  const o = isObj(d) ? d : {};
  const raw = (x: unknown): bigint | null => (typeof x === 'string' && /^\d+$/.test(x) ? BigInt(x) : null);
  const [got, balance] = [raw(o['amount']), raw(o['balance'])];
  if (typeof o['profileId'] !== 'number' || typeof o['wallet'] !== 'string' || got === null || balance === null)
    throw unknown('its answer could not be read');
  return {
    profileId: o['profileId'],
    wallet: o['wallet'],
    amount: got,
    balance,
    txHash: typeof o['txHash'] === 'string' ? o['txHash'] : null,
  };
}

/** Resolves a market (POST /__sandbox/resolve); `payout: false` leaves the payout unposted. */
export async function resolveMarket(
  api: ApiClient,
  slug: string,
  winningOutcome: 'YES' | 'NO',
  payout: boolean,
): Promise<Record<string, unknown>> {
  return (
    await api.request<Record<string, unknown>>({
      method: 'POST',
      path: '/__sandbox/resolve',
      body: { slug, winningOutcome, payout },
      retry: 'never',
    })
  ).data;
}

/** Restores a running sandbox to its seed (POST /__sandbox/reset). */
export async function resetSandbox(api: ApiClient): Promise<void> {
  await api.request({ method: 'POST', path: '/__sandbox/reset', body: {} });
}

/** Removes a stopped sandbox's stored state (snapshot, event log, rotated segments, temp files). */
export function clearStoredState(home: string): void {
  const dir = sandboxDir(home);
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir))
    if (/^(state\.json|events(\.\d+)?\.ndjson|\.(state|snapshot)\..*\.tmp)$/.test(f)) rmSync(join(dir, f), { force: true });
}

/** Whether an exchange answers its health route (GET /maintenance/status). */
export async function answers(api: ApiClient): Promise<boolean> {
  try {
    await api.request({ method: 'GET', path: '/maintenance/status', retry: 'never' });
    return true;
  } catch {
    return false;
  }
}

/** A sandbox's local chain, as GET /__sandbox/chain tells it (`pm sandbox start --chain`). */
export interface SandboxChainInfo {
  rpcUrl: string;
  chainId: number;
  contracts: { usdc: string; conditionalTokens: string };
}

/** Where a sandbox's replay stands (GET /__sandbox/replay, `pm sandbox start --replay`). */
export interface SandboxReplayInfo {
  file: string;
  recordedTime: string;
  applied: number;
  total: number;
  behindMs: number;
  done: boolean;
}

/** The sandbox's replay (GET /__sandbox/replay); null when it replays nothing or does not answer. */
export async function sandboxReplay(api: ApiClient): Promise<SandboxReplayInfo | null> {
  try {
    const j = (await api.request<unknown>({ method: 'GET', path: '/__sandbox/replay', retry: 'never' })).data;
    if (typeof j !== 'object' || j === null) return null;
    const { file, recordedTime, applied, total, behindMs, done } = j as Partial<SandboxReplayInfo>;
    if (typeof file !== 'string' || typeof recordedTime !== 'string' || typeof done !== 'boolean') return null;
    if (typeof applied !== 'number' || typeof total !== 'number' || typeof behindMs !== 'number') return null;
    return { file, recordedTime, applied, total, behindMs, done };
  } catch {
    return null;
  }
}

/** The sandbox's local chain (GET /__sandbox/chain); null when it runs none or does not answer. */
export async function sandboxChain(api: ApiClient): Promise<SandboxChainInfo | null> {
  try {
    const j = (await api.request<unknown>({ method: 'GET', path: '/__sandbox/chain', retry: 'never' })).data;
    if (typeof j !== 'object' || j === null) return null;
    const { rpcUrl, chainId, contracts } = j as Partial<SandboxChainInfo>;
    if (typeof rpcUrl !== 'string' || typeof chainId !== 'number' || typeof contracts !== 'object' || contracts === null) return null;
    if (typeof contracts.usdc !== 'string' || typeof contracts.conditionalTokens !== 'string') return null;
    return { rpcUrl, chainId, contracts: { usdc: contracts.usdc, conditionalTokens: contracts.conditionalTokens } };
  } catch {
    return null;
  }
}
