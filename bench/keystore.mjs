// The keystore at the real scrypt cost (issue 33, item 5): `pm unlock` with 7 encrypted files
// against `pm unlock` with 1, and `pm order place` with PM_PASSPHRASE against one scrypt plus the
// same order with env credentials. Interleaved, each run a fresh process; ratios paired per round.
import { spawnSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved, median, pairedRatio, placeArgs } from './lib.mjs';

const PASS = 'bench-pass-1';
// BENCH_BEFORE=/path/to/other/bin/pm.js (another build, e.g. main's): its unlock (7 files) and
// order place run in the same rounds, interleaved with this build's, and are reported beside them.
const BEFORE = process.env.BENCH_BEFORE;
const BEFORE_LABEL = process.env.BENCH_BEFORE_LABEL ?? BEFORE;

export async function run() {
  const load0 = loadavg()[0].toFixed(2);
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
    const unlockCase = (name, env, pm = bin) => ({
      name,
      cmd: process.execPath,
      get args() {
        // Both homes locked first: an agent still opening its other files must not share the CPU.
        lock(envOne);
        lock(envSeven);
        return [pm, 'unlock', '--for', '1m'];
      },
      env,
    });
    const u = interleaved(
      [
        unlockCase('pm unlock, 1 encrypted file', envOne),
        unlockCase('pm unlock, 7 encrypted files', envSeven),
        ...(BEFORE ? [unlockCase('pm unlock, 7 encrypted files — before', envSeven, BEFORE)] : []),
      ],
      rounds,
    );
    lock(envOne);
    lock(envSeven);
    // order place: the profile's wallet and token secret from the keystore (PM_PASSPHRASE), and
    // the same order with env credentials (another account, so neither waits on the other's pacing).
    const orderEnv = envFor(home, ready);
    let i = 0;
    const place = (name, env, pm = bin) => ({
      name,
      cmd: process.execPath,
      get args() {
        return [pm, ...placeArgs(`ks-${i++}`)];
      },
      env,
    });
    const p = interleaved(
      [
        place('pm order place (env credentials)', orderEnv),
        place('pm order place (keystore, PM_PASSPHRASE, 7 files)', envSeven),
        ...(BEFORE ? [place('pm order place (keystore, PM_PASSPHRASE, 7 files) — before', envSeven, BEFORE)] : []),
      ],
      rounds,
    );
    const u1 = u['pm unlock, 1 encrypted file'];
    const u7 = u['pm unlock, 7 encrypted files'];
    const unlockRatio = pairedRatio(u7, u1);
    const pe = p['pm order place (env credentials)'];
    const pk = p['pm order place (keystore, PM_PASSPHRASE, 7 files)'];
    const placeRatio = pairedRatio({ samples: pk.samples }, { samples: pe.samples.map((x) => x + oneScrypt) });
    const rows = [...Object.entries(u), ...Object.entries(p)].map(([k, v]) => `| ${k} | ${fmt(v.median)} | ${fmt(v.min)} |`);
    const pb = p['pm order place (keystore, PM_PASSPHRASE, 7 files) — before'];
    const beforeText = pb
      ? `\n- before (${BEFORE_LABEL}, the same rounds): order place with PM_PASSPHRASE / (env-credential order + one scrypt) (paired): **${pairedRatio({ samples: pb.samples }, { samples: pe.samples.map((x) => x + oneScrypt) }).toFixed(2)}×**; unlock, 7 files / 1 file (paired): **${pairedRatio(u['pm unlock, 7 encrypted files — before'], u1).toFixed(2)}×**.`
      : '';
    return {
      title: 'Keystore at the real scrypt cost',
      text: `Median and best of ${rounds} interleaved runs, each a new process (scrypt n = 131072, r = 8, p = 1; one scrypt here: ${fmt(oneScrypt)}). The 7-file home holds the profile's wallet and token secret and 5 wallets the profile does not use; \`pm unlock\` returns once the agent has opened the profile's wallet and token secret (in parallel, the passphrase verified on them; the others open after, in the background); \`pm order place\` with PM_PASSPHRASE decrypts the profile's wallet and token secret only, once each, in parallel on the thread pool (test/unit/keystore-order-place.test.ts). Load average (1 min) at the start: ${load0}, at the end: ${loadavg()[0].toFixed(2)} on ${cpus().length} CPUs.\n\n| command | median | best |\n|---|---|---|\n${rows.join('\n')}\n\n- unlock, 7 files / 1 file (paired): **${unlockRatio.toFixed(2)}×** — target ≤ 2×: ${unlockRatio <= 2 ? 'met' : '**not met**'}.\n- order place with PM_PASSPHRASE / (env-credential order + one scrypt) (paired): **${placeRatio.toFixed(2)}×** — target ≤ 1.3×: ${placeRatio <= 1.3 ? 'met' : '**not met**'}.${beforeText}`,
    };
  } finally {
    spawnSync(process.execPath, [bin, 'lock'], { env: envOne });
    spawnSync(process.execPath, [bin, 'lock'], { env: envSeven });
    proc.kill('SIGTERM');
    for (const h of [home, one, seven]) rmSync(h, { recursive: true, force: true });
  }
}
