#!/usr/bin/env node
// A backtest: the library quoter (examples/quoter.ts) run against a recorded market replayed in
// a sandbox of its own, then what it did, read through the library: its fills, its positions.
//
//   pm record btc-100k-2026 --for 10m --out btc.ndjson           # once, on the real exchange
//   node examples/backtest.mjs btc.ndjson --seconds 60 --speed 10 # ten minutes of it in one
//
// Options: --market SLUG (default: the recording's first), --seconds N of wall time (default 30),
// --speed N|max (default 10), --spread and --size for the quoter. pm is named by $PM (default
// `pm`). The sandbox is in memory (--ephemeral) and trades as alice, a public dev account.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'pm-cli';

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const file = args[0];
if (!file || file.startsWith('--')) {
  process.stderr.write('usage: node examples/backtest.mjs RECORDING [--market SLUG] [--seconds N] [--speed N|max]\n');
  process.exit(2);
}
const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]);
const market = flag('market', header.markets?.[0]?.slug);
const seconds = Number(flag('seconds', '30'));
const speed = flag('speed', '10');
const [pmCmd, ...pmArgs] = (process.env.PM ?? 'pm').split(' ');
// The quoter is TypeScript, which Node runs as it is from 22.18 on; on an older Node, its
// compiled JavaScript is named in PM_QUOTER. Said before anything starts.
if (!process.env.PM_QUOTER && !process.features.typescript) {
  process.stderr.write(
    `error: this Node (${process.version}) does not run TypeScript, and the quoter is examples/quoter.ts\n` +
      'hint: compile it (npx tsc --module nodenext --target es2022 examples/quoter.ts) and name the .js in PM_QUOTER, or run Node 22.18 or newer\n',
  );
  process.exit(2);
}

// 1. The replay: a sandbox in memory on a free port; its ready line names the URLs and alice's keys.
const sandbox = spawn(pmCmd, [...pmArgs, '--json', 'sandbox', 'start', '--replay', file, '--speed', speed, '--ephemeral', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).once('line', (l) => resolve(JSON.parse(l)));
  sandbox.once('exit', (code) => reject(new Error(`pm sandbox start exited ${code}`)));
});
const alice = ready.accounts.find((a) => a.name === 'alice');
const env = {
  ...process.env,
  PM_BASE_URL: ready.baseUrl,
  PM_PRIVATE_KEY: alice.privateKey,
  PM_TOKEN_ID: alice.token.tokenId,
  PM_TOKEN_SECRET: alice.token.secret,
};

// 2. The quoter for `seconds`, then Ctrl-C (it cancels its quotes).
// The quoter as Node ≥ 22.18 runs it; on Node 20 name its compiled JavaScript in PM_QUOTER.
const quoterFile = process.env.PM_QUOTER ?? fileURLToPath(new URL('./quoter.ts', import.meta.url));
const quoter = spawn(process.execPath, [quoterFile, market, '--spread', flag('spread', '0.04'), '--size', flag('size', '10')], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const actions = { quoted: 0, requoted: 0, canceledAtStop: 0 };
createInterface({ input: quoter.stdout }).on('line', (l) => {
  const ev = JSON.parse(l);
  if (ev.quoting) actions.quoted += 1;
  if (ev.requoted) actions.requoted += 1;
  if (ev.stopped) actions.canceledAtStop = ev.canceled;
});
const quoterDone = new Promise((resolve) => quoter.once('exit', (code, signal) => resolve({ code, signal })));
let stopped = false;
const timer = setTimeout(() => {
  stopped = true;
  quoter.kill('SIGINT');
}, seconds * 1000);
const quoterExit = await quoterDone;
clearTimeout(timer);
// A quoter that failed (or could not start) makes a failed backtest, not an empty one.
if (!stopped || quoterExit.code !== 0) {
  process.stderr.write(
    `the quoter exited ${quoterExit.code ?? quoterExit.signal}${stopped ? '' : ' before the end'}: see its errors above\n`,
  );
  process.exitCode = 1;
}

// 3. What it did, through the library: where the replay stands, the fills, the positions.
const pm = createClient({ baseUrl: ready.baseUrl, privateKey: alice.privateKey, token: alice.token });
try {
  const replay = await (await fetch(`${ready.baseUrl}/__sandbox/replay`)).json();
  const trades = await pm.portfolio.trades();
  const { positions, totals } = await pm.portfolio.positions();
  const summary = {
    market,
    seconds,
    speed,
    replay: { recordedTime: replay.recordedTime, applied: replay.applied, total: replay.total, done: replay.done },
    quoter: actions,
    fills: trades.filter((t) => t.market === market),
    positions: positions.filter((p) => p.market === market),
    totals,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} finally {
  await pm.close();
  sandbox.kill('SIGTERM');
}
