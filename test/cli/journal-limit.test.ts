// pm order journal says when it shows only part of what was asked for ("50 of 222 entries"), and
// --limit changes how many.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/core/trade/journal.js';
import { runPm, tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const pm = (...argv: string[]) => runPm(argv, { env: { PM_HOME: home } });

beforeAll(() => {
  const j = new Journal(join(home, 'journal'));
  for (let i = 0; i < 111; i++) {
    j.record({ clientOrderId: `c-${i}`, state: 'pending', marketSlug: 'btc-100k-2026', request: { order: { makerAmount: 1 } } });
    j.record({ clientOrderId: `c-${i}`, state: 'placed', orderId: `o-${i}` });
  }
});

describe('pm order journal --since / --limit', () => {
  it('--since 2h: the last 50 of 222, and it says so; --limit 300 shows all, and says nothing', async () => {
    const r = await pm('order', 'journal', '--since', '2h');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1 + 50);
    expect(r.stderr).toMatch(/50 of 222 entries .*--limit/);
    const all = await pm('order', 'journal', '--since', '2h', '--limit', '300');
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(1 + 222);
    expect(all.stderr).toBe('');
    const json = await pm('--json', 'order', 'journal', '--since', '2h', '--limit', '10');
    expect(json.json<{ clientOrderId: string }[]>().map((e) => e.clientOrderId)).toEqual(
      ['c-106', 'c-107', 'c-108', 'c-109', 'c-110'].flatMap((c) => [c, c]),
    );
  });

  it('no filter: the last 50, and a note that older entries exist', async () => {
    const r = await pm('order', 'journal');
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1 + 50);
    expect(r.stderr).toMatch(/the last 50 entries.*--limit/);
  });
});
