// A redemption whose answer is lost is neither "refused" nor "redeemed": its outcome is unknown,
// and the safe advice is to re-run the same command (a market already redeemed is never paid
// twice). Before the fix, `redeem --all` listed such a market as refused and exited 8.
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { useDropProxy } from '../helpers/drop-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const proxy = useDropProxy(sb, 'POST', '/portfolio/redeem', 1);

const alice = () => ({ ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl });
const usdc = (): bigint => {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  return sb.current.ctx.state.accounts[String(a?.profileId)]?.usdc ?? 0n;
};

describe('redeem --all when an answer is lost', () => {
  it('reports the claim as unknown and exits 7 saying to re-run; the re-run pays nothing twice', async () => {
    const start = usdc();
    const r = await runPm(['--json', 'redeem', '--all'], { env: alice() });
    expect(proxy.current.dropped).toBe(1);
    expect(r.code, r.stderr).toBe(7);
    const claims = r.json<{ market: string; status: string; message: string }[]>();
    expect(claims).toEqual([expect.objectContaining({ market: 'eth-5k-2025', status: 'unknown' })]);
    expect(claims[0]?.message).toMatch(/re-run/);
    // The exchange acted on it (the answer was dropped after the commit): paid once.
    const paid = usdc() - start;
    expect(paid).toBe(150_000_000n);
    // The re-run asks about the unknown claim again (the positions no longer list it): the
    // exchange says it was paid, so it is reported redeemed, by the earlier run (issue 30).
    const again = await runPm(['--json', 'redeem', '--all'], { env: alice() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ market: string; status: string; message: string }[]>()).toEqual([
      expect.objectContaining({ market: 'eth-5k-2025', status: 'redeemed', message: expect.stringMatching(/earlier run/) }),
    ]);
    expect(usdc() - start).toBe(paid);
    // Settled: a third run finds nothing to redeem before sending anything.
    expect((await runPm(['--json', 'redeem', '--all'], { env: alice() })).code).toBe(2);
  });
});
