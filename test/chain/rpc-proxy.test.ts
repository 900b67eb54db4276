// The chain's JSON-RPC goes through HTTP_PROXY as REST does (a real proxy and a real anvil on
// 127.0.0.1): the on-chain commands and pm doctor's RPC check read the node through it, NO_PROXY
// naming the node goes around it, and a proxy that refuses the connection (exit 7) or asks for
// credentials (exit 3) says so, naming the variables, before anything reaches the node. What went
// through is counted at the proxy.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { accountEnv } from '../helpers/account-env.js';
import { useAnvil } from '../helpers/anvil.js';
import { closedPort, startProxy, type TestProxy } from '../helpers/proxy.js';
import { runPm, tempHome } from '../helpers/run.js';

// Base's chain id, so that pm doctor's RPC check (which expects Base) passes against this node.
const anvil = useAnvil({ chainId: 8453 });
const { home, cleanup } = tempHome();
afterAll(cleanup);

let sb: SandboxHandle | undefined;
let proxy: TestProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb?.close();
  sb = undefined;
});

async function chainSandbox(): Promise<SandboxHandle> {
  sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } });
  return sb;
}
const hostOf = (url: string): string => new URL(url).host;
/** What the proxy forwarded to the node and to the exchange. */
const carried = (p: TestProxy, s: SandboxHandle) => ({
  rpc: p.requests.filter((u) => u.startsWith(`${anvil.rpcUrl}/`) || u === anvil.rpcUrl).length,
  rest: p.requests.filter((u) => u.startsWith(`${s.baseUrl}/`)).length,
});

interface CheckJson {
  approvals: { type: string; status: string }[];
}

describe('the RPC through HTTP_PROXY', () => {
  it('pm approve check and set read and send through the proxy, as REST goes; NO_PROXY naming the node goes around it', async () => {
    const s = await chainSandbox();
    proxy = await startProxy();
    const env = accountEnv(s, 'alice', home, { PM_PACE: 'off', HTTP_PROXY: proxy.url });
    const r = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env });
    // (alice has approved nothing: exit 8, every target missing, read from the chain.)
    expect(r.code, r.stderr).toBe(8);
    expect(r.json<CheckJson>().approvals.map((a) => a.status)).toEqual(['missing', 'missing']);
    const through = carried(proxy, s);
    expect(through.rpc).toBeGreaterThan(0);
    expect(through.rest).toBeGreaterThan(0);

    // Sending goes the same way: the approvals are transactions sent through the proxy, then read back.
    proxy.requests.length = 0;
    const set = await runPm(['--json', '--yes', 'approve', 'set', 'btc-100k-2026'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(carried(proxy, s).rpc).toBeGreaterThan(2);
    const after = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.json<CheckJson>().approvals.map((a) => a.status)).toEqual(['confirmed', 'confirmed']);

    proxy.requests.length = 0;
    const around = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: { ...env, NO_PROXY: hostOf(anvil.rpcUrl) } });
    expect(around.code, around.stderr).toBe(0);
    expect(carried(proxy, s)).toMatchObject({ rpc: 0, rest: expect.any(Number) });
    expect(carried(proxy, s).rest).toBeGreaterThan(0);
  });

  it('a proxy that refuses the connection: exit 7 naming it and the variables; one that asks for credentials: exit 3', async () => {
    const s = await chainSandbox();
    // REST goes around the proxy (NO_PROXY names the exchange), so only the RPC meets it.
    const base = accountEnv(s, 'alice', home, { PM_PACE: 'off', NO_PROXY: hostOf(s.baseUrl) });
    const url = `http://127.0.0.1:${await closedPort()}`;
    const refused = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: { ...base, HTTP_PROXY: url } });
    expect(refused.code, refused.stderr).toBe(7);
    const { error } = JSON.parse(refused.stderr) as { error: { message: string; hint: string } };
    expect(error.message).toBe(`cannot reach the proxy ${url} (ECONNREFUSED) for ${anvil.rpcUrl}`);
    expect(error.hint).toMatch(/HTTP_PROXY .*HTTPS_PROXY/);
    expect(error.hint).toContain('NO_PROXY=127.0.0.1');

    proxy = await startProxy({ credentials: 'pm-user:right' });
    const asks = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: { ...base, HTTP_PROXY: proxy.url } });
    expect(asks.code, asks.stderr).toBe(3);
    const denied = JSON.parse(asks.stderr) as { error: { message: string; hint: string } };
    expect(denied.error.message).toContain(`the proxy ${proxy.url} asks for credentials (407`);
    expect(carried(proxy, s)).toEqual({ rpc: 1, rest: 0 });

    const given = proxy.url.replace('//', '//pm-user:right@');
    const ok = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: { ...base, HTTP_PROXY: given } });
    expect(ok.code, ok.stderr).toBe(8);
    expect(ok.stderr + ok.stdout).not.toContain('right@');
    expect(carried(proxy, s).rpc).toBeGreaterThan(1);
  });

  it('pm doctor names the RPC route and checks the node through the proxy', async () => {
    const s = await chainSandbox();
    proxy = await startProxy();
    const env = accountEnv(s, 'alice', home, { PM_PACE: 'off', HTTP_PROXY: proxy.url, PM_RPC_URL: anvil.rpcUrl, PM_SCRYPT_N: '1024' });
    const r = await runPm(['--json', 'doctor'], { env });
    const report = JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; data?: Record<string, unknown> }[] };
    const check = (name: string) => report.checks.find((c) => c.name === name);
    expect(check('proxy')).toMatchObject({ status: 'pass', data: { rest: proxy.url, stream: proxy.url, rpc: proxy.url } });
    expect(check('proxy')?.detail).toContain(`RPC through ${proxy.url} (HTTP_PROXY)`);
    expect(check('rpc')).toMatchObject({ status: 'pass', detail: `${anvil.rpcUrl}: chain id 8453` });
    expect(carried(proxy, s).rpc).toBeGreaterThan(0);

    const closed = `http://127.0.0.1:${await closedPort()}`;
    const gone = await runPm(['--json', 'doctor'], { env: { ...env, HTTP_PROXY: closed, NO_PROXY: hostOf(s.baseUrl) } });
    const rpc = (JSON.parse(gone.stdout) as typeof report).checks.find((c) => c.name === 'rpc');
    expect(rpc).toMatchObject({ status: 'fail', detail: `cannot reach the proxy ${closed} (ECONNREFUSED) for ${anvil.rpcUrl}` });
  });
});
