// The kill switch (`pm order cancel --all`, every market) asks every market at once: one market
// whose cancel hangs does not hold back the others. Before: the markets were asked one after
// another under the command's one deadline, so a hanging first market used it all up and the
// markets after it were never asked (their orders stayed LIVE), exit 7.
import { describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const newHome = useTempHomes();
const box = useSandbox();
const faults = useFaultProxy(box);
const MARKETS = ['eth-flip-btc', 'world-cup-2026-brazil', 'gpt-6-release-2026'];
const live = (profileId: number): string[] =>
  box.current.ctx.state.orders.filter((o) => o.ownerId === profileId && o.status === 'LIVE').map((o) => o.marketSlug);

describe('the kill switch with one market hanging', () => {
  it('cancels every other market, and says the hanging one is unknown', async () => {
    const home = newHome();
    const env = accountEnv(box.current, 'carol', home);
    const carol = seeded(box.current, 'carol').profileId;
    for (const m of MARKETS)
      expect(
        (
          await runPm(['order', 'place', m, 'buy', 'yes', '--price', '0.02', '--size', '5', '--client-id', `ks-${m}-${Date.now()}`], {
            env,
          })
        ).code,
      ).toBe(0);
    // Whichever market pm asks first hangs, and so does every other but one: only one can answer.
    const answering = MARKETS[1] as string;
    faults.current.set({
      method: 'DELETE',
      path: new RegExp(`^/orders/all/(?!${answering}$)`),
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'hang' },
    });
    try {
      const r = await runPm(['--json', 'order', 'cancel', '--all', '--yes', '--timeout', '2s'], {
        env: { ...env, PM_BASE_URL: faults.current.baseUrl },
      });
      expect(r.code, r.stderr).toBe(7);
      expect(live(carol)).not.toContain(answering);
      expect(live(carol).sort()).toEqual(MARKETS.filter((m) => m !== answering).sort());
    } finally {
      faults.current.reset();
    }
    expect((await runPm(['order', 'cancel', '--all', '--yes'], { env })).code).toBe(0);
  });
});
