// A second Ctrl-C (or SIGTERM) stops pm at once, without waiting for what is on its way, but never
// silently: one line (with --json, the one error object) says so and how to find what may be
// open. Before: exit 130 with nothing on stderr, while the order it was placing was placed after
// (its journal said pending), and a second SIGTERM exited 130, not 143.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { countEvents, useFaultProxy } from '../helpers/fault-proxy.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

describe('a second interrupt while an order is on its way', () => {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${sig} twice: exit ${code} at once, with one JSON error that says what may be open and names pm doctor`, async () => {
      const cid = `twice-${sig}`;
      // The proxy holds POST /orders 3 s before it forwards it: the order is on its way when the signals come.
      proxy.current.reset();
      proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'delay', ms: 3000 } });
      const child = execa(
        'node',
        ['bin/pm.js', '--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.03', '--size', '1', '--client-id', cid],
        { env: { ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl, CI: '1' }, stdin: 'ignore', reject: false },
      );
      await eventually(() => proxy.current.count('POST', '/orders') > 0, { what: 'the order on its way' });
      // Signals of one kind sent back to back may arrive as one: send it until pm has ended (the
      // first asks pm to stop and say what was done, which waits for the answer; a later one ends it).
      let ended = false;
      void child.finally(() => {
        ended = true;
      });
      // (Bounded: a pm that never ends fails the test below instead of being signalled for ever.)
      const until = Date.now() + 30_000;
      while (!ended && Date.now() < until) {
        child.kill(sig);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (!ended) child.kill('SIGKILL');
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(code);
      expect(r.stdout).toBe('');
      const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
      expect(err.code).toBe('INTERRUPTED');
      expect(err.message).toMatch(new RegExp(`second ${sig}`));
      expect(err.hint).toMatch(/pm doctor/);
      // The exchange acted after pm stopped: which is why pm must not stop silently.
      await eventually(() => countEvents(sb.current, 'order.placed', (e) => e.order.clientOrderId === cid) > 0, {
        what: 'the order placed after pm stopped',
      });
    });
  }
});
