// --force over an existing wallet destroys its key: it is asked for as pm wallet remove is (a
// prompt on a terminal naming the wallet and its address, --yes in a script, else exit 2 with
// nothing changed). Before, `pm wallet create w1 --force` (and wallet import --force, init --force
// --create-wallet) replaced the key at once. --force with no wallet of that name asks nothing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Keystore } from '../../src/keystore/index.js';
import { KEY, runInPty } from '../helpers/pty.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const newHome = useTempHomes();
/** The public development key (hardhat's first account) and its address. */
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const envOf = (home: string): Record<string, string> => ({ PM_HOME: home, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' });

/** A home with wallet `name`; resolves with the home and the wallet's address. */
async function homeWith(name: string): Promise<{ home: string; address: string }> {
  const home = newHome();
  const r = await runPm(['--json', 'wallet', 'create', name], { env: envOf(home) });
  expect(r.code, r.stderr).toBe(0);
  return { home, address: r.json<{ address: string }>().address };
}

const addressOf = (home: string, name: string): string => new Keystore(home).walletAddress(name);

describe('in a script (no terminal), without --yes: exit 2, the old key kept', () => {
  it('pm wallet create w1 --force', async () => {
    const { home, address } = await homeWith('w1');
    const r = await runPm(['--json', 'wallet', 'create', 'w1', '--force'], { env: envOf(home), stdin: '' });
    expect(r.code, r.stderr).toBe(2);
    const e = JSON.parse(r.stderr).error;
    expect(e.code).toBe('USAGE');
    expect(e.message).toMatch(/needs a confirmation \(it replaces the key of wallet w1 .*\).*nothing was sent/);
    expect(e.message).toContain(address);
    expect(e.hint).toMatch(/--yes/);
    expect(addressOf(home, 'w1')).toBe(address);
    // With --yes it goes ahead: a new key.
    const yes = await runPm(['--json', '--yes', 'wallet', 'create', 'w1', '--force'], { env: envOf(home) });
    expect(yes.code, yes.stderr).toBe(0);
    expect(addressOf(home, 'w1')).not.toBe(address);
  });

  it('pm wallet import w1 --force --file KEY', async () => {
    const { home, address } = await homeWith('w1');
    const file = join(home, 'key.txt');
    writeFileSync(file, `${DEV_KEY}\n`, { mode: 0o600 });
    const r = await runPm(['--json', 'wallet', 'import', 'w1', '--force', '--file', file], { env: envOf(home) });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/needs a confirmation \(it replaces the key of wallet w1/);
    expect(addressOf(home, 'w1')).toBe(address);
    const yes = await runPm(['--yes', 'wallet', 'import', 'w1', '--force', '--file', file], { env: envOf(home) });
    expect(yes.code, yes.stderr).toBe(0);
    expect(addressOf(home, 'w1')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('pm init --force --create-wallet over the wallet of the profile name', async () => {
    const { home, address } = await homeWith('default');
    // (A loopback exchange where nothing listens: init with only a wallet sends nothing.)
    const env = { ...envOf(home), PM_BASE_URL: 'http://127.0.0.1:9' };
    const r = await runPm(['--json', 'init', '--force', '--create-wallet'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/needs a confirmation \(it replaces the key of wallet default/);
    expect(addressOf(home, 'default')).toBe(address);
    const named = await runPm(['--json', 'init', '--force', '--create-wallet', '--profile-name', 'p2', '--wallet', 'default'], { env });
    expect(named.code, named.stderr).toBe(2);
    expect(addressOf(home, 'default')).toBe(address);
    const yes = await runPm(['--json', '--yes', 'init', '--force', '--create-wallet'], { env });
    expect(yes.code, yes.stderr).toBe(0);
    expect(addressOf(home, 'default')).not.toBe(address);
  });
});

describe('pm init --force without a terminal runs no wizard', () => {
  it('with no flags: exit 2, nothing written, the wallet of the profile name kept', async () => {
    const { home, address } = await homeWith('default');
    const config = readFileSync(join(home, 'config.json'), 'utf8');
    const r = await runPm(['--json', 'init', '--force'], { env: envOf(home), stdin: '' });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/takes its answers from flags, and none were given: nothing was written/);
    expect(addressOf(home, 'default')).toBe(address);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(config);
  });
});

describe('--force with no wallet of that name replaces nothing: no yes needed', () => {
  it('pm wallet create, pm init --create-wallet', async () => {
    const home = newHome();
    expect((await runPm(['wallet', 'create', 'fresh', '--force'], { env: envOf(home) })).code).toBe(0);
    const env = { ...envOf(home), PM_BASE_URL: 'http://127.0.0.1:9' };
    const r = await runPm(['init', '--force', '--create-wallet', '--profile-name', 'other'], { env });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('on a terminal', () => {
  it('pm wallet create w1 --force asks, naming the wallet and its address; no keeps the old key', async () => {
    const { home, address } = await homeWith('w1');
    const { CI: _ci, ...rest } = process.env;
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'wallet', 'create', 'w1', '--force'],
      [{ waitFor: 'Go ahead?', send: `n${KEY.enter}` }],
      {
        ...rest,
        ...envOf(home),
      },
    );
    expect(code, screen).toBe(2);
    expect(screen).toContain(`Replace wallet w1 (${address})`);
    expect(screen).toMatch(/declined/);
    expect(addressOf(home, 'w1')).toBe(address);
  });

  /** pm init --force on a terminal, over wallet `default`: the real exchange, profile default, then `steps`, token skipped. */
  const wizard = async (home: string, steps: { waitFor: string | RegExp; send: string }[]) => {
    const { CI: _ci, ...rest } = process.env;
    return runInPty(
      ['node', 'bin/pm.js', 'init', '--force'],
      [
        { waitFor: 'Which exchange?', send: KEY.down + KEY.enter }, // the real exchange: nothing is sent without a token
        { waitFor: 'Profile name', send: KEY.enter }, // default
        ...steps,
        { waitFor: 'API token', send: `sk${KEY.enter}` }, // skip
      ],
      { ...rest, ...envOf(home), NO_COLOR: '1' },
    );
  };
  const profileWallet = (home: string): unknown =>
    (JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { profiles: Record<string, { wallet?: string }> }).profiles['default']
      ?.wallet;

  it('the pm init wizard offers the existing wallet first; "Create a new wallet" over it asks, and the default No keeps it', async () => {
    const { home, address } = await homeWith('default');
    const { code, screen } = await wizard(home, [
      // (Typed: the select jumps to the choice whose name starts so, wherever it stands.)
      { waitFor: 'Signing wallet', send: `cr${KEY.enter}` },
      // Enter takes the default No (↓ moves nothing in a yes/no). Before the fix the token question
      // came next, and ↓⏎ skipped it: the run ended there, the key replaced.
      { waitFor: /Replace wallet default[\s\S]*\(y\/N\)|API token/, send: KEY.down + KEY.enter },
      { waitFor: 'Name of the new keystore wallet', send: `fresh${KEY.enter}` },
    ]);
    expect(code, screen).toBe(0);
    expect(addressOf(home, 'default')).toBe(address);
    expect(screen).toMatch(new RegExp(`Signing wallet\\s*❯ Use the keystore wallet default \\(${address}\\)`));
    expect(screen).toContain(`Replace wallet default (${address})`);
    expect(profileWallet(home)).toBe('fresh');
    expect(addressOf(home, 'fresh')).not.toBe(address);
  });

  it('the pm init wizard replaces the existing wallet only after an explicit yes', async () => {
    const { home, address } = await homeWith('default');
    const { code, screen } = await wizard(home, [
      { waitFor: 'Signing wallet', send: `im${KEY.enter}` }, // import
      { waitFor: /Replace wallet default[\s\S]*\(y\/N\)/, send: `y${KEY.enter}` },
      { waitFor: 'Private key', send: `${DEV_KEY}${KEY.enter}` },
    ]);
    expect(code, screen).toBe(0);
    expect(screen).toContain(`Replace wallet default (${address})`);
    expect(addressOf(home, 'default')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(profileWallet(home)).toBe('default');
  });
});

describe('pm init --sandbox over a wallet of its name made by hand', () => {
  const sb = useSandbox();
  const configText = (home: string): string =>
    existsSync(join(home, 'config.json')) ? readFileSync(join(home, 'config.json'), 'utf8') : '';
  it('keeps that wallet (exit 5, nothing written, the way out in the hint); over the seeded key itself it refreshes', async () => {
    const { home, address } = await homeWith('sandbox-alice');
    const env = { ...envOf(home), PM_BASE_URL: sb.current.baseUrl };
    const before = configText(home);
    const r = await runPm(['--json', '--yes', 'init', '--sandbox'], { env });
    expect(r.code, r.stderr).toBe(5);
    const e = JSON.parse(r.stderr).error;
    expect(e.message).toContain(`a wallet named sandbox-alice already exists with another key (${address})`);
    expect(e.hint).toMatch(/pm wallet export sandbox-alice.*pm wallet remove sandbox-alice/);
    expect(addressOf(home, 'sandbox-alice')).toBe(address);
    expect(configText(home)).toBe(before);
    // Removed, the seeded account loads; run again, it refreshes (the wallet holds its key).
    expect((await runPm(['--yes', 'wallet', 'remove', 'sandbox-alice'], { env })).code).toBe(0);
    for (let i = 0; i < 2; i++) {
      const ok = await runPm(['--json', '--yes', 'init', '--sandbox'], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(addressOf(home, 'sandbox-alice').toLowerCase()).toBe(ok.json<{ address: string }>().address.toLowerCase());
    }
  });
});
