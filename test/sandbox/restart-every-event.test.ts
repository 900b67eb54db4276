// Every event the sandbox writes it reads back. A real sandbox process is driven (HTTP, admin
// routes and pm) through one of every event type the loader knows (EVENT_TYPES: a new type
// without a producer here does not compile), killed with SIGKILL, started again on the same
// data dir, and its state compared with what it was. The same data dir holds no key or secret
// the sandbox handed out.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { getAddress, stringToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EVENT_TYPES } from '../../src/sandbox/shape.js';
import type { ReadyInfo } from '../../src/sandbox/index.js';
import type { StateEvent } from '../../src/sandbox/events.js';
import { runPm, tempHome } from '../helpers/run.js';
import { type SignedAnswer, signedFetch } from '../helpers/signed.js';

const CHILD = new URL('./sandbox-child.mjs', import.meta.url).pathname;
const children: ChildProcess[] = [];
const dirs: string[] = [];
const pmHome = tempHome();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  pmHome.cleanup();
});

interface Child {
  proc: ChildProcess;
  info: ReadyInfo;
  /** The whole state as the process has it (JSON with tagged bigints). */
  dump(): Promise<Record<string, unknown>>;
  /** Writes a snapshot (state.json) now. */
  snapshot(): Promise<void>;
}

