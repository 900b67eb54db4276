// The session agent (pm unlock / pm lock): same signatures and HMAC values as the keystore's own,
// never a key or secret on the wire, socket 0600, ends on lock and at its deadline, stale sockets
// cleaned, and a real order placed through it with no passphrase in the environment.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { execa } from 'execa';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { signHmac } from '../../src/core/hmac.js';
import { signOrder } from '../../src/core/trade/eip712.js';
import type { UnsignedOrder } from '../../src/core/trade/eip712.js';
import { AgentClient, agentSocketPath } from '../../src/keystore/agent.js';
import { startAgent } from '../../src/keystore/agent-server.js';
import { Keystore } from '../../src/keystore/store.js';
import { resolveCredentials } from '../../src/keystore/credentials.js';
import { authHeaders, authHeadersAsync, hmacSigner } from '../../src/core/auth.js';
import { LOADED_PRELOAD, parseLoaded } from '../helpers/loaded.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const TOKEN_ID = 'c2FuZGJveC1hbGljZQ';
const SECRET = 'vEIR4bMMILRV/6OM+acohsMzzxAbKZd2HPZu3OWgy8M=';
const PASS = 'agent-pass-1';
const homes: (() => void)[] = [];
afterAll(() => homes.forEach((c) => c()));

async function keystoreHome(): Promise<string> {
  const { home, cleanup } = tempHome();
  homes.push(cleanup);
  const ks = new Keystore(home, { scrypt: { n: 1024 } });
  await ks.importWalletKey('w', KEY, PASS);
  await ks.saveSecrets('s', { tokenId: TOKEN_ID, tokenSecret: SECRET }, PASS);
  return home;
}

const order = (i: number): UnsignedOrder => ({
  salt: BigInt(1000 + i),
  maker: privateKeyToAccount(KEY).address,
  signer: privateKeyToAccount(KEY).address,
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: 123456789n + BigInt(i),
  makerAmount: 3_000_000n,
  takerAmount: 10_000_000n,
  expiration: 0n,
  nonce: 0n,
  feeRateBps: 300n,
  side: (i % 2) as 0 | 1,
  signatureType: 0,
});
const EXCHANGE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3' as const;

