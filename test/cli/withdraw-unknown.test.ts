// Issue 20 #6: a withdrawal whose answer is lost is never met with "retry". Before the fix pm
// exited 7 with "may or may not have reached the exchange; retry", and re-running moved the
// money again. Now the intent is journaled, the outcome is settled from the source wallet's
// balance where pm can read it, else exit 7 says how to check; an identical withdrawal is refused
// (exit 5) until the unknown one is settled (pm withdraw --settle <id> --as sent|not-sent; issue 30).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/account-env.js';
import { useDropProxy } from '../helpers/drop-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { SERVER_WALLETS } from '../../src/sandbox/seed.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
// Each test says how many withdraw answers the proxy drops (tests run in any order).
const proxy = useDropProxy(sb, 'POST', '/portfolio/withdraw');

const carol = () => seeded(sb.current, 'carol');
const env = () => ({
  PM_HOME: home,
  PM_BASE_URL: proxy.current.baseUrl,
  PM_TOKEN_ID: carol().token.tokenId,
  PM_TOKEN_SECRET: carol().token.secret,
});
const usdc = (): bigint => sb.current.ctx.state.accounts[String(carol().profileId)]?.usdc ?? 0n;
const journal = () =>
  readFileSync(join(home, 'journal', 'withdrawals.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; state: string; amount: string; wallet: string | null });

/** This test's two entries (the intent, then its outcome), whatever the other tests wrote before. */
const last2 = () => journal().slice(-2);

describe('a withdrawal whose answer is lost', () => {
  it('exits 7 saying how to check, never "retry"; the same withdrawal is then refused (exit 5); settled not-sent, it is sent', async () => {
    proxy.drops = 1;
    const start = usdc();
    const r = await runPm(['--json', '--yes', 'withdraw', '10'], { env: env() });
    expect(r.code).toBe(7);
    expect(proxy.current.dropped).toBe(1);
    const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(`${err.message} ${err.hint}`).not.toMatch(/retry|re-run/i);
    expect(err.hint).toMatch(/check the transfers of/i);
    // Named by its address (the profile's server wallet), in the hint and in the journal's intent.
    const wallet = SERVER_WALLETS['carol'] as string;
    expect(err.hint).toContain(wallet);
    expect(last2().map((e) => e.wallet)).toEqual([wallet, wallet]);
    // pm balance reads the account's own wallet, not the server wallet: it is offered only as the
    // place where a withdrawal to the default destination (that account) lands.
    expect(err.hint).not.toMatch(/#tokentxns, or pm balance/);
    expect(err.hint).toContain("your account's USDC (pm balance");
    expect(usdc()).toBe(start - 10_000_000n); // it did go through, once
    expect(last2().map((e) => e.state)).toEqual(['pending', 'unknown']);
    const open = last2()[1]?.id ?? '';

    const again = await runPm(['--json', '--yes', 'withdraw', '10'], { env: env() });
    expect(again.code).toBe(5);
    expect((JSON.parse(again.stderr) as { error: { hint: string } }).error.hint).toMatch(/--settle wd-/);
    expect(usdc()).toBe(start - 10_000_000n);
    // The same withdrawal with its defaults written out (the account address, USDC) is the same
    // withdrawal: refused too (it was sent again, exit 0).
    for (const extra of [
      ['--to', carol().address],
      ['--token', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
      ['--to', carol().address.toLowerCase()],
    ]) {
      const spelled = await runPm(['--json', '--yes', 'withdraw', '10', ...extra], { env: env() });
      expect(spelled.code, `${extra.join(' ')}: ${spelled.stderr}`).toBe(5);
    }
    expect(usdc()).toBe(start - 10_000_000n);

    // Another amount is not the same withdrawal.
    const other = await runPm(['--json', '--yes', 'withdraw', '1'], { env: env() });
    expect(other.code, other.stderr).toBe(0);
    expect(usdc()).toBe(start - 11_000_000n);

    // (Here the user settles it as not sent, against the facts, to send a second one on purpose.)
    const settled = await runPm(['--json', 'withdraw', '--settle', open, '--as', 'not-sent'], { env: env() });
    expect(settled.code, settled.stderr).toBe(0);
    const forced = await runPm(['--json', '--yes', 'withdraw', '10'], { env: env() });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json<{ via: string; amount: string }>()).toMatchObject({ via: 'answer', amount: '10', amountRaw: '10000000' });
    expect(usdc()).toBe(start - 21_000_000n);
  });

  it('a refused withdrawal is journaled as failed and blocks nothing', async () => {
    proxy.drops = 0;
    const r = await runPm(['--json', '--yes', 'withdraw', '999999'], { env: env() });
    expect(r.code).toBe(9);
    expect(journal().at(-1)?.state).toBe('failed');
    const again = await runPm(['--json', '--yes', 'withdraw', '999999'], { env: env() });
    expect(again.code).toBe(9);
  });

  it('a damaged withdrawal journal is a clear error naming the file, with nothing sent', async () => {
    const { home: h, cleanup: c } = tempHome();
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(join(h, 'journal'), { recursive: true });
      writeFileSync(join(h, 'journal', 'withdrawals.ndjson'), 'garbage\n');
      const before = usdc();
      const r = await runPm(['--json', '--yes', 'withdraw', '2'], { env: { ...env(), PM_HOME: h } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('withdrawals.ndjson');
      expect(usdc()).toBe(before);
    } finally {
      c();
    }
  });
});
