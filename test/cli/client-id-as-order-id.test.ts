// A client id given where an order id goes: `pm order place` prints "client id pm-…" and a user
// types `pm order status pm-…` (or cancel, or replace). The exchange knows no order of that id:
// exit 4 with "check the id" (reproduced for status, cancel and replace). When the journal holds
// the word as a client id that pm sent to this exchange, the hint now writes out the command that
// names it as one (--client-id), and that command does it. Effects counted in the sandbox's log.
import { describe, expect, it, onTestFinished } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { errorOf, hintedArgv } from '../helpers/unknown-bench.js';

const sb = useSandbox();

/** A home of its own (removed when the test ends) with one resting order of alice's under `cid` (BUY YES 5 @ 0.1); its pm. */
async function restingUnder(cid: string) {
  const { home, cleanup } = tempHome();
  onTestFinished(cleanup);
  const pm = (...argv: string[]) => runPm(argv, { env: accountEnv(sb.current, 'alice', home) });
  const r = await pm(...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '5'), '--client-id', cid);
  expect(r.code, r.stderr).toBe(0);
  return pm;
}

describe('a client id given as an order id', () => {
  it('order status: exit 4 and the command with --client-id, which finds it', async () => {
    const pm = await restingUnder('cid-st-1');
    const r = await pm('--json', 'order', 'status', 'cid-st-1');
    expect(r.code).toBe(4);
    const hint = errorOf(r.stderr).hint ?? '';
    expect(hint).toMatch(/cid-st-1 is a client id pm sent/);
    expect(hintedArgv(hint)).toEqual(['--json', 'order', 'status', '--client-id', 'cid-st-1']);
    const again = await pm(...hintedArgv(hint));
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ clientOrderId: string; found: boolean }[]>()).toMatchObject([{ clientOrderId: 'cid-st-1', found: true }]);
  });

  it('order cancel: nothing cancelled, exit 4, and the command with --client-id cancels that one order', async () => {
    const pm = await restingUnder('cid-cx-1');
    const mark = logMark(sb.current);
    const r = await pm('order', 'cancel', 'cid-cx-1');
    expect(r.code).toBe(4);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(0);
    expect(r.stderr).toMatch(/cid-cx-1 is a client id pm sent/);
    expect(hintedArgv(r.stderr)).toEqual(['order', 'cancel', '--client-id', 'cid-cx-1']);
    const again = await pm(...hintedArgv(r.stderr));
    expect(again.code, again.stderr).toBe(0);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(1);
    // Named by its client id already: cancelled now (already canceled, exit 0), or refused by the
    // exchange (not found, exit 4); no advice to name it so either way.
    const cancelledAgain = await pm('order', 'cancel', '--client-id', 'cid-cx-1');
    expect(cancelledAgain.code, cancelledAgain.stderr).toBe(0);
    expect(cancelledAgain.stderr).toMatch(/already canceled/);
    expect(cancelledAgain.stderr).not.toMatch(/is a client id pm sent/);
    expect((await pm(...limitOrder('btc-100k-2026', 'sell', 'no', '0.97', '1'), '--client-id', 'cid-refused-1')).code).toBe(9);
    const named = await pm('order', 'status', '--client-id', 'cid-refused-1');
    expect(named.code, named.stderr).toBe(4);
    expect(named.stderr).not.toMatch(/is a client id pm sent/);
  });

  it('order replace: nothing replaced, exit 4, and the same line with --client-id moves it', async () => {
    const pm = await restingUnder('cid-rp-1');
    const mark = logMark(sb.current);
    const r = await pm('order', 'replace', 'cid-rp-1', '--price', '0.11', '--new-client-id', 'cid-rp-2');
    expect(r.code).toBe(4);
    expect(countEvents(sb.current, 'order.placed', undefined, mark)).toBe(0);
    expect(hintedArgv(r.stderr)).toEqual(['order', 'replace', '--client-id', 'cid-rp-1', '--price', '0.11', '--new-client-id', 'cid-rp-2']);
    const again = await pm(...hintedArgv(r.stderr));
    expect(again.code, again.stderr).toBe(0);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(1);
    expect(countEvents(sb.current, 'order.placed', (e) => e.order.clientOrderId === 'cid-rp-2', mark)).toBe(1);
  });

  it('a word the journal does not hold as a client id keeps the plain hint (no command with --client-id)', async () => {
    const pm = await restingUnder('cid-other-1');
    const r = await pm('order', 'status', 'cid-never-sent');
    expect(r.code).toBe(4);
    expect(r.stderr).not.toMatch(/--client-id cid-never-sent|is a client id pm sent/);
  });
});
