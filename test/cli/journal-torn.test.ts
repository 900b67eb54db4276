// A crash mid-write leaves the journal's last line cut short (no newline): on every Node, wherever
// the cut falls, pm reads past it and the next `pm order place` sends its order (it refused with
// exit 2 on Node 22+, whose JSON.parse error text the old rule read). Decided from the bytes.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/core/trade/journal.js';
import { accountEnv } from '../helpers/account-env.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const journalFile = join(home, 'journal', 'orders.ndjson');
const place = (clientId: string) =>
  runPm([...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '5'), '--client-id', clientId], {
    env: accountEnv(sb.current, 'alice', home),
  });
const sent = (clientId: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === clientId).length;

/** A class of cut: the kinds of the characters on either side of it (digit, letter, or the character). */
const kind = (c: string | undefined) => (c === undefined ? '' : /[0-9]/.test(c) ? '9' : /[a-zA-Z]/.test(c) ? 'a' : c);

describe('a torn last line of the order journal', () => {
  it('every prefix of a real entry is skipped, and order place still sends after one of each kind of cut', async () => {
    const first = await place('torn-src');
    expect(first.code, first.stderr).toBe(0);
    // The pending entry pm wrote for it, the request included: the longest line it writes.
    const entry = readFileSync(journalFile, 'utf8').split('\n')[0] ?? '';
    expect(JSON.parse(entry)).toMatchObject({ clientOrderId: 'torn-src', state: 'pending' });

    const cuts = new Map<string, number>();
    for (let cut = 1; cut < entry.length; cut++) {
      const dir = join(home, 'prefixes', String(cut));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'orders.ndjson'), `${entry}\n${entry.slice(0, cut)}`);
      const j = new Journal(dir);
      // What order place does: look the client id up, then append its pending entry.
      expect(j.lookup('next'), `cut at ${cut}`).toBeUndefined();
      j.record({ clientOrderId: 'next', state: 'pending' });
      expect([...j.latestAll().keys()], `cut at ${cut}`).toEqual(['torn-src', 'next']);
      cuts.set(kind(entry[cut - 1]) + kind(entry[cut]), cut);
    }
    expect(cuts.size).toBeGreaterThan(20);

    // The whole command against the sandbox, one cut of each kind (all of them would take minutes
    // at the exchange's pace of one request per 300 ms and token).
    for (const cut of cuts.values()) {
      appendFileSync(journalFile, entry.slice(0, cut));
      const id = `after-cut-${cut}`;
      const r = await place(id);
      expect(r.code, `cut at ${cut}: ${r.stderr}`).toBe(0);
      expect(sent(id), `cut at ${cut}`).toBe(1);
    }
    // A line that JSON cannot read however it goes on is damage, not a torn line: nothing is sent.
    appendFileSync(journalFile, `\n${entry.replace('"state":', '"state"')}\n`);
    const damaged = await place('after-damage');
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/damaged at line/);
    expect(sent('after-damage')).toBe(0);
  });
});
