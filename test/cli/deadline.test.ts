// One deadline per command and per library call (issue 29 item 4, issue 30 item 10): against an
// exchange that accepts requests and never answers, `--timeout 2s` ends every command within
// 2.5 s with exit 7 (a write whose outcome is open: the unknown message), and the library's
// `timeoutMs` bounds each call, retries included. Before, markets list took 9.6 s (4 attempts),
// order place 42 s (17 requests), the library 121 s.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();
const env = (home: string) => ({ ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl });
const hangAll = { times: Number.POSITIVE_INFINITY, fault: { kind: 'hang' } } as const;

/**
 * The time `f` takes, and how long this worker was kept from running meanwhile (`stalled`): the sum
 * of the lateness of a 10 ms timer wherever it fired over 20 ms late. A run waiting on its deadline
 * leaves the event loop idle, so a late timer is the machine (CI of 5089ddc: a cancel ended at
 * 2513 ms, its start-up measured at 150 ms before and after), not pm waiting too long.
 */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; stalled: number }> {
  let stalled = 0;
  let last = Date.now();
  const tick = setInterval(() => {
    const now = Date.now();
    if (now - last > 30) stalled += now - last - 10;
    last = now;
  }, 10);
  const t0 = Date.now();
  try {
    const value = await f();
    return { value, ms: Date.now() - t0, stalled };
  } finally {
    clearInterval(tick);
  }
}

/**
 * What this machine adds right now to 2.5 s: a pm process against the sandbox directly (start-up
 * and one fast answer) beyond the 150 ms it takes on a quiet machine. The deadline counts from the
 * command's first request; a loaded machine (CI beside four busy loops) starts processes slower.
 * `argv` is a command with the same work before its first request (an order's dry run signs it as
 * the order does): by default a market read.
 */
async function slack(argv = ['markets', 'show', 'sol-500-2026']): Promise<number> {
  const direct = { ...env(newHome()), PM_BASE_URL: sb.current.baseUrl };
  const { ms } = await timed(() => runPm(['--json', ...argv], { env: direct }));
  return Math.max(0, ms - 150);
}
const orderArgv = (clientId: string): string[] => [...limitOrder('sol-500-2026', 'buy', 'yes', '0.05', '1'), '--client-id', clientId];

