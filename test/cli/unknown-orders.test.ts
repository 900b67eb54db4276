// The unknown rule for orders (issue 30 items 1-4 and the order part of 10): an answer to a write
// that is not a well-formed success or refusal is unknown (exit 7, journal "unknown"), the hint
// writes out the exact command to run with the client id in it, and re-running that command
// ends with exactly one order. Faults come from our own proxy; effects are counted in the
// sandbox's event log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm } from '../helpers/run.js';
import { errorOf, hintedArgv, lookupsFailFrom, useAliceBehindFaults } from '../helpers/unknown-bench.js';

const { sb, proxy, newHome, env, libraryClient } = useAliceBehindFaults();
const placedOf = (mark: number, cid: string) => countEvents(sb.current, 'order.placed', (e) => e.order.clientOrderId === cid, mark);
const placedAt = (mark: number, price: bigint) => countEvents(sb.current, 'order.placed', (e) => e.order.price === price, mark);
const lastState = (home: string, cid: string) =>
  readFileSync(join(home, 'journal', 'orders.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { clientOrderId: string; state: string })
    .filter((e) => e.clientOrderId === cid)
    .at(-1)?.state;
const lookupsFail = lookupsFailFrom(1);

/** What a library call rejects with (null when it resolves). */
const rejectionOf = <T>(p: Promise<unknown>): Promise<T | null> =>
  p.then(
    () => null,
    (x: unknown) => x as T,
  );

describe('order place: an answer pm cannot read is unknown, and the hint is the exact command', () => {
  it('a truncated 2xx is found by its client id (placed, alreadyPlaced false); with lookups failing it is unknown, exit 7, and the hinted re-run is "already placed"', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'truncate' } });
    const a = await runPm(['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.111', '1'), '--client-id', 'trunc-a'], {
      env: env(home),
    });
    expect(a.code, a.stderr).toBe(0);
    expect(a.json<{ alreadyPlaced: boolean }>().alreadyPlaced).toBe(false);
    expect(placedOf(mark, 'trunc-a')).toBe(1);

    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'truncate' } }, lookupsFail);
    const b = await runPm(['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.112', '1'), '--client-id', 'trunc-b'], {
      env: env(home),
    });
    expect(b.code, b.stderr).toBe(7);
    const err = errorOf(b.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain('pm order status --client-id trunc-b');
    expect(lastState(home, 'trunc-b')).toBe('unknown');
    proxy.current.reset();
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ alreadyPlaced: boolean }>().alreadyPlaced).toBe(true);
    expect(placedOf(mark, 'trunc-b')).toBe(1);
  });

  it('a garbled 2xx (not JSON, or JSON of another shape) is never "failed": it is found, or unknown', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    for (const as of ['text', 'shape'] as const) {
      const cid = `garble-${as}`;
      proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'garble', as } });
      const r = await runPm(['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.113', '1'), '--client-id', cid], { env: env(home) });
      expect(r.code, r.stderr).toBe(0);
      expect(placedOf(mark, cid)).toBe(1);
      expect(lastState(home, cid)).toBe('placed');
    }
    proxy.current.reset();
  });

  it('no --client-id given: the hint writes the generated one into the command; running it places nothing more (item 4)', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'drop' } }, lookupsFail);
    const argv = ['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.077', '7')];
    const r = await runPm(argv, { env: env(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    const cid = /--client-id (pm-\S+)/.exec(err.hint ?? '')?.[1] ?? '';
    expect(cid).toMatch(/^pm-/);
    expect(hintedArgv(err.hint ?? '')).toEqual([...argv, '--client-id', cid]);
    expect(err.hint).toContain(`pm order status --client-id ${cid}`);
    proxy.current.reset();
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(placedAt(mark, 77_000n)).toBe(1);
  });

  it("a dropped answer found by lookup is this run's order: alreadyPlaced false (item 10)", async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'drop' } });
    const r = await runPm(['--json', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.114', '1'), '--client-id', 'drop-own'], {
      env: env(home),
    });
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ alreadyPlaced: boolean }>().alreadyPlaced).toBe(false);
    expect(placedOf(mark, 'drop-own')).toBe(1);
  });

  it('a write held past --timeout while lookups answer "absent" is unknown, not "not placed" (item 3); the re-run finds it', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'delay', ms: 2500 } });
    const argv = ['--json', '--timeout', '1s', ...limitOrder('sol-500-2026', 'buy', 'yes', '0.115', '1'), '--client-id', 'a1-delayrace'];
    const r = await runPm(argv, { env: env(home) });
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(`${err.message} ${err.hint}`).not.toMatch(/not placed|has no order/);
    expect(lastState(home, 'a1-delayrace')).toBe('unknown');
    await eventually(() => placedOf(mark, 'a1-delayrace') === 1);
    proxy.current.reset();
    const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ alreadyPlaced: boolean }>().alreadyPlaced).toBe(true);
    expect(placedOf(mark, 'a1-delayrace')).toBe(1);
  });

  it('the library: a truncated 2xx is found (alreadyPlaced false); with lookups failing it rejects with UnknownStateError naming the clientId', async () => {
    const pm = libraryClient();
    const mark = logMark(sb.current);
    const order = { market: 'sol-500-2026', side: 'buy' as const, outcome: 'yes' as const, price: '0.116', size: '1' };
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'truncate' } });
    const a = await pm.orders.place({ ...order, clientId: 'lib-trunc-a' });
    expect(a.alreadyPlaced).toBe(false);
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'truncate' } }, lookupsFail);
    // ambiguous: the request may have reached the exchange (NetworkError's flag), as an unknown outcome always may (it was false).
    await expect(pm.orders.place({ ...order, clientId: 'lib-trunc-b' })).rejects.toMatchObject({
      name: 'UnknownStateError',
      exitCode: 7,
      unknownClientId: 'lib-trunc-b',
      ambiguous: true,
    });
    proxy.current.reset();
    expect((await pm.orders.place({ ...order, clientId: 'lib-trunc-b' })).alreadyPlaced).toBe(true);
    expect(placedOf(mark, 'lib-trunc-a') + placedOf(mark, 'lib-trunc-b')).toBe(2);
    await pm.close();
  });

  it('the library: with no clientId given, the hint is the exact call to make, the generated clientId written in (no CLI flag); making it places nothing more', async () => {
    const pm = libraryClient();
    const mark = logMark(sb.current);
    const order = { market: 'sol-500-2026', side: 'buy' as const, outcome: 'yes' as const, price: '0.117', size: '1' };
    proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'truncate' } }, lookupsFail);
    const e = await rejectionOf<{ name: string; unknownClientId: string; hint: string }>(pm.orders.place(order));
    proxy.current.reset();
    expect(e).toMatchObject({ name: 'UnknownStateError', unknownClientId: expect.stringMatching(/^pm/) });
    const cid = e?.unknownClientId ?? '';
    const hint = e?.hint ?? '';
    expect(hint).not.toMatch(/--client-id|\bpm order /);
    expect(hint).toContain(`pm.orders.status({ clientIds: ['${cid}'] })`);
    const call = /pm\.orders\.place\((\{.*\})\)/.exec(hint)?.[1];
    expect(call, hint).toBeDefined();
    const request = JSON.parse(call ?? '{}') as typeof order & { clientId: string };
    expect(request).toEqual({ ...order, clientId: cid });
    expect((await pm.orders.place(request)).alreadyPlaced).toBe(true);
    expect(placedOf(mark, cid)).toBe(1);
    await pm.close();
  });

  it('the library: every attempt refused outright (429): not placed, and the hint says to make the same call again with its clientId (no CLI flag)', async () => {
    const pm = libraryClient();
    const mark = logMark(sb.current);
    proxy.current.set({
      method: 'POST',
      path: '/orders',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 429, retryAfterSeconds: 1 },
    });
    const e = await rejectionOf<{ name: string; message: string; hint: string }>(
      pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.118', size: '1', clientId: 'lib-429' }),
    );
    proxy.current.reset();
    await pm.close();
    expect(e).toMatchObject({ name: 'RateLimitError', message: expect.stringMatching(/not placed/) });
    expect(e?.hint).toContain("same clientId 'lib-429'");
    expect(e?.hint).not.toMatch(/--client-id|same command/);
    expect(placedOf(mark, 'lib-429')).toBe(0);
  });

  it('the library: a lost cancel-replace answer, lookups failing: the hint is the exact replace call with the replacement clientId; making it replaces nothing more', async () => {
    const pm = libraryClient();
    const resting = { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.05', size: '1' } as const;
    const old = await pm.orders.place({ ...resting, clientId: 'lib-rp-old' });
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'drop' } }, lookupsFailFrom(2));
    const e = await rejectionOf<{ name: string; unknownClientId: string; hint: string }>(
      pm.orders.replace(old.order.id, { price: '0.063' }),
    );
    proxy.current.reset();
    expect(e).toMatchObject({ name: 'UnknownStateError', unknownClientId: expect.stringMatching(/^pmr-/) });
    const cid = e?.unknownClientId ?? '';
    const hint = e?.hint ?? '';
    expect(hint).not.toMatch(/--client-id|--new-client-id|\bpm order /);
    expect(hint).toContain(`pm.orders.status({ clientIds: ['${cid}'] })`);
    const call = /pm\.orders\.replace\('([^']+)', (\{.*\})\)/.exec(hint);
    expect(call, hint).not.toBeNull();
    expect(call?.[1]).toBe(old.order.id);
    const p = JSON.parse(call?.[2] ?? '{}') as { price: string; clientId: string };
    expect(p).toEqual({ price: '0.063', clientId: cid });
    const again = await pm.orders.replace(call?.[1] ?? '', p);
    expect(again.replacement?.alreadyPlaced).toBe(true);
    expect(placedAt(mark, 63_000n)).toBe(1);
    await pm.close();
  });
});

