// Issue 20 #2 and #3: the stream URL follows the base URL, a local and a remote URL never pair,
// and whether a target is a sandbox follows its URL alone (never a stored flag). Each case
// failed before the fix: the stream URL stayed wss://ws.limitless.exchange, a profile flagged
// sandbox sent orders to a remote URL without confirmation.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WS_URL, deriveWsUrl, isLoopbackUrl, resolveEndpoints } from '../../src/core/endpoints.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();
const PASS = 'correct horse battery';
const env = (home: string, extra: Record<string, string> = {}) => ({ PM_HOME: home, PM_SCRYPT_N: '1024', PM_PASSPHRASE: PASS, ...extra });
interface Row {
  key: string;
  value: string | number | null;
  source: string;
}
/** A new home whose config holds one profile, `name`, the active one. */
function homeWithProfile(name: string, profile: Record<string, unknown>): string {
  const home = newHome();
  writeFileSync(join(home, 'config.json'), JSON.stringify({ version: 1, activeProfile: name, profiles: { [name]: profile } }), {
    mode: 0o600,
  });
  return home;
}
const setting = (stdout: string, key: string): Row | undefined =>
  (JSON.parse(stdout) as { settings: Row[] }).settings.find((r) => r.key === key);

describe('loopback is judged on the parsed address', () => {
  it('knows every spelling of this machine and nothing else', () => {
    for (const u of [
      'http://127.0.0.1:8787',
      'http://127.8.9.10',
      'http://localhost:1',
      'http://[::1]:8787',
      'http://[::ffff:127.0.0.1]:8787',
      'http://[0:0:0:0:0:0:0:1]',
      'http://127.1',
      'ws://0x7f000001:9',
    ])
      expect(isLoopbackUrl(u), u).toBe(true);
    for (const u of [
      'https://api.limitless.exchange',
      'http://128.0.0.1',
      'http://[::ffff:10.0.0.1]',
      'http://127.0.0.1.example.com',
      'http://[::2]',
      'not a url',
      // A name under .localhost goes to the resolver (here: DNS), which may answer with any host:
      // only the literal name localhost and loopback addresses count as this machine.
      'http://foo.localhost:8787',
      'https://api.localhost',
    ])
      expect(isLoopbackUrl(u), u).toBe(false);
  });

  it('derives the stream URL from the base URL: the exchange keeps its own, others the same host over ws(s)', () => {
    expect(deriveWsUrl('https://api.limitless.exchange')).toBe(DEFAULT_WS_URL);
    expect(deriveWsUrl('http://127.0.0.1:9000')).toBe('ws://127.0.0.1:9000');
    expect(deriveWsUrl('https://staging.example.com')).toBe('wss://staging.example.com');
  });

  it('counts a stream URL only from the base URL level or above', () => {
    const prof = { level: 'profile' as const, url: 'ws://127.0.0.1:1111', name: 'p' };
    const flagBase = { level: 'flag' as const, url: 'http://127.0.0.1:2222', name: '--base-url' };
    expect(resolveEndpoints([flagBase], [prof])).toMatchObject({ wsUrl: 'ws://127.0.0.1:2222', wsSource: 'derived from base-url' });
    const envWs = { level: 'env' as const, url: 'ws://127.0.0.1:3333', name: 'PM_WS_URL' };
    const envBase = { level: 'env' as const, url: 'http://127.0.0.1:2222', name: 'PM_BASE_URL' };
    expect(resolveEndpoints([envBase], [envWs])).toMatchObject({ wsUrl: 'ws://127.0.0.1:3333', wsSource: 'env' });
    expect(resolveEndpoints([], [])).toMatchObject({ wsUrl: DEFAULT_WS_URL, wsSource: 'default', sandbox: false });
  });
});

