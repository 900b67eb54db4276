// Issue 30, item 10 (the parts that need no exchange): a config file of a newer pm is refused, not
// rewritten as version 1; the library's watch.prices() and watch.book() with the wrong argument
// shape are typed errors (UsageError, exit 2), not a raw TypeError.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { ndjson, runPm, useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();

describe('a config.json of a newer version', () => {
  it('is refused naming the version (exit 2) by reads and writes alike, and left byte for byte as it was', async () => {
    const home = newHome();
    const file = join(home, 'config.json');
    const text = `${JSON.stringify({ version: 99, activeProfile: 'p', profiles: { p: { baseUrl: 'http://127.0.0.1:1' } }, future: { x: 1 } }, null, 2)}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    for (const argv of [
      ['config', 'set', 'timeout', '5s'],
      ['config', 'get', 'timeout'],
      ['profile', 'list'],
    ]) {
      const r = await runPm(['--json', ...argv], { env: { PM_HOME: home } });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      const err = (JSON.parse(r.stderr) as { error: { message: string; hint: string } }).error;
      expect(err.message).toContain('version 99');
      expect(err.message).toContain(file);
      expect(err.hint).toMatch(/upgrade pm/i);
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('a version that is not a number is damage (exit 2); version 1 and no version at all are read', async () => {
    const home = newHome();
    const file = join(home, 'config.json');
    writeFileSync(file, JSON.stringify({ version: '2', profiles: {} }), { mode: 0o600 });
    const bad = await runPm(['profile', 'list'], { env: { PM_HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/version must be 1/);
    for (const v of [{ version: 1 }, {}]) {
      writeFileSync(file, JSON.stringify({ ...v, profiles: {} }), { mode: 0o600 });
      const ok = await runPm(['config', 'set', 'timeout', '5s'], { env: { PM_HOME: home } });
      expect(ok.code, ok.stderr).toBe(0);
    }
  });
});

describe('the library watch with the wrong argument shape', () => {
  it('watch.prices() and watch.book() refuse a non-list / non-slug with a UsageError naming the call, before connecting', async () => {
    const home = newHome();
    // (Nothing listens here: a call that got as far as connecting would fail otherwise.)
    const pm = createClient({ home, baseUrl: 'http://127.0.0.1:9' });
    const calls: [string, () => AsyncIterable<unknown>][] = [
      ['prices', () => pm.watch.prices({ markets: ['btc-100k-2026'] } as unknown as string[])],
      ['prices', () => pm.watch.prices('btc-100k-2026' as unknown as string[])],
      ['prices', () => pm.watch.prices([])],
      ['prices', () => pm.watch.prices([42] as unknown as string[])],
      ['book', () => pm.watch.book(['btc-100k-2026'] as unknown as string)],
    ];
    for (const [name, call] of calls) {
      let caught: unknown;
      try {
        for await (const _ of call()) break;
      } catch (e) {
        caught = e;
      }
      expect(caught, name).toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringContaining(`watch.${name}(`) });
    }
    await pm.close();
  });
});

/** A loopback port nothing listens on (a connection to it is refused: ECONNREFUSED). */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('a batch whose exchange refuses the connection', () => {
  it('reports every line sent:"no" (nothing was delivered), not "yes"', async () => {
    const home = newHome();
    const port = await deadPort();
    const lines = `${JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.1', size: '5' })}\n${JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.11', size: '5' })}\n`;
    const r = await runPm(['--json', 'order', 'place', '--file', '-'], {
      stdin: lines,
      env: {
        PM_HOME: home,
        PM_BASE_URL: `http://127.0.0.1:${port}`,
        PM_TOKEN_ID: 'dGVzdA',
        PM_TOKEN_SECRET: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
        PM_PRIVATE_KEY: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
      },
    });
    expect(r.code, r.stderr).not.toBe(0);
    const out = ndjson<{ line: number; ok: boolean; sent?: string; error?: { message: string } }>(r.stdout);
    expect(out).toHaveLength(2);
    for (const l of out) {
      expect(l.ok).toBe(false);
      expect(l.error?.message).toMatch(/ECONNREFUSED/);
      expect(l.sent, JSON.stringify(l)).toBe('no');
    }
  });
});
