// pm unlock: decrypt the keystore once into a session agent (a detached local process, like
// ssh-agent) that signs for every later command until its deadline or pm lock.
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from '../cli/command.js';
import { pmBin } from '../cli/version.js';
import { textTime } from '../cli/text.js';
import { ENV_VARS } from '../cli/env.js';
import { AuthError, ConflictError, PmError, UsageError } from '../core/errors.js';
import type { PmErrorOptions } from '../core/errors.js';
import { parseDuration } from '../core/duration.js';
import { ensurePrivateDir } from '../core/fsutil.js';
import { printAgentStatus, stopAgent } from './agentctl.js';
import type { Progress } from '../cli/output.js';

/** The longest session: 12 hours. */
const MAX_TTL_MS = 12 * 3_600_000;

export default defineCommand({
  path: ['unlock'],
  effect: 'local',
  summary: 'Unlock the keystore once for a while (a session agent signs for later commands)',
  description:
    'Decrypts every wallet and token secret of PM_HOME once into a local background process that answers signing requests over a Unix socket (PM_HOME/run/agent.sock, mode 0600) and never hands out a key or secret. Later commands use it instead of asking for the passphrase; it exits at the deadline or on pm lock. Running pm unlock again replaces it.',
  options: {
    for: { type: 'string', value: 'duration', description: 'how long it stays unlocked (e.g. 90s, 15m, 2h; at most 12h)', default: '15m' },
    status: { type: 'boolean', description: 'only say whether an agent runs, and until when' },
    foreground: { type: 'boolean', description: 'run the agent in this process (for supervisors) instead of in the background' },
  },
  examples: ['pm unlock', 'pm unlock --for 2h', 'pm --passphrase-file ~/.pm-pass unlock --for 8h', 'pm unlock --status --json', 'pm lock'],
  run: async (ctx, { opts }) => {
    if (opts.status) return printAgentStatus(ctx);
    const ttlMs = parseDuration(opts.for, '--for', { min: 1000, max: MAX_TTL_MS });
    if (process.platform === 'win32') throw new UsageError('pm unlock needs Unix sockets (Linux, macOS)');
    const { startAgent } = await import('../keystore/agent-server.js');
    if (opts.foreground) {
      // The detached child gets the passphrase on stdin (never in its environment or argv).
      const passphrase = ctx.io.env['PM_AGENT_STDIN'] === '1' ? await readLine(ctx.io.stdin) : await ctx.passphrase();
      const p = ctx.profile();
      // Spawned by pm unlock: a line per file opened before the ready line (the terminal's progress).
      const onOpened =
        ctx.io.env['PM_AGENT_STDIN'] === '1'
          ? (f: Opened, done: number, total: number): void =>
              void ctx.io.stdout.write(`${JSON.stringify({ opened: { kind: f.kind, name: f.name }, done, total })}\n`)
          : undefined;
      const agent = await startAgent({ home: ctx.home, passphrase, ttlMs, first: { wallet: p.wallet, secrets: p.secrets }, onOpened });
      const stop = (): void => void agent.close();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.once('SIGHUP', stop);
      ctx.io.stdout.write(`${JSON.stringify({ ready: true, socket: agent.socket, ...agent.status })}\n`);
      await agent.closed;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      process.off('SIGHUP', stop);
      return;
    }
    const ks = await ctx.keystore();
    if (ks.encryptedFiles().length === 0)
      throw new UsageError(`nothing to unlock: the keystore in ${ctx.home} holds no wallet or token secret`, {
        hint: 'Create one with pm init or pm wallet create.',
      });
    const passphrase = await ctx.passphrase();
    // On a terminal it is checked here, so a wrong one is this command's exit 3 before any agent
    // starts. In a script the agent checks it on the files it opens first (exit 3 all the same):
    // the passphrase is verified once, not once here and once there.
    if (ctx.interactive && (await ks.checkPassphrase(passphrase)) === false) throw new AuthError('wrong passphrase');
    // Verified: a pm shell history line equal to it (typed there by mistake) goes.
    try {
      const { historyFile, scrubHistoryFile } = await import('../cli/history.js');
      scrubHistoryFile(historyFile(ctx.home), passphrase);
    } catch {
      // the history is a convenience; unlocking does not depend on it
    }
    const replaced = await stopAgent(ctx);
    // On a terminal one stderr line counts the files the agent opens before it is ready.
    let bar: Progress | null | undefined;
    const ready = await spawnAgent(ctx.home, ttlMs, passphrase, ctx.io.env, (f, done, total) => {
      bar ??= ctx.out.progress(total, 'opening the keystore {bar} {value}/{total} | {file}', { file: '' });
      bar?.update(done, { file: `${f.kind} ${f.name}` });
    }).finally(() => bar?.stop());
    ctx.out.data(ready, () =>
      ctx.out.info(
        `unlocked until ${textTime(ready.until)} (session agent pid ${ready.pid}${replaced ? `, replacing pid ${replaced.pid}` : ''}); pm lock ends it`,
      ),
    );
    return;
  },
});

