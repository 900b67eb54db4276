// The session agent itself (`pm unlock`; the client is agent.ts): decrypts every wallet and
// token secret of PM_HOME once, then serves signatures and HMAC values over a Unix socket until
// its deadline or `pm lock`. What leaves the process is a 65-byte signature, a base64 HMAC, an
// address or a token id: never a key or a secret.
//
// Who may connect: the socket lives in PM_HOME/run, a directory this user owns with mode 0700
// (checked, and refused otherwise), and the socket itself is created 0600, so the kernel lets
// only this user (and root) connect. No peer-credential check beyond that (Node has no portable
// SO_PEERCRED); like ssh-agent, anyone who can connect can ask for signatures, not for keys.
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { chmodSync, lstatSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalAccount } from 'viem/accounts';
import { hmacSigner } from '../core/auth.js';
import type { HmacSigner } from '../core/auth.js';
import { AuthError, ConflictError, PmError, UsageError } from '../core/errors.js';
import { ensurePrivateDir } from '../core/fsutil.js';
import { AgentClient, agentDir, agentSocketPath, removeStaleSocket } from './agent.js';
import { LockFile } from '../core/filelock.js';
import type { AgentStatus } from './agent.js';
import { Keystore } from './store.js';
import { keyAccount } from './key-account.js';
import { decryptKeystore } from './v3.js';

export interface AgentOptions {
  home: string;
  passphrase: string;
  /** Milliseconds until the agent exits by itself. */
  ttlMs: number;
  /**
   * The files the active profile uses (its wallet and token secrets): opened before the agent says
   * it is ready; every other file opens after, in the background (a request for one waits for it).
   */
  first?: { wallet?: string | undefined; secrets?: string | undefined } | undefined;
  /** Told of each file opened before the agent is ready (`done` of `total`): pm unlock's progress. */
  onOpened?: ((file: { kind: 'wallet' | 'secrets'; name: string }, done: number, total: number) => void) | undefined;
}

export interface AgentHandle {
  socket: string;
  status: AgentStatus;
  /** Resolves once the agent stopped (deadline, lock, or close()). */
  closed: Promise<void>;
  close(): Promise<void>;
}

const MAX_LINE = 1 << 20;

/**
 * Decrypts the keystore of `home` and serves it on PM_HOME/run/agent.sock.
 * @example const a = await startAgent({ home, passphrase, ttlMs: 15 * 60_000 }); await a.closed;
 */
