// Every error says what to do next (a hint), found missing by the CLI audit: revoking a token that
// does not exist, redeeming a market already redeemed, an unknown option after a command (text
// mode), and a derivation asking for scopes the account may not request (the hint pointed to
// `pm token list`, which lists tokens, not what may be requested: `pm token capabilities` does).
import { beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
// The tests use a new PM_HOME each (a run that knows nothing), so pm's pacing, which lives in
// PM_HOME, is not shared between them: the sandbox's per-token rate limit is off here, as a
// second machine with the same token would need. (Under load it answered 429, exit 6.)
beforeAll(async () => {
  expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
});
const newHome = useTempHomes();
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint?: string } }).error;

describe('errors with a hint', () => {
  it('order status and order cancel naming no order: exit 2, the hint shows the ways to name one and where the ids are', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    for (const argv of [
      ['order', 'status'],
      ['order', 'cancel'],
    ]) {
      const r = await runPm(['--json', ...argv], { env });
      expect(r.code, r.stderr).toBe(2);
      const e = errorOf(r.stderr);
      expect(e.hint, argv.join(' ')).toContain(`pm ${argv.join(' ')} --client-id`);
      expect(e.hint, argv.join(' ')).toContain('pm order list');
    }
  });

  it('no API token: reads, an order, a private stream and whoami all exit 3 with one hint, naming pm init and PM_TOKEN_ID', async () => {
    const env = { ...accountEnv(sb.current, 'alice', newHome()), PM_TOKEN_ID: '', PM_TOKEN_SECRET: '' };
    const hints = new Set<string | undefined>();
    for (const argv of [
      ['order', 'list'],
      ['balance'],
      ['--yes', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.2', '--size', '1'],
      ['watch', 'orders', '--count', '1'],
      ['whoami'],
    ]) {
      const r = await runPm(['--json', ...argv], { env });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(3);
      const e = errorOf(r.stderr);
      expect(e.code).toBe('AUTH');
      expect(e.message, argv.join(' ')).toMatch(/API token/);
      // (A read is no trade: it said "trading needs an API token" to pm balance.)
      if (argv[0] !== '--yes') expect(e.message, argv.join(' ')).not.toMatch(/trading/);
      expect(e.hint, argv.join(' ')).toMatch(/pm init .*PM_TOKEN_ID and PM_TOKEN_SECRET/);
      hints.add(e.hint);
    }
    expect([...hints]).toHaveLength(1);
  });

  it('token revoke of a token that does not exist: exit 4, the hint names pm token list', async () => {
    const r = await runPm(['--json', '--yes', 'token', 'revoke', 'tok_nosuch'], { env: accountEnv(sb.current, 'alice', newHome()) });
    expect(r.code, r.stderr).toBe(4);
    expect(errorOf(r.stderr).hint).toMatch(/pm token list/);
  });

  it('redeem of a market already redeemed: exit 5, the hint says nothing is left and where to look', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    expect((await runPm(['--json', 'redeem', 'eth-5k-2025'], { env })).code).toBe(0);
    const r = await runPm(['--json', 'redeem', 'eth-5k-2025'], { env: accountEnv(sb.current, 'alice', newHome()) });
    expect(r.code, r.stderr).toBe(5);
    expect(errorOf(r.stderr).hint).toMatch(/pm positions/);
  });

  it('token derive with a scope the account may not request: exit 3, the hint names pm token capabilities', async () => {
    const env = {
      ...accountEnv(sb.current, 'alice', newHome()),
      PM_IDENTITY_TOKEN: seeded(sb.current, 'alice').identityToken,
      PM_PASSPHRASE: 'pass-phrase-1',
      PM_SCRYPT_N: '1024',
    };
    const r = await runPm(['--json', '--yes', 'token', 'derive', '--scopes', 'trading,delegated_signing'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(errorOf(r.stderr).hint).toMatch(/pm token capabilities/);
  });

  it('an unknown option after a command, in text mode: exit 2 and where to read the usage', async () => {
    const r = await runPm(['markets', 'list', '--bogus'], { env: { PM_HOME: newHome() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--bogus'/);
    expect(r.stderr).toMatch(/pm markets list --help/);
  });
});