describe('a base URL given alone', () => {
  it('config list shows a stream URL on the same host and port, derived from base-url', async () => {
    const home = newHome();
    const r = await runPm(['--json', '--base-url', sb.current.baseUrl, 'config', 'list'], { env: env(home) });
    expect(r.code).toBe(0);
    const port = new URL(sb.current.baseUrl).port;
    expect(setting(r.stdout, 'ws-url')).toMatchObject({ value: `ws://127.0.0.1:${port}`, source: 'derived from base-url' });
    expect(setting(r.stdout, 'base-url')).toMatchObject({ value: sb.current.baseUrl, source: 'flag' });
  });

  it('watch prices connects to that sandbox, even with another profile active', async () => {
    // The active profile points at a dead sandbox on another port, stream URL included.
    const home = homeWithProfile('other', { baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9', sandbox: true });
    const slug = sb.current.info.markets.find((m) => m.type === 'clob' || m.type === 'CLOB')?.slug ?? 'btc-100k-2026';
    const r = await runPm(['--json', '--base-url', sb.current.baseUrl, '--timeout', '10s', 'watch', 'prices', slug, '--count', '1'], {
      env: env(home),
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event?: string; type?: string; url?: string; marketSlug?: string });
    const port = new URL(sb.current.baseUrl).port;
    expect(lines.find((l) => l.type === 'connected')?.url).toBe(`ws://127.0.0.1:${port}/markets`);
    expect(lines.some((l) => l.event === 'orderbookUpdate' && l.marketSlug === slug)).toBe(true);
  });

  it('init without a TTY stores the base URL and no derived stream URL', async () => {
    const home = newHome();
    const r = await runPm(['init', '--sandbox', '--yes'], { env: env(home, { PM_BASE_URL: sb.current.baseUrl }) });
    expect(r.code, r.stderr).toBe(0);
    const cfg = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
    const p = cfg.profiles['sandbox'];
    expect(p?.['baseUrl']).toBe(sb.current.baseUrl);
    expect(p?.['wsUrl']).toBeUndefined();
    expect(p?.['sandbox']).toBeUndefined();
  });
});

describe('a local and a remote URL never pair', () => {
  it('refuses a loopback base URL with a remote stream URL (exit 2, naming both), and the reverse', async () => {
    const home = newHome();
    const a = await runPm(['--json', '--base-url', sb.current.baseUrl, '--ws-url', 'wss://ws.example.com', 'markets', 'list'], {
      env: env(home),
    });
    expect(a.code).toBe(2);
    const msg = (JSON.parse(a.stderr) as { error: { message: string } }).error.message;
    expect(msg).toContain(sb.current.baseUrl);
    expect(msg).toContain('wss://ws.example.com');
    const b = await runPm(['--base-url', 'https://api.example.com', '--ws-url', 'ws://127.0.0.1:9', 'markets', 'list'], { env: env(home) });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/https:\/\/api\.example\.com.*ws:\/\/127\.0\.0\.1:9/s);
  });

  it('a profile stream URL beside an env base URL: the env base URL wins and the stream URL follows it', async () => {
    const home = homeWithProfile('p', { baseUrl: 'https://api.example.com', wsUrl: 'wss://ws.example.com' });
    const r = await runPm(['--json', 'config', 'list'], { env: env(home, { PM_BASE_URL: sb.current.baseUrl }) });
    expect(setting(r.stdout, 'ws-url')?.source).toBe('derived from base-url');
  });

  it('doctor reports the pair as a failed check and tries nothing on it', async () => {
    const home = newHome();
    const r = await runPm(['--json', '--base-url', sb.current.baseUrl, '--ws-url', 'wss://ws.example.com', 'doctor'], { env: env(home) });
    expect(r.code).toBe(8);
    const checks = (JSON.parse(r.stdout) as { checks: Array<{ name: string; status: string; detail: string }> }).checks;
    const urls = checks.find((c) => c.name === 'urls');
    expect(urls?.status).toBe('fail');
    expect(urls?.detail).toContain('wss://ws.example.com');
    expect(checks.find((c) => c.name === 'websocket')).toBeUndefined();
  });
});

describe('whether a target is a sandbox follows its URL, never a stored flag', () => {
  it('a sandbox profile moved to a remote URL asks for confirmation (exit 2 without a TTY, nothing sent)', async () => {
    const home = newHome();
    expect((await runPm(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env: env(home) })).code).toBe(0);
    // An older pm wrote sandbox: true; a user then points the profile elsewhere.
    const file = join(home, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
    (cfg.profiles['sandbox'] as Record<string, unknown>)['sandbox'] = true;
    writeFileSync(file, JSON.stringify(cfg), { mode: 0o600 });
    expect(
      (await runPm(['--profile', 'sandbox', 'config', 'set', 'base-url', 'https://api.example.invalid'], { env: env(home) })).code,
    ).toBe(0);
    const before = sb.current.ctx.state.orders.length;
    const r = await runPm(
      ['--profile', 'sandbox', ...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '10'), '--client-id', 'edge-remote'],
      { env: env(home) },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation/);
    expect(sb.current.ctx.state.orders.length).toBe(before);
    // The same remote URL as a flag gets the same answer.
    const f = await runPm(
      ['--base-url', 'https://api.example.invalid', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '10'],
      { env: env(home) },
    );
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/confirmation/);
  });

  it('a loopback profile with no stored flag places without confirmation', async () => {
    const home = newHome();
    expect((await runPm(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env: env(home) })).code).toBe(0);
    const r = await runPm(
      ['--json', '--profile', 'sandbox', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '10'],
      { env: env(home) },
    );
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a local configuration mistake is exit 2, never 9 (issue 20 #9)', () => {
  it('a base URL with a path is refused before anything is sent; a refused connection stays 7', async () => {
    const home = newHome();
    const a = await runPm(['--json', '--base-url', 'http://127.0.0.1:1/api', 'markets', 'list'], { env: env(home) });
    expect(a.code).toBe(2);
    expect((JSON.parse(a.stderr) as { error: { message: string } }).error.message).toMatch(/has a path/);
    const b = await runPm(['--base-url', 'http://127.0.0.1:1', 'markets', 'list'], { env: env(home) });
    expect(b.code).toBe(7);
  });

  it('the transport itself refuses a bad or path-bearing base URL with a usage error', async () => {
    const { ApiClient } = await import('../../src/core/http.js');
    for (const u of ['http://127.0.0.1:1/api', 'nonsense', 'ftp://127.0.0.1']) {
      let err: unknown;
      try {
        new ApiClient({ baseUrl: u });
      } catch (e) {
        err = e;
      }
      expect((err as { exitCode?: number }).exitCode, u).toBe(2);
    }
  });
});
