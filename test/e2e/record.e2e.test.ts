// pm record against a sandbox with simulated trading (the stand-in for the real exchange): a
// self-describing file (header with each market in full, then timed records), valid after a
// kill -9 at any moment (every complete line reads; only a last line cut short may not), and a
// summary that adds up to the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { eventually } from '../helpers/eventually.js';
import { faultProxy } from '../helpers/fault-proxy.js';
import { hmac, seeded, send, signedOrderBody, unpaced } from '../helpers/http.js';
import { tempHome } from '../helpers/run.js';

const BIN = 'bin/pm.js';
const { home, cleanup } = tempHome();
afterAll(cleanup);
// One simulated sandbox for the file, started before any test (each test stands on its own, in any order).
let sb: SandboxHandle | undefined;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, dataDir: null, simulate: { rate: 40 } });
});
afterAll(async () => sb?.close());
const others: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const x of others) await x.close();
});

const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n');
const env = (base: string) => ({ PATH: process.env['PATH'], PM_HOME: home, NO_COLOR: '1', PM_BASE_URL: base });

describe('pm record', () => {
  it('writes a header and timed records that add up to its summary', async () => {
    if (!sb) throw new Error('no sandbox');
    const file = join(home, 'a.ndjson');
    const r = await execa('node', [BIN, '--json', 'record', 'btc-100k-2026', '--for', '4s', '--out', file], {
      env: env(sb.baseUrl),
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { events: number; byType: Record<string, number>; markets: string[] };
    const all = lines(file);
    expect(all.at(-1)).toBe(''); // every line ends with its newline
    const [header, ...rest] = all.filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(header).toMatchObject({ format: 'pm-recording', version: 1, source: sb.baseUrl, markets: [{ slug: 'btc-100k-2026' }] });
    expect(((header?.['markets'] ?? []) as { positionIds?: unknown }[])[0]).toHaveProperty('positionIds');
    expect(rest.at(-1)).toMatchObject({ type: 'end' });
    const body = rest.filter((x) => x['type'] !== 'end');
    expect(body.length).toBe(summary.events);
    expect(summary.byType['book']).toBeGreaterThan(0);
    for (const x of body) expect(Number.isFinite(Date.parse(String(x['t'])))).toBe(true);
    expect(body.filter((x) => x['type'] === 'book').every((x) => x['market'] === 'btc-100k-2026')).toBe(true);
  });

  it('a kill -9 mid-recording leaves a file whose every complete line reads; a new recording goes on to another file', async () => {
    if (!sb) throw new Error('no sandbox');
    const file = join(home, 'killed.ndjson');
    const proc = execa('node', [BIN, 'record', 'btc-100k-2026', '--for', '60s', '--out', file], { env: env(sb.baseUrl), reject: false });
    await eventually(
      () => {
        try {
          return lines(file).filter((l) => l.includes('"type":"book"')).length >= 3;
        } catch {
          return false;
        }
      },
      { what: 'three book records' },
    );
    proc.kill('SIGKILL');
    await proc;
    const all = lines(file);
    const last = all.pop() ?? '';
    for (const l of all) expect(() => JSON.parse(l)).not.toThrow();
    // (What may follow the last newline is a line cut short: a reader ignores it.)
    if (last !== '') expect(() => JSON.parse(last)).toThrow();
    expect(all.some((l) => l.includes('"type":"end"'))).toBe(false);
    const again = await execa('node', [BIN, 'record', 'btc-100k-2026', '--for', '2s', '--out', join(home, 'second.ndjson')], {
      env: env(sb.baseUrl),
      reject: false,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/recorded btc-100k-2026 to .*second\.ndjson/);
  });

  it('refuses to overwrite a recording, and an unknown market, before writing anything', async () => {
    if (!sb) throw new Error('no sandbox');
    const file = join(home, 'taken.ndjson');
    writeFileSync(file, 'an earlier recording\n');
    const r = await execa('node', [BIN, 'record', 'btc-100k-2026', '--for', '1s', '--out', file], { env: env(sb.baseUrl), reject: false });
    expect(r.exitCode).toBe(5);
    expect(readFileSync(file, 'utf8')).toBe('an earlier recording\n');
    const missing = await execa('node', [BIN, 'record', 'no-such-market-2099', '--for', '1s', '--out', join(home, 'x.ndjson')], {
      env: env(sb.baseUrl),
      reject: false,
    });
    expect(missing.exitCode).toBe(4);
  });

  it('more trades between two polls than one page of the feed holds: every one is written', async () => {
    const src = await startSandbox({ port: 0, dataDir: null });
    others.push(src);
    await unpaced(src);
    const proxy = await faultProxy(src.baseUrl);
    others.push(proxy);
    const feed = '/markets/btc-100k-2026/get-feed-events';
    const file = join(home, 'busy.ndjson');
    const proc = execa('node', [BIN, '--json', 'record', 'btc-100k-2026', '--for', '60s', '--out', file], {
      env: env(proxy.baseUrl),
      reject: false,
    });
    // The first poll answered (what it finds is only remembered); the next one is held 8 s at the
    // proxy while 30 trades happen (the feed answers 25 a page).
    await eventually(() => proxy.count('GET', feed) >= 1 && proxy.inFlight === 0, { what: 'the first feed poll' });
    proxy.set({ method: 'GET', path: feed, fault: { kind: 'delay', ms: 8000 } });
    await eventually(() => proxy.count('GET', feed) >= 2, { what: 'the second feed poll, held' });
    const alice = seeded(src, 'alice');
    const before = src.ctx.state.feed.length;
    for (let i = 0; i < 30; i++) {
      const raw = JSON.stringify(await signedOrderBody(src, alice, { slug: 'btc-100k-2026', price: 0.99, shares: 1_000_000n }));
      expect((await send(src, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw)).status).toBe(201);
    }
    expect(src.ctx.state.feed.length - before).toBe(30);
    // Every trade written (a loaded machine may take a few polls), and no more than them.
    const trades = (): string[] => lines(file).filter((l) => l.includes('"type":"trade"'));
    await eventually(() => trades().length >= 30, { timeoutMs: 45_000, what: '30 trade lines' });
    proc.kill('SIGINT');
    await proc;
    expect(trades()).toHaveLength(30);
  });
});
