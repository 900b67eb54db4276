// A batch line whose outcome pm cannot read is unknown, never failed (the unknown rule,
// docs/trading.md): `order place --file` and `order replace --file` count such lines apart
// (`… 0 failed, 1 unknown`), say the outcome of N orders is unknown, exit 7 when no line failed
// (8 when some did), and the hint writes out the exact command to run; running it ends with
// exactly the intended effects, counted in the sandbox's event log. The library's placeBatch
// says the same of such a line (`sent: 'unknown'`). Faults come from our own proxy.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { ndjson, runPm } from '../helpers/run.js';
import { errorOf, hintedArgv, lookupsFailFrom as failingFrom, useAliceBehindFaults } from '../helpers/unknown-bench.js';

const { sb, proxy, newHome, env, libraryClient } = useAliceBehindFaults();
const SLUG = 'sol-500-2026';
/** Orders placed at `raw` price (micro-units) since `mark`. */
const placedAt = (mark: number, raw: bigint) => countEvents(sb.current, 'order.placed', (e) => e.order.price === raw, mark);
/** Waits until no request is held or on its way at the proxy (a delayed write has acted). */
const quiet = () => eventually(() => proxy.current.inFlight === 0, { what: 'requests in flight at the proxy' });
/** Status lookups answer 503 (the exchange cannot be asked), from the `nth` on. */
const lookupsFailFrom = (nth: number) => failingFrom(nth, 503);

let tick = 200;
/** Three fresh GTC lines (each at its own price, so each one's effect is counted alone), written to a file. */
function batch(home: string, extra: string[] = []): { file: string; raws: bigint[] } {
  const prices = [0, 1, 2].map(() => tick++);
  const file = join(home, 'b.ndjson');
  const lines = prices.map((t) => JSON.stringify({ market: SLUG, side: 'buy', outcome: 'yes', price: (t / 1000).toFixed(3), size: '1' }));
  writeFileSync(file, `${[...lines, ...extra].join('\n')}\n`);
  return { file, raws: prices.map((t) => BigInt(t) * 1000n) };
}

type Line = { line: number; ok: boolean; sent?: string; clientOrderId?: string; error?: { code: string; message: string } };