describe("--timeout is the whole command's deadline", () => {
  it('a read whose deadline passes first: exit 7, the hint names --timeout (the library says timeoutMs: library-words.test)', async () => {
    const r = await runPm(['--json', '--timeout', '1', 'markets', 'show', 'sol-500-2026'], {
      env: { ...env(newHome()), PM_BASE_URL: sb.current.baseUrl },
    });
    expect(r.code).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { hint: string } }).error;
    expect(err.hint).toMatch(/Raise --timeout \(or PM_TIMEOUT\)/);
    expect(err.hint).not.toMatch(/timeoutMs/);
  });

  const commands: [string, string[]][] = [
    ['markets list', ['markets', 'list']],
    ['order place', orderArgv('dl-1')],
    ['order cancel', ['order', 'cancel', '00000000-0000-0000-0000-000000000000']],
    ['portfolio positions', ['portfolio', 'positions']],
  ];
  for (const [name, argv] of commands) {
    it(`${name} against a silent exchange ends within 2.5 s, exit 7`, async () => {
      // (What this command's start-up takes on this machine now: an order's is its dry run's.)
      const probe = name === 'order place' ? [...argv, '--dry-run'] : undefined;
      // (Its modules loaded first, against the sandbox itself: in-process, a command's first run
      // compiles its source before the deadline starts, which a market read does not. CI of 5089ddc
      // failed a cancel at 2513 ms this way, its start-up measured by a market read at 150 ms.)
      await runPm(['--json', ...(probe ?? argv)], { env: { ...env(newHome()), PM_BASE_URL: sb.current.baseUrl } });
      const extra = await slack(probe);
      proxy.current.reset();
      proxy.current.set(hangAll);
      const { value: r, ms, stalled } = await timed(() => runPm(['--json', '--timeout', '2s', ...argv], { env: env(newHome()) }));
      proxy.current.reset();
      expect(r.code, r.stderr).toBe(7);
      // (The machine's load changes within a test: its start-up is measured before and after, and
      // the time this worker could not run meanwhile is added.)
      const after = await slack(probe);
      expect(ms).toBeLessThan(2500 + Math.max(extra, after) + stalled);
      expect(ms).toBeGreaterThanOrEqual(1900);
    });
  }

  // Every command that talks to the exchange (reads, and the writes with --yes), not only four:
  // a command of several requests in a row must end on the one deadline too.
  const walk: [string, string[]][] = [
    ['book', ['book', 'sol-500-2026']],
    ['balance', ['balance']],
    ['markets feed', ['markets', 'feed', 'sol-500-2026']],
    ['markets history', ['markets', 'history', 'sol-500-2026']],
    ['markets page', ['markets', 'page', '/crypto']],
    ['markets search', ['markets', 'search', 'bitcoin']],
    ['markets show', ['markets', 'show', 'sol-500-2026']],
    ['order list', ['order', 'list']],
    ['order list --market', ['order', 'list', '--market', 'sol-500-2026']],
    ['order status', ['order', 'status', '--client-id', 'nobody-1']],
    ['order cancel --all', ['--yes', 'order', 'cancel', '--all', 'sol-500-2026']],
    ['order replace', ['--yes', 'order', 'replace', '00000000-0000-0000-0000-000000000000', '--price', '0.06']],
    ['partner list', ['partner', 'list']],
    ['portfolio history', ['portfolio', 'history']],
    ['portfolio pnl', ['portfolio', 'pnl']],
    ['portfolio trades', ['portfolio', 'trades']],
    ['positions', ['positions']],
    ['token list', ['token', 'list']],
    ['whoami', ['whoami']],
    ['withdraw --yes', ['--yes', 'withdraw', '1']],
    ['redeem --all --yes', ['--yes', 'redeem', '--all']],
  ];
  for (const [name, argv] of walk) {
    it(`walk: ${name} against a silent exchange ends within 2.5 s, exit 7`, async () => {
      const extra = await slack();
      proxy.current.reset();
      proxy.current.set(hangAll);
      const { value: r, ms, stalled } = await timed(() => runPm(['--json', '--timeout', '2s', ...argv], { env: env(newHome()) }));
      proxy.current.reset();
      expect(r.code, r.stderr).toBe(7);
      // (As above, the machine's load measured before, after and during: CI of 143ff18 failed two
      // of these on Node 20 at 2.79 s and 3.30 s, with 0 and 0.74 s measured before only.)
      const after = await slack();
      expect(ms, r.stderr).toBeLessThan(2500 + Math.max(extra, after) + stalled);
    });
  }

  it('order place whose POST /orders never answers (reads do): exit 7 with the unknown message within 2.5 s, one POST sent', async () => {
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/orders', times: Number.POSITIVE_INFINITY, fault: { kind: 'hang' } });
    const argv = ['--json', '--timeout', '2s', ...orderArgv('dl-hang-post')];
    const extra = await slack([...orderArgv('dl-hang-post'), '--dry-run']);
    const { value: r, ms, stalled } = await timed(() => runPm(argv, { env: env(newHome()) }));
    const posts = proxy.current.count('POST', '/orders');
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    expect(ms).toBeLessThan(2500 + extra + stalled);
    expect(posts).toBe(1);
    const err = (JSON.parse(r.stderr) as { error: { code: string; hint: string } }).error;
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain('--client-id dl-hang-post');
  });

  it('on a terminal, a wait over a second says what it waits for (stderr)', async () => {
    proxy.current.reset();
    proxy.current.set(hangAll);
    const r = await runPm(['--timeout', '1500ms', 'markets', 'list'], { env: env(newHome()), tty: true });
    proxy.current.reset();
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/waiting for the exchange to answer GET \/markets/);
  });
});

describe("the library's timeoutMs bounds each call", () => {
  it('markets.get and orders.place with timeoutMs 1500 reject within 2 s', async () => {
    const alice = seeded(sb.current, 'alice');
    const pm = createClient({
      home: newHome(),
      baseUrl: proxy.current.baseUrl,
      privateKey: alice.privateKey,
      token: alice.token,
      timeoutMs: 1500,
    });
    proxy.current.reset();
    // A first call loads the client's core, untimed: under vitest that is its source being
    // compiled (seconds beside busy loops), which the timed calls below must not measure.
    await pm.markets.get('sol-500-2026');
    proxy.current.set(hangAll);
    const get = await timed(() =>
      pm.markets.get('sol-500-2026').then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(get.value).toMatchObject({ name: 'NetworkError', exitCode: 7 });
    expect(get.ms).toBeLessThan(2000 + get.stalled);
    // Reads answer, the write never does: unknown, naming the client id.
    proxy.current.set({ method: 'POST', path: '/orders', times: Number.POSITIVE_INFINITY, fault: { kind: 'hang' } });
    const order = { market: 'sol-500-2026', side: 'buy' as const, outcome: 'yes' as const, price: '0.05', size: '1', clientId: 'dl-lib' };
    const place = await timed(() =>
      pm.orders.place(order).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    proxy.current.reset();
    expect(place.value).toMatchObject({ name: 'UnknownStateError', exitCode: 7, unknownClientId: 'dl-lib' });
    expect(place.ms).toBeLessThan(2000 + place.stalled);
    await pm.close();
  });
});
