// Replay speed (`pm sandbox start --replay`): lines of a recording applied per second at --speed
// max (persisted: every commit fsynced, and in memory), and the replay's lag behind recorded time
// at --speed 1 while a bot places an order per second over HTTP. The recording is synthetic and
// reproducible: one market, a book state every 50 ms moving 1–3 of its 10 levels, a price line
// every third line, a trade every tenth (alternately lifting and hitting the top level).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const SLUG = 'bench-replay';
const T0 = Date.parse('2026-11-28T09:00:00.000Z');

/** mulberry32: a reproducible random source. */
function prng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A recording of `n` lines, one every `stepMs`. */
function recording(file, n, stepMs) {
  const rnd = prng(34);
  let mid = 500; // ticks of 0.001
  const size = () => (5 + Math.floor(rnd() * 50)) * 1_000_000;
  let bids = [1, 2, 3, 4, 5].map((k) => ({ price: (mid - 5 - k) / 1000, size: size() }));
  let asks = [1, 2, 3, 4, 5].map((k) => ({ price: (mid + 5 + k) / 1000, size: size() }));
  const out = [
    {
      format: 'pm-recording',
      version: 1,
      pm: 'bench',
      source: 'bench',
      startedAt: new Date(T0).toISOString(),
      markets: [{ slug: SLUG, title: 'Replay bench' }],
    },
  ];
  for (let i = 0; i < n; i++) {
    const t = new Date(T0 + i * stepMs).toISOString();
    if (i % 10 === 9) {
      const lift = i % 20 === 9;
      const p = lift ? asks[0].price : bids[0].price;
      const contracts = 3;
      const outcome = 'YES';
      out.push({
        t,
        type: 'trade',
        market: SLUG,
        data: {
          eventType: 'NEW_TRADE',
          data: { strategy: lift ? 'Buy' : 'Sell', outcome, contracts: String(contracts), tradeAmount: (contracts * p).toFixed(6) },
        },
      });
    } else if (i % 3 === 0) {
      out.push({ t, type: 'price', market: SLUG, data: { marketSlug: SLUG, yes: mid / 1000 } });
    } else {
      // 1–3 levels change size; now and then the mid moves a tick.
      if (rnd() < 0.2) {
        mid += rnd() < 0.5 ? -1 : 1;
        bids = bids.map((l, k) => ({ price: (mid - 6 - k) / 1000, size: l.size }));
        asks = asks.map((l, k) => ({ price: (mid + 6 + k) / 1000, size: l.size }));
      }
      const changes = 1 + Math.floor(rnd() * 3);
      for (let c = 0; c < changes; c++) {
        const side = rnd() < 0.5 ? bids : asks;
        side[Math.floor(rnd() * side.length)].size = size();
      }
      out.push({ t, type: 'book', market: SLUG, data: { marketSlug: SLUG, orderbook: { bids, asks } } });
    }
  }
  writeFileSync(file, out.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

const waitFor = async (pred, ms = 600_000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error('bench: replay timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** Speed max: lines and log events per second, persisted or in memory. */
async function atMax(startSandbox, file, persisted) {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-replay-'));
  const t0 = performance.now();
  const sb = await startSandbox({ port: 0, dataDir: persisted ? join(home, 'sandbox') : null, replay: { file, speed: 'max' } });
  const seq0 = 0;
  try {
    await waitFor(() => sb.replay.status().done);
    const ms = performance.now() - t0;
    const s = sb.replay.status();
    return {
      persisted,
      lines: s.total,
      ms,
      linesPerS: (s.total / ms) * 1000,
      events: sb.seq() - seq0,
      eventsPerS: ((sb.seq() - seq0) / ms) * 1000,
    };
  } finally {
    await sb.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Speed 1, a bot placing an order a second over HTTP: each line's lag behind its due time. */
async function atSpeedOne(startSandbox, createClient, file) {
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-replay-'));
  const sb = await startSandbox({ port: 0, dataDir: join(home, 'sandbox'), replay: { file, speed: 1 } });
  const alice = sb.info.accounts.find((a) => a.name === 'alice');
  const pm = createClient({ home: join(home, 'pm'), baseUrl: sb.baseUrl, privateKey: alice.privateKey, token: alice.token });
  let orders = 0;
  let stop = false;
  const bot = (async () => {
    while (!stop) {
      const next = Date.now() + 1000;
      await pm.orders.place({ market: SLUG, side: 'buy', outcome: 'yes', price: `0.0${10 + (orders % 40)}`, size: '5', postOnly: true });
      orders += 1;
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    }
  })();
  try {
    await waitFor(() => sb.replay.status().done);
    stop = true;
    await bot;
    return { ...sb.replay.status().lagMs, orders };
  } finally {
    await pm.close();
    await sb.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const { startSandbox } = await import('../dist/sandbox/index.js');
  const { createClient } = await import('../dist/lib/index.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'pm-bench-replay-rec-'));
  const lines = Number(process.env.BENCH_REPLAY_LINES ?? 2000);
  const lagSeconds = Number(process.env.BENCH_REPLAY_SECONDS ?? 30);
  try {
    const maxFile = join(dir, 'max.ndjson');
    recording(maxFile, lines, 50);
    const mem = await atMax(startSandbox, maxFile, false);
    const disk = await atMax(startSandbox, maxFile, true);
    const lagFile = join(dir, 'lag.ndjson');
    recording(lagFile, lagSeconds * 20, 50);
    const lag = await atSpeedOne(startSandbox, createClient, lagFile);
    const row = (r) =>
      `| ${r.persisted ? 'persisted (one fsync per replay tick)' : 'in memory'} | ${r.lines} | ${(r.ms / 1000).toFixed(2)} s | ${Math.round(r.linesPerS)} | ${r.events} | ${Math.round(r.eventsPerS)} |`;
    const text = [
      `A synthetic recording of one market (a book state every 50 ms moving 1–3 of its 10 levels, a price line every third line, a trade every tenth), replayed in-process from \`startSandbox({ replay })\` start to \`done\`. Log events: the orders, cancels and progress records the replay committed.`,
      '',
      '| --speed max | lines | time | lines/s | log events | events/s |',
      '| --- | --- | --- | --- | --- | --- |',
      row(mem),
      row(disk),
      '',
      `At --speed 1, ${lagSeconds} s of recording (20 lines/s), persisted, while a bot (the library, over HTTP) places a post-only order every second (${lag.orders} orders): lag of each line behind its recorded time, p50 ${lag.p50} ms, p99 ${lag.p99} ms (${lag.samples} lines; the replay's clock ticks every 10 ms).`,
    ].join('\n');
    return { title: 'Replay (pm sandbox start --replay)', text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
