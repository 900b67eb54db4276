// Start-up: `pm --version` and `pm --help` against `node -e 0`, interleaved in one run.
import { fmt, interleaved } from './lib.mjs';

export async function run() {
  const node = process.execPath;
  const bin = new URL('../bin/pm.js', import.meta.url).pathname;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 25);
  const r = interleaved(
    [
      { name: 'node -e 0', cmd: node, args: ['-e', '0'] },
      { name: 'pm --version', cmd: node, args: [bin, '--version'] },
      { name: 'pm --help', cmd: node, args: [bin, '--help'] },
    ],
    rounds,
  );
  const base = r['node -e 0'].median;
  const rows = Object.entries(r).map(([k, v]) => `| \`${k}\` | ${fmt(v.median)} | ${fmt(v.min)} | ${(v.median / base).toFixed(2)}× |`);
  return {
    title: 'Start-up',
    text: `Median and best of ${rounds} interleaved runs each (after one warm-up), wall time of the whole process.\n\n| command | median | best | vs \`node -e 0\` |\n|---|---|---|---|\n${rows.join('\n')}\n\nTarget: \`pm --version\` ≤ 1.5× \`node -e 0\` — ${r['pm --version'].median / base <= 1.5 ? 'met' : '**not met**'} (${(r['pm --version'].median / base).toFixed(2)}×).`,
    figures: r,
  };
}
