// order replace when pm cannot learn what became of the old order (the unknown rule,
// docs/trading.md): with --allow-failure the replacement may stand beside the old order, so after
// a lost answer pm asks for the old order, and when it cannot, the outcome is unknown (exit 7,
// the exact command and `pm order status <old>` written out), never "not replaced" (exit 9). The
// exchange's own UNKNOWN for either part (its answer's shape, wire-facts §3.10) is looked up the
// same way. Faults come from our own proxy; effects are counted in the sandbox's event log.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnknownStateError } from '../../src/lib/index.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { ndjson, runPm } from '../helpers/run.js';
import { errorOf, hintedArgv, lookupsFailFrom, useAliceBehindFaults } from '../helpers/unknown-bench.js';

const { sb, proxy, newHome, env, libraryClient } = useAliceBehindFaults();
const SLUG = 'sol-500-2026';
const placedAt = (mark: number, raw: bigint) => countEvents(sb.current, 'order.placed', (e) => e.order.price === raw, mark);
const cancelledOf = (mark: number, id: string) => countEvents(sb.current, 'order.cancelled', (e) => e.orderId === id, mark);
/** A resting order of alice's (placed without faults): its id. */
async function rest(home: string, cid: string): Promise<string> {
  proxy.current.reset();
  const r = await runPm(['--json', ...limitOrder(SLUG, 'buy', 'yes', '0.05', '1'), '--client-id', cid], { env: env(home) });
  expect(r.code, r.stderr).toBe(0);
  return r.json<{ orderId: string }>().orderId;
}
type Outcome = { ok: boolean; cancel: { status: string }; replacement: { status: string; alreadyPlaced?: boolean } };

describe('order replace --allow-failure: the old order cannot be asked for after a lost answer', () => {
  // Lookups: 1st the old order (before), 2nd the replacement by its client id (found), 3rd on the old order again.
  it('a truncated answer, the old order not to be looked up: exit 7 naming both, nothing on stdout; the hinted re-run says it was replaced', async () => {
    const home = newHome();
    const oldId = await rest(home, 'ruc-old-1');
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'truncate' } }, lookupsFailFrom(3));
    const argv = ['--json', '--timeout', '4s', 'order', 'replace', '--client-id', 'ruc-old-1', '--price', '0.081', '--allow-failure'];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe('');
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(new RegExp(`replacing order ${oldId} is unknown: replacement pmr-\\S+ is placed`));
    expect(err.message).not.toMatch(/not replaced/);
    expect(err.hint).toContain(`pm order status ${oldId}`);
    const cid = /--new-client-id (pmr-\S+)/.exec(err.hint ?? '')?.[1] ?? '';
    expect(hintedArgv(err.hint ?? '')).toEqual([...argv, '--new-client-id', cid]);
    expect(placedAt(mark, 81_000n)).toBe(1);
    expect(cancelledOf(mark, oldId)).toBe(1);
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<Outcome>()).toMatchObject({ ok: true, cancel: { status: 'SUCCESS' }, replacement: { alreadyPlaced: true } });
    expect(placedAt(mark, 81_000n)).toBe(1);
    expect(cancelledOf(mark, oldId)).toBe(1);
  });

  it('--file: such a line is unknown, not failed: "0 failed, 1 unknown"-style end, exit 7, the same command; running it replaces nothing more', async () => {
    const home = newHome();
    const oldId = await rest(home, 'ruc-old-2');
    const file = join(home, 'moves.ndjson');
    writeFileSync(file, `${JSON.stringify({ clientId: 'ruc-old-2', price: '0.082' })}\n`);
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'truncate' } }, lookupsFailFrom(3));
    const argv = ['--json', '--timeout', '4s', 'order', 'replace', '--allow-failure', '--file', file];
    const r = await runPm(argv, { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(7);
    const [line] = ndjson<{ line: number; ok: boolean; sent: string; clientOrderId?: string; error?: { code: string } }>(r.stdout);
    expect(line).toMatchObject({ line: 1, ok: false, sent: 'unknown', clientOrderId: expect.stringMatching(/^pmr-/) });
    expect(line?.error?.code).toBe('UNKNOWN_STATE');
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(/the outcome of 1 of 1 replacements is unknown/);
    expect(hintedArgv(err.hint ?? '')).toEqual(argv);
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(placedAt(mark, 82_000n)).toBe(1);
    expect(cancelledOf(mark, oldId)).toBe(1);
  });

  it('the library: rejects with UnknownStateError, the hint the same call with its clientId and orders.status of the old order', async () => {
    const home = newHome();
    const oldId = await rest(home, 'ruc-old-3');
    const pm = libraryClient();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'truncate' } }, lookupsFailFrom(3));
    const e = await pm.orders.replace(oldId, { price: '0.083', mode: 'ALLOW_FAILURE' }).then(
      () => null,
      (x: unknown) => x,
    );
    proxy.current.reset();
    expect(e).toBeInstanceOf(UnknownStateError);
    const hint = (e as UnknownStateError).hint ?? '';
    expect(hint).toContain(`pm.orders.status({ ids: ["${oldId}"] })`);
    expect(hint).toMatch(/pm\.orders\.replace\('[^']+', \{"price":"0\.083","mode":"ALLOW_FAILURE","clientId":"pmr-/);
    expect(placedAt(mark, 83_000n)).toBe(1);
    await pm.close();
  });
});

