// Shared bench helpers: timing whole processes side by side, medians, a results file.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall time of one process run, in ms. */
export function timeProcess(cmd, args, env = process.env) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return performance.now() - t;
}

/**
 * Runs the named commands interleaved (so machine noise hits all alike); returns, per command,
 * the median and best wall time and the samples of each round (in round order).
 */
export function interleaved(cases, rounds) {
  const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (const c of cases) timeProcess(c.cmd, c.args, c.env); // warm-up
  for (let i = 0; i < rounds; i++) for (const c of cases) samples[c.name].push(timeProcess(c.cmd, c.args, c.env));
  return Object.fromEntries(
    cases.map((c) => [c.name, { median: median(samples[c.name]), min: Math.min(...samples[c.name]), samples: samples[c.name] }]),
  );
}

/**
 * The median of per-round ratios a/b (as farm-bench pairs its runs): on a machine whose speed
 * drifts, a ratio taken within each round stays meaningful where a ratio of two medians taken
 * over the whole run does not.
 */
export function pairedRatio(a, b) {
  return median(a.samples.map((x, i) => x / b.samples[i]));
}

/** The arguments of `pm --json order place btc-100k-2026 buy yes --price PRICE --size 1 --client-id ID`: one share that rests. */
export function placeArgs(clientId, price = '0.2') {
  return ['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', price, '--size', '1', '--client-id', clientId];
}

export const fmt = (ms) => `${ms.toFixed(1)} ms`;

/**
 * One JSON request on a new connection (no keep-alive: between long process runs a pooled
 * socket may meet the server's keep-alive timeout). Resolves { status, json }.
 */
export function requestJson(url, method = 'GET', body = undefined) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode, json: JSON.parse(text) });
          } catch (_e) {
            reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
