// The sandbox as a local service: admin routes refuse cross-origin-style requests and foreign
// Host headers, oversized bodies get 413, absurd faults are refused; a detached sandbox gets no
// PM_* secrets; --detach on a busy port is the same clean exit 2 as the foreground.
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const homes: (() => void)[] = [];
afterAll(() => homes.forEach((c) => c()));

function post(path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, sb.current.baseUrl);
    const req = request(u, { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const json = { 'content-type': 'application/json' };

describe('admin routes', () => {
  it('refuse text/plain POSTs and non-loopback Hosts; the faults stay as they were', async () => {
    expect(await post('/__sandbox/faults', '{"fail5xx":5}', { 'content-type': 'text/plain' })).toBe(415);
    expect(await post('/__sandbox/faults', '{"fail5xx":5}', { ...json, host: 'evil.example:8787' })).toBe(403);
    expect(await post('/__sandbox/reset', '{}', { ...json, host: 'attacker.test' })).toBe(403);
    expect(sb.current.faults.fail5xx).toBe(0);
    expect(await post('/__sandbox/faults', '{"fail5xx":0}', { ...json, host: `localhost:${sb.current.port}` })).toBe(200);
  });

  it('answer 413 to a body over the limit, and 400 to absurd fault values', async () => {
    expect(await post('/__sandbox/faults', `{"match":"${'x'.repeat(1_100_000)}"}`, json)).toBe(413);
    for (const b of [{ latencyMs: 1e12 }, { fail5xx: 2 ** 53 }, { clockSkewMs: 1e15 }, { match: 'x'.repeat(500) }, [1]]) {
      expect(await post('/__sandbox/faults', JSON.stringify(b), json), JSON.stringify(b)).toBe(400);
    }
    expect(sb.current.faults.latencyMs).toBe(0);
  });
});

describe('sandbox start', () => {
  const base = () => {
    const { CI: _c, ...rest } = process.env;
    return rest;
  };
  it('--detach on a port in use exits 2 with the clean message; --host 0.0.0.0 needs --yes', async () => {
    const h = tempHome();
    homes.push(h.cleanup);
    const r = await execa('node', ['bin/pm.js', 'sandbox', 'start', '--detach', '--port', String(sb.current.port)], {
      env: { ...base(), PM_HOME: h.home },
      reject: false,
      stdin: 'ignore',
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/already in use/);
    const pub = await execa('node', ['bin/pm.js', 'sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--ephemeral'], {
      env: { ...base(), PM_HOME: h.home },
      reject: false,
      stdin: 'ignore',
    });
    expect(pub.exitCode).toBe(2);
    expect(pub.stderr).toMatch(/PUBLIC dev keys/);
  });

  it('a detached sandbox does not inherit PM_* secrets', async () => {
    const h = tempHome();
    homes.push(h.cleanup);
    const env = {
      ...base(),
      PM_HOME: h.home,
      PM_PASSPHRASE: 'secret-pass-x',
      PM_TOKEN_SECRET: 'c2VjcmV0',
      PM_PRIVATE_KEY: `0x${'1'.repeat(64)}`,
    };
    const r = await execa('node', ['bin/pm.js', '--json', 'sandbox', 'start', '--detach', '--port', '0'], { env, stdin: 'ignore' });
    const pid = (JSON.parse(r.stdout) as { pid: number }).pid;
    try {
      if (existsSync(`/proc/${pid}/environ`)) {
        const childEnv = readFileSync(`/proc/${pid}/environ`, 'utf8');
        expect(childEnv).toContain('PM_HOME=');
        expect(childEnv).not.toMatch(/PM_PASSPHRASE|PM_TOKEN_SECRET|PM_PRIVATE_KEY/);
      }
    } finally {
      await execa('node', ['bin/pm.js', 'sandbox', 'stop'], { env: { ...base(), PM_HOME: h.home }, reject: false, stdin: 'ignore' });
    }
  });
});