describe('session agent', () => {
  it('signs orders, typed data and HMAC headers exactly as the keystore does, with no passphrase asked', async () => {
    const home = await keystoreHome();
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 60_000 });
    try {
      const creds = await resolveCredentials({
        env: {},
        profile: { wallet: 'w', secrets: 's' },
        home,
        passphrase: () => Promise.reject(new Error('asked for the passphrase')),
      });
      const acct = await creds.account();
      const local = privateKeyToAccount(KEY);
      expect(acct?.address).toBe(local.address);
      for (let i = 0; i < 5; i++) expect(await signOrder(acct!, EXCHANGE, order(i))).toBe(await signOrder(local, EXCHANGE, order(i)));
      expect(await acct!.signMessage({ message: 'hello' })).toBe(await local.signMessage({ message: 'hello' }));
      const auth = await creds.unlock('auto');
      const now = new Date('2026-03-23T12:34:56.789Z');
      const viaAgent = await authHeadersAsync(auth, 'auto', 'POST', '/orders', '{"a":1}', now);
      expect(viaAgent.headers).toEqual(
        authHeaders({ hmac: hmacSigner(TOKEN_ID, SECRET) }, 'auto', 'POST', '/orders', '{"a":1}', now).headers,
      );
      expect(viaAgent.headers['lmts-signature']).toBe(signHmac(SECRET, now.toISOString(), 'POST', '/orders', '{"a":1}'));
      expect(statSync(agentSocketPath(home)).mode & 0o777).toBe(0o600);
      expect(statSync(`${home}/run`).mode & 0o777).toBe(0o700);
    } finally {
      await agent.close();
    }
    expect(existsSync(agentSocketPath(home))).toBe(false);
  });

  it('never sends back a key or a secret (every byte of a scripted session is read)', async () => {
    const home = await keystoreHome();
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 60_000 });
    const sock = connect(agentSocketPath(home));
    let bytes = Buffer.alloc(0);
    sock.on('data', (b: Buffer) => (bytes = Buffer.concat([bytes, b])));
    const requests = [
      { op: 'status' },
      { op: 'address', wallet: 'w' },
      { op: 'signDigest', wallet: 'w', digest: `0x${'11'.repeat(32)}` },
      { op: 'hmac', secrets: 's', message: 'ts\nGET\n/x\n' },
      { op: 'privateKey', wallet: 'w' },
      { op: 'export' },
      { op: 'secret', secrets: 's' },
      { op: 'signDigest', wallet: 'w', digest: 'nope' },
      { op: 'hmac', secrets: 'nope', message: 'x' },
      'garbage',
      { op: 'lock' },
    ];
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    for (const r of requests) sock.write(`${typeof r === 'string' ? r : JSON.stringify(r)}\n`);
    await agent.closed;
    await new Promise<void>((resolve) => (sock.destroyed ? resolve() : sock.once('close', () => resolve())));
    const text = bytes.toString('utf8');
    expect(text.trim().split('\n')).toHaveLength(requests.length);
    expect(text).toContain('"signature":"0x');
    const lower = text.toLowerCase();
    expect(lower).not.toContain(KEY.slice(2));
    expect(lower).not.toContain(KEY);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET.replace(/=+$/, ''));
    expect(lower).not.toContain(Buffer.from(SECRET, 'base64').toString('hex'));
    expect(bytes.includes(Buffer.from(KEY.slice(2), 'hex'))).toBe(false);
    expect(bytes.includes(Buffer.from(SECRET, 'base64'))).toBe(false);
  });

  it("opens the profile's files first and the others after it is ready: every wallet is listed and serves (a request waits for it)", async () => {
    const home = await keystoreHome();
    const ks = new Keystore(home, { scrypt: { n: 1024 } });
    const spare = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
    await ks.importWalletKey('spare-1', spare, PASS);
    await ks.importWalletKey('spare-2', KEY, PASS);
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 60_000, first: { wallet: 'w', secrets: 's' } });
    try {
      expect(agent.status.wallets.map((w) => w.name)).toEqual(['spare-1', 'spare-2', 'w']);
      expect(agent.status.secrets.map((x) => x.name)).toEqual(['s']);
      const client = await AgentClient.connect(home);
      if (!client) throw new Error('no agent');
      const digest = `0x${'ab'.repeat(32)}` as const;
      expect(await client.signDigest('spare-1', digest)).toBe(await privateKeyToAccount(spare).sign({ hash: digest }));
      expect(await client.signDigest('w', digest)).toBe(await privateKeyToAccount(KEY).sign({ hash: digest }));
      client.close();
    } finally {
      await agent.close();
    }
    // A wrong passphrase is refused on the files opened first: no agent.
    await expect(startAgent({ home, passphrase: 'wrong-pass', ttlMs: 60_000, first: { wallet: 'w' } })).rejects.toMatchObject({
      exitCode: 3,
    });
  });

  it('exits by itself at its deadline, and a second agent on the same home is refused', async () => {
    const home = await keystoreHome();
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 1000 });
    await expect(startAgent({ home, passphrase: PASS, ttlMs: 1000 })).rejects.toThrow(/already runs/);
    // It closes by itself (1 s); the bound only tells that from never, with room for a slow machine.
    const t0 = Date.now();
    await agent.closed;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(existsSync(agentSocketPath(home))).toBe(false);
    expect(await AgentClient.connect(home)).toBeNull();
  });

  it('refuses a wrong passphrase and removes a stale socket (agent killed -9)', async () => {
    const home = await keystoreHome();
    await expect(startAgent({ home, passphrase: 'wrong', ttlMs: 1000 })).rejects.toThrow();
    const path = agentSocketPath(home);
    mkdirSync(`${home}/run`, { recursive: true, mode: 0o700 });
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expect(existsSync(path)).toBe(true);
    expect(await AgentClient.connect(home)).toBeNull();
    expect(existsSync(path)).toBe(false);
    // and a new agent starts on the same path
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 60_000 });
    await agent.close();
  });
});

