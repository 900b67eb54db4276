// `pm order place` wall time (credentials from the environment) against `node -e 0`,
// interleaved, each order a fresh process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved, placeArgs } from './lib.mjs';

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  try {
    const env = envFor(home, ready);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
    let i = 0;
    const place = {
      name: 'pm order place (GTC, resting)',
      cmd: process.execPath,
      get args() {
        return [bin, ...placeArgs(`place-${i++}`)];
      },
      env,
    };
    const r = interleaved(
      [
        { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
        place,
        { name: 'pm --json markets show', cmd: process.execPath, args: [bin, '--json', 'markets', 'show', 'btc-100k-2026'], env },
      ],
      rounds,
    );
    const base = r['node -e 0'].median;
    const rows = Object.entries(r).map(([k, v]) => `| ${k} | ${fmt(v.median)} | ${fmt(v.min)} | ${(v.median / base).toFixed(2)}× |`);
    return {
      title: '`pm order place` wall time',
      text: `Median and best of ${rounds} interleaved runs, each a new process (PM_TOKEN_ID/PM_TOKEN_SECRET/PM_PRIVATE_KEY from the environment; the sandbox on loopback in another process). Includes the per-token pacing shared between processes (≥300 ms between requests of one token), which dominates when runs follow each other closely.\n\n| command | median | best | vs \`node -e 0\` |\n|---|---|---|---|\n${rows.join('\n')}`,
    };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
