// pm sandbox fund: its answer is read into a typed value, and JSON money is a decimal with its raw
// units beside it, as everywhere else. Before: a truncated answer after the deposit was made
// crashed ("Cannot convert undefined to a BigInt … looks like a bug", exit 1) and a dropped one
// said "retry", although the sandbox's log held the deposit (a retry credits twice); --json
// printed `amount` in raw units ("5000000" for 5 USDC).
import { beforeEach, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { countEvents, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import type { Fault } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const newHome = useTempHomes();
const sb = useSandbox();
const proxy = useFaultProxy(sb);
beforeEach(() => proxy.current.reset());

const alice = (home: string) => ({ ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl });
const deposits = (mark: number) => countEvents(sb.current, 'funds.deposited', (e) => e.profileId === 1002, mark);

describe('pm sandbox fund', () => {
  it('--json: amount and balance as decimals, each with its …Raw', async () => {
    const r = await runPm(['--json', 'sandbox', 'fund', '5', '--to', '1002'], { env: alice(newHome()) });
    expect(r.code, r.stderr).toBe(0);
    const j = r.json<Record<string, string>>();
    expect(j).toMatchObject({ profileId: 1002, amount: '5', amountRaw: '5000000' });
    const raw = (d: string): bigint => {
      const [i = '', f = ''] = d.split('.');
      return BigInt(i + f.padEnd(6, '0'));
    };
    expect(raw(String(j['balance']))).toBe(BigInt(String(j['balanceRaw'])));
  });

  const lost: [string, Fault][] = [
    ['dropped after the deposit', { kind: 'drop' }],
    ['a truncated 2xx', { kind: 'truncate' }],
    ['a 2xx of the wrong shape', { kind: 'garble', as: 'shape' }],
  ];
  for (const [what, fault] of lost) {
    it(`${what}: unknown (exit 7), never a crash or "retry"; one deposit in the log`, async () => {
      const mark = logMark(sb.current);
      proxy.current.set({ method: 'POST', path: '/__sandbox/fund', fault });
      const r = await runPm(['--json', 'sandbox', 'fund', '5', '--to', '1002'], { env: alice(newHome()) });
      expect(r.code, r.stderr).toBe(7);
      const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
      expect(err.code).toBe('UNKNOWN_STATE');
      expect(err.message).toMatch(/deposit of 5 USDC to profile 1002 may or may not have been made/);
      expect(err.hint).toMatch(/credits again/);
      expect(err.hint).not.toMatch(/bug/);
      expect(deposits(mark)).toBe(1);
    });
  }
});