describe('pm unlock / pm lock (bin/pm.js)', () => {
  const sb = useSandbox();
  /** A new home set up for the sandbox (pm init), and pm run there as a process of its own (bin/pm.js). */
  async function initialised() {
    const { home, cleanup } = tempHome();
    homes.push(cleanup);
    const base = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PM_HOME: home, PM_SCRYPT_N: '1024' };
    const run = (args: string[], extra: Record<string, string> = {}) =>
      execa(process.execPath, ['bin/pm.js', ...args], { env: { ...base, ...extra }, extendEnv: false, stdin: 'ignore', reject: false });
    expect((await run(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { PM_PASSPHRASE: PASS })).exitCode).toBe(0);
    return { home, base, run };
  }

  it('places an order through the agent with no passphrase in the environment; pm lock ends it', async () => {
    const { home, base, run } = await initialised();
    expect((await run(['--json', 'unlock', '--status'])).stdout).toContain('"running":false');
    expect((await run(['unlock', '--for', '0s'], { PM_PASSPHRASE: PASS })).exitCode).toBe(2);
    expect((await run(['unlock'], { PM_PASSPHRASE: 'wrong-pass' })).exitCode).toBe(3);
    const u = await run(['--json', 'unlock', '--for', '1m'], { PM_PASSPHRASE: PASS });
    expect(u.exitCode, u.stderr).toBe(0);
    const ready = JSON.parse(u.stdout) as { pid: number; until: string };
    const st = JSON.parse((await run(['--json', 'lock', '--status'])).stdout) as { running: boolean; pid: number; until: string };
    expect(st).toMatchObject({ running: true, pid: ready.pid, until: ready.until });
    // (With a report of what the process loaded: through the agent, a one-order command loads
    // no viem, @noble/curves, KDF or cipher code; issue 15, "keystore path within 1.2x".)
    const place = await execa(
      process.execPath,
      ['-r', LOADED_PRELOAD, 'bin/pm.js', '--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.30', '--size', '5'],
      { env: base, extendEnv: false, stdin: 'ignore', reject: false },
    );
    const loaded = parseLoaded(place.stderr);
    expect(place.exitCode, loaded.stderr).toBe(0);
    expect(JSON.parse(place.stdout)).toMatchObject({ market: 'btc-100k-2026', side: 'BUY' });
    const { modules } = loaded;
    expect(modules).toContain('src/keystore/agent.ts');
    expect(modules.filter((m) => /node_modules\/viem\/|@noble\/curves|scrypt|pbkdf2|@noble\/ciphers|bip39|wordlist/.test(m))).toEqual([]);
    // doctor, with no passphrase but the agent: the keystore is open (it failed "needs a passphrase", exit 8).
    const doc = await run(['--json', 'doctor']);
    const ksCheck = (JSON.parse(doc.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks.find(
      (c) => c.name === 'keystore',
    );
    expect(ksCheck, doc.stdout).toMatchObject({ status: 'pass', detail: expect.stringMatching(/pm unlock/) });
    const lock = await run(['--json', 'lock']);
    expect(JSON.parse(lock.stdout)).toMatchObject({ locked: true, stopped: true, pid: ready.pid });
    expect(() => process.kill(ready.pid, 0)).toThrow();
    expect(existsSync(agentSocketPath(home))).toBe(false);
    const after = await run(['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.30', '--size', '5']);
    expect(after.exitCode).toBe(3); // back to needing the passphrase
  });

  it('a token derived after pm unlock: the agent does not hold it, and the error says to run pm unlock again', async () => {
    const { run } = await initialised();
    const u = await run(['--json', 'unlock', '--for', '1m'], { PM_PASSPHRASE: PASS });
    expect(u.exitCode, u.stderr).toBe(0);
    const { pid } = JSON.parse(u.stdout) as { pid: number };
    try {
      expect((await run(['whoami'])).exitCode).toBe(0); // served by the agent
      const d = await run(['token', 'derive', '--label', 'later'], { PM_PASSPHRASE: PASS, PM_IDENTITY_TOKEN: 'idt_sandbox_alice' });
      expect(d.exitCode, d.stderr).toBe(0);
      expect(d.stderr).toMatch(/pm unlock/);
      const who = await run(['--json', 'whoami']);
      expect(who.exitCode).toBe(3);
      const e = (JSON.parse(who.stderr) as { error: { hint: string } }).error;
      expect(e.hint).toMatch(/session agent.*pm unlock again/);
    } finally {
      await run(['lock']);
      expect(() => process.kill(pid, 0)).toThrow();
    }
  });

  const pm = (home: string, args: string[], extra: Record<string, string> = {}) =>
    execa(process.execPath, ['bin/pm.js', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PM_HOME: home, ...extra },
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
    });
  const running = async (home: string) =>
    JSON.parse((await pm(home, ['--json', 'lock', '--status'])).stdout) as { running: boolean; pid?: number };

  it("pm unlock on a terminal: one stderr line counts the profile's files the agent opens before it is ready; nothing when piped or with --json", async () => {
    const home = await keystoreHome();
    writeFileSync(
      `${home}/config.json`,
      JSON.stringify({ version: 1, profiles: { p: { wallet: 'w', secrets: 's' } }, activeProfile: 'p' }),
      { mode: 0o600 },
    );
    const env = { PM_HOME: home, PM_PASSPHRASE: PASS };
    const plain = (t: string): string => t.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');
    try {
      const tty = await runPm(['unlock', '--for', '1m'], { env, tty: true, columns: 120 });
      expect(tty.code, tty.stderr).toBe(0);
      expect(plain(tty.stderr)).toMatch(/opening the keystore .* 2\/2 \| (wallet w|secrets s)/);
      expect(plain(tty.stderr)).toMatch(/unlocked until/);
      const piped = await runPm(['unlock', '--for', '1m'], { env });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).not.toMatch(/opening/);
      const json = await runPm(['--json', 'unlock', '--for', '1m'], { env, tty: true });
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).toBe('');
      expect(JSON.parse(json.stdout)).toMatchObject({ ready: true, wallets: [{ name: 'w' }], secrets: [{ name: 's' }] });
    } finally {
      await runPm(['lock'], { env });
    }
  });

  it('replaces a stale non-socket file at run/agent.sock (nothing listens there); a directory there is exit 2 naming it', async () => {
    const home = await keystoreHome();
    const path = agentSocketPath(home);
    mkdirSync(`${home}/run`, { recursive: true, mode: 0o700 });
    writeFileSync(path, 'left over\n');
    // (pm shell's history: the passphrase verified by pm unlock is taken out of it, nothing else.)
    writeFileSync(`${home}/shell_history`, `markets list\n${PASS}\nwhoami\n`, { mode: 0o600 });
    const u = await pm(home, ['--json', 'unlock', '--for', '1m'], { PM_PASSPHRASE: PASS });
    expect(u.exitCode, u.stderr).toBe(0);
    expect(readFileSync(`${home}/shell_history`, 'utf8')).toBe('markets list\nwhoami\n');
    expect(lstatSync(path).isSocket()).toBe(true);
    expect(await running(home)).toMatchObject({ running: true, pid: (JSON.parse(u.stdout) as { pid: number }).pid });
    expect((await pm(home, ['lock'])).exitCode).toBe(0);
    mkdirSync(path);
    const dir = await pm(home, ['--json', 'unlock', '--for', '1m'], { PM_PASSPHRASE: PASS });
    expect(dir.exitCode, dir.stderr).toBe(2);
    expect(JSON.parse(dir.stderr).error.message).toContain(path);
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('concurrent pm unlock: each exits 0 or 5 (the reason on stderr), and exactly one agent is left, never an orphan', async () => {
    const home = await keystoreHome();
    const runs = await Promise.all(Array.from({ length: 4 }, () => pm(home, ['--json', 'unlock', '--for', '1m'], { PM_PASSPHRASE: PASS })));
    const codes = runs.map((r) => r.exitCode);
    expect(
      codes.every((c) => c === 0 || c === 5),
      runs.map((r) => `${r.exitCode}: ${r.stderr}`).join('\n'),
    ).toBe(true);
    const losers = runs.filter((r) => r.exitCode === 5);
    expect(losers.length).toBeGreaterThan(0);
    for (const l of losers) expect(JSON.parse(l.stderr).error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/agent/) });
    const pids = runs.filter((r) => r.exitCode === 0).map((r) => (JSON.parse(r.stdout) as { pid: number }).pid);
    const st = await running(home);
    expect(st.running).toBe(true);
    expect(pids).toContain(st.pid);
    // Every other agent a winner reported was replaced and has ended (pm unlock waits for that).
    for (const pid of pids.filter((p) => p !== st.pid)) expect(() => process.kill(pid, 0)).toThrow();
    expect((await pm(home, ['--json', 'lock'])).exitCode).toBe(0);
    expect(() => process.kill(st.pid ?? 0, 0)).toThrow();
  });
});
