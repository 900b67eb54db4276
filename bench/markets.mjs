// `pm --json markets list --all` end to end at 100, 1,000 and 10,000 active markets: a sandbox in
// another process on loopback, topped up with synthetic markets (POST /__sandbox/markets/synthetic)
// to each size; each run is a new process whose stdout goes to a file (as `> markets.json` would),
// timed beside `node -e 0` in the same rounds. The client follows every page (25 markets each).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { startSandboxProcess } from './batch.mjs';
import { fmt, median, requestJson } from './lib.mjs';

const SIZES = (process.env.BENCH_MARKETS ?? '100,1000,10000').split(',').map(Number);

async function activeCount(baseUrl) {
  return (await requestJson(`${baseUrl}/markets/active?limit=1`)).json.totalMarketsCount;
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  const env = { ...process.env, PM_HOME: home, PM_BASE_URL: ready.baseUrl, CI: '1' };
  const out = join(home, 'markets.json');
  const once = (cmd, args) => {
    const fd = openSync(out, 'w');
    try {
      const t = performance.now();
      const r = spawnSync(cmd, args, { env, stdio: ['ignore', fd, 'inherit'] });
      const ms = performance.now() - t;
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
      return ms;
    } finally {
      closeSync(fd);
    }
  };
  try {
    const rows = [];
    for (const n of SIZES) {
      const have = await activeCount(ready.baseUrl);
      if (n > have) {
        const res = await requestJson(`${ready.baseUrl}/__sandbox/markets/synthetic`, 'POST', { count: n - have });
        if (res.status !== 201) throw new Error(`synthetic markets: ${res.status} ${JSON.stringify(res.json)}`);
      }
      const listed = await activeCount(ready.baseUrl);
      const rounds = Number(process.env.BENCH_ROUNDS ?? (n >= 10_000 ? 5 : 9));
      const pm = [];
      const node = [];
      once(process.execPath, [bin, '--json', 'markets', 'list', '--all']); // warm-up
      for (let i = 0; i < rounds; i++) {
        node.push(once(process.execPath, ['-e', '0']));
        pm.push(once(process.execPath, [bin, '--json', 'markets', 'list', '--all']));
      }
      const got = JSON.parse(readFileSync(out, 'utf8'));
      if (!Array.isArray(got) || got.length !== listed) throw new Error(`markets list --all printed ${got.length} markets of ${listed}`);
      rows.push({ n: listed, pages: Math.ceil(listed / 25), rounds, pm: median(pm), best: Math.min(...pm), node: median(node) });
    }
    const load = os.loadavg()[0].toFixed(1);
    const big = rows.find((r) => r.n >= 10_000);
    const lines = [
      `\`pm --json markets list --all\` (25 markets a page, pages one after another), each run a new process with stdout to a file, against a sandbox in another process on loopback holding that many active markets (the seed's plus synthetic ones from \`POST /__sandbox/markets/synthetic\`); median and best of the given rounds, \`node -e 0\` timed in the same rounds. Load average (1 min) at the end: ${load} on ${os.cpus().length} CPUs.`,
      '',
      '| active markets | pages | rounds | median | best | `node -e 0` | vs `node -e 0` |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.n.toLocaleString('en-US')} | ${r.pages} | ${r.rounds} | ${fmt(r.pm)} | ${fmt(r.best)} | ${fmt(r.node)} | ${(r.pm / r.node).toFixed(2)}× |`,
      ),
      '',
      big
        ? `Target (issue 15): 10,000 markets under 3 s end to end — ${big.pm < 3000 ? 'met' : '**not met**'} (${(big.pm / 1000).toFixed(2)} s).`
        : 'Target (issue 15): 10,000 markets under 3 s end to end — not measured in this run.',
    ];
    if (rows.length >= 3) {
      // Marginal cost per market between sizes: equal when the whole listing is linear.
      const marg = (a, b) => (b.pm - a.pm) / (b.n - a.n);
      const m1 = marg(rows[0], rows[1]);
      const m2 = marg(rows[1], rows[2]);
      lines.push(
        `Marginal time per market: ${m1.toFixed(3)} ms from ${rows[0].n.toLocaleString('en-US')} to ${rows[1].n.toLocaleString('en-US')}, ${m2.toFixed(3)} ms from ${rows[1].n.toLocaleString('en-US')} to ${rows[2].n.toLocaleString('en-US')} (${(m2 / m1).toFixed(2)}×; 1.00× = linear).`,
      );
    }
    return { title: '`markets list --all` at 100 / 1,000 / 10,000 markets', text: lines.join('\n'), figures: rows };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log((await run()).text);
