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
import { fmt, interleaved, pairedRatio } from './lib.mjs';

const SLUG = 'btc-100k-2026';

function commands(label, bin, env, tokens) {
  let i = 0;
  const node = process.execPath;
  return [
    { name: `${label}--version`, cmd: node, args: [bin, '--version'], env: env(tokens.dry) },
    { name: `${label}--help`, cmd: node, args: [bin, '--help'], env: env(tokens.dry) },
    { name: `${label}markets show`, cmd: node, args: [bin, '--json', 'markets', 'show', SLUG], env: env(tokens.dry) },
    {
      name: `${label}order place --dry-run`,
      cmd: node,
      args: [bin, '--json', 'order', 'place', SLUG, 'buy', 'yes', '--price', '0.2', '--size', '1', '--client-id', 'dry', '--dry-run'],
      env: env(tokens.dry),
    },
    {
      name: `${label}order place (live)`,
      cmd: node,
      get args() {
        return [
          bin,
          '--json',
          'order',
          'place',
          SLUG,
          'buy',
          'yes',
          '--price',
          '0.2',
          '--size',
          '1',
          '--client-id',
          `startup-${label.length}-${process.pid}-${i++}`,
        ];
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
    const cases = [
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      ...commands('pm ', bin, env, { dry: 'alice', live: 'bob' }),
    ];
    if (before) {
      const b = commands('before: pm ', before, env, { dry: 'partner', live: 'carol' });
      // Interleave: each before-command right after its after-command.
      const after = cases.splice(1);
      after.forEach((c, k) => cases.push(c, b[k]));
    }
    const r = interleaved(cases, rounds);
    const base = r['node -e 0'].median;
    const ratio = (name) => pairedRatio(r[name], r['node -e 0']);
    const rows = Object.entries(r).map(
      ([k, v]) => `| \`${k}\` | ${fmt(v.median)} | ${fmt(v.min)} | ${(v.median / base).toFixed(2)}× | ${ratio(k).toFixed(2)}× |`,
    );
    const talking = ['pm markets show', 'pm order place --dry-run', 'pm order place (live)'];
    const worst = Math.max(...talking.map(ratio));
    const lines = [
      `Median and best of ${rounds} interleaved rounds (after one warm-up), wall time of the whole process. The exchange is a sandbox in another process on loopback; credentials come from the environment.${before ? ' Rows "before:" run the build before the bundle (tsc output, unbundled), in the same rounds.' : ''}`,
      '',
      '| command | median | best | median / median of `node -e 0` | vs `node -e 0`, paired (median of per-round ratios) |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Targets (issue 15), on the paired ratios (each round's command against that round's \`node -e 0\`, as farm-bench pairs its runs, so that the machine's drift during the run cancels out): every exchange-talking command ≤ 2× \`node -e 0\` — ${worst <= 2 ? 'met' : '**not met**'} (worst ${worst.toFixed(2)}×); \`--help\` ≤ 1.3× — ${ratio('pm --help') <= 1.3 ? 'met' : '**not met**'} (${ratio('pm --help').toFixed(2)}×).`,
    ];
    lines.push(
      '',
      "Start-up snapshot (`node --snapshot-blob`, measured once by hand, 2026-11-23, load average ~5, 10 interleaved rounds): a CommonJS build of the app with main.ts, commander and the CLI core in the snapshot and commands evaluated lazily ran `order place` at 2.12× `node -e 0` against 2.75× for the bundle in the same rounds, `markets show` 1.43× against 1.66×. Putting the order command itself in the snapshot fails on Node 20 (node:http cannot load in the snapshot builder). Not adopted: it needs a CommonJS build beside the ESM one, a blob per exact Node binary, and bin/pm.js cannot pass `--snapshot-blob` to its own process (a re-exec costs another `node -e 0`). What a one-order command does not pay any more: viem and @noble/curves (its address comes from node:crypto's ECDH and keccak, its signature from node:crypto: OpenSSL's k·G with the RFC 6979 nonce on node:crypto's HMAC, src/keystore/secp256k1.ts), the ESM loader (the bundle is CommonJS) and most of the compiling (V8's code cache, kept by bin/pm.js in ~/.cache/pm/code; the warm-up run writes it).",
    );
    if (before) {
      const pairs = ['--version', '--help', 'markets show', 'order place --dry-run', 'order place (live)'].map(
        (c) => `${c} ${pairedRatio(r[`pm ${c}`], r[`before: pm ${c}`]).toFixed(2)}×`,
      );
      lines.push('', `After / before: ${pairs.join(', ')}.`);
    }
    return { title: 'Start-up', text: lines.join('\n'), figures: r };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