export async function startAgent(o: AgentOptions): Promise<AgentHandle> {
  if (process.platform === 'win32') throw new UsageError('pm unlock needs Unix sockets (Linux, macOS)');
  const ks = new Keystore(o.home);
  const files = ks.encryptedFiles();
  if (files.length === 0)
    throw new UsageError(`nothing to unlock: the keystore in ${o.home} holds no wallet or token secret`, {
      hint: 'Create one with pm init or pm wallet create.',
    });
  const wallets = new Map<string, LocalAccount>();
  const secrets = new Map<string, HmacSigner>();
  let opened = 0;
  const open = async (f: (typeof files)[number]): Promise<void> => {
    try {
      if (f.kind === 'wallet') {
        wallets.set(f.name, keyAccount(await decryptKeystore(readFileSync(f.path, 'utf8'), o.passphrase, `wallet "${f.name}"`)));
      } else {
        const s = await ks.loadSecrets(f.name, o.passphrase);
        if (s.tokenId !== undefined && s.tokenSecret !== undefined) secrets.set(f.name, hmacSigner(s.tokenId, s.tokenSecret));
      }
      opened++;
    } catch (e) {
      if (e instanceof AuthError) throw e;
      // A broken or foreign file is not served; commands that need it fall back to the prompt.
    }
  };
  // The active profile's files first (the passphrase is verified on them), in parallel: scrypt
  // runs on the thread pool. Wallets the profile does not use open after the agent is ready, so
  // `pm unlock` waits for what the next command needs, not for every file of PM_HOME.
  const isFirst = (f: (typeof files)[number]): boolean => (f.kind === 'wallet' ? f.name === o.first?.wallet : f.name === o.first?.secrets);
  const firstFiles = files.filter(isFirst);
  const later = firstFiles.length > 0 ? files.filter((f) => !isFirst(f)) : files.slice(1);
  const before = firstFiles.length > 0 ? firstFiles : files.slice(0, 1);
  let done = 0;
  await Promise.all(before.map((f) => open(f).then(() => o.onOpened?.({ kind: f.kind, name: f.name }, ++done, before.length))));
  if (opened === 0 && later.length === 0) throw new PmError('no keystore file could be decrypted');
  // A file opened later is served once it is (a request waits); a wrong passphrase was caught above.
  const rest = Promise.all(later.map((f) => open(f).catch(() => undefined))).then(() => undefined);
  const settled = (name: string, has: (n: string) => boolean): Promise<void> =>
    has(name) || !later.some((f) => f.name === name) ? Promise.resolve() : rest;
  // What this agent serves, as the files say in clear text (a file that fails to open later drops out).
  const listed = {
    wallets: files.flatMap((f) => {
      if (f.kind !== 'wallet') return [];
      const a = wallets.get(f.name)?.address ?? safely(() => ks.walletAddress(f.name));
      return a === undefined ? [] : [{ name: f.name, address: a }];
    }),
    secrets: files.flatMap((f) => {
      if (f.kind !== 'secrets') return [];
      const id = secrets.get(f.name)?.tokenId ?? safely(() => ks.secretsInfo(f.name).tokenId);
      return id === undefined ? [] : [{ name: f.name, tokenId: id }];
    }),
  };

  const dir = agentDir(o.home);
  ensurePrivateDir(dir);
  checkPrivateDir(dir);
  const path = agentSocketPath(o.home);
  if (Buffer.byteLength(path) > 100)
    throw new UsageError(`the agent socket path is too long for a Unix socket: ${path}`, { hint: 'Use a shorter PM_HOME.' });
  const until = new Date(Date.now() + o.ttlMs);
  const status: AgentStatus = {
    pid: process.pid,
    until: until.toISOString(),
    wallets: listed.wallets.sort((a, b) => a.name.localeCompare(b.name)),
    secrets: listed.secrets.sort((a, b) => a.name.localeCompare(b.name)),
  };

  const conns = new Set<Socket>();
  let stop: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const handle = async (req: unknown): Promise<Record<string, unknown>> => {
    if (typeof req !== 'object' || req === null) return { ok: false, error: 'a request is a JSON object' };
    const r = req as Record<string, unknown>;
    switch (r['op']) {
      case 'status':
        return { ok: true, ...status };
      case 'address': {
        await settled(String(r['wallet']), (n) => wallets.has(n));
        const a = wallets.get(String(r['wallet']));
        return a ? { ok: true, address: a.address } : { ok: false, error: `no wallet "${String(r['wallet'])}" in this agent` };
      }
      case 'signDigest': {
        await settled(String(r['wallet']), (n) => wallets.has(n));
        const a = wallets.get(String(r['wallet']));
        if (!a?.sign) return { ok: false, error: `no wallet "${String(r['wallet'])}" in this agent` };
        const digest = r['digest'];
        if (typeof digest !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(digest))
          return { ok: false, error: 'digest must be 32 bytes of hex (0x…)' };
        return { ok: true, signature: await a.sign({ hash: digest as `0x${string}` }) };
      }
      case 'hmac': {
        await settled(String(r['secrets']), (n) => secrets.has(n));
        const s = secrets.get(String(r['secrets']));
        if (!s) return { ok: false, error: `no token secrets "${String(r['secrets'])}" in this agent` };
        if (typeof r['message'] !== 'string') return { ok: false, error: 'message must be a string' };
        return { ok: true, tokenId: s.tokenId, signature: await s.sign(r['message']) };
      }
      case 'lock':
        setImmediate(() => void shutdown());
        return { ok: true };
      default:
        return { ok: false, error: `unknown op ${JSON.stringify(r['op'])}` };
    }
  };

  const server: Server = createServer((sock) => {
    conns.add(sock);
    sock.setEncoding('utf8');
    let buf = '';
    let chain = Promise.resolve();
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE) return sock.destroy();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        // Answers go back in request order.
        chain = chain.then(async () => {
          let answer: Record<string, unknown>;
          try {
            answer = await handle(JSON.parse(line));
          } catch (e) {
            answer = { ok: false, error: e instanceof SyntaxError ? 'not JSON' : e instanceof Error ? e.message : 'failed' };
          }
          if (!sock.destroyed) sock.write(`${JSON.stringify(answer)}\n`);
        });
      }
    });
    sock.on('error', () => sock.destroy());
    sock.on('close', () => conns.delete(sock));
  });

  // One start at a time per home: between "nobody listens there" and listen() another agent
  // could bind the path, and clearing the path then would orphan it.
  const release = takeStartLock(dir, o.home);
  try {
    const live = await AgentClient.connect(o.home);
    if (live) {
      const until = (await live.status().catch(() => null))?.until;
      live.close();
      throw new ConflictError(`an agent already runs for ${o.home}${until ? ` (until ${until})` : ''}`, { hint: 'pm lock ends it.' });
    }
    clearSocketPath(path);
    // Created 0600 from the start (umask), not chmod-ed after a window where others could connect.
    const oldMask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => resolve());
      });
    } finally {
      process.umask(oldMask);
    }
  } finally {
    release();
  }
  chmodSync(path, 0o600);
  const ino = lstatSync(path).ino;

  let shutting: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    shutting ??= (async () => {
      clearTimeout(timer);
      wallets.clear();
      secrets.clear();
      // server.close waits for open connections: end them (after their pending answers) first.
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of conns) c.end();
      setTimeout(() => conns.forEach((c) => c.destroy()), 200).unref();
      await done;
      try {
        if (lstatSync(path).ino === ino) removeStaleSocket(path);
      } catch {
        // already gone
      }
      stop();
    })();
    return shutting;
  };
  const timer = setTimeout(() => void shutdown(), o.ttlMs);
  server.on('close', () => clearTimeout(timer));
  // connections must not keep a finished agent alive
  return { socket: path, status, closed, close: shutdown };
}

