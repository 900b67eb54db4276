// `pm order place` with the keystore (the session agent of `pm unlock` running, no passphrase in
// the environment) against the same command with env credentials, interleaved, each order a fresh
// process. Two seeded accounts in two homes, so neither waits on the other's per-token pacing.
import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved, pairedRatio, placeArgs } from './lib.mjs';

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const ksHome = mkdtempSync(join(tmpdir(), 'pm-bench-ks-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PM_')));
  const ksEnv = { ...clean, PM_HOME: ksHome, CI: '1' };
  const pmSync = (args, env) => {
    const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pm ${args.join(' ')}: ${r.stderr}`);
  };
  try {
    // Default scrypt cost (what pm writes for real users): unlocked once, by the agent.
    pmSync(['--base-url', ready.baseUrl, 'init', '--sandbox', '--account', 'bob', '--yes'], { ...ksEnv, PM_PASSPHRASE: 'bench-pass-1' });
    pmSync(['unlock', '--for', '30m'], { ...ksEnv, PM_PASSPHRASE: 'bench-pass-1' });
    const env = envFor(home, ready);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
    let i = 0;
    const args = () => placeArgs(`agent-${i++}`);
    const r = interleaved(
      [
        { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
        {
          name: 'pm order place (env credentials)',
          cmd: process.execPath,
          get args() {
            return [bin, ...args()];
          },
          env,
        },
        {
          name: 'pm order place (keystore, agent running)',
          cmd: process.execPath,
          get args() {
            return [bin, ...args()];
          },
          env: ksEnv,
        },
      ],
      rounds,
    );
    pmSync(['lock'], ksEnv);
    const base = r['node -e 0'].median;
    const envMs = r['pm order place (env credentials)'].median;
    const ksMs = r['pm order place (keystore, agent running)'].median;
    const rows = Object.entries(r).map(([k, v]) => `| ${k} | ${fmt(v.median)} | ${fmt(v.min)} | ${(v.median / base).toFixed(2)}× |`);
    // Paired: each round's keystore run against that round's env run (the machine drifts).
    const ratio = pairedRatio(r['pm order place (keystore, agent running)'], r['pm order place (env credentials)']);
    return {
      title: 'Keystore path with the session agent',
      text: `Median and best of ${rounds} interleaved runs, each a new process. The keystore home (default scrypt cost) was unlocked once with \`pm unlock\` before the runs; its commands have no passphrase in the environment and sign through the agent's socket.\n\n| command | median | best | vs \`node -e 0\` |\n|---|---|---|---|\n${rows.join('\n')}\n\nKeystore (agent) / env, paired (median of per-round ratios): **${ratio.toFixed(2)}×** (ratio of the medians: ${(ksMs / envMs).toFixed(2)}×) — target ≤ 1.2×: ${ratio <= 1.2 ? 'met' : '**not met**'}.`,
    };
  } finally {
    spawnSync(process.execPath, [bin, 'lock'], { env: ksEnv });
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
    rmSync(ksHome, { recursive: true, force: true });
  }
}
