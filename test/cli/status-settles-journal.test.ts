// pm doctor lists orders whose outcome is unknown and says "check each: pm order status
// --client-id X". The check settles it: an order found under that client id (on this exchange)
// was placed, and the journal says so, so doctor stops listing it. Absence proves nothing (a late
// attempt may still land): a client id not found stays open. Before: after order status found the
// order, doctor still failed (exit 8) on it; only re-running the placement cleared it.
import { describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();

const journalCheck = (stdout: string) =>
  (JSON.parse(stdout) as { checks: { name: string; status: string; detail: string }[] }).checks.find((c) => c.name === 'journal');

/** An order placed as `cid` whose answer was lost and could not be looked up: exit 7, the journal's entry open. */
async function lostOrder(cid: string): Promise<{ home: string; env: Record<string, string> }> {
  const home = newHome();
  const env = { ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl };
  // Every POST /orders answer is dropped and the lookups fail too: the outcome stays unknown.
  proxy.current.reset();
  proxy.current.set(
    { method: 'POST', path: '/orders', times: Number.POSITIVE_INFINITY, fault: { kind: 'drop' } },
    { method: 'POST', path: '/orders/status/batch', times: Number.POSITIVE_INFINITY, fault: { kind: 'status', status: 503 } },
  );
  const argv = ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.03', '--size', '1', '--client-id', cid];
  const place = await runPm(['--json', '--timeout', '3s', ...argv], { env });
  proxy.current.reset();
  expect(place.code, place.stderr).toBe(7);
  return { home, env };
}

describe('pm order status settles what pm doctor lists', () => {
  it('an order whose answer was lost: doctor lists it; order status finds it; doctor no longer lists it', async () => {
    const { env } = await lostOrder('lost-1');
    const before = await runPm(['--json', 'doctor'], { env });
    expect(journalCheck(before.stdout)).toMatchObject({ status: 'fail', detail: expect.stringMatching(/lost-1/) });

    const status = await runPm(['--json', 'order', 'status', '--client-id', 'lost-1'], { env });
    expect(status.code, status.stderr).toBe(0);
    const after = await runPm(['--json', 'doctor'], { env });
    expect(journalCheck(after.stdout)?.status).not.toBe('fail');
    const journal = await runPm(['--json', 'order', 'journal', '--client-id', 'lost-1'], { env });
    expect(journal.stdout).toMatch(/"state":"placed"/);
  });
});

describe("the library's orders.status settles it the same way", () => {
  it('an order whose answer was lost, found by orders.status({ clientIds }): the journal says placed', async () => {
    const { home, env } = await lostOrder('lost-lib');
    const { createClient } = await import('../../src/lib/index.js');
    const a = seeded(sb.current, 'alice');
    const pm = createClient({ home, baseUrl: proxy.current.baseUrl, privateKey: a.privateKey, token: a.token });
    try {
      const [found] = await pm.orders.status({ clientIds: ['lost-lib'] });
      expect(found?.found).toBe(true);
    } finally {
      await pm.close();
    }
    const journal = await runPm(['--json', 'order', 'journal', '--client-id', 'lost-lib'], { env });
    expect(journal.stdout).toMatch(/"state":"placed"/);
  });
});
