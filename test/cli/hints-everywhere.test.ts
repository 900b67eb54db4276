// Every error says what to do next: the errors a second CLI audit found with no hint (an off-tick
// price, a size off the share grid, an outcome that is not yes or no, a client id too long, a bad
// --condition-id, redeeming an unresolved market, another partner's sub-account, pm unlock --for
// past 12h, a file that does not exist, a token secret that is not base64, init --derive without an
// identity token, order status with some ids not found), and the text form of a usage error (a
// `hint:` line, as with every other error). Against a real sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PmError } from '../../src/core/errors.js';
import { parsePrice } from '../../src/core/trade/amounts.js';
import { checkClientOrderId } from '../../src/core/trade/build.js';
import { parseOrderInput } from '../../src/core/trade/flow.js';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
beforeAll(async () => {
  expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
});
const newHome = useTempHomes();
type ErrorObject = { code: string; message: string; hint?: string };
const errorOf = (stderr: string): ErrorObject => (JSON.parse(stderr) as { error: ErrorObject }).error;

/** Runs pm with --json and then in text mode: the same exit code, a hint in both, the hint on a `hint:` line. */
async function both(argv: string[], env: Record<string, string>, code: number): Promise<ErrorObject & { hint: string }> {
  const j = await runPm(['--json', ...argv], { env });
  expect(j.code, `${argv.join(' ')}: ${j.stderr}`).toBe(code);
  const e = errorOf(j.stderr);
  expect(e.hint, `${argv.join(' ')}: ${j.stderr}`).toBeTruthy();
  const t = await runPm(argv, { env });
  expect(t.code, argv.join(' ')).toBe(code);
  expect(t.stderr, argv.join(' ')).toMatch(/^error: .*\nhint: \S/m);
  return e as ErrorObject & { hint: string };
}

