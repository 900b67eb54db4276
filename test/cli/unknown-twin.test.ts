// `pm order place` without --client-id whose outcome was unknown, run again as first typed (not
// the hinted command): pm generated a new client id each run, so the re-run placed a second order
// beside the one the lost answer had placed (reproduced: 2 orders in the sandbox's log). Now the
// re-run of an identical order within 15 minutes of the unknown completes the first under its
// client id: one order. Once that is settled, the same command places another (a deliberate repeat),
// and an order that differs is placed as asked. Faults from our proxy; orders counted in the
// sandbox's event log.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm } from '../helpers/run.js';
import type { RunResult } from '../helpers/run.js';
import { errorOf, lookupsFailFrom, useAliceBehindFaults } from '../helpers/unknown-bench.js';

const { sb, proxy, newHome, env } = useAliceBehindFaults();
const placedAt = (mark: number, price: bigint) => countEvents(sb.current, 'order.placed', (e) => e.order.price === price, mark);

/** One order whose answer is lost and whose lookups fail: exit 7; its generated client id. */
async function lostOrder(home: string, argv: string[]): Promise<string> {
  proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'drop' } }, lookupsFailFrom(1));
  // (Its deadline short: the lookups fail until it ends. The re-runs below keep the default one.)
  const r = await runPm(['--timeout', '3s', ...argv], { env: env(home) });
  proxy.current.reset();
  expect(r.code, r.stderr).toBe(7);
  const cid = /--client-id (pm-\S+)/.exec(errorOf(r.stderr).hint ?? '')?.[1] ?? '';
  expect(cid).toMatch(/^pm-/);
  return cid;
}

/** `r` placed a new order (exit 0, not under `cid`), the `n`th at `price` since `mark`. */
function placedAnew(r: RunResult, cid: string, mark: number, price: bigint, n: number): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.json<{ clientOrderId: string; alreadyPlaced: boolean }>()).toMatchObject({ alreadyPlaced: false });
  expect(r.json<{ clientOrderId: string }>().clientOrderId).not.toBe(cid);
  expect(placedAt(mark, price)).toBe(n);
}

describe('order place without --client-id, run again as typed after an unknown outcome', () => {
  it('completes the first order under its client id (one order, alreadyPlaced); run once more, it places another', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    const argv = ['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.078', '7')];
    const cid = await lostOrder(home, argv);
    expect(placedAt(mark, 78_000n)).toBe(1);

    const again = await runPm(argv, { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ clientOrderId: string; alreadyPlaced: boolean }>()).toMatchObject({ clientOrderId: cid, alreadyPlaced: true });
    expect(placedAt(mark, 78_000n)).toBe(1);

    // Settled (placed): the same command is a new order now.
    placedAnew(await runPm(argv, { env: env(home) }), cid, mark, 78_000n, 2);
  });

  it('in text, says which earlier order it completes and how to place another instead', async () => {
    const home = newHome();
    const argv = limitOrder('sol-500-2026', 'buy', 'yes', '0.079', '7');
    const cid = await lostOrder(home, ['--json', ...argv]);
    const again = await runPm(argv, { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`the outcome of an identical order (client id ${cid}`);
    // Sent seconds ago: said in seconds (it said "1 min ago").
    expect(again.stderr).toMatch(new RegExp(`\\(client id ${cid}, \\d{1,2} s ago\\)`));
    expect(again.stderr).toMatch(/to place another as well, give it a --client-id/);
  });

  it('an order that differs (another size) is placed as asked, under a client id of its own', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    const cid = await lostOrder(home, ['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.081', '7')]);
    placedAnew(
      await runPm(['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.081', '8')], { env: env(home) }),
      cid,
      mark,
      81_000n,
      2,
    );
  });

  it('after 15 minutes the unknown order is not completed by an identical one: that is placed as a new order', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    const argv = ['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.083', '7')];
    const cid = await lostOrder(home, argv);
    // (Its journal lines written 16 minutes earlier: ISO times of the same length, the file's size unchanged.)
    const file = join(home, 'journal', 'orders.ndjson');
    const old = new Date(Date.now() - 16 * 60_000).toISOString();
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => (l.includes(`"${cid}"`) ? l.replace(/"ts":"[^"]+"/, `"ts":"${old}"`) : l))
        .join('\n'),
    );
    placedAnew(await runPm(argv, { env: env(home) }), cid, mark, 83_000n, 2);
  });

  it('an identical order with a --client-id of its own is placed as asked', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    const argv = ['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.082', '7')];
    const cid = await lostOrder(home, argv);
    const own = await runPm([...argv, '--client-id', 'twin-own'], { env: env(home) });
    placedAnew(own, cid, mark, 82_000n, 2);
    expect(own.json<{ clientOrderId: string }>().clientOrderId).toBe('twin-own');
  });
});
