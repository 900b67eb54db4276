// Issue 30, items 2 and 10 for redeem: a claim whose answer pm cannot read (dropped, truncated,
// garbled, a 5xx) is unknown, exit 7, with the exact command to re-run; re-running it ends with the
// claim paid exactly once, counted in the sandbox's log (position.redeemed). Before: a single
// redeem answered 500 said "the exchange is unavailable; try again later", a truncated 2xx was
// taken as a success with nothing paid shown, and a re-run after a paid claim exited 5.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { countEvents, faultProxy } from '../helpers/fault-proxy.js';
import type { Fault, FaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

const newHome = useTempHomes();
// A fresh sandbox per test: alice's one seeded redeemable position (eth-5k-2025, 150 YES).
let sb: SandboxHandle;
let proxy: FaultProxy;
beforeEach(async () => {
  sb = await startSandbox({ port: 0, dataDir: null });
  proxy = await faultProxy(sb.baseUrl);
});
afterEach(async () => {
  await proxy.close();
  await sb.close();
});

const alice = (home: string) => ({ ...accountEnv(sb, 'alice', home), PM_BASE_URL: proxy.baseUrl });
const redeemed = (): number => countEvents(sb, 'position.redeemed', (e) => e.profileId === 1001);
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint: string } }).error;
/** The last `pm …` line of a hint. */
const command = (hint: string): string[] => (/(pm [^\n]+)$/.exec(hint)?.[1] ?? '').split(' ').slice(1);

describe('a single redeem whose answer pm cannot read', () => {
  const faults: [string, Fault, number][] = [
    ['dropped after the exchange paid', { kind: 'drop' }, 1],
    ['a truncated 2xx', { kind: 'truncate' }, 1],
    ['a 2xx that is not JSON', { kind: 'garble', as: 'text' }, 1],
    ['a 500 before the exchange saw it', { kind: 'status', status: 500 }, 0],
  ];
  for (const [what, fault, paidFirst] of faults) {
    it(`${what}: exit 7 unknown with the exact re-run; running it ends with one payment, reported redeemed`, async () => {
      const home = newHome();
      proxy.set({ method: 'POST', path: '/portfolio/redeem', fault });
      const r = await runPm(['--json', 'redeem', 'eth-5k-2025'], { env: alice(home) });
      expect(r.code, r.stderr).toBe(7);
      const err = errorOf(r.stderr);
      expect(err.code).toBe('UNKNOWN_STATE');
      expect(err.hint).not.toMatch(/try again later/);
      expect(err.hint).toMatch(/Run exactly this again \(a market is never paid twice\):\n {2}pm --json redeem eth-5k-2025$/);
      expect(redeemed()).toBe(paidFirst);
      const journal = readFileSync(join(home, 'journal', 'redemptions.ndjson'), 'utf8')
        .trim()
        .split('\n');
      expect(JSON.parse(journal.at(-1) ?? '{}')).toMatchObject({ state: 'unknown', market: 'eth-5k-2025', profileId: 1001 });
      // pm doctor says so.
      const d = await runPm(['--json', 'doctor'], { env: alice(home) });
      expect(d.stdout).toMatch(/1 redemption\(s\) with an unknown outcome: eth-5k-2025/);
      const again = await runPm(command(err.hint), { env: alice(home) });
      expect(again.code, again.stderr).toBe(0);
      expect(again.json()).toMatchObject({ market: 'eth-5k-2025', status: 'redeemed' });
      expect(redeemed()).toBe(1);
      const d2 = await runPm(['--json', 'doctor'], { env: alice(home) });
      expect(d2.stdout).not.toMatch(/redemption\(s\) with an unknown outcome/);
    });
  }

  it('the table writes the payout as the other tables write USDC: 150.00, not 150 (JSON keeps "150" and payoutRaw)', async () => {
    const r = await runPm(['redeem', 'eth-5k-2025'], { env: alice(newHome()) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^eth-5k-2025\tredeemed\t150\.00\t/m);
  });

  it('a claim refused outright (409 already redeemed, nothing unknown before) still exits 5', async () => {
    const home = newHome();
    expect((await runPm(['--json', 'redeem', 'eth-5k-2025'], { env: alice(home) })).code).toBe(0);
    const twice = await runPm(['--json', 'redeem', 'eth-5k-2025'], { env: alice(newHome()) });
    expect(twice.code).toBe(5);
    expect(redeemed()).toBe(1);
  });
});

// A claim the exchange never acted on (rate limited past the deadline, or never sent) is not
// "refused": redeem --all says "not sent" and exits with that error's code (6 rate limited, 7
// network), and the same command redeems it. Before: STATUS refused, exit 8 "1 of 1 claims were
// refused" (found by the CLI audit).
describe('redeem --all: a claim that was not sent', () => {
  it('rate limited past --timeout: status "not sent", exit 6, nothing paid; the same command then redeems it', async () => {
    const home = newHome();
    proxy.set({
      method: 'POST',
      path: '/portfolio/redeem',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 429, retryAfterSeconds: 30 },
    });
    const r = await runPm(['--json', '--timeout', '2s', 'redeem', '--all'], { env: alice(home) });
    proxy.reset();
    expect(r.code, r.stderr).toBe(6);
    expect(redeemed()).toBe(0);
    const claims = JSON.parse(r.stdout) as { market: string; status: string }[];
    expect(claims).toContainEqual(expect.objectContaining({ market: 'eth-5k-2025', status: 'not sent' }));
    expect(claims.some((c) => c.status === 'refused')).toBe(false);
    const err = errorOf(r.stderr);
    expect(err.message).toMatch(/1 of 1 claims? (was|were) not sent/);
    expect(err.hint).toMatch(/pm --json --timeout 2s redeem --all/);
    const again = await runPm(['--json', 'redeem', '--all'], { env: alice(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(redeemed()).toBe(1);
  });
});
