// pm order status of a resting order filled later as a maker: it said FILLED 0, UNMATCHED and
// matched false (the figures of its placement, when nothing matched at once), while the order had
// 2 of its 5 shares filled and settled. Now `filledTotal` (original less remaining size) is what
// the FILLED column shows, `matched` and `settlementStatus` are the order's as it stands; `filled`
// stays its placement's immediate execution.
import { describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 20, confirmedAfterMs: 20 } });
const home = useTempHomes();

describe('pm order status of an order filled as a maker after it rested', () => {
  it('shows the shares filled since, matched, and the settlement of the order now', async () => {
    const alice = accountEnv(sb.current, 'alice', home());
    const bob = accountEnv(sb.current, 'bob', home());
    const cid = `maker-${Date.now()}`;
    const placed = await runPm(
      ['--json', 'order', 'place', 'fed-cut-december', 'buy', 'yes', '--price', '0.70', '--size', '5', '--client-id', cid],
      {
        env: alice,
      },
    );
    expect(placed.code, placed.stderr).toBe(0);
    const took = await runPm(
      ['--json', 'order', 'place', 'fed-cut-december', 'sell', 'yes', '--price', '0.70', '--size', '2', '--type', 'fak'],
      {
        env: bob,
      },
    );
    expect(took.code, took.stderr).toBe(0);
    const s = await runPm(['--json', 'order', 'status', '--client-id', cid], { env: alice });
    expect(s.code, s.stderr).toBe(0);
    const [row] = s.json<Record<string, unknown>[]>();
    expect(row).toMatchObject({ status: 'LIVE', matched: true, filledTotal: { shares: '2', sharesRaw: '2000000' } });
    expect(row?.['settlementStatus']).not.toBe('UNMATCHED');
    const text = await runPm(['order', 'status', '--client-id', cid], { env: { ...alice, COLUMNS: '200' } });
    expect(text.stdout.trim().split('\n').at(-1)?.split('\t').at(-1)).toBe('2');
  });
});
