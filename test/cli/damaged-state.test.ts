// Durations, settings that can never work, and damaged files: each refused with exit 2 and a
// message naming the file or the value, never a crash and never a quiet fallback.
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { parseDuration } from '../../src/core/duration.js';
import { JsonCache } from '../../src/core/cache.js';
import { Journal } from '../../src/core/trade/journal.js';

const sb = useSandbox();
const homes: (() => void)[] = [];
afterAll(() => homes.forEach((c) => c()));
function home(): string {
  const h = tempHome();
  homes.push(h.cleanup);
  return h.home;
}
const writeConfig = (h: string, cfg: unknown): void =>
  writeFileSync(join(h, 'config.json'), typeof cfg === 'string' ? cfg : JSON.stringify(cfg));

describe('durations', () => {
  it('parses bare milliseconds and 500ms, 20s, 5m; refuses 2^31 ms and nonsense', () => {
    expect(parseDuration('1500', 't')).toBe(1500);
    expect(parseDuration('500ms', 't')).toBe(500);
    expect(parseDuration('20s', 't')).toBe(20_000);
    expect(parseDuration('5m', 't')).toBe(300_000);
    for (const bad of ['0', '2147483648', '2h', '-5', '1.5', 'abc', '5 m', '1e3', ''])
      expect(() => parseDuration(bad, 't'), bad).toThrow(/t must be/);
  });

  it('--timeout and PM_TIMEOUT of 2^31 ms exit 2 before any request; units work', async () => {
    const h = home();
    const big = await runPm(['--json', '--timeout', '2147483648', '--base-url', sb.current.baseUrl, 'markets', 'list'], {
      env: { PM_HOME: h },
    });
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/--timeout/);
    const env = await runPm(['--json', '--base-url', sb.current.baseUrl, 'markets', 'list'], {
      env: { PM_HOME: h, PM_TIMEOUT: '2147483648' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/PM_TIMEOUT/);
    expect(
      (await runPm(['--json', '--timeout', '20s', '--base-url', sb.current.baseUrl, 'markets', 'list'], { env: { PM_HOME: h } })).code,
    ).toBe(0);
    expect(
      (await runPm(['--json', '--base-url', sb.current.baseUrl, 'markets', 'list'], { env: { PM_HOME: h, PM_TIMEOUT: '5s' } })).code,
    ).toBe(0);
  });
});

describe('config set and --profile refuse values that can never work', () => {
  it('timeout out of range, a bad profile name, an unknown wallet; units are stored as ms', async () => {
    const h = home();
    const pm = (argv: string[]) => runPm(['--json', ...argv], { env: { PM_HOME: h } });
    expect((await pm(['config', 'set', 'timeout', '2147483648'])).code).toBe(2);
    expect((await pm(['--profile', '../evil', 'config', 'set', 'output', 'json'])).code).toBe(2);
    expect((await pm(['config', 'set', 'wallet', 'no-such-wallet'])).code).toBe(2);
    expect((await pm(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(2);
    expect((await pm(['config', 'set', 'on-behalf-of', '99999999999999999999999'])).code).toBe(2);
    const ok = await pm(['config', 'set', 'timeout', '5m']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')).profiles.default.timeout).toBe(300_000);
  });

  it('a config whose active profile is missing is refused, not the real exchange', async () => {
    const h = home();
    writeConfig(h, { version: 1, activeProfile: 'gone', profiles: { other: { baseUrl: sb.current.baseUrl } } });
    const r = await runPm(['--json', 'config', 'get', 'base-url'], { env: { PM_HOME: h } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/active profile "gone"/);
    expect(r.stderr).toContain(join(h, 'config.json'));
    // profile list still works, so the user can see what to pick.
    expect((await runPm(['--json', 'profile', 'list'], { env: { PM_HOME: h } })).code).toBe(0);
    expect((await runPm(['--json', 'profile', 'use', 'other'], { env: { PM_HOME: h } })).code).toBe(0);
    expect((await runPm(['--json', 'markets', 'list'], { env: { PM_HOME: h } })).code).toBe(0);
  });
});

describe('damaged files', () => {
  it('a string timeout in the config is a clear error naming the file; the file is left as it was', async () => {
    const h = home();
    const text = JSON.stringify({ version: 1, activeProfile: 'p', profiles: { p: { baseUrl: sb.current.baseUrl, timeout: 'soon' } } });
    writeConfig(h, text);
    const r = await runPm(['--json', 'markets', 'list'], { env: { PM_HOME: h } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profiles\.p\.timeout/);
    expect(r.stderr).toContain(join(h, 'config.json'));
    expect((await runPm(['--json', 'config', 'set', 'timeout', '10s'], { env: { PM_HOME: h } })).code).toBe(2);
    expect(readFileSync(join(h, 'config.json'), 'utf8')).toBe(text);
  });

  it('a null, array or malformed cache is dropped and rebuilt', () => {
    const h = home();
    mkdirSync(join(h, 'cache'), { recursive: true });
    for (const text of ['null', '[]', '{"k":null}', '{"k":{"at":"x","value":1}}', '{not json']) {
      writeFileSync(join(h, 'cache', 'markets.json'), text);
      const c = new JsonCache(h, 'markets', 60_000);
      expect(c.get('k'), text).toBeUndefined();
      c.set('k', { slug: 'x' });
      expect(new JsonCache(h, 'markets', 60_000).get('k')).toEqual({ slug: 'x' });
    }
  });

  it('a journal that is a directory, or has a damaged line, is an error naming the file; a torn line is skipped', () => {
    const h = home();
    const j = new Journal(join(h, 'journal'));
    mkdirSync(j.file, { recursive: true });
    expect(() => j.lookup('c1')).toThrow(/order journal .*orders\.ndjson/);
    expect(() => j.record({ clientOrderId: 'c1', state: 'pending' })).toThrow(/orders\.ndjson/);
    const k = new Journal(join(h, 'journal2'));
    k.record({ clientOrderId: 'c1', state: 'pending' });
    writeFileSync(k.file, `${readFileSync(k.file, 'utf8')}{"ts":"2026-01-01","clientOrderId":"c2","sta\n`);
    k.record({ clientOrderId: 'c1', state: 'placed' });
    expect(k.lookup('c1')?.state).toBe('placed'); // torn line skipped
    writeFileSync(k.file, `${readFileSync(k.file, 'utf8')}42\n`);
    expect(() => k.lookup('c1')).toThrow(/orders\.ndjson is damaged/);
    expect(() => k.latestAll()).toThrow(/orders\.ndjson is damaged at line 4/);
  });
});

describe('one verdict per damaged file, whichever command reads it (issue 20 #12)', () => {
  const PASS = 'damage-pass-1';
  // Bytes that are no journal and no keystore: text, binary, a lone number, half an object.
  const GARBAGE = Buffer.concat([
    Buffer.from('garbage\n42\n{"x\n'),
    Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256)),
  ]);
  async function sandboxHome(): Promise<{ h: string; pm: (argv: string[]) => ReturnType<typeof runPm> }> {
    const h = home();
    chmodSync(h, 0o700);
    const env = { PM_HOME: h, PM_PASSPHRASE: PASS, PM_SCRYPT_N: '1024' };
    const pm = (argv: string[]) => runPm(['--json', ...argv], { env });
    const init = await pm(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes']);
    expect(init.code, init.stderr).toBe(0);
    return { h, pm };
  }
  const failed = (stdout: string, name: string) =>
    (JSON.parse(stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] }).checks.find(
      (c) => c.name === name,
    );

  it('a damaged secrets or wallet file: every command that reads it names the file and the fix, as doctor does', async () => {
    const { h, pm } = await sandboxHome();
    const secrets = readdirSync(join(h, 'secrets')).map((f) => join(h, 'secrets', f))[0] ?? '';
    const wallet = readdirSync(join(h, 'keystores')).map((f) => join(h, 'keystores', f))[0] ?? '';
    writeFileSync(secrets, '{', { mode: 0o600 });
    const who = await pm(['whoami']);
    expect(who.code).not.toBe(0);
    const e1 = JSON.parse(who.stderr).error as { message: string; hint?: string };
    expect(e1.message).toContain(secrets);
    expect(e1.hint).toContain(`mv ${secrets} ${secrets}.damaged`);
    writeFileSync(wallet, 'null', { mode: 0o600 });
    const addr = await pm(['wallet', 'address']);
    expect(addr.code).not.toBe(0);
    const e2 = JSON.parse(addr.stderr).error as { message: string; hint?: string };
    expect(e2.message).toContain(wallet);
    expect(e2.hint).toContain(`mv ${wallet} ${wallet}.damaged`);
  });

  it('a garbage-filled journal: order place exits 2 with nothing sent, naming the file, the line and the fix; order journal and doctor agree', async () => {
    const { h, pm } = await sandboxHome();
    const file = join(h, 'journal', 'orders.ndjson');
    mkdirSync(join(h, 'journal'), { recursive: true, mode: 0o700 });
    writeFileSync(file, GARBAGE, { mode: 0o600 });
    const place = await pm(['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.2', '--size', '5', '--client-id', 'dmg-1']);
    expect(place.code, place.stderr).toBe(2);
    const err = JSON.parse(place.stderr).error as { message: string; hint?: string };
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 1\b/);
    expect(err.hint).toMatch(/mv .*orders\.ndjson/);
    expect(readFileSync(file)).toEqual(GARBAGE); // never appended to, never rewritten
    // Nothing reached the exchange under that client id.
    const status = await pm(['order', 'status', '--client-id', 'dmg-1']);
    expect(status.code, status.stdout + status.stderr).toBe(4);
    const journal = await pm(['order', 'journal']);
    expect(journal.code).toBe(2);
    expect(JSON.parse(journal.stderr).error.message).toBe(err.message);
    const doctor = await pm(['doctor']);
    expect(doctor.code).toBe(8);
    expect(failed(doctor.stdout, 'journal')).toMatchObject({ status: 'fail', detail: err.message });
    // Moved aside, as the hint says: the same order goes through.
    renameSync(file, `${file}.damaged`);
    const again = await pm(['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.2', '--size', '5', '--client-id', 'dmg-1']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('a journal damaged in the middle is refused by order place as by order journal; a torn last line is not damage', async () => {
    const { h, pm } = await sandboxHome();
    const file = join(h, 'journal', 'orders.ndjson');
    const place = (cid: string) =>
      pm(['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.2', '--size', '5', '--client-id', cid]);
    expect((await place('mid-1')).code).toBe(0);
    expect((await place('mid-2')).code).toBe(0);
    // A crash mid-write leaves a torn line: still readable, and the next order goes on.
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"ts":"2026-01-01T00:00:00.000Z","clientOrderId":"mid-x","sta`);
    expect((await place('mid-3')).code).toBe(0);
    expect((await pm(['order', 'journal'])).code).toBe(0);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, 'not an entry');
    writeFileSync(file, lines.join('\n'));
    const before = readFileSync(file, 'utf8');
    const refused = await place('mid-4');
    expect(refused.code, refused.stderr).toBe(2);
    expect(JSON.parse(refused.stderr).error.message).toMatch(/orders\.ndjson is damaged at line 3/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect((await pm(['order', 'status', '--client-id', 'mid-4'])).code).toBe(4);
    const journal = await pm(['order', 'journal']);
    expect(JSON.parse(journal.stderr).error.message).toBe(JSON.parse(refused.stderr).error.message);
  });

  it('doctor opens every keystore file: a garbage-filled wallet fails the keystore check, naming the file', async () => {
    const { h, pm } = await sandboxHome();
    const healthy = await pm(['doctor']);
    expect(failed(healthy.stdout, 'keystore')?.status).toBe('pass');
    const wallets = readdirSync(join(h, 'keystores'));
    expect(wallets.length).toBeGreaterThan(0);
    const wallet = join(h, 'keystores', wallets[0] ?? '');
    writeFileSync(wallet, GARBAGE);
    const r = await pm(['doctor']);
    expect(r.code).toBe(8);
    const ks = failed(r.stdout, 'keystore');
    expect(ks?.status).toBe('fail');
    expect(ks?.detail).toContain(wallet);
    expect(ks?.fix).toMatch(/mv /);
  });
});
