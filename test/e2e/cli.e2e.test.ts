// Spawns the built bin/pm.js (as users run it): pipes, exit codes, no TTY, signals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadyInfo as Ready } from '../../src/sandbox/index.js';
import { tempHome } from '../helpers/run.js';

const BIN = 'bin/pm.js';
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home, NO_COLOR: '1' };

/** Starts `pm sandbox start --port 0 --ephemeral --json` and resolves with its ready line. */
async function startSandboxProcess() {
  const proc = execa('node', [BIN, 'sandbox', 'start', '--port', '0', '--ephemeral', '--json'], { env, reject: false, buffer: false });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buf = '';
    proc.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as Ready);
    });
    proc.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  return { proc, ready };
}

describe('pm as a process', () => {
  let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;
  beforeAll(async () => {
    sandbox = await startSandboxProcess();
  });
  afterAll(async () => {
    sandbox.proc.kill('SIGTERM');
    await sandbox.proc;
  });

  it('prints the ready line of docs/architecture.md §4', () => {
    const r = sandbox.ready;
    expect(r.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(r.chainId).toBe(8453);
    expect(r.pid).toBeGreaterThan(0);
    expect(r.accounts.map((a) => a.name)).toEqual(expect.arrayContaining(['alice', 'bob', 'partner']));
    const alice = r.accounts.find((a) => a.name === 'alice');
    expect(alice?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    for (const a of r.accounts) {
      expect(a.token.secret).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(a.apiKey).toBeTruthy();
      expect(a.identityToken).toBeTruthy();
    }
    expect(r.markets.some((m) => m.negRisk)).toBe(true);
  });

  it('pipes --json markets list into a JSON parser, with no TTY', async () => {
    const r = await execa('node', [BIN, '--json', '--base-url', sandbox.ready.baseUrl, 'markets', 'list']);
    expect(r.exitCode).toBe(0);
    const list = JSON.parse(r.stdout) as { slug: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
  });

  it('exits 4 for an unknown slug, 2 for a bad flag, with one line of error and no stack', async () => {
    const nf = await execa('node', [BIN, '--base-url', sandbox.ready.baseUrl, 'markets', 'show', 'nope-nope'], { reject: false });
    expect(nf.exitCode).toBe(4);
    expect(nf.stderr).not.toMatch(/\n\s+at /);
    const bad = await execa('node', [BIN, '--base-url', sandbox.ready.baseUrl, 'book', 'btc-100k-2026', '--depth', 'x'], { reject: false });
    expect(bad.exitCode).toBe(2);
  });

  it('exits 7 with a hint when the sandbox is not running', async () => {
    const r = await execa('node', [BIN, '--base-url', 'http://127.0.0.1:9', 'markets', 'list'], { reject: false, env });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/pm sandbox start/);
  });

  it('refuses a port already in use with a clear message', async () => {
    const port = new URL(sandbox.ready.baseUrl).port;
    const r = await execa('node', [BIN, 'sandbox', 'start', '--port', port, '--ephemeral'], { reject: false, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/already in use/);
    expect(r.stderr).toMatch(/--port 0/);
  });

  it('refuses a host that is no address or name here with exit 2 (it was exit 1, a bug, for a name that does not resolve)', async () => {
    const r = await execa('node', [BIN, '--json', 'sandbox', 'start', '--host', 'bad host', '--port', '0', '--ephemeral', '--yes'], {
      reject: false,
      env,
    });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/bad host/) });
  });
});

describe('signals', () => {
  it('stops the sandbox cleanly on SIGTERM (exit 0) and Ctrl-C (exit 130)', async () => {
    for (const [sig, code] of [
      ['SIGTERM', 0],
      ['SIGINT', 130],
    ] as const) {
      const s = await startSandboxProcess();
      s.proc.kill(sig);
      const res = await s.proc;
      expect(res.exitCode, sig).toBe(code);
      const after = await execa('node', [BIN, '--base-url', s.ready.baseUrl, 'markets', 'list'], { reject: false, env });
      expect(after.exitCode).toBe(7);
    }
  });
});