interface Ready {
  socket: string;
  pid: number;
  until: string;
  wallets: unknown[];
  secrets: unknown[];
}

/** A detached sandbox and agent get none of the PM_* secrets of this environment. */
function withoutSecrets(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const secret = new Set<string>([...ENV_VARS.filter((v) => 'secret' in v && v.secret).map((v) => v.name), 'PM_TOKEN_ID']);
  return Object.fromEntries(Object.entries(env).filter(([k]) => !secret.has(k)));
}

/** A file the agent opened before it was ready. */
interface Opened {
  kind: 'wallet' | 'secrets';
  name: string;
}

/** A progress line of the agent: {"opened": {kind, name}, done, total}. */
function openedLine(v: unknown): { file: Opened; done: number; total: number } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const f = o['opened'];
  if (typeof f !== 'object' || f === null || typeof o['done'] !== 'number' || typeof o['total'] !== 'number') return undefined;
  const { kind, name } = f as Record<string, unknown>;
  if ((kind !== 'wallet' && kind !== 'secrets') || typeof name !== 'string') return undefined;
  return { file: { kind, name }, done: o['done'], total: o['total'] };
}

async function spawnAgent(
  home: string,
  ttlMs: number,
  passphrase: string,
  env: Record<string, string | undefined>,
  onOpened: (file: Opened, done: number, total: number) => void,
): Promise<Ready> {
  const dir = join(home, 'run');
  ensurePrivateDir(dir);
  const logPath = join(dir, 'agent.log');
  const log = openSync(logPath, 'a', 0o600);
  const logStart = fstatSync(log).size;
  const child = spawn(process.execPath, [pmBin(), '--json', 'unlock', '--foreground', '--for', `${ttlMs}ms`], {
    detached: true,
    stdio: ['pipe', 'pipe', log],
    env: { ...withoutSecrets(env), PM_HOME: home, PM_AGENT_STDIN: '1' },
  });
  closeSync(log);
  child.stdin?.end(`${passphrase}\n`);
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new PmError('the session agent did not start within 30 s', { hint: `See ${logPath}` }));
    }, 30_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let v: unknown;
        try {
          v = JSON.parse(line);
        } catch (e) {
          v = e;
        }
        const opened = openedLine(v);
        if (opened) {
          onOpened(opened.file, opened.done, opened.total);
          continue;
        }
        clearTimeout(timer);
        child.stdout?.destroy();
        child.removeAllListeners('exit');
        child.unref();
        if (v instanceof Error)
          reject(new PmError('the session agent answered something unexpected', { cause: v, details: line.slice(0, 200) }));
        else resolve(v as Ready);
        return;
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(
        childError(logPath, logStart) ??
          new PmError(`the session agent exited with code ${code ?? '?'} before it was ready`, { hint: `See ${logPath}` }),
      );
    });
  });
}

/** Error classes by the code the agent reports, so its refusal is this command's (a lost race is exit 5). */
const BY_CODE: Partial<Record<string, new (message: string, opts?: PmErrorOptions) => PmError>> = {
  CONFLICT: ConflictError,
  AUTH: AuthError,
  USAGE: UsageError,
  VALIDATION: UsageError,
};

/** The error the agent wrote to its log (--json: one object on stderr) since `from`, as this command's own. */
function childError(logPath: string, from: number): PmError | undefined {
  let text: string;
  try {
    text = readFileSync(logPath).subarray(from).toString('utf8');
  } catch {
    return undefined;
  }
  for (const line of text.trim().split('\n').reverse()) {
    try {
      const e = (JSON.parse(line) as { error?: { code?: unknown; message?: unknown; hint?: unknown } }).error;
      if (typeof e?.message !== 'string') continue;
      const Err = (typeof e.code === 'string' && BY_CODE[e.code]) || PmError;
      return new Err(`the session agent did not start: ${e.message}`, { hint: typeof e.hint === 'string' ? e.hint : `See ${logPath}` });
    } catch {
      // not the error line
    }
  }
  return undefined;
}

async function readLine(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  let buf = '';
  for await (const chunk of stdin) {
    buf += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (buf.includes('\n')) break;
  }
  const line = buf.split('\n')[0] ?? '';
  if (line === '') throw new AuthError('no passphrase on stdin');
  return line;
}
