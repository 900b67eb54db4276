// Several `pm` processes sharing one API token (and one PM_HOME): 4 workers each placing 10
// orders one after another, every order a fresh `pm order place` process, against a sandbox in
// another process. Counts the exchange's 429s (from the --verbose trace) and compares the wall
// time with the floor the rate limit allows: 39 × 300 ms between the 40 starts plus one run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { envFor, startSandboxProcess } from './batch.mjs';
import { placeArgs } from './lib.mjs';

function pmPlaceArgs(bin, id, i) {
  return [bin, '--verbose', ...placeArgs(id, (0.2 + (i % 50) / 1000).toFixed(3))];
}

function runPm(args, env) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (c) => (err += c));
    p.on('exit', (code) => resolve({ code, stderr: err }));
  });
}

export async function run() {
  const workers = Number(process.env.BENCH_RL_WORKERS ?? 4);
  const each = Number(process.env.BENCH_RL_ORDERS ?? 10);
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  try {
    const env = envFor(home, ready);
    // Warm the caches (market, profile) so each order is one request, then time one run alone.
    for (const id of ['rl-warm-0', 'rl-warm-1']) spawnSync(process.execPath, pmPlaceArgs(bin, id, 0), { env, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    let t = performance.now();
    const solo = spawnSync(process.execPath, pmPlaceArgs(bin, 'rl-solo', 0), { env, stdio: 'ignore' });
    const single = performance.now() - t;
    if (solo.status !== 0) throw new Error(`pm order place exited ${solo.status}`);
    await new Promise((r) => setTimeout(r, 300));

    const codes = {};
    let n429 = 0;
    let requests = 0;
    const runs = [];
    t = performance.now();
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (let i = 0; i < each; i++) {
          const t0 = performance.now();
          const r = await runPm(pmPlaceArgs(bin, `rl-${w}-${i}`, w * each + i), env);
          runs.push(performance.now() - t0);
          codes[r.code] = (codes[r.code] ?? 0) + 1;
          requests += (r.stderr.match(/\] ← #\d+ \d{3} /g) ?? []).length;
          n429 += (r.stderr.match(/\] ← #\d+ 429 /g) ?? []).length;
        }
      }),
    );
    const ms = performance.now() - t;
    const load = loadavg()[0].toFixed(1);
    const n = workers * each;
    const floor = (n - 1) * 300 + single;
    const ok = codes[0] ?? 0;
    const exits = Object.entries(codes)
      .map(([c, k]) => `${k}× exit ${c}`)
      .join(', ');
    return {
      title: 'Rate limit across processes',
      text: `${workers} workers × ${each} orders, each order a new \`pm --verbose --json order place\` process, all with alice's token (PM_TOKEN_ID/PM_TOKEN_SECRET/PM_PRIVATE_KEY) and one PM_HOME, against a sandbox in another process on loopback (caches warm, so one request per order). 429s counted from the trace; floor = (n−1) × 300 ms + one \`pm order place\` run alone (${(single / 1000).toFixed(2)} s). Mean wall time of one \`pm order place\` process in the run: ${(runs.reduce((a, b) => a + b, 0) / runs.length / 1000).toFixed(2)} s (each worker must finish one every ${(workers * 0.3).toFixed(1)} s to keep up). Load average (1 min) at the end: ${load} on ${cpus().length} CPUs.\n\n| orders | placed | requests | 429s | wall time | floor | ratio |\n|---|---|---|---|---|---|---|\n| ${n} | ${ok} (${exits}) | ${requests} | ${n429} | ${(ms / 1000).toFixed(2)} s | ${(floor / 1000).toFixed(2)} s | ${(ms / floor).toFixed(3)}× |\n\nTarget: zero 429s within 1.1× the floor — ${n429 === 0 && ms <= 1.1 * floor && ok === n ? 'met' : '**not met**'}.`,
    };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
