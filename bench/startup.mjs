// Start-up: whole-process wall time of pm commands against `node -e 0`, interleaved in one run
// (so machine noise hits all alike), each run a fresh process. The exchange-talking ones run
// against a sandbox started here in another process on loopback, with credentials from the
// environment (PM_PRIVATE_KEY, PM_TOKEN_ID/PM_TOKEN_SECRET). The dry run and the live order use
// different tokens, and every live order is several processes after the previous one, so the
// per-token pacing (≥ 300 ms between requests of one token) never makes a run wait.
//
// Warm: the compile cache is in place (the warm-up round writes it). Cold: each run gets a new
// empty HOME, XDG_CACHE_HOME and TMPDIR, as the first run after an install.
//
// BENCH_BEFORE=/path/to/other/bin/pm.js adds the same commands run by another build of pm (for
// before/after figures of a change), interleaved in the same rounds; BENCH_BEFORE_NAME says which.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor, startSandboxProcess } from './batch.mjs';
import { fmt, interleaved, pairedRatio, placeArgs } from './lib.mjs';

const SLUG = 'btc-100k-2026';
// What no CLI can go below: a script that only sends `markets show`'s GET with node:http and prints the market.
const FLOOR_NAME = 'no pm: the same GET with node:http';
const FLOOR = `require('node:http').get(process.env.PM_BASE_URL + '/markets/${SLUG}', (r) => { let b = ''; r.setEncoding('utf8'); r.on('data', (c) => (b += c)); r.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(b), null, 2) + '\\n')); });`;

function commands(label, bin, env, tokens) {
  let i = 0;
  const node = process.execPath;
  const dryArgs = [bin, ...placeArgs('dry'), '--dry-run'];
  return [
    { name: `${label}--version`, cmd: node, args: [bin, '--version'], env: env(tokens.dry) },
    { name: `${label}--help`, cmd: node, args: [bin, '--help'], env: env(tokens.dry) },
    { name: `${label}markets show`, cmd: node, args: [bin, '--json', 'markets', 'show', SLUG], env: env(tokens.dry) },
    { name: `${label}order place --dry-run`, cmd: node, args: dryArgs, env: env(tokens.dry) },
    {
      name: `${label}order place (live)`,
      cmd: node,
      get args() {
        return [bin, ...placeArgs(`startup-${label.length}-${process.pid}-${i++}`)];
      },
      env: env(tokens.live),
    },
  ];
}

/** The same command as after an install: each run with a new empty HOME, XDG_CACHE_HOME and TMPDIR. */
function cold(c, under) {
  let n = 0;
  return {
    ...c,
    name: `${c.name}, cold`,
    get args() {
      return c.args;
    },
    get env() {
      const dir = join(under, `cold-${n++}`);
      for (const d of ['home', 'cache', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
      return { ...c.env, HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache'), TMPDIR: join(dir, 'tmp') };
    },
  };
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  try {
    const env = (name) => envFor(home, ready, name);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
    const before = process.env.BENCH_BEFORE;
    const pm = (label, bin, tokens) => {
      const warm = commands(label, bin, env, tokens);
      // (Cold after warm in each round: a live order's token is paced, so its runs stay apart.)
      return [...warm, ...warm.map((c) => cold(c, home))];
    };
    const cases = [
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      { name: FLOOR_NAME, cmd: process.execPath, args: ['-e', FLOOR], env: env('alice') },
      ...pm('pm ', bin, { dry: 'alice', live: 'bob' }),
    ];
    if (before) cases.push(...pm('before: pm ', before, { dry: 'partner', live: 'carol' }));
    const r = interleaved(cases, rounds);
    const ratio = (name) => pairedRatio(r[name], r['node -e 0']);
    const names = ['--version', '--help', 'markets show', 'order place --dry-run', 'order place (live)'];
    const rows = (label) =>
      names.map((c) => {
        const [w, k] = [r[`${label}${c}`], r[`${label}${c}, cold`]];
        return `| \`${label}${c}\` | ${fmt(w.median)} | ${ratio(`${label}${c}`).toFixed(2)}× | ${fmt(k.median)} | ${ratio(`${label}${c}, cold`).toFixed(2)}× |`;
      });
    const targets = [
      ['pm --help', 1.35],
      ['pm markets show', 1.5],
      ['pm order place (live)', 2.0],
      ['pm order place --dry-run, cold', 2.0],
    ].map(([k, t]) => `\`${k}\` ≤ ${t}× — ${ratio(k) <= t ? 'met' : '**not met**'} (${ratio(k).toFixed(2)}×)`);
    const lines = [
      `Median of ${rounds} interleaved rounds (after one warm-up), wall time of the whole process; \`node -e 0\`: ${fmt(r['node -e 0'].median)}. The exchange is a sandbox in another process on loopback; credentials come from the environment. Warm: the compile cache is in place. Cold: a new empty HOME, XDG_CACHE_HOME and TMPDIR for each run (the first run after an install).${before ? ` Rows "before:" run ${process.env.BENCH_BEFORE_NAME ?? 'another build'}, in the same rounds.` : ''} Ratios are paired: each round's command against that round's \`node -e 0\` (median of the per-round ratios), as farm-bench pairs its runs.`,
      '',
      '| command | warm median | warm vs `node -e 0` | cold median | cold vs `node -e 0` |',
      '|---|---|---|---|---|',
      ...rows('pm '),
      ...(before ? rows('before: pm ') : []),
      '',
      `Targets (issue 22): ${targets.join('; ')}.`,
      '',
      `The floor: ${FLOOR_NAME} (no argv parsing, no config, no pm) and printing the market takes ${fmt(r[FLOOR_NAME].median)}, ${ratio(FLOOR_NAME).toFixed(2)}× \`node -e 0\`; \`pm markets show\` is ${pairedRatio(r['pm markets show'], r[FLOOR_NAME]).toFixed(2)}× that script.`,
    ];
    if (before) {
      const pairs = names.map((c) => `${c} ${pairedRatio(r[`pm ${c}`], r[`before: pm ${c}`]).toFixed(2)}×`);
      lines.push('', `After / before (warm): ${pairs.join(', ')}.`);
    }
    return { title: 'Start-up', text: lines.join('\n'), figures: r };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
