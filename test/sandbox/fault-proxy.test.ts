// The fault proxy of test/helpers (the faults the exactly-once tests rely on), against a real
// sandbox: each fault does what it says to the client, and the upstream acts or not as it says.
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { countEvents, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);

/** An admin write the sandbox logs as an event: a deposit of 1 raw unit to alice. */
async function deposit(base: string): Promise<{ status: number; text: string } | { error: string }> {
  const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
  try {
    const r = await fetch(`${base}/__sandbox/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: alice?.profileId, amount: '1' }),
      signal: AbortSignal.timeout(1500),
    });
    return { status: r.status, text: await r.text() };
  } catch (e) {
    return { error: e instanceof Error ? e.name : 'error' };
  }
}
const deposits = (mark: number) => countEvents(sb.current, 'funds.deposited', undefined, mark);

describe('fault proxy', () => {
  it('forwards untouched and counts per route; faults only the n-th matching request', async () => {
    const p = proxy.current;
    p.reset();
    p.set({ method: 'POST', path: '/__sandbox/fund', nth: 2, fault: { kind: 'status', status: 503 } });
    const mark = logMark(sb.current);
    const a = await deposit(p.baseUrl);
    const b = await deposit(p.baseUrl);
    const c = await deposit(p.baseUrl);
    expect([a, b, c].map((x) => ('status' in x ? x.status : x.error))).toEqual([200, 503, 200]);
    // 503 before forwarding: the upstream never saw the 2nd.
    expect(deposits(mark)).toBe(2);
    expect(p.count('POST', '/__sandbox/fund')).toBe(3);
    expect(p.count('GET', '/__sandbox/fund')).toBe(0);
    expect(p.faulted).toBe(1);
  });

  it('drop: the upstream acts, the client gets no answer', async () => {
    const p = proxy.current;
    p.reset();
    p.set({ path: '/__sandbox/fund', fault: { kind: 'drop' } });
    const mark = logMark(sb.current);
    const r = await deposit(p.baseUrl);
    expect('error' in r).toBe(true);
    expect(deposits(mark)).toBe(1);
  });

  it('truncate: the status and half the body, then the connection closes; the upstream acted', async () => {
    const p = proxy.current;
    p.reset();
    const mark = logMark(sb.current);
    const whole = await deposit(p.baseUrl);
    p.set({ path: '/__sandbox/fund', fault: { kind: 'truncate' } });
    const cut = await deposit(p.baseUrl);
    if (!('status' in whole) || !('status' in cut)) throw new Error('no answer');
    expect(cut.status).toBe(200);
    expect(cut.text.length).toBe(Math.floor(whole.text.length / 2));
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(deposits(mark)).toBe(2);
  });

  it('garble: the real status with a body that is not JSON, or JSON of the wrong shape', async () => {
    const p = proxy.current;
    p.reset();
    p.set(
      { path: '/__sandbox/fund', nth: 1, fault: { kind: 'garble', as: 'text' } },
      { path: '/__sandbox/fund', nth: 2, fault: { kind: 'garble', as: 'shape' } },
    );
    const mark = logMark(sb.current);
    const t = await deposit(p.baseUrl);
    const s = await deposit(p.baseUrl);
    if (!('status' in t) || !('status' in s)) throw new Error('no answer');
    expect(t.status).toBe(200);
    expect(() => JSON.parse(t.text)).toThrow();
    expect(JSON.parse(s.text)).toEqual({ ok: true, data: [1, 2, 3] });
    expect(deposits(mark)).toBe(2);
  });

  it('429 with Retry-After before forwarding; hang never forwards; delay forwards even when the client gave up', async () => {
    const p = proxy.current;
    p.reset();
    p.set({ path: '/__sandbox/fund', fault: { kind: 'status', status: 429, retryAfterSeconds: 3 } });
    const r = await fetch(`${p.baseUrl}/__sandbox/fund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
    await r.arrayBuffer();

    const mark = logMark(sb.current);
    p.set({ path: '/__sandbox/fund', fault: { kind: 'hang' } });
    expect(await deposit(p.baseUrl)).toEqual({ error: 'TimeoutError' });
    expect(deposits(mark)).toBe(0);

    p.set({ path: '/__sandbox/fund', fault: { kind: 'delay', ms: 1800 } });
    const t0 = Date.now();
    expect(await deposit(p.baseUrl)).toEqual({ error: 'TimeoutError' });
    expect(Date.now() - t0).toBeLessThan(1800);
    expect(deposits(mark)).toBe(0);
    await eventually(() => deposits(mark) === 1);
  });
});