/** A start lock older than this is broken even if a process with its pid runs (the pid was reused). */
const START_LOCK_STALE_MS = 30_000;

/**
 * Takes run/agent.lock (created exclusively, holding this pid) and returns its release; when a
 * live process holds it, another agent is starting: a ConflictError. A lock whose holder died is
 * broken, unless someone else took it meanwhile.
 */
function takeStartLock(dir: string, home: string): () => void {
  const lock = new LockFile(join(dir, 'agent.lock'), START_LOCK_STALE_MS);
  const token = lock.tryLock();
  if (token === null) {
    const pid = lock.holder();
    throw new ConflictError(`another session agent is starting for ${home}${pid ? ` (pid ${pid})` : ''}`, {
      hint: 'pm unlock --status shows it once it runs; pm lock ends it.',
    });
  }
  return () => lock.unlock(token);
}

/**
 * Clears the socket path once nothing listens there: a dead socket, or any other file left
 * there (a stale file would make listen() fail); never a directory.
 */
function clearSocketPath(path: string): void {
  let isDir: boolean;
  try {
    isDir = lstatSync(path).isDirectory();
  } catch {
    return; // nothing there
  }
  if (isDir)
    throw new UsageError(`${path} is a directory, where the session agent's socket goes`, {
      hint: `Move it away (mv ${path} ${path}.bak) and run pm unlock again.`,
    });
  rmSync(path, { force: true });
}

/** The run directory must be ours and closed to others, or the socket's mode would not protect it. */
function checkPrivateDir(dir: string): void {
  const st = statSync(dir);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new PmError(`${dir} belongs to another user; the agent will not put its socket there`);
  if ((st.mode & 0o077) !== 0)
    throw new PmError(`${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`, { hint: `chmod 700 ${dir}` });
}

/** `f()`, or undefined when it throws (a clear-text field of a file that may be broken). */
function safely<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
