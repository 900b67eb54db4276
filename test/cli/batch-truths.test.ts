// Batches that tell the whole truth (issue 23): a dry run exits as the real run would; a long
// --json batch leaves stderr empty (no MaxListenersExceededWarning from one abort listener per
// queued request); a re-run reports the lines it skips as the exchange and the journal know them;
// "placing …" is said only once an order is about to be sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, ladder } from '../helpers/account-env.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const admin = (route: string, body: object) =>
  fetch(`${sb.current.baseUrl}/__sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

// The sandbox's rate limit is off and pm paces 2 in flight, 25 ms apart: the same queue of
// waiting requests as the exchange's 300 ms, a twelfth of the wait.
beforeAll(async () => {
  expect((await admin('faults', { rateLimit: false })).status).toBe(200);
});

const env = () => accountEnv(sb.current, 'alice', home, { PM_PACE: '2/25' });
const pm = (...argv: string[]) => runPm(argv, { env: env() });
const ordersOf = (cid: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === cid);
const seededProfileId = (name: string) => sb.current.info.accounts.find((a) => a.name === name)?.profileId;
const ndjson = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const writeBatch = (name: string, lines: (object | string)[]): string => {
  const file = join(home, name);
  writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
};

describe('a dry run exits as the real run would', () => {
  const good = (cid: string, price: string) => ({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price, size: '1', clientId: cid });

  it('exits 8 when some lines are bad (invalid, or an unknown market), and sends nothing', async () => {
    const file = writeBatch('some-bad.ndjson', [
      good('dry-1', '0.02'),
      'not json',
      { market: 'no-such-market-2099', side: 'buy', outcome: 'yes', price: '0.5', size: '1', clientId: 'dry-3' },
      good('dry-4', '0.03'),
    ]);
    const dry = await pm('--json', 'order', 'place', '--file', file, '--dry-run');
    expect(dry.code, dry.stderr).toBe(8);
    const out = ndjson(dry.stdout);
    expect(out.filter((o) => o['dryRun'] === true).map((o) => o['line'])).toEqual([1, 4]);
    const bad = out.filter((o) => o['ok'] === false);
    expect(bad.map((o) => o['line']).sort()).toEqual([2, 3]);
    expect(bad.every((o) => o['sent'] === 'no')).toBe(true);
    expect(JSON.parse(dry.stderr).error).toMatchObject({ code: 'PARTIAL' });
    expect(JSON.parse(dry.stderr).error.message).toMatch(/dry run/);
    for (const c of ['dry-1', 'dry-3', 'dry-4']) expect(ordersOf(c)).toHaveLength(0);

    // The table form says the same, and the real run of the same file exits 8 as well.
    const table = await pm('order', 'place', '--file', file, '--dry-run');
    expect(table.code).toBe(8);
    expect(table.stderr).toMatch(/line 2: not valid JSON/);
    expect(table.stderr).toMatch(/line 3: .*no-such-market-2099/i);
    const real = await pm('--json', 'order', 'place', '--file', file);
    expect(real.code).toBe(8);
    expect(ordersOf('dry-1')).toHaveLength(1);
    expect(ordersOf('dry-3')).toHaveLength(0);
  });

  it('exits 2 when every line is bad, and 0 when every line is good', async () => {
    const file = writeBatch('all-bad.ndjson', ['not json', { market: 'sol-500-2026', side: 'buy', outcome: 'maybe' }]);
    const dry = await pm('--json', 'order', 'place', '--file', file, '--dry-run');
    expect(dry.code).toBe(2);
    expect((await pm('--json', 'order', 'place', '--file', file)).code).toBe(2);
    const ok = writeBatch('all-good.ndjson', [good('dry-ok-1', '0.02'), good('dry-ok-2', '0.021')]);
    const fine = await pm('--json', 'order', 'place', '--file', ok, '--dry-run');
    expect(fine.code, fine.stderr).toBe(0);
    expect(ndjson(fine.stdout)).toHaveLength(2);
    expect(ordersOf('dry-ok-1')).toHaveLength(0);
  });
});

describe('a long batch', () => {
  it('120 lines with --json: every line placed, stderr empty, no process warning', async () => {
    const file = writeBatch('long.ndjson', ladder(120));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    // As bin/pm.js runs it: one AbortSignal for Ctrl-C, shared by every request.
    const ctl = new AbortController();
    try {
      const r = await runPm(['--json', 'order', 'place', '--file', file, '--batch-id', 'long-1'], { env: env(), signal: ctl.signal });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const out = ndjson(r.stdout);
      expect(out).toHaveLength(120);
      expect(out.every((o) => o['ok'] === true)).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});

describe('a re-run reports the lines it skips as they are', () => {
  interface LineOut {
    line: number;
    ok: boolean;
    skipped?: boolean;
    orderId: string;
    side: string | null;
    outcome: string | null;
    type: string | null;
    price: string | null;
    size: string | null;
    amount: string | null;
    matched: boolean;
    settlementStatus: string;
    filled: { shares: string; sharesRaw: string };
    clientOrderId: string;
  }
  const batch = () =>
    writeBatch('rerun.ndjson', [
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', type: 'fok', amount: '5' },
      { market: 'sol-500-2026', side: 'buy', outcome: 'no', price: '0.05', size: '3' },
    ]);
  const fields = (o: LineOut) => ({
    orderId: o.orderId,
    side: o.side,
    outcome: o.outcome,
    type: o.type,
    price: o.price,
    size: o.size,
    amount: o.amount,
  });

  it("from the exchange: side, price, size, settlement and the fill (a FOK's shares)", async () => {
    const file = batch();
    const first = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'rerun-1');
    expect(first.code, first.stderr).toBe(0);
    const a = ndjson(first.stdout) as unknown as LineOut[];
    const fok = a.find((o) => o.line === 1) as LineOut;
    expect(fok.matched).toBe(true);
    expect(BigInt(fok.filled.sharesRaw)).toBeGreaterThan(0n);

    // The settlement moves on after the first run (MATCHED → MINED → CONFIRMED in the sandbox).
    const settled = () => ordersOf(fok.clientOrderId)[0]?.settlementStatus;
    const deadline = Date.now() + 10_000;
    while (settled() !== 'CONFIRMED' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(settled()).toBe('CONFIRMED');
    const again = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'rerun-1');
    expect(again.code, again.stderr).toBe(0);
    const b = ndjson(again.stdout) as unknown as LineOut[];
    expect(b.every((o) => o.skipped === true)).toBe(true);
    for (const line of [1, 2]) {
      const before = a.find((o) => o.line === line) as LineOut;
      const now = b.find((o) => o.line === line) as LineOut;
      expect(fields(now), `line ${line}`).toEqual(fields(before));
      expect(now.side).not.toBeNull();
      expect(now.matched).toBe(before.matched);
      expect(now.filled.sharesRaw).toBe(before.filled.sharesRaw);
      expect(now.settlementStatus).not.toBe('UNKNOWN');
    }
    const fokNow = b.find((o) => o.line === 1) as LineOut;
    expect(fokNow.type).toBe('FOK');
    expect(fokNow.amount).toBe('5');
    expect(fokNow.filled.shares).toBe(fok.filled.shares);
    expect(fokNow.settlementStatus).toBe('CONFIRMED');
    expect((b.find((o) => o.line === 2) as LineOut).settlementStatus).toBe('UNMATCHED');
  });

  it('from the journal when the exchange cannot be asked: the request sent, settlement unknown', async () => {
    const file = batch();
    const first = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'rerun-2');
    expect(first.code, first.stderr).toBe(0);
    const a = ndjson(first.stdout) as unknown as LineOut[];
    expect((await admin('faults', { fail5xx: 20, match: 'POST /orders/status' })).status).toBe(200);
    try {
      const again = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'rerun-2');
      expect(again.code, again.stderr).toBe(0);
      const b = ndjson(again.stdout) as unknown as LineOut[];
      for (const line of [1, 2]) {
        const now = b.find((o) => o.line === line) as LineOut;
        expect(fields(now), `line ${line}`).toEqual(fields(a.find((o) => o.line === line) as LineOut));
        expect(now).toMatchObject({ skipped: true, settlementStatus: 'UNKNOWN', matched: null, filled: null });
      }
      // On a terminal: the note says why, and the fill is not claimed.
      const table = await pm('order', 'place', '--file', file, '--batch-id', 'rerun-2');
      expect(table.code, table.stderr).toBe(0);
      expect(table.stderr).toMatch(/could not ask the exchange about 2 skipped lines/);
      expect(table.stdout).toMatch(/already placed \(skipped\)\s+\S+\s+pmb-\w+\s+UNKNOWN\s+-/);
    } finally {
      await admin('faults', { fail5xx: 0, match: '' });
    }
  });
});

describe('one PM_HOME, two accounts', () => {
  it("the same batch run by another account places its own orders (it skipped every line as placed, with alice's order ids, exit 0)", async () => {
    const file = writeBatch('two-accounts.ndjson', [
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.06', size: '2' },
      { market: 'sol-500-2026', side: 'buy', outcome: 'no', price: '0.04', size: '2' },
    ]);
    const alice = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'two-accounts');
    expect(alice.code, alice.stderr).toBe(0);
    const carol = await runPm(['--json', 'order', 'place', '--file', file, '--batch-id', 'two-accounts'], {
      env: accountEnv(sb.current, 'carol', home, { PM_PACE: '2/25' }),
    });
    expect(carol.code, carol.stderr).toBe(0);
    const lines = ndjson(carol.stdout);
    expect(lines.map((l) => l['skipped'] ?? false)).toEqual([false, false]);
    const carolId = seededProfileId('carol');
    for (const l of lines) {
      const held = sb.current.ctx.state.orders.filter((o) => o.clientOrderId === l['clientOrderId']);
      expect(held.map((o) => o.ownerId).sort()).toEqual([seededProfileId('alice'), carolId].sort());
      expect(held.find((o) => o.id === l['orderId'])?.ownerId).toBe(carolId);
    }
    // And alice's re-run still skips her lines.
    const again = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'two-accounts');
    expect(ndjson(again.stdout).map((l) => l['skipped'])).toEqual([true, true]);
  });
});

describe('"placing …" only once the order is about to be sent', () => {
  it('is not said for an unknown market or a size below the minimum', async () => {
    const unknown = await pm('order', 'place', 'no-such-market-2099', 'buy', 'yes', '--price', '0.5', '--size', '10');
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).not.toMatch(/placing/);
    const small = await pm('order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.02', '--size', '0.5');
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/below the market's minimum/);
    expect(small.stderr).not.toMatch(/placing/);
    const sent = await pm('order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.02', '--size', '1', '--client-id', 'say-1');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/placing BUY YES .*sol-500-2026.*say-1/);
  });
});
