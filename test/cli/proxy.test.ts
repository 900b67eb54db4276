// HTTPS_PROXY / HTTP_PROXY / NO_PROXY against a real proxy on 127.0.0.1 (the `proxy` package):
// REST goes through it as forwarded requests, the stream through a CONNECT tunnel; NO_PROXY goes
// around it; a proxy that refuses the connection or asks for credentials is a clear error (exit 7,
// exit 3) whose hint names the variables. What went through is counted at the proxy.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { closedPort, startProxy, type TestProxy } from '../helpers/proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
let proxy: TestProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});
const env = (extra: Record<string, string>) => accountEnv(sb.current, 'alice', home, extra);
const sandboxHost = () => new URL(sb.current.baseUrl).host;

describe('REST through HTTP_PROXY', () => {
  it('every request goes through the proxy (loopback included), in either spelling of the variable', async () => {
    proxy = await startProxy();
    const r = await runPm(['--json', 'markets', 'list', '--limit', '2'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<unknown[]>()).toHaveLength(2);
    expect(proxy.requests.length).toBeGreaterThan(0);
    expect(proxy.requests.every((u) => u.startsWith(`${sb.current.baseUrl}/`))).toBe(true);
    const before = proxy.requests.length;
    const lower = await runPm(['--json', 'markets', 'show', 'btc-100k-2026'], { env: env({ http_proxy: proxy.url }) });
    expect(lower.code, lower.stderr).toBe(0);
    expect(proxy.requests.length).toBeGreaterThan(before);
  });

  it('NO_PROXY=127.0.0.1 (or *, or the host and port) goes around it', async () => {
    proxy = await startProxy();
    for (const noProxy of ['127.0.0.1', '*', `localhost, ${sandboxHost()}`]) {
      const r = await runPm(['--json', 'markets', 'list', '--limit', '1'], { env: env({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy }) });
      expect(r.code, r.stderr).toBe(0);
    }
    const lower = await runPm(['--json', 'markets', 'list', '--limit', '1'], {
      env: env({ HTTP_PROXY: proxy.url, no_proxy: '127.0.0.1' }),
    });
    expect(lower.code, lower.stderr).toBe(0);
    expect(proxy.requests).toEqual([]);
    expect(proxy.connects).toEqual([]);
  });

  it('--verbose says a proxy is in use, never its credentials; the proxy gets them', async () => {
    proxy = await startProxy({ credentials: 'pm-user:s3cr3t-pw' });
    const withCreds = proxy.url.replace('http://', 'http://pm-user:s3cr3t-pw@');
    const r = await runPm(['--verbose', 'markets', 'show', 'btc-100k-2026'], { env: env({ HTTP_PROXY: withCreds }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`via proxy ${proxy.url}`);
    expect(r.stderr).not.toContain('s3cr3t-pw');
    expect(r.stderr).not.toContain('pm-user');
    expect(proxy.requests.length).toBeGreaterThan(0);
  });

  it('a proxy that refuses the connection: exit 7, naming HTTP_PROXY and HTTPS_PROXY, nothing retried', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runPm(['--json', 'markets', 'list'], { env: env({ HTTP_PROXY: url }) });
    expect(r.code).toBe(7);
    const { error } = JSON.parse(r.stderr) as { error: { message: string; hint: string } };
    expect(error.message).toContain(`cannot reach the proxy ${url}`);
    expect(error.hint).toMatch(/HTTP_PROXY .*HTTPS_PROXY/);
    expect(error.hint).toContain('NO_PROXY=127.0.0.1');
  });

  it('a proxy that asks for credentials (407): exit 3, the hint says where they go; wrong ones likewise', async () => {
    proxy = await startProxy({ credentials: 'pm-user:right' });
    const r = await runPm(['--json', 'markets', 'list'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(r.code).toBe(3);
    const { error } = JSON.parse(r.stderr) as { error: { message: string; hint: string } };
    expect(error.message).toContain(`the proxy ${proxy.url} asks for credentials (407`);
    expect(error.hint).toMatch(/HTTP_PROXY=http:\/\/USER:PASSWORD@127\.0\.0\.1:\d+/);
    expect(error.hint).toContain('HTTPS_PROXY');
    const wrong = await runPm(['--json', 'markets', 'list'], { env: env({ HTTP_PROXY: proxy.url.replace('//', '//pm-user:wrong@') }) });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('refuses the credentials given');
    expect(wrong.stderr).not.toContain('wrong@');
  });

  it('a proxy URL pm cannot use is exit 2 before anything is sent', async () => {
    const r = await runPm(['--json', 'markets', 'list'], { env: env({ HTTP_PROXY: 'socks5://127.0.0.1:1080' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('HTTP_PROXY');
  });
});

describe('the stream through a CONNECT tunnel', () => {
  it('pm watch connects through the proxy (counted as a CONNECT to the sandbox), and NO_PROXY goes around it', async () => {
    proxy = await startProxy();
    const r = await runPm(['--json', 'watch', 'prices', 'btc-100k-2026', '--count', '1'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"orderbookUpdate"');
    expect(proxy.connects).toContain(sandboxHost());
    const connects = proxy.connects.length;
    const requests = proxy.requests.length;
    const direct = await runPm(['--json', 'watch', 'prices', 'btc-100k-2026', '--count', '1'], {
      env: env({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }),
    });
    expect(direct.code, direct.stderr).toBe(0);
    expect([proxy.connects.length, proxy.requests.length]).toEqual([connects, requests]);
  });

  it('a tunnel refused with 407 ends the stream with exit 3; a proxy that is not there, exit 7; both hints name the variables', async () => {
    proxy = await startProxy({ credentials: 'pm-user:right' });
    // (watch markets makes no REST request: the stream is the first thing through the proxy.)
    const denied = await runPm(['--json', 'watch', 'markets', '--count', '1'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(denied.code, denied.stderr).toBe(3);
    expect(denied.stderr).toContain('asks for credentials (407');
    expect(denied.stderr).toContain('HTTPS_PROXY');
    expect(proxy.connects).toContain(sandboxHost());
    const url = `http://127.0.0.1:${await closedPort()}`;
    const gone = await runPm(['--json', '--timeout', '1s', 'watch', 'markets', '--count', '1'], { env: env({ HTTP_PROXY: url }) });
    expect(gone.code, gone.stderr).toBe(7);
    const { error } = JSON.parse(gone.stderr) as { error: { hint: string } };
    expect(error.hint).toMatch(/HTTP_PROXY .*HTTPS_PROXY/);
  });

  it('pm doctor checks the stream through the proxy and names it', async () => {
    proxy = await startProxy();
    const r = await runPm(['--json', 'doctor'], { env: env({ HTTP_PROXY: proxy.url, PM_SCRYPT_N: '1024' }) });
    const report = JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; data?: Record<string, unknown> }[] };
    const check = (name: string) => report.checks.find((c) => c.name === name);
    expect(check('proxy')).toMatchObject({ status: 'pass', data: { rest: proxy.url, stream: proxy.url } });
    expect(check('websocket')).toMatchObject({ status: 'pass', data: { proxy: proxy.url } });
    expect(check('websocket')?.detail).toContain(`through the proxy ${proxy.url}`);
    expect(proxy.connects).toContain(sandboxHost());
    expect(proxy.requests.length).toBeGreaterThan(0);
    await proxy.close();
    proxy = await startProxy({ credentials: 'pm-user:right' });
    const denied = await runPm(['--json', 'doctor'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(denied.code).toBe(8);
    const exchange = (JSON.parse(denied.stdout) as typeof report).checks.find((c) => c.name === 'exchange');
    expect(exchange).toMatchObject({ status: 'fail', detail: expect.stringContaining('asks for credentials (407') });
  });
});

describe('the library', () => {
  it('takes { proxy } for REST and the stream; {} connects directly', async () => {
    proxy = await startProxy();
    const alice = seeded(sb.current, 'alice');
    const options = { home, baseUrl: sb.current.baseUrl, privateKey: alice.privateKey, token: alice.token };
    const pm = createClient({ ...options, proxy: { httpProxy: proxy.url } });
    expect(await pm.markets.get('btc-100k-2026')).toMatchObject({ slug: 'btc-100k-2026' });
    expect(proxy.requests.length).toBeGreaterThan(0);
    const ac = new AbortController();
    for await (const ev of pm.watch.prices(['btc-100k-2026'], { signal: ac.signal })) {
      if (ev['event'] === 'orderbookUpdate') ac.abort();
    }
    expect(proxy.connects).toContain(sandboxHost());
    await pm.close();
    const seen = [proxy.requests.length, proxy.connects.length];
    const direct = createClient({ ...options, proxy: {} });
    await direct.markets.get('btc-100k-2026');
    await direct.close();
    expect([proxy.requests.length, proxy.connects.length]).toEqual(seen);
  });
});
