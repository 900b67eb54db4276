// A crash mid-write leaves the journal's last line cut short (no newline): on every Node, wherever
// the cut falls, pm reads past it and the next `pm order place` sends its order (it refused with
// exit 2 on Node 22+, whose JSON.parse error text the old rule read). Decided from the bytes.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
// One order per prefix: the sandbox's rate limit off, and pm's pacing with it (as PM_PACE documents).
beforeAll(async () => expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200));
const journalFile = join(home, 'journal', 'orders.ndjson');
const place = (clientId: string) =>
  runPm([...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '5'), '--client-id', clientId], {
    env: accountEnv(sb.current, 'alice', home, { PM_PACE: 'off' }),
  });
const sent = (clientId: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === clientId).length;

describe('a torn last line of the order journal', () => {
  it('after every prefix of a real entry as the last line, order place still sends', async () => {
    const first = await place('torn-src');
    expect(first.code, first.stderr).toBe(0);
    // The pending entry pm wrote for it, the request included: the longest line it writes.
    const entry = readFileSync(journalFile, 'utf8').split('\n')[0] ?? '';
    expect(JSON.parse(entry)).toMatchObject({ clientOrderId: 'torn-src', state: 'pending' });
    expect(entry.length).toBeGreaterThan(500);
    for (let cut = 1; cut < entry.length; cut++) {
      writeFileSync(journalFile, `${entry}\n${entry.slice(0, cut)}`); // a crash mid-write of the second entry
      const id = `cut-${cut}`;
      const r = await place(id);
      expect(r.code, `cut at ${cut}: ${r.stderr}`).toBe(0);
      expect(sent(id), `cut at ${cut}`).toBe(1);
    }
    // A line that JSON cannot read however it went on is damage, not a torn line: nothing is sent.
    appendFileSync(journalFile, `\n${entry.replace('"state":', '"state"')}\n`);
    const damaged = await place('after-damage');
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/damaged at line/);
    expect(sent('after-damage')).toBe(0);
  }, 240_000); // one pm run per prefix: ~600 runs
});