describe('order replace: the exchange\'s own UNKNOWN for a part is looked up, never "not replaced"', () => {
  it('the cancel answered UNKNOWN (the replacement placed): pm asks for the old order, finds it cancelled, exit 0', async () => {
    const home = newHome();
    const oldId = await rest(home, 'ruc-old-4');
    const mark = logMark(sb.current);
    const body = (up: unknown) => ({
      ...(up as object),
      cancel: { status: 'UNKNOWN', error: { code: 'TIMEOUT', message: 'cancel timed out' } },
    });
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'rewrite', body } });
    const r = await runPm(['--json', 'order', 'replace', oldId, '--price', '0.084', '--allow-failure'], { env: env(home) });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Outcome>()).toMatchObject({ ok: true, cancel: { status: 'SUCCESS' }, replacement: { status: 'SUCCESS' } });
    expect(placedAt(mark, 84_000n)).toBe(1);
    expect(cancelledOf(mark, oldId)).toBe(1);
  });

  it('the replacement answered UNKNOWN: found by its client id (exit 0); with lookups failing, unknown (exit 7), never exit 9', async () => {
    const home = newHome();
    const body = (up: unknown) => ({
      ...(up as object),
      replacement: { status: 'UNKNOWN', error: { code: 'TIMEOUT', message: 'placement timed out' } },
    });
    for (const [i, failing] of [false, true].entries()) {
      const oldId = await rest(home, `ruc-old-5${i}`);
      const mark = logMark(sb.current);
      const raw = 85_000n + BigInt(i) * 1000n;
      proxy.current.set(
        { method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'rewrite', body } },
        ...(failing ? [lookupsFailFrom(2)] : []),
      );
      const r = await runPm(['--json', '--timeout', '4s', 'order', 'replace', oldId, '--price', `0.0${85 + i}`], { env: env(home) });
      proxy.current.reset();
      expect(r.code, r.stderr).toBe(failing ? 7 : 0);
      if (failing) expect(errorOf(r.stderr).code).toBe('UNKNOWN_STATE');
      else expect(r.json<Outcome>()).toMatchObject({ ok: true, replacement: { status: 'SUCCESS' } });
      expect(placedAt(mark, raw)).toBe(1);
    }
  });
});

describe('order replace --allow-failure: a cancel that fails beside a replacement that is placed', () => {
  it('says the replacement is placed and the old order was not cancelled (exit 9), never "not replaced"', async () => {
    const home = newHome();
    const oldId = await rest(home, 'ruc-old-6');
    // The old order is already gone: the exchange's cancel fails, ALLOW_FAILURE places the replacement anyway.
    expect((await runPm(['order', 'cancel', oldId], { env: env(home) })).code).toBe(0);
    const mark = logMark(sb.current);
    for (const json of [true, false]) {
      const price = json ? '0.091' : '0.092';
      const r = await runPm([...(json ? ['--json'] : []), 'order', 'replace', oldId, '--price', price, '--allow-failure'], {
        env: env(home),
      });
      expect(r.code, r.stderr).toBe(9);
      const said = json ? errorOf(r.stderr).message : r.stderr;
      expect(said).not.toMatch(/not replaced/);
      expect(said).toMatch(new RegExp(`replacement pmr-\\S+ is placed.*the cancel of ${oldId} failed`));
      if (json) expect(r.json<Outcome>()).toMatchObject({ ok: false, cancel: { status: 'FAILURE' }, replacement: { status: 'SUCCESS' } });
    }
    // A --file line the same: its text line says the replacement is placed, not "failed".
    const file = join(home, 'beside.ndjson');
    writeFileSync(file, `${JSON.stringify({ orderId: oldId, price: '0.093' })}\n`);
    const batch = await runPm(['order', 'replace', '--allow-failure', '--file', file], { env: env(home) });
    expect(batch.code, batch.stderr).toBe(8);
    expect(batch.stdout).toMatch(new RegExp(`^line 1: replacement placed, but the cancel of ${oldId} failed \\(`));
    expect(placedAt(mark, 91_000n) + placedAt(mark, 92_000n) + placedAt(mark, 93_000n)).toBe(3);
  });
});
