// Issue 30 #5: the journal is the home's, shared by every account and exchange a user points pm at.
// A batch run as alice, then the same file as bob with the status lookup failing (502): bob's
// lines were "skipped" as placed with alice's order ids, exit 0, and bob had no order. An entry
// counts only for the account and exchange it was written for: bob's lines are placed, once each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { countEvents, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

describe('a batch on a PM_HOME that another account used', () => {
  it("never counts alice's journal entries for bob, even when the exchange cannot be asked", async () => {
    expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
    const file = join(home, 'three.ndjson');
    const line = (price: string) => JSON.stringify({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price, size: '1' });
    writeFileSync(file, `${[line('0.011'), line('0.012'), line('0.013')].join('\n')}\n`);
    const as = (name: string) => ({ ...accountEnv(sb.current, name, home, { PM_PACE: 'off' }), PM_BASE_URL: proxy.current.baseUrl });
    const alice = await runPm(['--json', 'order', 'place', '--file', file], { env: as('alice') });
    expect(alice.code, alice.stderr).toBe(0);
    const bobId = seeded(sb.current, 'bob').profileId;
    const mark = logMark(sb.current);
    proxy.current.set({
      method: 'POST',
      path: '/orders/status/batch',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 502 },
    });
    const bob = await runPm(['--json', 'order', 'place', '--file', file], { env: as('bob') });
    proxy.current.reset();
    expect(bob.code, bob.stderr).toBe(0);
    const lines = ndjson<{ ok: boolean; skipped?: boolean }>(bob.stdout);
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.ok && !l.skipped)).toBe(true);
    expect(countEvents(sb.current, 'order.placed', (e) => e.order.ownerId === bobId, mark)).toBe(3);
    // alice's re-run still skips hers: nothing placed twice.
    const again = logMark(sb.current);
    const alice2 = await runPm(['--json', 'order', 'place', '--file', file], { env: as('alice') });
    expect(alice2.code, alice2.stderr).toBe(0);
    expect(countEvents(sb.current, 'order.placed', () => true, again)).toBe(0);
  });
});
