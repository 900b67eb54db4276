// pm doctor against a healthy sandbox and against each failure it detects.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { startSandbox } from '../../src/sandbox/index.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const PASS = 'doctor-pass-1';
const env = (extra: Record<string, string> = {}) => ({ PM_HOME: home, PM_SCRYPT_N: '1024', PM_PASSPHRASE: PASS, ...extra });
interface Report {
  ok: boolean;
  checks: { name: string; status: string; detail: string; fix?: string; data?: Record<string, unknown> }[];
}
const doctor = async (extra: Record<string, string> = {}, argv: string[] = []) => {
  const r = await runPm(['--json', ...argv, 'doctor'], { env: env(extra) });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
};
const check = (r: Report, name: string) => r.checks.find((c) => c.name === name);
const faults = (b: object) =>
  fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(b),
  });

beforeAll(async () => {
  chmodSync(home, 0o700);
  const r = await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
});

describe('pm doctor', () => {
  it('passes on a healthy sandbox, with latency, skew, scopes, fee rate and the websocket', async () => {
    const { code, report } = await doctor();
    expect(
      report.checks.filter((c) => c.status === 'fail'),
      JSON.stringify(report),
    ).toEqual([]);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(check(report, 'exchange')?.data?.['latencyMs']).toEqual(expect.any(Number));
    expect(Math.abs(check(report, 'clock')?.data?.['skewMs'] as number)).toBeLessThan(2000);
    expect(check(report, 'token')?.detail).toMatch(/profile 1001, scopes trading/);
    expect(check(report, 'fee')?.data?.['feeRateBps']).toBe(300);
    expect(check(report, 'websocket')?.status).toBe('pass');
    expect(check(report, 'rpc')?.status).toBe('skip');
  });

  it('on a terminal one stderr line counts the encrypted files as they open; nothing of it when piped or with --json', async () => {
    const plain = (t: string): string => t.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');
    const tty = await runPm(['doctor'], { env: env(), tty: true, columns: 120 });
    expect(plain(tty.stderr)).toMatch(/opening the keystore .* 2\/2 \| (wallet|secrets) /);
    const piped = await runPm(['doctor'], { env: env() });
    expect(piped.stdout).toMatch(/keystore/);
    expect(piped.stderr).not.toMatch(/opening the keystore/);
    const json = await runPm(['--json', 'doctor'], { env: env(), tty: true });
    expect(json.stderr).toBe('');
  });

  it("notes the running Node: its end of life, and NODE_EXTRA_CA_CERTS's cost on Node 20 (notes: exit 0)", async () => {
    const on20 = process.versions.node.startsWith('20.');
    const withCa = await doctor({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' });
    expect(withCa.code).toBe(0);
    const node = check(withCa.report, 'node');
    expect(node?.data?.['extraCaCostMs']).toBe(on20 ? 90 : undefined);
    if (on20) expect(node).toMatchObject({ status: 'warn', detail: expect.stringContaining('NODE_EXTRA_CA_CERTS is set') });
    // Node 20's end of life (2026-04-30) is noted from then on; the suite runs after it.
    expect(node?.data?.['endOfLife']).toBe(on20 && Date.now() >= Date.parse('2026-04-30') ? '2026-04-30' : undefined);
    const without = check((await doctor()).report, 'node');
    expect(without?.data?.['extraCaCostMs']).toBeUndefined();
  });

  it('fails on a clock skewed by a sandbox fault, naming the fix', async () => {
    await faults({ clockSkewMs: 45_000 });
    try {
      const { code, report, stderr } = await doctor();
      // Some checks failed: 8 (partial failure), not 1 (unexpected).
      expect(code).toBe(8);
      expect(JSON.parse(stderr)).toMatchObject({
        error: { code: 'PARTIAL', message: expect.stringMatching(/check\(s\) failed: .*clock/) },
      });
      const clock = check(report, 'clock');
      expect(clock?.status).toBe('fail');
      expect(clock?.detail).toMatch(/4[4-6] s behind/);
      expect(clock?.fix).toMatch(/clock/);
      expect(check(report, 'token')?.status).toBe('fail'); // the exchange refuses the signature too
    } finally {
      await faults({ clockSkewMs: 0 });
    }
  });

  it('fails on a bad token secret and on a wrong passphrase', async () => {
    const bad = await doctor({
      PM_TOKEN_ID: sb.current.info.accounts[0]!.token.tokenId,
      PM_TOKEN_SECRET: Buffer.from('y'.repeat(32)).toString('base64'),
    });
    expect(bad.code).toBe(8);
    expect(check(bad.report, 'token')?.status).toBe('fail');
    expect(check(bad.report, 'fee')?.status).toBe('skip');
    const wrong = await doctor({ PM_PASSPHRASE: 'not-the-pass' });
    expect(wrong.code).toBe(8);
    expect(check(wrong.report, 'keystore')).toMatchObject({ status: 'fail' });
  });

  it("a wallet that is not the token's account: doctor fails it, and order place says so before sending (exit 2)", async () => {
    const [alice, bob] = [sb.current.info.accounts[0]!, sb.current.info.accounts[1]!];
    const mixed = { PM_TOKEN_ID: alice.token.tokenId, PM_TOKEN_SECRET: alice.token.secret, PM_PRIVATE_KEY: bob.privateKey };
    const d = await doctor(mixed);
    expect(d.code).toBe(8);
    expect(check(d.report, 'token')?.status).toBe('pass');
    const w = check(d.report, 'signer');
    expect(w).toMatchObject({ status: 'fail' });
    expect(w?.detail).toContain(bob.address);
    expect(w?.detail).toContain(alice.address);
    const before = sb.current.ctx.state.orders.length;
    const r = await runPm(['--json', '--yes', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '1'], {
      env: env({ PM_BASE_URL: sb.current.baseUrl, ...mixed }),
    });
    expect(r.code, r.stderr).toBe(2);
    const e = (JSON.parse(r.stderr) as { error: { message: string; hint: string } }).error;
    expect(e.message).toMatch(/nothing was sent/);
    expect(e.hint).toMatch(/pm whoami/);
    expect(sb.current.ctx.state.orders.length).toBe(before);
  });

  it('without a passphrase says the token was not checked (it said "not accepted" of a token it never sent)', async () => {
    const none = await doctor({ PM_PASSPHRASE: '' });
    expect(none.code).toBe(8);
    expect(check(none.report, 'keystore')).toMatchObject({ status: 'fail' });
    expect(check(none.report, 'token')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/^not checked: .*passphrase/) });
    expect(check(none.report, 'fee')).toMatchObject({ status: 'skip', detail: 'the token was not checked' });
    const wrong = await doctor({ PM_PASSPHRASE: 'not-the-pass' });
    expect(check(wrong.report, 'token')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/^not checked: /) });
    expect(check(wrong.report, 'fee')?.detail).not.toMatch(/not accepted/);
  });

  it('fails when the sandbox is stopped, and skips what needs it', async () => {
    const other = await startSandbox({ port: 0, dataDir: null });
    const url = other.baseUrl;
    await other.close();
    const { code, report } = await doctor({}, ['--base-url', url, '--ws-url', url.replace('http', 'ws')]);
    expect(code).toBe(8);
    expect(check(report, 'exchange')).toMatchObject({ status: 'fail' });
    expect(check(report, 'exchange')?.fix).toMatch(/sandbox start/);
    expect(check(report, 'websocket')?.status).toBe('skip');
  });

  it('a PM_HOME not created yet, credentials from the environment: the home check does not fail (pm creates it), nor says pm init', async () => {
    const fresh = join(home, 'not-yet');
    const alice = sb.current.info.accounts[0]!;
    const creds = {
      PM_HOME: fresh,
      PM_BASE_URL: sb.current.baseUrl,
      PM_PRIVATE_KEY: alice.privateKey,
      PM_TOKEN_ID: alice.token.tokenId,
      PM_TOKEN_SECRET: alice.token.secret,
    };
    const r = await runPm(['--json', 'doctor'], { env: creds });
    const report = JSON.parse(r.stdout) as Report;
    expect(check(report, 'home')).toMatchObject({
      status: 'skip',
      detail: expect.stringMatching(/not created yet: pm creates it on first use/),
    });
    expect(JSON.stringify(check(report, 'home'))).not.toMatch(/pm init/);
    expect(r.code, r.stderr).toBe(0);
    // Without credentials in the environment, the note may say how to set pm up; it still does not fail.
    const bare = await runPm(['--json', 'doctor'], { env: { PM_HOME: join(home, 'not-yet-either'), PM_BASE_URL: sb.current.baseUrl } });
    expect(check(JSON.parse(bare.stdout) as Report, 'home')?.status).toBe('skip');
  });

  it('fails on a PM_HOME others can read, a wrong chain id, and orders of unknown outcome', async () => {
    chmodSync(home, 0o755);
    const rpc = await import('node:http').then(({ createServer }) =>
      createServer((_q, s) => s.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }))),
    );
    await new Promise<void>((r) => rpc.listen(0, '127.0.0.1', () => r()));
    const port = (rpc.address() as { port: number }).port;
    mkdirSync(join(home, 'journal'), { recursive: true });
    writeFileSync(join(home, 'journal', 'orders.ndjson'), `${JSON.stringify({ ts: 'x', clientOrderId: 'bot-1', state: 'unknown' })}\n`);
    try {
      const { code, report } = await doctor({ PM_RPC_URL: `http://127.0.0.1:${port}` });
      expect(code).toBe(8);
      expect(check(report, 'home')).toMatchObject({ status: 'fail', fix: `chmod 700 ${home}` });
      expect(check(report, 'rpc')?.detail).toMatch(/chain id 1, expected 8453/);
      expect(check(report, 'journal')?.detail).toMatch(/bot-1/);
    } finally {
      chmodSync(home, 0o700);
      writeFileSync(join(home, 'journal', 'orders.ndjson'), '');
      rpc.close();
    }
  });
});
