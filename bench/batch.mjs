// Batch placement: 100 orders from an NDJSON file through `pm order place --file`, against a
// sandbox in another process, timed against the rate-limit minimum (n − 1) × 300 ms.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * Starts `pm sandbox start` (ephemeral, a free port) in another process. With `opts.profile` (a
 * file) it runs bench/sandbox-server.mjs instead (the unbundled tsc output, so function names are
 * real), whose CPU profiler `profiler.toggle()` starts and stops (writing the file on stop).
 */
export async function startSandboxProcess(home, opts = {}) {
  const bin = new URL('../bin/pm.js', import.meta.url).pathname;
  const args = opts.profile
    ? [new URL('./sandbox-server.mjs', import.meta.url).pathname, opts.profile]
    : [bin, '--json', 'sandbox', 'start', '--port', '0', '--ephemeral'];
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, PM_HOME: home, ...(opts.env ?? {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    let buf = '';
    const onData = (c) => {
      buf += c;
      const i = buf.indexOf('\n');
      if (i >= 0) {
        proc.stdout.off('data', onData);
        resolve(JSON.parse(buf.slice(0, i)));
      }
    };
    proc.stdout.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  /** Sends SIGUSR2 and waits for the server's answer line ("profiling" / "profiled"). */
  const toggle = () =>
    new Promise((resolve) => {
      const onLine = (c) => {
        if (/profil/.test(String(c))) {
          proc.stdout.off('data', onLine);
          resolve();
        }
      };
      proc.stdout.on('data', onLine);
      proc.kill('SIGUSR2');
    });
  return { proc, ready, bin, profiler: { toggle } };
}

export function envFor(home, ready, name = 'alice') {
  const a = ready.accounts.find((x) => x.name === name);
  return {
    ...process.env,
    PM_HOME: home,
    PM_BASE_URL: ready.baseUrl,
    PM_TOKEN_ID: a.token.tokenId,
    PM_TOKEN_SECRET: a.token.secret,
    PM_PRIVATE_KEY: a.privateKey,
    CI: '1',
  };
}

export async function run() {
  const n = Number(process.env.BENCH_BATCH ?? 100);
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const { proc, ready, bin } = await startSandboxProcess(home);
  try {
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({
        market: 'btc-100k-2026',
        side: 'buy',
        outcome: 'yes',
        price: (0.3 + (i % 50) / 1000).toFixed(3),
        size: '1',
        clientId: `bench-${i}`,
      }),
    );
    const file = join(home, 'orders.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, '--json', 'order', 'place', '--file', file], {
      env: envFor(home, ready),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const ms = performance.now() - t;
    const results = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const ok = results.filter((x) => x.ok).length;
    const n429 = results.filter((x) => x.error?.status === 429).length + (r.stderr.match(/429/g) ?? []).length;
    const min = (n - 1) * 300;
    return {
      title: 'Batch placement',
      text: `${n} GTC orders from one NDJSON file (\`pm --json order place --file\`), one process, against a sandbox in another process on loopback; wall time of the whole command (start-up, signing and sending).\n\n| orders | placed | 429s | wall time | rate-limit minimum (n−1)×300 ms | ratio |\n|---|---|---|---|---|---|\n| ${n} | ${ok} | ${n429} | ${(ms / 1000).toFixed(2)} s | ${(min / 1000).toFixed(2)} s | ${(ms / min).toFixed(3)}× |\n\nTarget (issue 15): zero 429s within 1.05× the minimum — ${n429 === 0 && ms <= 1.05 * min && ok === n ? 'met' : '**not met**'}.`,
    };
  } finally {
    proc.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}
