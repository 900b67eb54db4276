// A cancel whose answer pm cannot read (dropped after the exchange cancelled, a truncated or
// garbled 2xx) is never reported as "nothing to cancel" or "not found": pm asks the exchange what
// became of the orders and reports that, or says the outcome is unknown with the command that
// tells it. Before: a truncated or garbled answer printed `{"canceled":[],"failed":[]}` (text:
// "nothing to cancel"), exit 0, with the order cancelled in the sandbox's log; a dropped answer
// was retried, the retry said ORDER_NOT_FOUND, and pm said "no order to cancel: it was not found",
// exit 4; --all <slug> said "nothing to cancel" for orders it had just cancelled.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { countEvents as count, logMark as markOf, useFaultProxy } from '../helpers/fault-proxy.js';
import type { Fault } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const newHome = useTempHomes();
const box = useSandbox();
const faults = useFaultProxy(box);
const proxy = {
  set: (...r: Parameters<(typeof faults.current)['set']>) => faults.current.set(...r),
  reset: () => faults.current.reset(),
};
beforeEach(() => proxy.reset());
const logMark = () => markOf(box.current);
/** Orders the sandbox cancelled since `mark`. */
const cancelled = (mark: number) => count(box.current, 'order.cancelled', undefined, mark);

const alice = (home: string) => ({ ...accountEnv(box.current, 'alice', home), PM_BASE_URL: faults.current.baseUrl });
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint: string } }).error;
const live = (): string[] => box.current.ctx.state.orders.filter((o) => o.ownerId === 1001 && o.status === 'LIVE').map((o) => o.id);
async function place(home: string, cid: string, price = '0.2'): Promise<string> {
  const r = await runPm(['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', price, '--size', '1', '--client-id', cid], {
    env: alice(home),
  });
  expect(r.code, r.stderr).toBe(0);
  return r.json<{ orderId: string }>().orderId;
}

const lost: [string, Fault][] = [
  ['dropped after the exchange cancelled', { kind: 'drop' }],
  ['a truncated 2xx', { kind: 'truncate' }],
  ['a 2xx that is not JSON', { kind: 'garble', as: 'text' }],
  ['a 2xx of the wrong shape', { kind: 'garble', as: 'shape' }],
];