/** The error `f` throws. */
function thrown(f: () => unknown): PmError {
  try {
    f();
  } catch (e) {
    if (e instanceof PmError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

const order = (...more: string[]) => ['--yes', 'order', 'place', 'btc-100k-2026', ...more];

describe('order input errors say what to use', () => {
  it('a price off the 0.001 tick: the hint gives the two nearest prices, exactly', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    const e = await both(order('buy', 'yes', '--price', '0.4235', '--size', '1'), env, 2);
    expect(e.hint).toMatch(/--price 0\.423 or --price 0\.424/);
    // More decimals than the exchange's 6 are still a price off the tick, not "not a decimal".
    const long = await both(order('buy', 'yes', '--price', '0.10000000000000000001', '--size', '1'), env, 2);
    expect(long.message).toMatch(/off the 0\.001 tick/);
    expect(long.hint).toMatch(/--price 0\.1 or --price 0\.101/);
    const low = await both(order('buy', 'yes', '--price', '0.0004', '--size', '1'), env, 2);
    expect(low.hint).toMatch(/--price 0\.001\b/);
    expect(low.hint).not.toMatch(/--price 0 /);
    // The library's words: no flags.
    const lib = thrown(() => parsePrice('0.4235', 'keys'));
    expect(lib.hint).toMatch(/price: '0\.423' or price: '0\.424'/);
    expect(lib.hint).not.toMatch(/--/);
  });

  it('a size off the 0.001-share grid: the hint says the step and gives the two nearest sizes, exactly', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    const e = await both(order('buy', 'yes', '--price', '0.4', '--size', '10.1234'), env, 2);
    expect(e.message).toMatch(/off the 0\.001-share grid/);
    expect(e.hint).toMatch(/steps of 0\.001 share/);
    expect(e.hint).toMatch(/--size 10\.123 or --size 10\.124/);
    // More decimals than the exchange's 6 are still a size off the grid, not "not a number of shares".
    const long = await both(order('buy', 'yes', '--price', '0.4', '--size', '10.1234567'), env, 2);
    expect(long.message).toMatch(/off the 0\.001-share grid/);
    expect(long.hint).toMatch(/--size 10\.123 or --size 10\.124/);
    // Below the first step: the one valid size above it, never 0.
    const low = await both(order('buy', 'yes', '--price', '0.4', '--size', '0.0004'), env, 2);
    expect(low.hint).toMatch(/--size 0\.001\b/);
    expect(low.hint).not.toMatch(/--size 0 /);
    const zero = await both(order('buy', 'yes', '--price', '0.4', '--size', '0'), env, 2);
    expect(zero.hint).toMatch(/steps of 0\.001 share, from 0\.001/);
    // The library's words (and a batch line's): no flags.
    const lib = thrown(() =>
      parseOrderInput({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.4', size: '10.1234' }, 'keys'),
    );
    expect(lib.hint).toMatch(/size: '10\.123' or size: '10\.124'/);
    expect(lib.hint).not.toMatch(/--/);
  });

  it('an outcome that is not yes or no: the hint shows the command shape', async () => {
    const e = await both(order('buy', 'maybe', '--price', '0.4', '--size', '1'), accountEnv(sb.current, 'alice', newHome()), 2);
    expect(e.hint).toMatch(/pm order place btc-100k-2026 buy yes --price 0\.4 --size 1/);
    const side = await both(order('hold', 'yes', '--price', '0.4', '--size', '1'), accountEnv(sb.current, 'alice', newHome()), 2);
    expect(side.hint).toMatch(/pm order place <slug> <buy\|sell> <yes\|no>/);
    const lib = thrown(() => parseOrderInput({ market: 'btc-100k-2026', side: 'buy', outcome: 'maybe', price: '0.4', size: '1' }, 'keys'));
    expect(lib.hint).toMatch(/outcome: 'yes'/);
    expect(lib.hint).not.toMatch(/pm order|--/);
  });

  it('a client id longer than 128 characters: the hint says how long and that leaving it out makes one', async () => {
    const e = await both(
      order('buy', 'yes', '--price', '0.4', '--size', '1', '--client-id', 'a'.repeat(129)),
      accountEnv(sb.current, 'alice', newHome()),
      2,
    );
    expect(e.hint).toMatch(/at most 128 characters/);
    expect(e.hint).toMatch(/--client-id/);
    const lib = thrown(() => checkClientOrderId('a'.repeat(129), 'keys'));
    expect(lib.hint).toMatch(/clientId/);
    expect(lib.hint).not.toMatch(/--/);
  });
});

describe('redeem, partner, unlock', () => {
  it('redeem --condition-id that is not bytes32: the hint says where the id is, or to name the market', async () => {
    const e = await both(['--yes', 'redeem', '--condition-id', '0x1234'], accountEnv(sb.current, 'alice', newHome()), 2);
    expect(e.hint).toMatch(/pm redeem <slug>/);
  });

  it('redeem of a market not resolved: exit 9, the hint says to wait for the resolution and where to look', async () => {
    const e = await both(['--yes', 'redeem', 'btc-100k-2026'], accountEnv(sb.current, 'alice', newHome()), 9);
    expect(e.hint).toMatch(/resol/);
    expect(e.hint).toMatch(/pm positions/);
  });

  it('redeem of a resolved market without winning shares: the hint does not say to wait for it to resolve', async () => {
    // eth-5k-2025 is resolved in the seed; bob holds none of its winning shares.
    const e = await both(['--yes', 'redeem', 'eth-5k-2025'], accountEnv(sb.current, 'bob', newHome()), 9);
    expect(e.hint).not.toMatch(/^[^.]*wait for eth-5k-2025 to resolve/);
    expect(e.hint).toMatch(/if it is resolved, you hold none of its winning shares/i);
    expect(e.hint).toMatch(/pm positions/);
  });

  it('a read for a profile that is not your sub-account (a 403): the hint names --on-behalf-of and pm partner list', async () => {
    const env = accountEnv(sb.current, 'partner', newHome());
    for (const argv of [['positions'], ['order', 'list'], ['portfolio', 'pnl']]) {
      const e = await both([...argv, '--on-behalf-of', '1001'], env, 3);
      expect(e.hint, argv.join(' ')).toMatch(/Is 1001 one of your sub-accounts\?.*--on-behalf-of/);
      expect(e.hint, argv.join(' ')).toMatch(/pm partner list/);
    }
  });

  it('an identity token the exchange does not accept (a 401): the hint names the identity token, not the API token', async () => {
    const env = { ...accountEnv(sb.current, 'carol', newHome()), PM_IDENTITY_TOKEN: 'idt_typo' };
    const e = await both(['withdrawal-address', 'list'], env, 3);
    expect(e.hint).toMatch(/identity token/);
    expect(e.hint).toMatch(/PM_IDENTITY_TOKEN/);
    expect(e.hint).not.toMatch(/PM_TOKEN_ID/);
  });

  it('sandbox resolve of a market resolved already, sandbox fund of a profile that does not exist: a hint says what to do', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    // eth-5k-2025 is resolved in the seed.
    const again = await both(['sandbox', 'resolve', 'eth-5k-2025', 'yes'], env, 5);
    expect(again.hint).toMatch(/pm sandbox reset/);
    const nobody = await both(['sandbox', 'fund', '5', '--to', '99999'], env, 4);
    expect(nobody.hint).toMatch(/pm whoami|pm partner list/);
  });

  it('approve set with an amount finer than a micro-USDC, or with both --amount and --unlimited: a hint says what to give', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    const fine = await both(['approve', 'set', 'btc-100k-2026', '--amount', '0.0000001', '--dry-run'], env, 2);
    expect(fine.hint).toMatch(/6 decimal/);
    const two = await both(['approve', 'set', 'btc-100k-2026', '--amount', '5', '--unlimited', '--dry-run'], env, 2);
    expect(two.hint).toMatch(/--amount .*--unlimited/);
  });

  it('an API token the exchange does not accept (a 401): the hint does not send whoami back to whoami, nor ask to set what is set', async () => {
    const env = { ...accountEnv(sb.current, 'alice', newHome()), PM_TOKEN_SECRET: Buffer.from('x'.repeat(32)).toString('base64') };
    const e = await both(['whoami'], env, 3);
    expect(e.hint).not.toMatch(/pm whoami/);
    expect(e.hint).not.toMatch(/set PM_TOKEN_ID/);
    expect(e.hint).toMatch(/revoked|secret/);
    expect(e.hint).toMatch(/pm token (derive|add)/);
  });

  it('book of an AMM market (the exchange refuses it, exit 9): the hint says where its prices are', async () => {
    const e = await both(['book', 'rain-in-london-weekend'], accountEnv(sb.current, 'alice', newHome()), 9);
    expect(e.hint).toContain('pm markets show rain-in-london-weekend');
  });

  it('no active profile (the active one was removed) while others exist: the hint names pm profile use and them', async () => {
    const env = { PM_HOME: newHome(), PM_BASE_URL: sb.current.baseUrl, PM_PASSPHRASE: 'hint-pass-12', PM_SCRYPT_N: '1024' };
    expect((await runPm(['init', '--sandbox', '--yes'], { env })).code).toBe(0);
    expect((await runPm(['--profile', 'other', 'config', 'set', 'timeout', '5s'], { env })).code).toBe(0);
    expect((await runPm(['profile', 'use', 'other'], { env })).code).toBe(0);
    expect((await runPm(['profile', 'remove', 'other', '--yes'], { env })).code).toBe(0);
    const e = await both(['whoami'], env, 3);
    expect(e.hint).toContain('pm profile use sandbox');
  });

  it('partner allowances of a profile that is not your sub-account: exit 4, the hint names pm partner list', async () => {
    const e = await both(['partner', 'allowances', '9999'], accountEnv(sb.current, 'partner', newHome()), 4);
    expect(e.hint).toMatch(/pm partner list/);
  });

  it('unlock --for past 12h: the hint gives the longest', async () => {
    const e = await both(['unlock', '--for', '13h'], { PM_HOME: newHome() }, 2);
    expect(e.hint).toMatch(/--for 12h/);
  });
});

describe('files and secrets', () => {
  it('wallet import --keystore of a file that does not exist: the hint says to check the path given to --keystore', async () => {
    const e = await both(['wallet', 'import', 'x', '--keystore', '/nonexistent'], { PM_HOME: newHome() }, 2);
    expect(e.message).toMatch(/cannot read \/nonexistent: no such file/);
    expect(e.hint).toMatch(/--keystore/);
  });

  it('init --secret-file with a secret that is not base64: the hint says what the file must hold', async () => {
    const home = newHome();
    const file = join(home, 'secret.txt');
    writeFileSync(file, 'not base64!!\n', { mode: 0o600 });
    const env = { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const e = await both(['--yes', 'init', '--token-id', 'abc', '--secret-file', file, '--create-wallet'], env, 2);
    expect(e.hint).toMatch(/--secret-file/);
  });
});

describe('init', () => {
  it('init --derive without an identity token: the hint names PM_IDENTITY_TOKEN, the one place it is read, and the other way', async () => {
    const env = { PM_HOME: newHome(), PM_BASE_URL: sb.current.baseUrl, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const e = await both(['--yes', 'init', '--derive', '--create-wallet'], env, 2);
    expect(e.message).toMatch(/--derive needs an identity token/);
    expect(e.hint).toMatch(/PM_IDENTITY_TOKEN=… pm init --derive/);
    expect(e.hint).toMatch(/--token-id ID --secret-file FILE/);
  });
});

describe('batches with some items failed', () => {
  it('order status with some ids not found: exit 8, the hint says how to find the right ids', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    const placed = await runPm(['--json', ...order('buy', 'yes', '--price', '0.05', '--size', '1')], { env });
    expect(placed.code, placed.stderr).toBe(0);
    const id = placed.json<{ orderId: string }>().orderId;
    const e = await both(['order', 'status', id, 'nosuch'], env, 8);
    expect(e.hint).toMatch(/pm order list/);
  });

  it('order replace --file with a line that failed: exit 8, the hint says to fix the lines and the command to run', async () => {
    const home = newHome();
    const env = accountEnv(sb.current, 'alice', home);
    const file = join(home, 'moves.ndjson');
    writeFileSync(file, '{"orderId":"nosuch","price":"0.2"}\n');
    const e = await both(['--yes', 'order', 'replace', '--file', file], env, 8);
    expect(e.hint).toMatch(/Fix the failed lines/);
  });
});

describe('refusals before anything is sent', () => {
  it('each has a hint, in text and with --json: an example of what to give', async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    for (const [argv, hint] of [
      [order('buy', 'yes', '--price', '0.42'), /for example --size 10/],
      [order('buy', 'yes', '--size', '10'), /for example --price 0\.42/],
      [order('buy', 'yes', '--type', 'fok'), /for example --amount 25/],
      [order('buy', 'yes', '--price', '0.42', '--size', '10', '--delegated'), /--on-behalf-of \d+/],
      [['order', 'replace', 'abc'], /for example --price 0\.42/],
      // (It went to the exchange, and came back "no order abc to replace", exit 4.)
      [['order', 'replace', 'abc', '--price', '0.5', '--delegated', '--yes'], /--on-behalf-of \d+/],
      [['order', 'journal', '--since', 'xyz'], /for example --since 12h/],
      [['config', 'set', 'output', 'xml'], /pm config set output json/],
      [['config', 'set', 'on-behalf-of', 'abc'], /pm config set on-behalf-of \d+/],
    ] as const) {
      const e = await both([...argv], env, 2);
      expect(e.hint, argv.join(' ')).toMatch(hint);
    }
  });

  it("a usage or validation error still without a hint of its own gets the command's help page as its hint; a library call does not", async () => {
    const env = accountEnv(sb.current, 'alice', newHome());
    const e = await both(order('buy', 'yes', '--type', 'fok', '--size', '3'), env, 2);
    expect(e.message).toMatch(/FOK orders take --amount, not --size/);
    expect(e.hint).toBe('Run pm order place --help for usage.');
    // The library's refusal: its own words, never a pm command line.
    const lib = thrown(() => parseOrderInput({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', type: 'fok', size: '3' }, 'keys'));
    expect(lib.hint ?? '').not.toMatch(/pm |--/);
  });
});

describe('usage errors in text mode', () => {
  it('carry the same hint as with --json, on a hint: line', async () => {
    for (const [argv, hint] of [
      [['ordr'], 'Did you mean order?'],
      [['order', 'place', '--nope'], 'Run pm order place --help for usage.'],
      [['markets', 'list', '--limit'], 'Run pm markets list --help for usage.'],
    ] as const) {
      const env = { PM_HOME: newHome() };
      const j = await runPm(['--json', ...argv], { env });
      expect(errorOf(j.stderr).hint).toBe(hint);
      const t = await runPm([...argv], { env });
      expect(t.code).toBe(2);
      expect(t.stderr).toBe(`error: ${errorOf(j.stderr).message}\nhint: ${hint}\n`);
    }
  });
});
