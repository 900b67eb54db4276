// HTTP order throughput of the sandbox: signed GTC orders (resting bids, no matching) posted over
// loopback to a sandbox in another process by many tokens at once (each token paced like the
// exchange allows, ≥ 330 ms between its requests, so the per-token limit is not the bound), on
// keep-alive connections, with the server's CPU profiled during the timed phase. Reports orders/s and where the
// server's CPU went: signature verification, book/engine, persistence (the event log), HTTP and
// JSON, authentication (HMAC), the rest.
//
// Orders are built, signed (EIP-712, pm's signer) and HMAC'd before the clock starts, so the
// client's CPU in the timed phase is only HTTP. Tokens: derived with each seeded signing
// account's identity token (alice, bob, partner); the sandbox's accounts with their own keys are
// those three, so the tokens are spread over them.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandboxProcess } from './batch.mjs';
import { requestJson } from './lib.mjs';
import { readProfile, selfTimes } from './profile.mjs';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 400);
const ORDERS = Number(process.env.BENCH_HTTP_ORDERS ?? 4000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const GAP_MS = 330;
const MARKETS = ['btc-100k-2026', 'eth-flip-btc', 'sol-500-2026', 'fed-cut-december', 'gpt-6-release-2026'];

/** Buckets of the server's CPU by what a sample's stack is doing (first match, leaf to root). */
const BUCKETS = [
  [
    'signature verification (secp256k1, keccak)',
    (f) => /node_modules\/(@noble\/curves|@noble\/hashes|viem)\//.test(f.url) || /sandbox\/eip712\.js/.test(f.url),
  ],
  ['socket.io streams', (f) => /sandbox\/stream\.js|socket\.io|engine\.io|\/ws\//.test(f.url)],
  [
    'persistence (event log: record capture, append, fdatasync)',
    (f) => /sandbox\/(log|persist)\.js/.test(f.url) || /^(fdatasync|fsync)$/.test(f.fn),
  ],
  ['authentication (HMAC, token lookup)', (f) => /sandbox\/auth\.js/.test(f.url)],
  ['book, engine and order checks', (f) => /sandbox\/(engine|book|bookindex|reducer|ledger|orders\/|routes\/orders)/.test(f.url)],
  [
    'HTTP server and JSON',
    (f) =>
      /sandbox\/server\.js|node:_http|node:net|node:internal\/stream|node:internal\/http/.test(f.url) ||
      /^(writev|writeUtf8String|writeLatin1String|parse|stringify)$/.test(f.fn),
  ],
];
function bucketOf(frames) {
  const leaf = frames[0];
  if (leaf.fn === '(idle)') return 'idle';
  if (leaf.fn === '(garbage collector)') return 'garbage collector';
  for (const [name, test] of BUCKETS) if (frames.some(test)) return name;
  return 'other';
}

function sign(secret, ts, method, path, body) {
  return createHmac('sha256', Buffer.from(secret, 'base64')).update(`${ts}\n${method}\n${path}\n${body}`).digest('base64');
}

async function measure(persistent) {
  const { prepareOrder, newSalt } = await import('../dist/core/trade/build.js');
  const { signOrder } = await import('../dist/core/trade/eip712.js');
  const { parseMarket } = await import('../dist/core/market-wire.js');
  const { privateKeyToAccount } = await import('viem/accounts');
  const home = mkdtempSync(join(tmpdir(), 'pm-bench-'));
  const profile = process.env.BENCH_PROFILE_OUT
    ? `${process.env.BENCH_PROFILE_OUT}.${persistent ? 'disk' : 'memory'}.cpuprofile`
    : join(home, 'server.cpuprofile');
  const { proc, ready, profiler } = await startSandboxProcess(home, {
    profile,
    env: persistent ? { BENCH_SANDBOX_DIR: join(home, 'sandbox') } : {},
  });
  try {
    const base = ready.baseUrl;
    const signers = ready.accounts.filter((a) => ['alice', 'bob', 'partner'].includes(a.name));
    // Tokens, round-robin over the signing accounts.
    const tokens = [];
    for (let i = 0; i < TOKENS; i++) {
      const a = signers[i % signers.length];
      const r = await new Promise((resolve, reject) => {
        const body = JSON.stringify({ label: `bench-${i}` });
        const req = http.request(
          `${base}/auth/api-tokens/derive`,
          {
            method: 'POST',
            agent: false,
            headers: {
              identity: `Bearer ${a.identityToken}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let t = '';
            res.on('data', (c) => (t += c));
            res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(t)) : reject(new Error(`derive: ${res.statusCode} ${t}`))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      tokens.push({ account: a, tokenId: r.tokenId, secret: r.secret, last: 0 });
    }
    // Orders: BUY YES, 1 share at 0.100–0.399 (below every ask: they rest), signed by the token's account.
    const markets = [];
    for (const slug of MARKETS) markets.push(parseMarket((await requestJson(`${base}/markets/${slug}`)).json));
    const accounts = new Map(signers.map((a) => [a.name, privateKeyToAccount(a.privateKey)]));
    const tSign = performance.now();
    const orders = [];
    for (let i = 0; i < ORDERS; i++) {
      const tok = tokens[i % tokens.length];
      const acct = tok.account;
      const { unsigned, body, exchange } = prepareOrder({
        market: markets[i % markets.length],
        outcome: 'YES',
        side: 'BUY',
        type: 'GTC',
        price: BigInt(100 + (i % 300)) * 1000n,
        size: 1_000_000n,
        clientOrderId: `http-${process.pid}-${i}`,
        ownerId: acct.profileId,
        feeRateBps: acct.name === 'bob' ? 0 : 300,
        maker: acct.address,
        salt: newSalt(),
      });
      body.order.signature = await signOrder(accounts.get(acct.name), exchange, unsigned);
      orders.push({ account: acct.name, json: JSON.stringify(body) });
    }
    const signMs = performance.now() - tSign;

    // The timed phase: CONNECTIONS keep-alive connections, each sending its next order as soon as
    // its previous answer is in, with a token whose last request started ≥ GAP_MS ago.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    // Per account, its tokens least recently used first (an order goes with a token of its signer).
    const queues = new Map(signers.map((a) => [a.name, tokens.filter((t) => t.account.name === a.name)]));
    const statuses = new Map();
    let next = 0;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const post = (o, tok) =>
      new Promise((resolve, reject) => {
        const ts = new Date().toISOString();
        const headers = {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(o.json),
          'lmts-api-key': tok.tokenId,
          'lmts-timestamp': ts,
          'lmts-signature': sign(tok.secret, ts, 'POST', '/orders', o.json),
        };
        const req = http.request(`${base}/orders`, { method: 'POST', agent, headers }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', reject);
        req.end(o.json);
      });
    const errors = new Map();
    const worker = async () => {
      while (next < orders.length) {
        const o = orders[next++];
        const q = queues.get(o.account);
        const tok = q.shift();
        const wait = tok.last + GAP_MS - performance.now();
        if (wait > 0) await sleep(wait);
        tok.last = performance.now();
        const r = await post(o, tok);
        q.push(tok);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status >= 300) errors.set(r.text.slice(0, 160), (errors.get(r.text.slice(0, 160)) ?? 0) + 1);
      }
    };
    await profiler.toggle();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    const ms = performance.now() - t0;
    await profiler.toggle();
    agent.destroy();
    const load = os.loadavg()[0].toFixed(1);

    const { total, times } = selfTimes(readProfile(profile), bucketOf);
    const busy = total - (times.find(([k]) => k === 'idle')?.[1] ?? 0);
    const ok = statuses.get(201) ?? 0;
    if (errors.size) console.error('http-orders: refusals:', [...errors].map(([t, n]) => `${n}× ${t}`).join('\n'));
    const perSec = (ORDERS / ms) * 1000;
    return { statuses, ms, perSec, ok, times, total, busy, signMs, load };
  } finally {
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const modes = [
    { name: 'in memory (`--ephemeral`)', r: await measure(false) },
    { name: 'data dir (event log, fdatasync before each answer)', r: await measure(true) },
  ];
  const share = (r, k) => {
    const v = r.times.find(([x]) => x === k)?.[1] ?? 0;
    return `${v.toFixed(0)} ms (${((100 * v) / r.busy).toFixed(1)}%)`;
  };
  const keys = [...new Set(modes.flatMap((m) => m.r.times.map(([k]) => k)))].filter((k) => k !== 'idle');
  keys.sort((a, b) => (modes[0].r.times.find(([x]) => x === b)?.[1] ?? 0) - (modes[0].r.times.find(([x]) => x === a)?.[1] ?? 0));
  const verdict = (r) => {
    const top = r.times.filter(([k]) => k !== 'idle')[0]?.[0] ?? '';
    const sig = r.times.find(([k]) => k.startsWith('signature'))?.[1] ?? 0;
    return `${top.startsWith('signature') ? 'met' : '**not met**'} (signature verification ${((100 * sig) / r.busy).toFixed(0)}% of busy CPU; the largest: ${top})`;
  };
  const text = [
    `${ORDERS} signed GTC orders (resting bids over ${MARKETS.length} markets) posted with ${TOKENS} tokens (derived for alice, bob and partner, the sandbox's accounts with keys; each token ≥ ${GAP_MS} ms between its requests, so the per-token limit is not the bound) over ${CONNECTIONS} keep-alive connections on loopback, to a sandbox in another process (the tsc output, its CPU profiled during the timed phase only). Orders were signed and serialised beforehand. The bench client shares the machine's CPUs with the server. Load average (1 min) at the end: ${modes[1].r.load} on ${os.cpus().length} CPUs.`,
    '',
    '| sandbox state | answers | wall time | orders/s | server busy |',
    '|---|---|---|---|---|',
    ...modes.map(
      ({ name, r }) =>
        `| ${name} | ${[...r.statuses].map(([st, n]) => `${n}× ${st}`).join(', ')} | ${(r.ms / 1000).toFixed(2)} s | ${r.perSec.toFixed(0)} | ${((100 * r.busy) / r.total).toFixed(0)}% |`,
    ),
    '',
    "Server CPU by what a sample's stack is doing (self time; idle left out; share of busy time):",
    '',
    `| where | ${modes.map((m) => m.name).join(' | ')} |`,
    `|---|${modes.map(() => '---').join('|')}|`,
    ...keys.map((k) => `| ${k} | ${modes.map((m) => share(m.r, k)).join(' | ')} |`),
    '',
    `Target (issue 15): bound by signature verification, not by the book scan or persistence — in memory: ${verdict(modes[0].r)}; with a data dir: ${verdict(modes[1].r)}.`,
  ].join('\n');
  return { title: 'HTTP order throughput (sandbox)', text, figures: modes };
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log((await run()).text);
