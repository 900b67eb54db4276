// Shared bench helpers: timing whole processes side by side, medians, a results file.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall time of one process run, in ms. */
export function timeProcess(cmd, args, env = process.env) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'ignore', env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
  return performance.now() - t;
}

/** Runs the named commands interleaved (so machine noise hits all alike); returns medians. */
export function interleaved(cases, rounds) {
  const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (const c of cases) timeProcess(c.cmd, c.args, c.env); // warm-up
  for (let i = 0; i < rounds; i++) for (const c of cases) samples[c.name].push(timeProcess(c.cmd, c.args, c.env));
  return Object.fromEntries(cases.map((c) => [c.name, { median: median(samples[c.name]), min: Math.min(...samples[c.name]) }]));
}

export const fmt = (ms) => `${ms.toFixed(1)} ms`;
