// Ctrl-C while a change of money or orders is on the wire: pm waits for the answer (the exchange
// acts on it anyway), prints the result, and still ends as interrupted, saying the request went
// through: exit 130, as `pm order place` already did. Before: withdraw, redeem and cancel printed
// a plain success and exited 0, as if no Ctrl-C had come.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { countEvents, useFaultProxy } from '../helpers/fault-proxy.js';
import { runInPty } from '../helpers/pty.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

const env = (name: string) => ({ ...accountEnv(sb.current, name, home), PM_BASE_URL: proxy.current.baseUrl, CI: '1' });

/** Runs pm with `route` held 1.5 s, sends one SIGINT once the request is held, and returns how it ended. */
async function interrupted(name: string, argv: string[], method: string, path: string) {
  proxy.current.reset();
  proxy.current.set({ method, path, fault: { kind: 'delay', ms: 1500 } });
  const child = execa('node', ['bin/pm.js', '--json', '--yes', ...argv], { env: env(name), stdin: 'ignore', reject: false });
  await eventually(() => proxy.current.count(method, path) > 0, { what: `${method} ${path} on its way` });
  child.kill('SIGINT');
  const r = await child;
  proxy.current.reset();
  return r;
}

describe('one Ctrl-C while the request is on the wire', () => {
  it('withdraw: the result on stdout, then exit 130 saying it went through', async () => {
    const before = countEvents(sb.current, 'funds.withdrawn');
    const r = await interrupted('carol', ['withdraw', '1'], 'POST', '/portfolio/withdraw');
    expect(r.exitCode, r.stderr).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ amount: '1', amountRaw: '1000000' });
    const err = (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('INTERRUPTED');
    expect(err.message).toMatch(/was sent: it went through/);
    expect(countEvents(sb.current, 'funds.withdrawn')).toBe(before + 1);
  });

  it('order cancel: the cancelled order on stdout, then exit 130', async () => {
    const placed = await runPm(['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.05', '--size', '1'], {
      env: { ...accountEnv(sb.current, 'alice', home), CI: '1' },
    });
    expect(placed.code, placed.stderr).toBe(0);
    const id = placed.json<{ orderId: string }>().orderId;
    const r = await interrupted('alice', ['order', 'cancel', id], 'POST', '/orders/batch-cancel');
    expect(r.exitCode, r.stderr).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ canceled: [id] });
  });

  it('order place answered 409 (the client id already placed), its lookup cut by Ctrl-C: unknown, never "not placed"', async () => {
    const cid = `dup-${Date.now()}`;
    const argv = ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.05', '--size', '1', '--client-id', cid];
    const first = await runPm(['--json', ...argv], { env: { ...accountEnv(sb.current, 'alice', home), CI: '1' } });
    expect(first.code, first.stderr).toBe(0);
    const r = await interrupted('alice', argv, 'POST', '/orders');
    expect(r.exitCode, r.stderr).toBe(130);
    const err = (JSON.parse(r.stderr) as { error: { message: string; hint?: string } }).error;
    expect(err.message).not.toMatch(/not placed/);
    expect(err.message).toMatch(/unknown/);
    expect(err.hint).toContain(`pm order status --client-id ${cid}`);
    // The journal keeps the order as possibly placed: never "unsent", which would let a later run count it as never sent.
    const j = await runPm(['--json', 'order', 'journal', '--client-id', cid], {
      env: { ...accountEnv(sb.current, 'alice', home), CI: '1' },
    });
    const states = j.json<{ state: string }[]>().map((e) => e.state);
    expect(states).not.toContain('unsent');
    expect(states.at(-1)).toMatch(/unknown|placed/);
  });

  it('on a terminal, Ctrl-C says at once that it waits for the answer of what is on its way, and that a second Ctrl-C stops at once', async () => {
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'delay', ms: 4000 } });
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', '--yes', 'withdraw', '1'],
      [{ waitFor: 'waiting for the exchange to answer POST /portfolio/withdraw', send: '\x03' }],
      { ...process.env, ...env('carol') },
    );
    proxy.current.reset();
    expect(code, screen).toBe(130);
    expect(screen).toMatch(
      /interrupted: waiting for the answer to POST \/portfolio\/withdraw, already on its way, to say what was done \(up to [^)]+\); Ctrl-C again stops at once/,
    );
  });

  it('a read interrupted ends 130 without the result (nothing went through to report)', async () => {
    const r = await interrupted('alice', ['markets', 'show', 'btc-100k-2026'], 'GET', '/markets/btc-100k-2026');
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
  });
});
