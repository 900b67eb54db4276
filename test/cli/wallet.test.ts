// pm wallet: what the keystore promises at the command line (one passphrase for every file, even
// for writers in parallel on an empty keystore).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Keystore } from '../../src/keystore/index.js';
import { runPm, useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();

it('four wallet creates in parallel on an empty keystore, each with its own passphrase: one passphrase wins, the others are refused (exit 3)', async () => {
  const home = newHome();
  const runs = await Promise.all(
    [1, 2, 3, 4].map((i) =>
      runPm(['--json', 'wallet', 'create', `w${i}`], { env: { PM_HOME: home, PM_PASSPHRASE: `passphrase-${i}`, PM_SCRYPT_N: '1024' } }),
    ),
  );
  const made = runs.flatMap((r, i) => (r.code === 0 ? [i + 1] : []));
  expect(made.length).toBeGreaterThanOrEqual(1);
  for (const r of runs.filter((x) => x.code !== 0)) {
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stderr).error.message).toMatch(/encrypted with another passphrase/);
  }
  // Every file opens with the winner's passphrase.
  const files = await new Keystore(home).checkFiles(`passphrase-${made[0]}`);
  expect(files.map((f) => [f.name, f.problem ?? 'opens'])).toEqual(made.map((i) => [`w${i}`, 'opens']));
});

it('a new keystore takes a passphrase of at least 8 characters from PM_PASSPHRASE too, as the prompt and wallet passphrase ask', async () => {
  const home = newHome();
  const short = await runPm(['wallet', 'create', 'w'], { env: { PM_HOME: home, PM_PASSPHRASE: 'abc', PM_SCRYPT_N: '1024' } });
  expect(short.code).toBe(2);
  expect(short.stderr).toMatch(/at least 8 characters/);
  expect(new Keystore(home).encryptedFiles()).toEqual([]);
  expect((await runPm(['wallet', 'create', 'w'], { env: { PM_HOME: home, PM_PASSPHRASE: 'abcdefgh', PM_SCRYPT_N: '1024' } })).code).toBe(0);
});

it('wallet address with no name is the wallet pm signs with: PM_PRIVATE_KEY when set (it said "no wallet named default"), else the profile\'s', async () => {
  const home = newHome();
  // The public development key (hardhat's first account) and its address.
  const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  const fromEnv = await runPm(['--json', 'wallet', 'address'], { env: { PM_HOME: home, PM_PRIVATE_KEY: key } });
  expect(fromEnv.code, fromEnv.stderr).toBe(0);
  expect(fromEnv.json()).toEqual({ name: null, address, source: 'PM_PRIVATE_KEY' });
  expect((await runPm(['wallet', 'address'], { env: { PM_HOME: home, PM_PRIVATE_KEY: key } })).stdout).toBe(`${address}\n`);
  // A wallet named is the keystore's, whatever the environment holds.
  const named = await runPm(['--json', 'wallet', 'address', 'bot'], { env: { PM_HOME: home, PM_PRIVATE_KEY: key } });
  expect(named.code).toBe(4);
  expect(JSON.parse(named.stderr).error.message).toMatch(/no wallet named "bot"/);
  // Without PM_PRIVATE_KEY, the keystore's wallet, as before.
  const env = { PM_HOME: home, PM_PASSPHRASE: 'abcdefgh', PM_SCRYPT_N: '1024' };
  expect((await runPm(['wallet', 'create', 'default'], { env })).code).toBe(0);
  const stored = await runPm(['--json', 'wallet', 'address'], { env });
  expect(stored.code, stored.stderr).toBe(0);
  expect(stored.json()).toMatchObject({ name: 'default', source: 'keystore' });
  expect(stored.json<{ address: string }>().address).toMatch(/^0x[0-9a-fA-F]{40}$/);
});

it('a key or a token secret given where a path or a name goes is refused without being repeated on stderr', async () => {
  const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
  const secret = 'vEIR4bMMILRV/6OM+acohsMzzxAbKZd2HPZu3OWgy8M=';
  const env = { PM_HOME: newHome(), PM_PASSPHRASE: 'a passphrase of length', PM_SCRYPT_N: '16' };
  const cases: [string[], string][] = [
    [['wallet', 'import', 'bot', '--file', key], key.slice(2)],
    [['token', 'add', '--token-id', 'dG9r', '--secret-file', secret], secret],
    [['init', '--yes', '--sandbox', '--profile-name', key], key.slice(2)],
  ];
  for (const [argv, word] of cases) {
    for (const json of [false, true]) {
      const r = await runPm(json ? ['--json', ...argv] : argv, { env });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv.join(' ')).not.toContain(word);
      expect(r.stdout).not.toContain(word);
      expect(r.stderr).toMatch(/looks like a (private key or token secret|key or a token secret)/);
    }
  }
});

it('a directory given to wallet export --out, and a PM_HOME that is a file: exit 2 naming the path and the fix, not "a bug in pm"', async () => {
  const home = newHome();
  const env = { PM_HOME: home, PM_PASSPHRASE: 'a passphrase of length', PM_SCRYPT_N: '16' };
  expect((await runPm(['wallet', 'create', 'w'], { env })).code).toBe(0);
  const dir = join(home, 'outdir');
  mkdirSync(dir);
  const exp = await runPm(['--json', 'wallet', 'export', 'w', '--out', dir, '--yes'], { env });
  expect(exp.code, exp.stderr).toBe(2);
  const e = JSON.parse(exp.stderr) as { error: { message: string; hint: string } };
  expect(e.error.message).toContain(dir);
  expect(e.error.hint).toMatch(/file/);
  expect(e.error.hint).not.toMatch(/bug/);
  const file = join(home, 'homefile');
  writeFileSync(file, '');
  const create = await runPm(['--json', 'wallet', 'create'], { env: { ...env, PM_HOME: file } });
  expect(create.code, create.stderr).toBe(2);
  const c = JSON.parse(create.stderr) as { error: { message: string; hint: string } };
  expect(c.error.message).toContain(`${file} is a file, not a directory`);
  expect(c.error.hint).toContain(`mv ${file} ${file}.bak`);
});
