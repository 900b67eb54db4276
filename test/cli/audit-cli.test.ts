// Found by an audit of the CLI against docs/output.md and the command reference: a group's book
// whose market lookup ran out of time was reported as the exchange's refusal (exit 9); pm record
// stopped by Ctrl-C printed its summary twice; pm lock --status wrote its time as ISO, not in the
// one text form; a re-run batch whose lines name their own clientId told to pass a new --batch-id,
// which changes nothing for them; pm order cancel --all stopped by Ctrl-C said only "interrupted by
// SIGINT", not what it had cancelled.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Keystore } from '../../src/keystore/store.js';
import { startAgent } from '../../src/keystore/agent-server.js';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';
import { countEvents, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import { eventually } from '../helpers/eventually.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();
const env = (home: string) => ({ PM_HOME: home, PM_BASE_URL: sb.current.baseUrl });

describe('book <group> when the market lookup cannot be made', () => {
  it('exits 7 with the deadline, not 9 with the book route\'s "not a CLOB market"', async () => {
    // The book route answers at once (400: a group has no book); the market lookup is held past --timeout.
    expect(await postAdmin(sb.current, 'faults', { delay: { route: 'GET /markets/:slug', ms: 5000 } })).toBe(200);
    try {
      const r = await runPm(['--json', '--timeout', '1s', 'book', 'us-election-2028'], { env: env(newHome()) });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).not.toMatch(/not a CLOB market/);
    } finally {
      await postAdmin(sb.current, 'faults', { delay: null });
    }
    // With the lookup answered, the group's children are listed, as before.
    const ok = await runPm(['book', 'us-election-2028'], { env: env(newHome()) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/us-election-2028-democrat/);
  });
});

describe('pm record stopped by Ctrl-C', () => {
  it('says once on stderr what it recorded (exit 130)', async () => {
    const home = newHome();
    const file = join(home, 'rec.ndjson');
    const ac = new AbortController();
    const run = runPm(['record', 'btc-100k-2026', '--for', '60s', '--out', file], { env: env(home), signal: ac.signal });
    // Stopped once the book is in the file.
    for (let i = 0; i < 100 && !/"type":"book"/.test(safeRead(file)); i++) await new Promise((r) => setTimeout(r, 50));
    ac.abort(Object.assign(new Error('interrupted by SIGINT'), { signal: 'SIGINT' }));
    const r = await run;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.match(/recorded btc-100k-2026 to /g) ?? [], r.stderr).toHaveLength(1);
  });
});

describe('pm lock --status', () => {
  it('writes the deadline in the one text form (UTC to the second); --json keeps ISO with milliseconds', async () => {
    const home = newHome();
    const ks = new Keystore(home, { scrypt: { n: 1024 } });
    await ks.importWalletKey('w', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'audit-pass-1');
    const agent = await startAgent({ home, passphrase: 'audit-pass-1', ttlMs: 60_000 });
    try {
      const text = await runPm(['lock', '--status'], { env: { PM_HOME: home } });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^until +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
      const json = await runPm(['--json', 'unlock', '--status'], { env: { PM_HOME: home } });
      expect((JSON.parse(json.stdout) as { until: string }).until).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await agent.close();
    }
  });
});

describe('a batch run again', () => {
  it('says how to place skipped lines again by where their client id comes from', async () => {
    const home = newHome();
    const file = join(home, 'orders.ndjson');
    const line = (price: string, clientId?: string) =>
      JSON.stringify({ market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', price, size: '1', ...(clientId ? { clientId } : {}) });
    const pm = (...argv: string[]) => runPm(argv, { env: accountEnv(sb.current, 'alice', home) });
    // Every line names its clientId: a new --batch-id places nothing new, so pm does not suggest it.
    writeFileSync(file, `${line('0.101', 'audit-own-1')}\n${line('0.102', 'audit-own-2')}\n`);
    expect((await pm('order', 'place', '--file', file)).code).toBe(0);
    const own = await pm('order', 'place', '--file', file, '--batch-id', 'another');
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toMatch(/2 lines were already placed .* skipped; to place them again as new orders, give them new clientIds/);
    expect(own.stderr).not.toMatch(/pass a new --batch-id/);
    // Lines without one: a new --batch-id is the way, as before.
    writeFileSync(file, `${line('0.103')}\n`);
    expect((await pm('order', 'place', '--file', file)).code).toBe(0);
    const made = await pm('order', 'place', '--file', file);
    expect(made.stderr).toMatch(/1 line was already placed .* skipped; to place them again as new orders, pass a new --batch-id\./);
  });
});

describe('the kill switch stopped by Ctrl-C', () => {
  it('says what it cancelled, which cancels were on their way and which markets it did not ask (exit 130)', async () => {
    const home = newHome();
    const pm = (argv: string[], signal?: AbortSignal, baseUrl?: string) =>
      runPm(argv, {
        env: { ...accountEnv(sb.current, 'alice', home), ...(baseUrl ? { PM_BASE_URL: baseUrl } : {}) },
        ...(signal ? { signal } : {}),
      });
    for (const m of ['eth-flip-btc', 'world-cup-2026-brazil', 'gpt-6-release-2026'])
      expect((await pm(['order', 'place', m, 'buy', 'yes', '--price', '0.02', '--size', '5'])).code).toBe(0);
    // Every market's cancel is held 1.5 s; the markets are asked at once, their sends paced by the
    // limiter: Ctrl-C lands as the first one reaches the exchange, while the others wait their turn.
    proxy.current.reset();
    proxy.current.set({ method: 'DELETE', path: /^\/orders\/all\//, times: Number.POSITIVE_INFINITY, fault: { kind: 'delay', ms: 1500 } });
    try {
      const mark = logMark(sb.current);
      const ac = new AbortController();
      const run = pm(['order', 'cancel', '--all'], ac.signal, proxy.current.baseUrl);
      await eventually(() => proxy.current.count('DELETE', /^\/orders\/all\//) > 0, { what: 'the first market asked' });
      ac.abort(Object.assign(new Error('interrupted by SIGINT'), { signal: 'SIGINT' }));
      const r = await run;
      expect(r.code, r.stderr).toBe(130);
      await eventually(() => proxy.current.inFlight === 0, { what: 'the held cancels answered' });
      const said =
        /^error: interrupted: (\d+) orders? in (\d+) markets? canceled; (?:the cancel of (\S+(?:, \S+)*) may or may not have gone through; )?(\d+) markets? not asked$/m.exec(
          r.stderr,
        );
      if (said === null) {
        // (A machine slow enough that every send left before Ctrl-C: all went through, and pm says so.)
        expect(r.stderr).toMatch(/interrupted after the request was sent: it went through/);
        expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(3);
        return;
      }
      const [, orders, before, onItsWay, notAsked] = said;
      // Every market is told: cancelled, on its way, or not asked; never more than the exchange did.
      expect(Number(before) + (onItsWay ? onItsWay.split(', ').length : 0) + Number(notAsked)).toBe(3);
      expect(Number(notAsked)).toBe(3 - proxy.current.count('DELETE', /^\/orders\/all\//));
      expect(Number(orders)).toBeLessThanOrEqual(countEvents(sb.current, 'order.cancelled', undefined, mark));
      expect(r.stderr).toMatch(/hint: Run it again: cancelling is idempotent/);
    } finally {
      proxy.current.reset();
    }
    await pm(['order', 'cancel', '--all']);
  });
});

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
