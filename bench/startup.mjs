// Start-up: whole-process wall time of pm commands against `node -e 0`, interleaved in one run
// (so machine noise hits all alike), each run a fresh process. The exchange-talking ones run
// against a sandbox started here in another process on loopback, with credentials from the
// environment (PM_PRIVATE_KEY, PM_TOKEN_ID/PM_TOKEN_SECRET). The dry run and the live order use
// different tokens, and every live order is several processes after the previous one, so the
// per-token pacing (≥ 300 ms between requests of one token) never makes a run wait.
//
// BENCH_BEFORE=/path/to/other/bin/pm.js adds the same commands run by another build of pm (for
// before/after figures of a change), interleaved in the same rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved } from './lib.mjs';

const SLUG = 'btc-100k-2026';

function commands(label, bin, env, tokens) {
  let i = 0;
  const node = process.execPath;
  return [
    { name: `${label}--version`, cmd: node, args: [bin, '--version'], env: env(tokens.dry) },
    { name: `${label}--help`, cmd: node, args: [bin, '--help'], env: env(tokens.dry) },
    { name: `${label}markets show`, cmd: node, args: [bin, '--json', 'markets', 'show', SLUG], env: env(tokens.dry) },
    { name: `${label}order place --dry-run`, cmd: node, args: [bin, '--json', 'order', 'place', SLUG, 'buy', 'yes', '--price', '0.2', '--size', '1', '--client-id', 'dry', '--dry-run'], env: env(tokens.dry) },
    {
      name: `${label}order place (live)`,
      cmd: node,
      get args() {
        return [bin, '--json', 'order', 'place', SLUG, 'buy', 'yes', '--price', '0.2', '--size', '1', '--client-id', `startup-${label.length}-${process.pid}-${i++}`];
      },
      env: env(tokens.live),
    },
  ];
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  try {
    const env = (name) => envFor(home, ready, name);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
    const before = process.env.BENCH_BEFORE;
    const cases = [{ name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] }, ...commands('pm ', bin, env, { dry: 'alice', live: 'bob' })];
    if (before) {
      const b = commands('before: pm ', before, env, { dry: 'partner', live: 'carol' });
      // Interleave: each before-command right after its after-command.
      const after = cases.splice(1);
      after.forEach((c, k) => cases.push(c, b[k]));
    }
    const r = interleaved(cases, rounds);
    const base = r['node -e 0'].median;
    const ratio = (name) => r[name].median / base;
    const rows = Object.entries(r).map(([k, v]) => `| \`${k}\` | ${fmt(v.median)} | ${fmt(v.min)} | ${(v.median / base).toFixed(2)}× |`);
    const talking = ['pm markets show', 'pm order place --dry-run', 'pm order place (live)'];
    const worst = Math.max(...talking.map(ratio));
    const lines = [
      `Median and best of ${rounds} interleaved rounds (after one warm-up), wall time of the whole process. The exchange is a sandbox in another process on loopback; credentials come from the environment.${before ? ' Rows "before:" run the build before the bundle (tsc output, unbundled), in the same rounds.' : ''}`,
      '',
      '| command | median | best | vs `node -e 0` |',
      '|---|---|---|---|',
      ...rows,
      '',
      `Targets (issue 15): every exchange-talking command ≤ 2× \`node -e 0\` — ${worst <= 2 ? 'met' : '**not met**'} (worst ${worst.toFixed(2)}×); \`--help\` ≤ 1.3× — ${ratio('pm --help') <= 1.3 ? 'met' : '**not met**'} (${ratio('pm --help').toFixed(2)}×).`,
    ];
    lines.push('', "Not yet tried: Node's start-up snapshot (`--snapshot-blob`; research §11 measured 2.13×/2.02× for `markets show`/`order place` with it, no better than the bundle). Not re-profiled after the bundle: issue 15's profile put ~41 ms of a live `order place` in deriving the account from the key, the fast signer's part of the issue.");
    if (before) {
      const pairs = ['--version', '--help', 'markets show', 'order place --dry-run', 'order place (live)'].map((c) => `${c} ${(r[`pm ${c}`].median / r[`before: pm ${c}`].median).toFixed(2)}×`);
      lines.push('', `After / before: ${pairs.join(', ')}.`);
    }
    return { title: 'Start-up', text: lines.join('\n'), figures: r };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