describe('pm order cancel <id> whose answer is lost', () => {
  for (const [what, fault] of lost) {
    it(`${what}: reported cancelled (asked the exchange), exit 0; one cancel in the log`, async () => {
      const home = newHome();
      const id = await place(home, `cl-${fault.kind}-${'as' in fault ? fault.as : ''}`);
      const mark = logMark();
      proxy.set({ method: 'POST', path: '/orders/batch-cancel', fault });
      const r = await runPm(['--json', 'order', 'cancel', id], { env: alice(home) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ canceled: [id], failed: [] });
      expect(cancelled(mark)).toBe(1);
      expect(live()).not.toContain(id);
    });
  }

  it('by client id, truncated: the text report names the order cancelled, never "nothing to cancel"', async () => {
    const home = newHome();
    const id = await place(home, 'cl-text');
    proxy.set({ method: 'POST', path: '/orders/batch-cancel', fault: { kind: 'truncate' } });
    const r = await runPm(['order', 'cancel', '--client-id', 'cl-text'], { env: alice(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(id);
    expect(r.stderr).not.toMatch(/nothing to cancel/);
    expect(r.stderr).toMatch(/1 canceled, 0 failed/);
  });

  it('an order cancelled before (no answer lost) is already canceled, exit 0; an id never seen is not found, exit 4', async () => {
    const home = newHome();
    const id = await place(home, 'cl-before');
    expect((await runPm(['--json', 'order', 'cancel', id], { env: alice(home) })).code).toBe(0);
    const again = await runPm(['--json', 'order', 'cancel', id], { env: alice(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ canceled: [], failed: [], alreadyCanceled: [id] });
    const ghost = await runPm(['--json', 'order', 'cancel', 'no-such-order-id'], { env: alice(home) });
    expect(ghost.code, ghost.stderr).toBe(4);
  });

  it('answer lost and the exchange cannot be asked: exit 7 unknown, with the command that tells; it says cancelled', async () => {
    const home = newHome();
    const id = await place(home, 'cl-unknown');
    const mark = logMark();
    proxy.set(
      { method: 'POST', path: '/orders/batch-cancel', fault: { kind: 'truncate' } },
      { method: 'POST', path: '/orders/status/batch', times: Number.POSITIVE_INFINITY, fault: { kind: 'status', status: 503 } },
    );
    const r = await runPm(['--json', '--timeout', '3s', 'order', 'cancel', id], { env: alice(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(/outcome of the cancel .* unknown/);
    const check = /(pm [^\n]+)$/.exec(err.hint)?.[1] ?? '';
    expect(check).toBe(`pm --json order status ${id}`);
    expect(cancelled(mark)).toBe(1);
    proxy.reset();
    const s = await runPm(check.split(' ').slice(1), { env: alice(home) });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/CANCELED/);
  });
});

describe('pm order cancel --all <slug> whose answer is lost', () => {
  for (const [what, fault] of lost.slice(0, 2)) {
    it(`${what}: says the answer was lost and nothing of the market is open (exit 0), never "nothing to cancel"`, async () => {
      const home = newHome();
      const mine = [await place(home, `all-a-${fault.kind}`, '0.2'), await place(home, `all-b-${fault.kind}`, '0.21')];
      const mark = logMark();
      proxy.set({ method: 'DELETE', path: '/orders/all/btc-100k-2026', fault });
      const r = await runPm(['--json', 'order', 'cancel', '--all', 'btc-100k-2026'], { env: alice(home) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ failed: [], answerLost: true });
      expect(cancelled(mark)).toBe(2);
      expect(live().filter((id) => mine.includes(id))).toEqual([]);
      const text = await runPm(['order', 'cancel', '--all', 'btc-100k-2026'], { env: alice(home) });
      expect(text.stderr).toMatch(/nothing to cancel/); // the second time, truly nothing
      proxy.set({ method: 'DELETE', path: '/orders/all/btc-100k-2026', fault });
      await place(home, `all-c-${fault.kind}`, '0.2');
      const t2 = await runPm(['order', 'cancel', '--all', 'btc-100k-2026'], { env: alice(home) });
      expect(t2.code, t2.stderr).toBe(0);
      expect(t2.stderr).not.toMatch(/nothing to cancel/);
      expect(t2.stderr).toMatch(/answer .* lost/);
    });
  }
});

describe('pm order cancel --all <slug>: answer lost and the open orders unreadable', () => {
  it('exit 7 unknown, the hint in the CLI words: the list command and the same command (harmless)', async () => {
    const home = newHome();
    await place(home, 'all-unknown', '0.2');
    proxy.set(
      { method: 'DELETE', path: '/orders/all/btc-100k-2026', fault: { kind: 'truncate' } },
      {
        method: 'GET',
        path: '/markets/btc-100k-2026/user-orders',
        times: Number.POSITIVE_INFINITY,
        fault: { kind: 'status', status: 503 },
      },
    );
    const r = await runPm(['--json', '--timeout', '3s', 'order', 'cancel', '--all', 'btc-100k-2026'], { env: alice(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain('pm --json order list --market btc-100k-2026');
    expect(err.hint).toMatch(/Or cancel again \(harmless\): pm --json --timeout 3s order cancel --all btc-100k-2026$/);
    expect(err.hint).not.toMatch(/orders\.list/);
  });
});

describe('a cancel still on its way when the deadline passes (no answer at all)', () => {
  it('by id: exit 7 unknown, the same command (harmless) and the check; it did cancel', async () => {
    const home = newHome();
    const id = await place(home, 'cl-late');
    const mark = logMark();
    proxy.set({ method: 'POST', path: '/orders/batch-cancel', fault: { kind: 'delay', ms: 2500 } });
    const r = await runPm(['--json', '--timeout', '1s', 'order', 'cancel', id], { env: alice(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain(`Cancel again (harmless): pm --json --timeout 1s order cancel ${id}`);
    expect(err.hint).toMatch(new RegExp(`pm --json order status ${id}$`));
    // The held request reaches the exchange after pm gave up: the order is cancelled, once.
    await vi.waitFor(() => expect(faults.current.inFlight).toBe(0), { timeout: 10_000 });
    expect(cancelled(mark)).toBe(1);
  });

  it('the kill switch: a market whose cancel got no answer is unknown (exit 7), one never sent is said so (each market asked at once)', async () => {
    const home = newHome();
    const btc = await place(home, 'ks-btc', '0.2');
    const sol = await runPm(['--json', 'order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.05', '--size', '2'], {
      env: alice(home),
    });
    expect(sol.code, sol.stderr).toBe(0);
    // Every market's cancel is held past the deadline: those sent (all at once, paced by the
    // limiter) are unknown; one still waiting its turn when the deadline passed never leaves.
    proxy.set({ method: 'DELETE', path: /^\/orders\/all\//, times: Number.POSITIVE_INFINITY, fault: { kind: 'delay', ms: 2500 } });
    const r = await runPm(['--json', '--yes', '--timeout', '1.5s', 'order', 'cancel', '--all'], { env: alice(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain('Cancel again (harmless): pm --json --yes --timeout 1.5s order cancel --all');
    const out = r.json<{ markets: { market: string; error?: { code: string; message: string } }[] }>();
    expect(out.markets).toHaveLength(2);
    expect(out.markets.some((m) => m.error?.code === 'UNKNOWN_STATE')).toBe(true);
    for (const m of out.markets)
      if (m.error?.code !== 'UNKNOWN_STATE')
        expect(m.error).toMatchObject({ code: 'NETWORK', message: expect.stringMatching(/before it could be sent/) });
    // An unknown one's cancel reached the exchange after pm gave up; one never sent left its order open.
    await vi.waitFor(() => expect(faults.current.inFlight).toBe(0), { timeout: 10_000 });
    const orderOf = { 'btc-100k-2026': btc, 'sol-500-2026': sol.json<{ orderId: string }>().orderId } as Record<string, string>;
    expect(faults.current.count('DELETE', /^\/orders\/all\//)).toBe(out.markets.filter((m) => m.error?.code === 'UNKNOWN_STATE').length);
    for (const m of out.markets) {
      if (m.error?.code === 'UNKNOWN_STATE') expect(live()).not.toContain(orderOf[m.market]);
      else expect(live()).toContain(orderOf[m.market]);
    }
  });
});

describe('the cancel pm advises after an unknown outcome ("Cancel again (harmless)"), run once the order is cancelled', () => {
  it('by client id and by id: exit 0, the order named already cancelled (not "not found", exit 4); nothing more cancelled', async () => {
    const home = newHome();
    const cid = `again-${Date.now()}`;
    const id = await place(home, cid);
    // The first cancel went through (the run that lost its answer, or one that got it).
    const first = await runPm(['--json', 'order', 'cancel', '--client-id', cid], { env: alice(home) });
    expect(first.code, first.stderr).toBe(0);
    expect(live()).not.toContain(id);
    const mark = logMark();
    for (const argv of [['--client-id', cid], [id]]) {
      const r = await runPm(['--json', 'order', 'cancel', ...argv], { env: alice(home) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ canceled: [], failed: [], alreadyCanceled: [id] });
      const text = await runPm(['order', 'cancel', ...argv], { env: alice(home) });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toMatch(/already canceled/);
    }
    expect(cancelled(mark)).toBe(0);
  });
});