describe('order place --file: a line whose outcome is unknown is counted as unknown, never failed', () => {
  it('a dropped answer, lookups failing (text): "0 failed, 1 unknown", exit 7, the hint is the same command; running it places nothing more', async () => {
    const home = newHome();
    const { file, raws } = batch(home);
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'drop' } }, lookupsFailFrom(1));
    const argv = ['order', 'place', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toMatch(/UNKNOWN/);
    expect(r.stderr).toMatch(/2 placed, 0 skipped, 0 failed, 1 unknown/);
    expect(r.stderr).toMatch(/the outcome of 1 of 3 orders is unknown/);
    expect(r.stderr).not.toMatch(/orders failed|Fix those lines/);
    expect(hintedArgv(r.stderr)).toEqual(argv);
    for (const raw of raws) expect(placedAt(mark, raw)).toBe(1);
    // Beside the command to run, the line that asks after the unknown line's order alone.
    const cid = /\tUNKNOWN\t-\t(\S+)\t/.exec(r.stdout)?.[1] ?? '';
    expect(cid).toMatch(/^pmb-/);
    const check = /^Or check first: pm (.+)$/m.exec(r.stderr)?.[1];
    expect(check).toBe(`order status --client-id ${cid}`);
    const again = await runPm(hintedArgv(r.stderr), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/1 placed, 2 skipped, 0 failed/);
    for (const raw of raws) expect(placedAt(mark, raw)).toBe(1);
    const status = await runPm(['--json', ...(check ?? '').split(' ')], { env: env(home) });
    expect(status.code, status.stderr).toBe(0);
    expect(status.json<{ clientOrderId: string; found: boolean }[]>()).toMatchObject([{ clientOrderId: cid, found: true }]);
  });

  it('--timeout 1500ms with the 2nd POST held 3 s (--json): UNKNOWN_STATE "the outcome of 1 of 3 orders is unknown", the line sent "unknown", exit 7', async () => {
    const home = newHome();
    const { file, raws } = batch(home);
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'delay', ms: 3000 } }, lookupsFailFrom(1));
    const argv = ['--json', '--timeout', '1500ms', 'order', 'place', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    await quiet();
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    const lines = ndjson<Line>(r.stdout);
    expect(lines.filter((l) => l.ok)).toHaveLength(2);
    const unknown = lines.filter((l) => !l.ok);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.sent).toBe('unknown');
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(/the outcome of 1 of 3 orders is unknown/);
    expect(err.message).not.toMatch(/failed/);
    expect(hintedArgv(err.hint ?? '')).toEqual(argv);
    for (const raw of raws) expect(placedAt(mark, raw)).toBe(1);
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson<Line>(again.stdout).every((l) => l.ok)).toBe(true);
    for (const raw of raws) expect(placedAt(mark, raw)).toBe(1);
  });

  it('a failed line and an unknown one (--json): exit 8, both counted, the hint the same command', async () => {
    const home = newHome();
    // The 4th line names a market that does not exist: it fails, with nothing sent.
    const { file, raws } = batch(home, [
      JSON.stringify({ market: 'no-such-market-2099', side: 'buy', outcome: 'yes', price: '0.2', size: '1' }),
    ]);
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'drop' } }, lookupsFailFrom(1));
    const argv = ['--json', 'order', 'place', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(8);
    const lines = ndjson<Line>(r.stdout);
    expect(lines.filter((l) => !l.ok).map((l) => [l.line, l.sent])).toEqual(
      expect.arrayContaining([
        [4, 'no'],
        [expect.any(Number), 'unknown'],
      ]),
    );
    const err = errorOf(r.stderr);
    expect(err.code).toBe('PARTIAL');
    expect(err.message).toMatch(/1 of 4 orders failed/);
    expect(err.message).toMatch(/the outcome of 1 is unknown/);
    expect(hintedArgv(err.hint ?? '')).toEqual(argv);
    for (const raw of raws) expect(placedAt(mark, raw)).toBe(1);
  });

  /** Three one-share BUY lines at prices no other test of the file uses. */
  const threeLines = () => {
    const prices = [0, 1, 2].map(() => tick++);
    const lines = prices.map((t) => ({
      market: SLUG,
      side: 'buy' as const,
      outcome: 'yes' as const,
      price: (t / 1000).toFixed(3),
      size: '1',
    }));
    return { prices, lines };
  };

  it('the library: placeBatch says the line unknown (sent "unknown", its clientId); the same call again, with its batchId, places nothing more', async () => {
    const pm = libraryClient();
    const { prices, lines } = threeLines();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'drop' } }, lookupsFailFrom(1));
    const r = await pm.orders.placeBatch(lines, { batchId: 'lib-unknown-1' });
    proxy.current.reset();
    expect(r.filter((x) => x.ok)).toHaveLength(2);
    const bad = r.filter((x) => !x.ok);
    expect(bad).toEqual([expect.objectContaining({ ok: false, sent: 'unknown', clientId: expect.stringMatching(/^pmb-/) })]);
    const again = await pm.orders.placeBatch(lines, { batchId: 'lib-unknown-1' });
    expect(again.every((x) => x.ok)).toBe(true);
    for (const t of prices) expect(placedAt(mark, BigInt(t) * 1000n)).toBe(1);
    await pm.close();
  });

  it('the library, no batchId: the unknown line names its clientId; that line sent again under it is finished, never placed twice', async () => {
    const pm = libraryClient();
    const { prices, lines } = threeLines();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'drop' } }, lookupsFailFrom(1));
    const r = await pm.orders.placeBatch(lines);
    proxy.current.reset();
    const bad = r.find((x) => !x.ok);
    if (bad === undefined || bad.ok) throw new Error(`no unknown line: ${JSON.stringify(r)}`);
    expect(bad).toMatchObject({ sent: 'unknown', clientId: expect.stringMatching(/^pmb-/) });
    expect(bad.error.message).toContain(bad.clientId ?? '');
    const line = lines[bad.line - 1];
    if (line === undefined) throw new Error(`no line ${bad.line}`);
    const done = await pm.orders.placeBatch([{ ...line, clientId: bad.clientId ?? '' }]);
    expect(done).toEqual([expect.objectContaining({ ok: true, clientId: bad.clientId, alreadyPlaced: true })]);
    for (const t of prices) expect(placedAt(mark, BigInt(t) * 1000n)).toBe(1);
    await pm.close();
  });
});

