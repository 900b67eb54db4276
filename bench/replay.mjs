// Recording and replay speed (issue 34). Recording (`pm record`): the events per second pm record
// writes while a sandbox runs --simulate at its fastest rate (1000 actions/s) plus a burst of
// orders over HTTP from every other signing account, and what it lost: every book and price
// message the sandbox emitted in the window (counted by a socket.io client of the bench's own,
// subscribed to the same markets: the sandbox sends one coalesced message to all subscribers)
// and every trade of the recorded markets' feeds must be in the file. Replay (`pm sandbox start
// --replay`): lines of a recording applied per second at --speed max (persisted: every commit
// fsynced, and in memory), and the replay's lag behind recorded time at --speed 1 while a bot
// places an order per second over HTTP. The replayed recording is synthetic and reproducible: one
// market, a book state every 50 ms moving 1–3 of its 10 levels, a price line every third line, a
// trade every tenth (alternately lifting and hitting the top level).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
// The sandbox's own reproducible random source (mulberry32), from its tsc output.
import { prng } from '../dist/sandbox/seedmarkets.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const SLUG = 'bench-replay';
const T0 = Date.parse('2026-11-28T09:00:00.000Z');

/** A recording of `n` lines, one every `stepMs`. */
function recording(file, n, stepMs) {
  const rnd = prng('bench-replay');
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

const waitFor = async (pred, ms = 600_000, everyMs = 5) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error('bench: replay timed out');
    await new Promise((r) => setTimeout(r, everyMs));
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

/** A burst account: orders as fast as the exchange's per-token limit lets the library send them. */
const BURST = `
const { createClient } = await import(process.env.LIB);
const a = JSON.parse(process.env.ACCOUNT);
const pm = createClient({ home: process.env.BURST_HOME, baseUrl: process.env.BASE, privateKey: a.privateKey, token: a.token });
let orders = 0;
let failed = 0;
let stop = false;
process.on('SIGTERM', () => { stop = true; });
for (let i = 0; !stop; i++) {
  try {
    await pm.orders.place({ market: process.env.SLUG, side: 'buy', outcome: 'yes', price: '0.' + String(100 + (i % 200)), size: '1', postOnly: true });
    orders += 1;
    if (i % 20 === 19) await pm.orders.cancelAll({ market: process.env.SLUG });
  } catch {
    failed += 1;
  }
}
process.stdout.write(JSON.stringify({ orders, failed }) + '\\n');
process.exit(0);
`;

/** Keys of the book and price messages: the same in the recording and at the bench's own subscriber. */
const bookKey = (slug, version) => `book|${slug}|${version}`;
const priceKey = (slug, block) => `price|${slug}|${block}`;

/** CPU time a process has used (user + system), in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

/** The recording's lines (a torn last line left out). */
const recorded = (file) => {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .slice(1, -1)
    .map((l) => JSON.parse(l));
};

/**
 * pm record against a sandbox at --simulate 1000 plus a burst of orders, for `seconds`: lines
 * written per second, and what the sandbox emitted in the same window that the file lacks.
 */
export async function recordRate(startSandbox, seconds) {
  const { io } = await import('socket.io-client');
  const { startSimulator } = await import('../dist/sandbox/simulate.js');
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-record-'));
  const file = join(home, 'rec.ndjson');
  const sb = await startSandbox({ port: 0, dataDir: null });
  // The simulator starts once the recorder and the bench's subscriber are in place.
  let simulator = null;
  const state = () => sb.ctx.state;
  const now = Date.now();
  const slugs = state()
    .markets.filter(
      (m) =>
        m.tradeType === 'clob' &&
        m.status === 'FUNDED' &&
        !m.expired &&
        m.expirationTimestamp > now &&
        m.positionIds !== null &&
        m.winningOutcomeIndex === null,
    )
    .map((m) => m.slug);
  const feedOf = (slug) => state().feed.filter((e) => e.marketSlug === slug);
  // pm record's REST goes through a proxy of the bench's that counts its feed polls per market
  // and notes the feed's length at the first one (what the recorder only remembers).
  const polls = new Map(slugs.map((s) => [s, 0]));
  const feedAtFirstPoll = new Map();
  const proxy = http.createServer((req, res) => {
    const up = http.request(`${sb.baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
      r.on('end', () => {
        const m = /^\/markets\/([^/]+)\/get-feed-events/.exec(req.url);
        if (!m || r.statusCode !== 200) return;
        const slug = decodeURIComponent(m[1]);
        if (!feedAtFirstPoll.has(slug)) feedAtFirstPoll.set(slug, feedOf(slug).length);
        polls.set(slug, (polls.get(slug) ?? 0) + 1);
      });
    });
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
  // The bench's own subscriber: every book and price message the sandbox sends.
  const emitted = new Map();
  const counter = io(`${sb.wsUrl}/markets`, { transports: ['websocket'] });
  counter.on('connect', () => counter.emit('subscribe_market_prices', { marketSlugs: slugs }));
  counter.on('orderbookUpdate', (p) => emitted.set(bookKey(p.marketSlug, p.version), p.version));
  counter.on('newPriceData', (p) => emitted.set(priceKey(p.marketSlug, p.blockNumber), p.blockNumber));
  const rec = spawn(process.execPath, [join(root, 'bin/pm.js'), '--json', 'record', ...slugs, '--out', file], {
    env: { ...process.env, PM_HOME: join(home, 'pm'), PM_BASE_URL: proxyUrl, PM_WS_URL: sb.wsUrl, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  rec.stdout.on('data', (c) => (out += c));
  const exited = new Promise((r) => rec.on('exit', (code) => r(code)));
  const bursts = [];
  try {
    await waitFor(
      () => {
        const books = new Set(
          recorded(file)
            .filter((l) => l.type === 'book')
            .map((l) => l.market),
        );
        return slugs.every((s) => books.has(s) && feedAtFirstPoll.has(s)) && emitted.size >= slugs.length;
      },
      60_000,
      200,
    );
    const seq0 = sb.seq();
    const t0 = Date.now();
    const cpu0 = cpuMs(rec.pid);
    simulator = startSimulator(sb.ctx, { rate: 1000 });
    for (const a of sb.info.accounts.filter((x) => x.name !== 'bob')) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', BURST], {
        env: {
          ...process.env,
          LIB: new URL('../dist/lib/index.mjs', import.meta.url).href,
          ACCOUNT: JSON.stringify(a),
          BURST_HOME: join(home, `burst-${a.name}`),
          BASE: sb.baseUrl,
          SLUG: slugs[0],
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      bursts.push({ child, done: new Promise((r) => child.on('exit', () => r(text ? JSON.parse(text) : { orders: 0, failed: 0 }))) });
    }
    // The recording window: the point of the measure.
    await new Promise((r) => setTimeout(r, seconds * 1000));
    simulator.stop();
    for (const b of bursts) b.child.kill('SIGTERM');
    const burst = await Promise.all(bursts.map((b) => b.done));
    const t1 = Date.now();
    const cpu1 = cpuMs(rec.pid);
    const seq1 = sb.seq();
    // Quiet now: the recorder catches up (every emitted message in the file) and polls each feed twice more.
    const pollsAt1 = new Map(polls);
    const inWindow = () => [...emitted].filter(([, v]) => v > seq0).map(([k]) => k);
    await waitFor(
      () => {
        const keys = new Set(
          recorded(file).map((l) => (l.type === 'book' ? bookKey(l.market, l.data.version) : priceKey(l.market, l.data.blockNumber))),
        );
        return inWindow().every((k) => keys.has(k)) && slugs.every((s) => polls.get(s) >= pollsAt1.get(s) + 2);
      },
      60_000,
      500,
    ).catch(() => undefined);
    rec.kill('SIGINT');
    const code = await exited;
    const lines = recorded(file);
    const inFile = (type, from, to) => lines.filter((l) => l.type === type && Date.parse(l.t) >= from && Date.parse(l.t) < to).length;
    const fileKeys = new Set(
      lines
        .filter((l) => l.type === 'book' || l.type === 'price')
        .map((l) => (l.type === 'book' ? bookKey(l.market, l.data.version) : priceKey(l.market, l.data.blockNumber))),
    );
    const sent = inWindow();
    const tradesSent = slugs.reduce((n, s) => n + feedOf(s).length - (feedAtFirstPoll.get(s) ?? 0), 0);
    const tradesInFile = lines.filter((l) => l.type === 'trade').length;
    const window = (t1 - t0) / 1000;
    return {
      seconds: window,
      markets: slugs.length,
      exitCode: code,
      summary: out ? JSON.parse(out) : null,
      logEvents: seq1 - seq0,
      sent: sent.length,
      bookSent: sent.filter((k) => k.startsWith('book|')).length,
      priceSent: sent.filter((k) => k.startsWith('price|')).length,
      lostMessages: sent.filter((k) => !fileKeys.has(k)).length,
      lostBook: sent.filter((k) => k.startsWith('book|') && !fileKeys.has(k)).length,
      lostPrice: sent.filter((k) => k.startsWith('price|') && !fileKeys.has(k)).length,
      cpuPct: Math.round(((cpu1 - cpu0) / (t1 - t0)) * 100),
      tradesSent,
      tradesInFile,
      lostTrades: Math.max(0, tradesSent - tradesInFile),
      written: {
        book: inFile('book', t0, t1),
        price: inFile('price', t0, t1),
        trade: inFile('trade', t0, t1),
        all: lines.filter((l) => Date.parse(l.t) >= t0 && Date.parse(l.t) < t1).length,
      },
      gaps: lines.filter((l) => l.type === 'gap').length,
      burst: burst.reduce((a, b) => ({ orders: a.orders + b.orders, failed: a.failed + b.failed }), { orders: 0, failed: 0 }),
      burstAccounts: bursts.length,
    };
  } finally {
    simulator?.stop();
    for (const b of bursts) b.child.kill('SIGKILL');
    rec.kill('SIGKILL');
    counter.close();
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
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
  const recordSeconds = Number(process.env.BENCH_RECORD_SECONDS ?? 30);
  try {
    const maxFile = join(dir, 'max.ndjson');
    recording(maxFile, lines, 50);
    const mem = await atMax(startSandbox, maxFile, false);
    const disk = await atMax(startSandbox, maxFile, true);
    const lagFile = join(dir, 'lag.ndjson');
    recording(lagFile, lagSeconds * 20, 50);
    const lag = await atSpeedOne(startSandbox, createClient, lagFile);
    const r = await recordRate(startSandbox, recordSeconds);
    const perS = (n) => Math.round(n / r.seconds);
    const recRow = (what, sent, written) => `| ${what} | ${sent} | ${written} | ${perS(written)} | ${sent - written} |`;
    const row = (r) =>
      `| ${r.persisted ? 'persisted (one fsync per replay tick)' : 'in memory'} | ${r.lines} | ${(r.ms / 1000).toFixed(2)} s | ${Math.round(r.linesPerS)} | ${r.events} | ${Math.round(r.eventsPerS)} |`;
    const text = [
      `**Recording.** \`pm record\` of the ${r.markets} tradable markets of a sandbox running \`--simulate\` at its fastest rate (1000 actions/s) plus a burst of orders over HTTP (${r.burstAccounts} accounts, each as fast as the per-token limit lets the library send: ${r.burst.orders} orders), for ${r.seconds.toFixed(1)} s (${r.logEvents} log events). Sent: the book and price messages the sandbox emitted in the window, counted by a socket.io subscriber of the bench's own on the same markets, and the trades that entered the markets' feeds; written: those found in the file (by book version, price block number, trade count) once the recorder had caught up and polled every feed twice more.`,
      '',
      '| recorded | sent | written | per second | lost |',
      '| --- | --- | --- | --- | --- |',
      recRow('book updates (`orderbookUpdate`)', r.bookSent, r.bookSent - r.lostBook),
      recRow('price moves (`newPriceData`)', r.priceSent, r.priceSent - r.lostPrice),
      recRow('trades (the feed, polled every 2 s)', r.tradesSent, Math.min(r.tradesSent, r.tradesInFile)),
      recRow('all', r.sent + r.tradesSent, r.sent - r.lostMessages + Math.min(r.tradesSent, r.tradesInFile)),
      '',
      `Lost: ${r.lostMessages + r.lostTrades}, written twice: ${Math.max(0, r.tradesInFile - r.tradesSent)} (gaps written: ${r.gaps}). Lines the recorder wrote while the window ran: ${perS(r.written.all)}/s (trades come at the next poll, so a few land after it); the recorder used ${r.cpuPct}% of one core (every line synced as it is written); exit code ${r.exitCode} (Ctrl-C, the file complete).`,
      '',
      `**Replay.** A synthetic recording of one market (a book state every 50 ms moving 1–3 of its 10 levels, a price line every third line, a trade every tenth), replayed in-process from \`startSandbox({ replay })\` start to \`done\`. Log events: the orders, cancels and progress records the replay committed.`,
      '',
      '| --speed max | lines | time | lines/s | log events | events/s |',
      '| --- | --- | --- | --- | --- | --- |',
      row(mem),
      row(disk),
      '',
      `At --speed 1, ${lagSeconds} s of recording (20 lines/s), persisted, while a bot (the library, over HTTP) places a post-only order every second (${lag.orders} orders): lag of each line behind its recorded time, p50 ${lag.p50} ms, p99 ${lag.p99} ms (${lag.samples} lines; the replay's clock ticks every 10 ms).`,
    ].join('\n');
    return { title: 'Recording and replay (pm record, pm sandbox start --replay)', text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
