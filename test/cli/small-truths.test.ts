// Hints and small truths (issue 23): withdraw says what it is for to a trader without a server
// wallet; nothing to redeem exits 9 when the exchange says so and 2 when pm finds it before
// sending; pm sandbox fund prints its result on stdout.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

const envOf = (name: string) => accountEnv(sb.current, name, home);
const as = (name: string, ...argv: string[]) => runPm(argv, { env: envOf(name) });
const usdcOf = (profileId: number) => sb.current.ctx.state.accounts[String(profileId)]?.usdc ?? 0n;
const seededAddress = (name: string) => sb.current.info.accounts.find((a) => a.name === name)?.address ?? '?';
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint?: string } }).error;

describe('withdraw as a trader without a server wallet (alice)', () => {
  it('the refusal says what withdraw is for and what an EOA does instead, not only "derive a token"', async () => {
    const before = usdcOf(1001);
    const r = await as('alice', '--json', '--yes', 'withdraw', '1');
    expect(r.code).toBe(3);
    const e = errorOf(r.stderr);
    expect(e.message).toMatch(/scope: withdrawal/);
    expect(e.hint).toMatch(/moves USDC out of a server wallet the exchange manages/);
    expect(e.hint).toMatch(/Without a server wallet \(an EOA account\).*your own wallet.*move it on chain/);
    // The derive command is offered only for accounts that may have the scope.
    expect(e.hint).toMatch(/With a server wallet, use a token that has the scope \(a partner derives one: pm token derive/);
    expect(usdcOf(1001)).toBe(before);
    // The same hint for a person at a terminal.
    const human = await as('alice', '--yes', 'withdraw', '1');
    expect(human.code).toBe(3);
    expect(human.stderr).toMatch(/hint: pm withdraw moves USDC out of a server wallet/);
  });

  it('the confirmation names amount, source and destination, and does not claim alice has a server wallet', async () => {
    expect(existsSync(join(process.cwd(), 'dist', 'cli', 'run.js'))).toBe(true);
    // http://0.0.0.0:port reaches the local sandbox, but is no loopback URL: pm treats it as a
    // real exchange and asks.
    const { code, screen } = await runInPty(['node', 'bin/pm.js', 'withdraw', '1'], [{ waitFor: 'Go ahead?', send: `n${KEY.enter}` }], {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      ...envOf('alice'),
      PM_BASE_URL: sb.current.baseUrl.replace('127.0.0.1', '0.0.0.0'),
    });
    expect(code, screen).toBe(2);
    expect(screen).toMatch(/Withdraw 1 \(1000000 raw units\) of USDC/);
    expect(screen).not.toMatch(/from your server wallet 0x/);
    expect(screen).toMatch(/from your server wallet \(the exchange names none: an EOA account holds its own USDC\)/);
    expect(screen).toMatch(new RegExp(`to +${seededAddress('alice')}`, 'i'));
    expect(screen).toMatch(/exchange: 0\.0\.0\.0:\d+ +profile: \(none\)/);
  });

  it('carol, who has one, withdraws', async () => {
    const r = await as('carol', '--json', '--yes', 'withdraw', '1');
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('nothing to redeem', () => {
  it('9 when the exchange says so (a named market), 2 when pm finds it before sending (--all)', async () => {
    // bob holds no winning shares of the resolved market: the exchange refuses (400).
    const named = await as('bob', '--json', 'redeem', 'eth-5k-2025');
    expect(named.code).toBe(9);
    expect(errorOf(named.stderr).message).toMatch(/Nothing to redeem/);
    // --all finds no redeemable position in bob's portfolio: nothing is sent.
    const bobLedger = () => sb.current.ctx.state.ledger?.['1002']?.length ?? 0;
    const entries = bobLedger();
    const all = await as('bob', '--json', 'redeem', '--all');
    expect(all.code).toBe(2);
    expect(all.stdout).toBe('');
    expect(errorOf(all.stderr).message).toMatch(/nothing to redeem.*nothing was sent/);
    const human = await as('bob', 'redeem', '--all');
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(/error: nothing to redeem/);
    expect(bobLedger()).toBe(entries);
    // alice has one: --all redeems it (0), then finds nothing left (2).
    const first = await as('alice', '--json', 'redeem', '--all');
    expect(first.code, first.stderr).toBe(0);
    expect(first.json<{ status: string }[]>().map((c) => c.status)).toEqual(['redeemed']);
    expect((await as('alice', '--json', 'redeem', '--all')).code).toBe(2);
  });
});

describe('redeem --condition-id', () => {
  it('names the market by its slug, as pm redeem <slug> does, not by the condition id', async () => {
    const show = await as('carol', '--json', 'markets', 'show', 'eth-5k-2025');
    const { conditionId } = show.json<{ conditionId: string }>();
    const r = await as('carol', '--json', 'redeem', '--condition-id', conditionId);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ market: 'eth-5k-2025', conditionId, status: 'redeemed' });
  });
});

describe('pm sandbox fund', () => {
  it('prints its result on stdout: text for people, JSON with --json (stderr empty)', async () => {
    const text = await as('alice', 'sandbox', 'fund', '5', '--to', '1002');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/^profile\s+1002$/m);
    expect(text.stdout).toMatch(/^funded\s+5 USDC$/m);
    expect(text.stdout).toMatch(/^balance\s+[\d.]+ USDC$/m);
    const json = await as('alice', '--json', 'sandbox', 'fund', '5', '--to', '1002');
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(json.json()).toMatchObject({ profileId: 1002, amount: '5', amountRaw: '5000000' });
  });
});
