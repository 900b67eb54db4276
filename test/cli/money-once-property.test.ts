// The property of issue 30 ("done means") for money: withdraw, redeem and redeem --all. For every
// fault of our proxy at every request position of the command, run it, then do what pm's hint
// says until it succeeds: re-run the printed command (redeem), or check the wallet as the hint
// asks and settle (withdraw: `--settle <id> --as sent` when the money moved, else `--as
// not-sent` and the withdrawal again). The sandbox's log ends with exactly one effect, and pm
// never said "withdrawn"/"redeemed" for nothing, nor "not withdrawn"/"refused" for what happened.
import { beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { countEvents, everyFault, faultName, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import type { RunResult } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 0, confirmedAfterMs: 0 } });
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();
beforeAll(async () => {
  expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
});

const TIMEOUT_MS = 1000;
const FAULTS = everyFault(TIMEOUT_MS);
const timeout = ['--json', '--timeout', `${TIMEOUT_MS}ms`];
const viaProxy = (name: string, home: string) => ({
  ...accountEnv(sb.current, name, home),
  PM_BASE_URL: proxy.current.baseUrl,
  PM_PACE: 'off',
});
const direct = (name: string, home: string) => ({ ...accountEnv(sb.current, name, home), PM_PACE: 'off' });
const quiet = () => eventually(() => proxy.current.inFlight === 0, { what: 'requests in flight at the proxy' });
const errorOf = (r: RunResult): { code: string; message: string; hint?: string } | null => {
  try {
    return (JSON.parse(r.stderr) as { error: { code: string; message: string; hint?: string } }).error;
  } catch {
    return null;
  }
};
/** The argv of a command a hint writes out on a line of its own (`  pm …`); `pick` chooses among several. */
function hinted(hint: string | undefined, pick: RegExp = /./): string[] | null {
  const line = [...(hint ?? '').matchAll(/^\s*(?:[a-z ]+:\s+)?pm (.+)$/gm)].map((m) => m[1] ?? '').find((l) => pick.test(l));
  return line === undefined ? null : [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

interface Report {
  cases: number;
  runs: number;
  failures: string[];
}

/** How many requests a clean run of `argv` makes as `name` (its request positions). */
async function positions(name: string, argv: string[]): Promise<number> {
  proxy.current.reset();
  // (With no fault the deadline only has to be met: a loaded machine gets the default one.)
  const r = await runPm(['--json', ...argv], { env: viaProxy(name, newHome()) });
  expect(r.code, r.stderr).toBe(0);
  return proxy.current.count();
}

describe('money moves exactly once, for every fault at every request position', () => {
  it('withdraw (carol, a server wallet): check the wallet as the hint says, settle, send again only if it did not move', async () => {
    const carolWallet = sb.current.ctx.state.accounts[String(seeded(sb.current, 'carol').profileId)];
    expect(carolWallet).toBeDefined();
    let cents = 1;
    const amount = () => `0.0000${String(cents++).padStart(2, '0')}`;
    const raw = (a: string) => BigInt(a.replace('0.', '').replace(/^0+/, ''));
    const withdrawnOf = (mark: number, r: bigint) => countEvents(sb.current, 'funds.withdrawn', (e) => e.amount === r, mark);
    const n = await positions('carol', ['--yes', 'withdraw', amount()]);
    const report: Report = { cases: 0, runs: 0, failures: [] };
    for (const fault of FAULTS)
      for (let p = 1; p <= n; p++) {
        report.cases++;
        const a = amount();
        const want = raw(a);
        const home = newHome();
        const mark = logMark(sb.current);
        const name = `withdraw ${faultName(fault)}@${p}`;
        proxy.current.reset();
        proxy.current.set({ nth: p, fault });
        let next: string[] | null = ['--yes', 'withdraw', a];
        let done = false;
        for (let run = 0; run < 5 && next && !done; run++) {
          const r = await runPm([...timeout, ...next], { env: viaProxy('carol', home) });
          proxy.current.reset();
          report.runs++;
          await quiet();
          const moved = withdrawnOf(mark, want);
          if (r.code === 0) {
            done = !next.includes('--settle') || next.includes('sent');
            if (!next.includes('--settle') && moved !== 1) report.failures.push(`${name} run ${run}: said withdrawn, ${moved} withdrawals`);
            if (next.includes('--settle') && next.at(-1) === 'not-sent') {
              next = ['--yes', 'withdraw', a];
              done = false;
            } else next = null;
            continue;
          }
          const e = errorOf(r);
          if (e?.code !== 'UNKNOWN_STATE' && e?.code !== 'NETWORK' && moved > 0)
            report.failures.push(`${name} run ${run}: said ${e?.code ?? r.code} (not withdrawn) but it moved`);
          // The user checks the wallet's transfers, as the hint asks, and settles accordingly.
          const settle = hinted(e?.hint, moved > 0 ? / --as sent$/ : / --as not-sent$/);
          next = settle ? settle.filter((w) => w !== '--json') : e?.code === 'NETWORK' && moved === 0 ? ['--yes', 'withdraw', a] : null;
        }
        await quiet();
        const total = withdrawnOf(mark, want);
        if (total !== 1) report.failures.push(`${name}: ${total} withdrawals for one intent`);
      }
    console.log(`withdraw: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} runs`);
    expect(report.failures).toEqual([]);
  });

  /** A market where alice holds 2 winning YES shares (bob took the other side), resolved YES. */
  let m = 0;
  async function winning(): Promise<string> {
    const slug = `once-redeem-${m++}`;
    expect(await postAdmin(sb.current, 'markets', { slug })).toBe(201);
    const place = (who: string, outcome: string) =>
      runPm(['--json', 'order', 'place', slug, 'buy', outcome, '--price', '0.5', '--size', '2'], { env: direct(who, newHome()) });
    expect((await place('alice', 'yes')).code).toBe(0);
    expect((await place('bob', 'no')).code).toBe(0);
    expect(await postAdmin(sb.current, `markets/${slug}/resolve`, { winner: 'YES' })).toBe(200);
    return slug;
  }
  const conditionOf = (slug: string) => sb.current.ctx.state.markets.find((x) => x.slug === slug)?.conditionId ?? '?';
  const redeemedOf = (mark: number, slug: string) =>
    countEvents(sb.current, 'position.redeemed', (e) => e.conditionId.toLowerCase() === conditionOf(slug).toLowerCase(), mark);

  for (const all of [false, true])
    it(`redeem${all ? ' --all' : ' <slug>'}: re-running the printed command ends with one payment, reported redeemed`, async () => {
      const argvOf = (slug: string) => (all ? ['redeem', '--all'] : ['redeem', slug]);
      const n = await positions('alice', argvOf(await winning()));
      const report: Report = { cases: 0, runs: 0, failures: [] };
      for (const fault of FAULTS)
        for (let p = 1; p <= n; p++) {
          report.cases++;
          const s = await winning();
          const home = newHome();
          const mark = logMark(sb.current);
          const name = `redeem${all ? ' --all' : ''} ${faultName(fault)}@${p}`;
          proxy.current.reset();
          proxy.current.set({ nth: p, fault });
          let next = [...timeout, ...argvOf(s)];
          for (let run = 0; run < 5; run++) {
            const r = await runPm(next, { env: viaProxy('alice', home) });
            proxy.current.reset();
            report.runs++;
            await quiet();
            const paid = redeemedOf(mark, s);
            if (r.code === 0) {
              if (paid !== 1) report.failures.push(`${name} run ${run}: said redeemed, ${paid} payments`);
              break;
            }
            const e = errorOf(r);
            if (e?.code !== 'UNKNOWN_STATE' && e?.code !== 'NETWORK' && paid > 0 && !/already/i.test(e?.message ?? ''))
              report.failures.push(`${name} run ${run}: said ${e?.code ?? r.code} but it was paid`);
            const again = hinted(e?.hint);
            if (again) next = again;
            if (run === 4) report.failures.push(`${name}: no success after 5 runs (last: ${r.code} ${r.stderr.slice(0, 300)})`);
          }
          await quiet();
          const total = redeemedOf(mark, s);
          if (total !== 1) report.failures.push(`${name}: ${total} payments for one claim`);
        }
      console.log(`redeem${all ? ' --all' : ''}: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} runs`);
      expect(report.failures).toEqual([]);
    });
});