describe('detached sandbox', () => {
  // Profiles made by init --sandbox (any account) follow the sandbox of their PM_HOME when it
  // starts again on another port, as the "sandbox" profile does. Before: only that profile did;
  // one made with --account partner kept the old port and every command of it exited 7.
  it('a restart on another port carries every profile that pointed at it', async () => {
    const { home: h, cleanup: c } = tempHome();
    const e = { PM_HOME: h, NO_COLOR: '1', PM_PASSPHRASE: 'p4ssphrase', PM_SCRYPT_N: '1024', CI: '1' };
    try {
      const first = JSON.parse(
        (await execa('node', [BIN, '--json', 'sandbox', 'start', '--detach', '--port', '0'], { env: e })).stdout,
      ) as Ready;
      const init = await execa('node', [BIN, 'init', '--sandbox', '--account', 'partner', '--profile-name', 'partner', '--yes'], {
        env: e,
        stdin: 'ignore',
        reject: false,
      });
      expect(init.exitCode, init.stderr).toBe(0);
      expect((await execa('node', [BIN, 'sandbox', 'stop'], { env: e })).exitCode).toBe(0);
      let second = first;
      // (Port 0 lets the system choose: start again until it chooses another port than the first.)
      while (second.baseUrl === first.baseUrl) {
        second = JSON.parse(
          (await execa('node', [BIN, '--json', 'sandbox', 'start', '--detach', '--port', '0'], { env: e })).stdout,
        ) as Ready;
        if (second.baseUrl === first.baseUrl) await execa('node', [BIN, 'sandbox', 'stop'], { env: e });
      }
      const who = await execa('node', [BIN, '--profile', 'partner', '--json', 'whoami'], { env: e, stdin: 'ignore', reject: false });
      expect(who.exitCode, who.stderr).toBe(0);
      const cfg = JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl?: string }> };
      expect(cfg.profiles['partner']?.baseUrl).toBe(second.baseUrl);
    } finally {
      await execa('node', [BIN, 'sandbox', 'stop'], { env: e, reject: false });
      c();
    }
  });

  it('starts in the background, reports status, and stops', async () => {
    const { home: h, cleanup: c } = tempHome();
    const e = { PM_HOME: h, NO_COLOR: '1' };
    try {
      const start = await execa('node', [BIN, '--json', 'sandbox', 'start', '--detach', '--port', '0'], { env: e });
      const ready = JSON.parse(start.stdout) as Ready;
      const st = await execa('node', [BIN, '--json', 'sandbox', 'status'], { env: e });
      expect(JSON.parse(st.stdout)).toMatchObject({ running: true, healthy: true, baseUrl: ready.baseUrl });
      const viaProfile = await execa('node', [BIN, '--profile', 'sandbox', '--json', 'markets', 'list'], { env: e });
      expect(JSON.parse(viaProfile.stdout).length).toBeGreaterThan(0);
      // init against the detached sandbox, trade, then: no file under PM_HOME (the sandbox's
      // own state included) holds a private key or token secret in plain text.
      const pe = { ...e, PM_PASSPHRASE: 'p4ssphrase', PM_SCRYPT_N: '1024', CI: '1' };
      expect((await execa('node', [BIN, 'init', '--sandbox', '--yes'], { env: pe, stdin: 'ignore' })).exitCode).toBe(0);
      expect(
        (
          await execa('node', [BIN, 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.5', '--size', '1'], {
            env: pe,
            stdin: 'ignore',
          })
        ).exitCode,
      ).toBe(0);
      const all = execaSync('grep', ['-rlF', '-e', ready.accounts[0]!.privateKey.slice(2), '-e', ready.accounts[0]!.token.secret, h], {
        reject: false,
      });
      expect(all.stdout).toBe('');
      const stop = await execa('node', [BIN, 'sandbox', 'stop'], { env: e });
      expect(stop.exitCode).toBe(0);
      const st2 = await execa('node', [BIN, '--json', 'sandbox', 'status'], { env: e, reject: false });
      expect(st2.exitCode).toBe(7);
      expect(JSON.parse(st2.stdout)).toEqual({ running: false });
    } finally {
      await execa('node', [BIN, 'sandbox', 'stop'], { env: e, reject: false });
      c();
    }
  });
});