describe('order replace: an unknown outcome never leads to a second replacement (item 1)', () => {
  for (const allow of [true, false]) {
    it(`dropped cancel-replace answer, lookups failing${allow ? ', --allow-failure' : ''}: exit 7 naming --new-client-id; the hinted re-run replaces nothing more`, async () => {
      const home = newHome();
      const old = `rp6-old-${allow}`;
      const price = allow ? '0.061' : '0.062';
      const raw = allow ? 61_000n : 62_000n;
      expect((await runPm([...limitOrder('sol-500-2026', 'buy', 'yes', '0.05', '1'), '--client-id', old], { env: env(home) })).code).toBe(
        0,
      );
      const mark = logMark(sb.current);
      // The first lookup finds the old order; those after the lost answer fail.
      proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'drop' } }, lookupsFailFrom(2));
      const argv = ['--json', 'order', 'replace', '--client-id', old, '--price', price, ...(allow ? ['--allow-failure'] : [])];
      const r = await runPm(argv, { env: env(home) });
      expect(r.code, r.stderr).toBe(7);
      const err = errorOf(r.stderr);
      const cid = /--new-client-id (pmr-\S+)/.exec(err.hint ?? '')?.[1] ?? '';
      expect(cid, err.hint).toMatch(/^pmr-/);
      expect(hintedArgv(err.hint ?? '')).toEqual([...argv, '--new-client-id', cid]);
      expect(err.hint).toContain(`pm order status --client-id ${cid}`);
      expect(lastState(home, cid)).toBe('unknown');
      proxy.current.reset();
      const again = await runPm(hintedArgv(err.hint ?? ''), { env: env(home) });
      expect(again.code, again.stderr).toBe(0);
      expect(again.json<{ replacement: { alreadyPlaced: boolean } }>().replacement.alreadyPlaced).toBe(true);
      expect(placedAt(mark, raw)).toBe(1);
      // The line as first typed (no --new-client-id) names the same replacement: nothing more either.
      const typed = await runPm(argv, { env: env(home) });
      expect(typed.code, typed.stderr).toBe(0);
      expect(placedAt(mark, raw)).toBe(1);
      expect(countEvents(sb.current, 'order.cancelled', undefined, mark)).toBe(1);
    });
  }

  it('a truncated cancel-replace answer is found by the replacement\'s client id: exit 0, not "not replaced" (item 2)', async () => {
    const home = newHome();
    expect(
      (await runPm([...limitOrder('sol-500-2026', 'buy', 'yes', '0.05', '1'), '--client-id', 'rp-trunc-old'], { env: env(home) })).code,
    ).toBe(0);
    const mark = logMark(sb.current);
    proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'truncate' } });
    const r = await runPm(
      ['--json', 'order', 'replace', '--client-id', 'rp-trunc-old', '--price', '0.063', '--new-client-id', 'rp-trunc-new'],
      {
        env: env(home),
      },
    );
    proxy.current.reset();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ ok: boolean; replacement: { alreadyPlaced?: boolean } }>()).toMatchObject({ ok: true });
    expect(placedOf(mark, 'rp-trunc-new')).toBe(1);
  });
});

describe('blank ids are refused locally (item 10)', () => {
  it('--client-id " " (place), order cancel "" and order status "": exit 2, nothing sent', async () => {
    const home = newHome();
    proxy.current.reset();
    const cases = [
      [...limitOrder('sol-500-2026', 'buy', 'yes', '0.05', '1'), '--client-id', ' '],
      ['order', 'cancel', ''],
      ['order', 'cancel', ' '],
      ['order', 'status', ''],
      ['order', 'status', '--client-id', '  '],
      ['order', 'cancel', '--client-id', ' '],
    ];
    for (const argv of cases) {
      const r = await runPm(['--json', ...argv], { env: env(home) });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
    }
    expect(proxy.current.count()).toBe(0);
  });
});