async function startChild(dir: string, recording: string): Promise<Child> {
  const proc = spawn(process.execPath, [CHILD, dir, recording], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(proc);
  let stderr = '';
  proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  const next = (): Promise<string> =>
    new Promise((resolve, reject) => {
      waiting.push(resolve);
      proc.once('exit', (code) => reject(new Error(`sandbox child exited ${String(code)}: ${stderr}`)));
    });
  const info = JSON.parse(await next()) as ReadyInfo;
  const ask = async (what: string): Promise<unknown> => {
    const line = next();
    proc.stdin?.write(`${what}\n`);
    return JSON.parse(await line);
  };
  return {
    proc,
    info,
    dump: async () => (await ask('dump')) as Record<string, unknown>,
    snapshot: async () => void (await ask('snapshot')),
  };
}

async function kill9(c: Child): Promise<void> {
  const gone = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGKILL');
  await gone;
}

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('after one of every event type and a kill -9, the restarted sandbox has the same state; no key or secret is on disk', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pm-every-event-'));
  dirs.push(root);
  const dir = join(root, 'sandbox');
  // A recording the sandbox replays (replay.progress, and its market, profiles and orders).
  const recording = join(root, 'rec.ndjson');
  const t0 = '2026-11-28T09:00:00.000Z';
  writeFileSync(
    recording,
    [
      {
        format: 'pm-recording',
        version: 1,
        pm: '0.1.0',
        source: 'http://x',
        startedAt: t0,
        markets: [{ slug: 'replayed', title: 'Replayed' }],
      },
      {
        t: t0,
        type: 'book',
        market: 'replayed',
        data: { orderbook: { bids: [{ price: 0.4, size: 5000000 }], asks: [{ price: 0.6, size: 7000000 }] } },
      },
    ]
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(''),
  );
  let c = await startChild(dir, recording);
  const base = (): string => c.info.baseUrl;
  const account = (name: string) => {
    const a = c.info.accounts.find((x) => x.name === name);
    if (!a) throw new Error(name);
    return a;
  };
  const call = async (
    method: string,
    path: string,
    o: { body?: unknown; hmac?: string; identity?: string; headers?: Record<string, string> } = {},
  ): Promise<SignedAnswer> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.identity) headers['identity'] = `Bearer ${account(o.identity).identityToken}`;
    if (o.hmac) return signedFetch(base(), account(o.hmac).token, method, path, o.body, headers);
    const raw = o.body === undefined ? '' : JSON.stringify(o.body);
    if (raw) headers['content-type'] = 'application/json';
    const r = await fetch(`${base()}${path}`, { method, headers, ...(raw ? { body: raw } : {}) });
    const text = await r.text();
    return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const ok = async (p: Promise<SignedAnswer>, status = [200, 201]) => {
    const r = await p;
    expect(status, JSON.stringify(r.json)).toContain(r.status);
    return r.json;
  };
  const alice = (...argv: string[]) =>
    runPm(argv, {
      env: {
        PM_HOME: pmHome.home,
        PM_BASE_URL: base(),
        PM_TOKEN_ID: account('alice').token.tokenId,
        PM_TOKEN_SECRET: account('alice').token.secret,
        PM_PRIVATE_KEY: account('alice').privateKey,
        PM_PACE: 'off',
      },
    });
  const noRateLimit = () => ok(call('POST', '/__sandbox/faults', { body: { rateLimit: false } }));
  await noRateLimit();

  let serverChild = 0;
  const handedOut: string[] = [];
  const eoaKey = generatePrivateKey();
  const allowlisted = getAddress(privateKeyToAccount(generatePrivateKey()).address);
  const produce: { [K in StateEvent['type']]: () => Promise<unknown> } = {
    seed: async () => undefined, // the first start wrote it
    reset: async () => {
      await ok(call('POST', '/__sandbox/reset', { body: {} }));
      await noRateLimit(); // a reset clears the faults
    },
    'order.placed': async () => {
      const r = await alice('--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '20');
      expect(r.code, r.stderr).toBe(0);
    },
    'order.cancelled': async () => {
      const r = await alice('--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.10', '--size', '5');
      expect(r.code, r.stderr).toBe(0);
      const x = await alice('--json', 'order', 'cancel', r.json<{ orderId: string }>().orderId);
      expect(x.code, x.stderr).toBe(0);
    },
    'market.created': () => ok(call('POST', '/__sandbox/markets', { body: { slug: 'restart-test', title: 'Restart test' } })),
    'markets.synthetic': () => ok(call('POST', '/__sandbox/markets/synthetic', { body: { count: 2 } })),
    'profile.created': async () => {
      const sw = await ok(
        call('POST', '/profiles/partner-accounts', { hmac: 'partner', body: { displayName: 'sw', createServerWallet: true } }),
      );
      serverChild = Number(sw['profileId']);
      const message = await (await fetch(`${base()}/auth/signing-message`)).text();
      const a = privateKeyToAccount(eoaKey);
      const headers = {
        'x-account': a.address,
        'x-signing-message': stringToHex(message),
        'x-signature': await a.signMessage({ message }),
      };
      await ok(call('POST', '/profiles/partner-accounts', { hmac: 'partner', body: { displayName: 'eoa' }, headers }));
    },
    'token.derived': async () => {
      const t = await ok(call('POST', '/auth/api-tokens/derive', { identity: 'alice', body: { label: 'kept' } }));
      handedOut.push(String(t['secret']));
    },
    'token.revoked': async () => {
      const t = await ok(call('POST', '/auth/api-tokens/derive', { identity: 'alice', body: { label: 'revoked' } }));
      handedOut.push(String(t['secret']));
      await ok(call('DELETE', `/auth/api-tokens/${String(t['tokenId'])}`, { identity: 'alice' }));
    },
    allowances: () =>
      eventually(
        () => call('GET', `/profiles/partner-accounts/${serverChild}/allowances`, { hmac: 'partner' }),
        (r) => r.json['ready'] === true,
        'the server wallet provisioned',
      ),
    settlement: () =>
      eventually(
        () => c.dump(),
        (s) =>
          (s['orders'] as { tradeEventId: string | null; settlementStatus: string }[]).every(
            (o) => o.tradeEventId === null || o.settlementStatus === 'CONFIRMED',
          ),
        'every trade confirmed',
      ),
    'funds.deposited': () => ok(call('POST', '/__sandbox/fund', { body: { profileId: serverChild, amount: '25000000' } })),
    'funds.withdrawn': () => ok(call('POST', '/portfolio/withdraw', { hmac: 'carol', body: { amount: '1000000' } })),
    'market.resolved': () => ok(call('POST', '/__sandbox/resolve', { body: { slug: 'restart-test', winningOutcome: 'YES' } })),
    'position.redeemed': async () => {
      const r = await alice('--json', 'redeem', 'eth-5k-2025');
      expect(r.code, r.stderr).toBe(0);
    },
    'replay.progress': () =>
      eventually(
        () => c.dump(),
        (s) => (s['replay'] as { done?: boolean } | undefined)?.done === true,
        'the replay done',
      ),
    'allowlist.added': () =>
      ok(call('POST', '/portfolio/withdrawal-addresses', { identity: 'alice', body: { address: allowlisted, label: 'cold' } })),
    'allowlist.removed': () => ok(call('DELETE', `/portfolio/withdrawal-addresses/${allowlisted}`, { identity: 'alice' })),
  };
  for (const type of EVENT_TYPES) await produce[type]();

  // Nothing left to happen on a timer (settlement, allowance confirmations) before the kill.
  const before = await eventually(
    () => c.dump(),
    (s) =>
      (s['orders'] as { tradeEventId: string | null; settlementStatus: string }[]).every(
        (o) => o.tradeEventId === null || o.settlementStatus === 'CONFIRMED',
      ) &&
      Object.values((s['allowances'] ?? {}) as Record<string, { status: string }[]>).every((ts) =>
        ts.every((t) => t.status !== 'submitted'),
      ),
    'a quiet state',
  );
  const logged = new Set(
    readdirSync(dir)
      .filter((f) => /^events(\.\d+)?\.ndjson$/.test(f))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
      .map((l) => (JSON.parse(l) as { type: string }).type),
  );
  for (const type of EVENT_TYPES) expect(logged, `the log holds a ${type} event`).toContain(type);

  await kill9(c);
  c = await startChild(dir, recording);
  const after = await c.dump();
  // A token's lastUsedAt is kept in memory and written with snapshots only, by design.
  const settled = (s: Record<string, unknown>): Record<string, unknown> => ({
    ...s,
    tokens: (s['tokens'] as Record<string, unknown>[]).map((t) => ({ ...t, lastUsedAt: null })),
  });
  for (const part of ['orders', 'accounts', 'ledger', 'tokens', 'profiles', 'markets', 'allowances', 'withdrawalAddresses'])
    expect(settled(after)[part], part).toEqual(settled(before)[part]);
  expect(settled(after)).toEqual(settled(before));
  expect((after['markets'] as { slug: string }[]).some((m) => m.slug.startsWith('synthetic-'))).toBe(true);

  // No key or secret the sandbox handed out is on disk outside server.key.
  const profiles = before['profiles'] as { privateKey?: string; walletSalt?: string }[];
  expect(profiles.filter((p) => p.walletSalt !== undefined && p.privateKey)).toHaveLength(1); // the server wallet's key, derived
  const secrets = [
    ...profiles.flatMap((p) => (p.privateKey ? [p.privateKey.slice(2)] : [])),
    ...(before['tokens'] as { secret: string }[]).map((t) => t.secret),
    ...(before['apiKeys'] as { key: string }[]).map((k) => k.key),
    ...(before['identityTokens'] as { token: string }[]).map((k) => k.token),
    ...handedOut,
    String(before['serverKey']),
  ];
  expect(secrets.length).toBeGreaterThan(20);
  await c.snapshot(); // the snapshot too, not only the log
  await kill9(c);
  const files = readdirSync(dir).filter((f) => f !== 'server.key' && f !== 'lock.sock');
  expect(files).toEqual(expect.arrayContaining(['events.ndjson', 'state.json']));
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const s of secrets) expect(text.includes(s), `${f} holds a secret`).toBe(false);
    expect(text).not.toMatch(/privateKey/);
  }
  expect(readFileSync(join(dir, 'server.key'), 'utf8').trim()).toBe(before['serverKey']);
}, 120_000);