describe('order replace --file: a line whose outcome is unknown is counted as unknown, never failed', () => {
  /** A resting order to replace (placed without faults); its client id. */
  const rest = async (home: string, cid: string) => {
    proxy.current.reset();
    const r = await runPm([...limitOrder(SLUG, 'buy', 'yes', '0.05', '1'), '--client-id', cid], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
  };

  it('a dropped cancel-replace answer, lookups failing (text): "line 1: unknown", exit 7, the hint the same command; running it replaces nothing more', async () => {
    const home = newHome();
    await rest(home, 'rpf-old-1');
    const file = join(home, 'moves.ndjson');
    writeFileSync(file, `${JSON.stringify({ clientId: 'rpf-old-1', price: '0.071' })}\n`);
    const mark = logMark(sb.current);
    // The first lookup finds the old order; those after the lost answer fail.
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'drop' } }, lookupsFailFrom(2));
    const argv = ['order', 'replace', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toMatch(/line 1: unknown \(the outcome of order pmr-\S+ is unknown/);
    expect(r.stdout + r.stderr).not.toMatch(/failed/);
    expect(r.stderr).toMatch(/the outcome of 1 of 1 replacements is unknown/);
    expect(hintedArgv(r.stderr)).toEqual(argv);
    expect(placedAt(mark, 71_000n)).toBe(1);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(1);
    const again = await runPm(hintedArgv(r.stderr), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(placedAt(mark, 71_000n)).toBe(1);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(1);
  });

  it('--json, two lines (one unknown, one whose lookup fails): the unknown one has sent "unknown"; PARTIAL counts both apart; the hint the same command', async () => {
    const home = newHome();
    await rest(home, 'rpf-old-2');
    await rest(home, 'rpf-old-3');
    const file = join(home, 'moves.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ clientId: 'rpf-old-2', price: '0.072' })}\n${JSON.stringify({ clientId: 'rpf-old-3', price: '0.073' })}\n`,
    );
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'drop' } }, lookupsFailFrom(2));
    const argv = ['--json', '--timeout', '3s', 'order', 'replace', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(8);
    const lines = ndjson<Line>(r.stdout);
    expect(lines[0]).toMatchObject({ line: 1, ok: false, sent: 'unknown', clientOrderId: expect.stringMatching(/^pmr-/) });
    expect(lines[0]?.error?.code).toBe('UNKNOWN_STATE');
    expect(lines[1]).toMatchObject({ line: 2, ok: false, sent: 'no' });
    const err = errorOf(r.stderr);
    expect(err.code).toBe('PARTIAL');
    expect(err.message).toMatch(/1 of 2 replacements failed/);
    expect(err.message).toMatch(/the outcome of 1 is unknown/);
    expect(hintedArgv(err.hint ?? '')).toEqual(argv);
    // And the line that asks after the unknown line's replacement alone.
    expect(err.hint).toMatch(new RegExp(`\\nOr check first: pm --json order status --client-id ${lines[0]?.clientOrderId}$`));
    expect(placedAt(mark, 72_000n)).toBe(1);
    expect(placedAt(mark, 73_000n)).toBe(0);
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(placedAt(mark, 72_000n)).toBe(1);
    expect(placedAt(mark, 73_000n)).toBe(1);
    expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(2);
  });
});
