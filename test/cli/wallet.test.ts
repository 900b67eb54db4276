// pm wallet: what the keystore promises at the command line (one passphrase for every file, even
// for writers in parallel on an empty keystore).
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
