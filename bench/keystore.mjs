// The keystore at the real scrypt cost (issue 33, item 5): `pm unlock` with 7 encrypted files
// against `pm unlock` with 1, and `pm order place` with PM_PASSPHRASE against one scrypt plus the
// same order with env credentials. Interleaved, each run a fresh process; ratios paired per round.
import { spawnSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved, median, pairedRatio, placeArgs } from './lib.mjs';

const PASS = 'bench-pass-1';

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const one = mkdtempSync(join(tmpdir(), 'pm-bench-ks1-'));
  const seven = mkdtempSync(join(tmpdir(), 'pm-bench-ks7-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PM_')));
  const pmSync = (args, env) => {
    const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pm ${args.join(' ')}: ${r.stderr}`);
  };
  const envOne = { ...clean, PM_HOME: one, CI: '1', PM_PASSPHRASE: PASS };
  const envSeven = { ...clean, PM_HOME: seven, CI: '1', PM_PASSPHRASE: PASS };
  try {
    // One home with the profile's wallet only; one with its wallet, its token secret and 5 more
    // wallets the profile does not use: 7 encrypted files. The real scrypt cost (n = 131072).
    pmSync(['wallet', 'create', 'main'], envOne);
    pmSync(['--base-url', ready.baseUrl, 'init', '--sandbox', '--account', 'bob', '--yes'], envSeven);
    for (let k = 1; k <= 5; k++) pmSync(['wallet', 'create', `spare-${k}`], envSeven);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
    const lock = (env) => spawnSync(process.execPath, [bin, 'lock'], { env });
    // One scrypt at that cost, in this process (what decrypting one file costs at least).
    const scrypt = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      scryptSync(PASS, 'salt-salt-salt-salt', 32, { N: 131072, r: 8, p: 1, maxmem: 256 * 2 ** 20 });
      scrypt.push(performance.now() - t);
    }
    const oneScrypt = median(scrypt);
    const unlockCase = (name, env) => ({
      name,
      cmd: process.execPath,
      get args() {
        // Both homes locked first: an agent still opening its other files must not share the CPU.
        lock(envOne);
        lock(envSeven);
        return [bin, 'unlock', '--for', '1m'];
      },
      env,
    });
    const u = interleaved(
      [unlockCase('pm unlock, 1 encrypted file', envOne), unlockCase('pm unlock, 7 encrypted files', envSeven)],
      rounds,
    );
    lock(envOne);
    lock(envSeven);
    // order place: the profile's wallet and token secret from the keystore (PM_PASSPHRASE), and
    // the same order with env credentials (another account, so neither waits on the other's pacing).
    const orderEnv = envFor(home, ready);
    let i = 0;
    const place = (name, env) => ({
      name,
      cmd: process.execPath,
      get args() {
        return [bin, ...placeArgs(`ks-${i++}`)];
      },
      env,
    });
    const p = interleaved(
      [place('pm order place (env credentials)', orderEnv), place('pm order place (keystore, PM_PASSPHRASE, 7 files)', envSeven)],
      rounds,
    );
    const u1 = u['pm unlock, 1 encrypted file'];
    const u7 = u['pm unlock, 7 encrypted files'];
    const unlockRatio = pairedRatio(u7, u1);
    const pe = p['pm order place (env credentials)'];
    const pk = p['pm order place (keystore, PM_PASSPHRASE, 7 files)'];
    const placeRatio = pairedRatio({ samples: pk.samples }, { samples: pe.samples.map((x) => x + oneScrypt) });
    const rows = [...Object.entries(u), ...Object.entries(p)].map(([k, v]) => `| ${k} | ${fmt(v.median)} | ${fmt(v.min)} |`);
    return {
      title: 'Keystore at the real scrypt cost',
      text: `Median and best of ${rounds} interleaved runs, each a new process (scrypt n = 131072, r = 8, p = 1; one scrypt here: ${fmt(oneScrypt)}). The 7-file home holds the profile's wallet and token secret and 5 wallets the profile does not use; \`pm unlock\` verifies the passphrase on one file, then opens the rest in parallel on the thread pool.\n\n| command | median | best |\n|---|---|---|\n${rows.join('\n')}\n\n- unlock, 7 files / 1 file (paired): **${unlockRatio.toFixed(2)}×** — target ≤ 2×: ${unlockRatio <= 2 ? 'met' : '**not met**'}.\n- order place with PM_PASSPHRASE / (env-credential order + one scrypt) (paired): **${placeRatio.toFixed(2)}×** — target ≤ 1.3×: ${placeRatio <= 1.3 ? 'met' : '**not met**'}.`,
    };
  } finally {
    spawnSync(process.execPath, [bin, 'lock'], { env: envOne });
    spawnSync(process.execPath, [bin, 'lock'], { env: envSeven });
    proc.kill('SIGTERM');
    for (const h of [home, one, seven]) rmSync(h, { recursive: true, force: true });
  }
}
