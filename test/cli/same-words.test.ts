// The same words everywhere (issue 33, item 9): one spelling for reading a secret from stdin,
// two formats at once refused, categories by name (and a command that lists them), --market for
// order place as for order list; and pm sandbox status naming its chain's RPC URL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunInfo } from '../../src/core/sandboxctl.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = (): Record<string, string> => ({
  PM_HOME: home,
  PM_PASSPHRASE: 'same-words-pass',
  PM_SCRYPT_N: '1024',
  PM_BASE_URL: sb.current.baseUrl,
});
const pm = (argv: string[], stdin?: string) => runPm(argv, { env: env(), ...(stdin !== undefined ? { stdin } : {}) });
const alice = () => {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  if (!a) throw new Error('no alice');
  return a;
};

beforeAll(async () => {
  writeFileSync(join(home, 'key.txt'), alice().privateKey);
  expect((await pm(['wallet', 'import', 'alice', '--file', join(home, 'key.txt')])).code).toBe(0);
});

describe('token add --stdin, as wallet import --stdin', () => {
  it('reads the secret from stdin; the older --secret-stdin still works and is shown nowhere', async () => {
    const a = alice();
    const r = await pm(['--json', 'token', 'add', '--token-id', a.token.tokenId, '--stdin'], `${a.token.secret}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ tokenId: a.token.tokenId });
    expect((await pm(['--json', 'whoami'])).json()).toMatchObject({ tokenId: a.token.tokenId, profileId: a.profileId });
    const old = await pm(['token', 'add', '--token-id', a.token.tokenId, '--secret-stdin'], `${a.token.secret}\n`);
    expect(old.code, old.stderr).toBe(0);
    const help = await pm(['token', 'add', '--help']);
    expect(help.stdout).toMatch(/--stdin {2,}read the secret from stdin/);
    expect(help.stdout).not.toContain('--secret-stdin');
    const completion = await pm(['__complete', '3', 'token', 'add', '--']);
    expect(completion.stdout).toContain('--stdin');
    expect(completion.stdout).not.toContain('--secret-stdin');
  });
});

describe('--json with -o table', () => {
  it('is refused as two formats (exit 2, the JSON error), nothing printed on stdout', async () => {
    const r = await pm(['--json', '-o', 'table', 'markets', 'list', '--limit', '1']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'USAGE', message: expect.stringMatching(/two different formats/) } });
    // Each alone, and --json with -o ndjson (both JSON), still work.
    for (const argv of [['--json'], ['-o', 'table'], ['--json', '-o', 'ndjson']])
      expect((await pm([...argv, 'markets', 'list', '--limit', '1'])).code, argv.join(' ')).toBe(0);
  });
});

describe('categories', () => {
  it('pm markets categories lists them; markets list --category takes the name (any case) as the id', async () => {
    const cats = (await pm(['--json', 'markets', 'categories'])).json<{ id: number; name: string }[]>();
    const crypto = cats.find((c) => c.name === 'Crypto');
    expect(crypto?.id).toEqual(expect.any(Number));
    const byId = (await pm(['--json', 'markets', 'list', '--all', '--category', String(crypto?.id)])).json<{ slug: string }[]>();
    const byName = await pm(['--json', 'markets', 'list', '--all', '--category', 'crypto']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.json<{ slug: string }[]>().map((m) => m.slug)).toEqual(byId.map((m) => m.slug));
    expect(byId.length).toBeGreaterThan(0);
    const table = await pm(['markets', 'categories']);
    expect(table.stdout.split('\n')[0]?.split('\t')).toEqual(['ID', 'NAME']);
    expect(table.stdout).toContain(`${crypto?.id}\tCrypto`);
    const bad = await pm(['markets', 'list', '--category', 'cripto']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no category "cripto"/);
    expect(bad.stderr).toMatch(/Crypto \(\d+\).*pm markets categories/);
  });
});

describe('order place --market', () => {
  it('is the <slug> argument, as order list --market is; two different markets are refused before anything is sent', async () => {
    const a = alice();
    const e = { ...env(), PM_TOKEN_ID: a.token.tokenId, PM_TOKEN_SECRET: a.token.secret };
    const r = await runPm(
      ['--json', 'order', 'place', '--market', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '5', '--client-id', 'words-m1'],
      { env: e },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ market: 'btc-100k-2026', side: 'BUY', outcome: 'YES', price: '0.1', size: '5', sizeRaw: '5000000' });
    const placed = sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'words-m1');
    expect(placed).toHaveLength(1);
    const listed = (await runPm(['--json', 'order', 'list', '--market', 'btc-100k-2026'], { env: e })).json<{ clientOrderId: string }[]>();
    expect(listed.map((o) => o.clientOrderId)).toContain('words-m1');
    const before = sb.current.ctx.state.orders.length;
    const two = await runPm(
      ['order', 'place', 'eth-flip-btc', 'buy', 'yes', '--market', 'btc-100k-2026', '--price', '0.1', '--size', '5'],
      { env: e },
    );
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/two markets/);
    expect(sb.current.ctx.state.orders.length).toBe(before);
  });
});

describe('pm sandbox status', () => {
  it('shows the RPC URL of a sandbox started with --chain', async () => {
    const { home: h, cleanup: c } = tempHome();
    try {
      const rpcUrl = 'http://127.0.0.1:8545';
      writeRunInfo(h, {
        pid: process.pid,
        baseUrl: sb.current.baseUrl,
        wsUrl: sb.current.wsUrl,
        startedAt: new Date().toISOString(),
        ephemeral: true,
        rpcUrl,
      });
      const r = await runPm(['sandbox', 'status'], { env: { PM_HOME: h } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^rpc url +http:\/\/127\.0\.0\.1:8545$/m);
      expect((await runPm(['--json', 'sandbox', 'status'], { env: { PM_HOME: h } })).json()).toMatchObject({ rpcUrl });
    } finally {
      c();
    }
  });
});

describe('pm token use', () => {
  it('switches the profile back to the token pm token derive replaced, and forth again; an id with no stored secret is 4', async () => {
    const { home: h, cleanup: c } = tempHome();
    try {
      const a = alice();
      const e = { PM_HOME: h, PM_PASSPHRASE: 'token-use-pass', PM_SCRYPT_N: '1024', PM_BASE_URL: sb.current.baseUrl };
      const run = (argv: string[], extra: Record<string, string> = {}) =>
        runPm(argv, { env: { ...e, ...extra }, stdin: `${a.token.secret}\n` });
      expect((await run(['token', 'add', '--token-id', a.token.tokenId, '--stdin'])).code).toBe(0);
      const derived = await run(['--json', 'token', 'derive', '--label', 'bot'], { PM_IDENTITY_TOKEN: a.identityToken });
      expect(derived.code, derived.stderr).toBe(0);
      const newId = derived.json<{ tokenId: string }>().tokenId;
      const whoami = async () => (await run(['--json', 'whoami'])).json<{ tokenId: string }>().tokenId;
      expect(await whoami()).toBe(newId);
      // Back to the seeded token: it signs again (whoami asks the exchange with it).
      const back = await run(['--json', 'token', 'use', a.token.tokenId]);
      expect(back.code, back.stderr).toBe(0);
      expect(back.json()).toMatchObject({ tokenId: a.token.tokenId, previousTokenId: newId });
      expect(await whoami()).toBe(a.token.tokenId);
      expect((await run(['token', 'use', newId])).code).toBe(0);
      expect(await whoami()).toBe(newId);
      const none = await run(['token', 'use', 'tok_nowhere']);
      expect(none.code).toBe(4);
      expect(none.stderr).toMatch(/no stored secret for token tok_nowhere/);
    } finally {
      c();
    }
  });
});
