// Honest abort in the library (issue 32 item 3): an aborted call whose write may have reached the
// exchange rejects with InterruptedError { sent: true } and what is known, never resolves as if
// nothing happened nor claims "not sent"; the kill switch (abort, then cancelAll) ends with no
// order live, and cancelAll works after a client-level signal fired. Faults from our own proxy;
// effects counted in the sandbox.
import { describe, expect, it } from 'vitest';
import { createClient, InterruptedError, RateLimitError } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { eventually, sleep } from '../helpers/eventually.js';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();

const client = (signal?: AbortSignal, timeoutMs?: number) => {
  const alice = seeded(sb.current, 'alice');
  return createClient({
    home: newHome(),
    baseUrl: proxy.current.baseUrl,
    privateKey: alice.privateKey,
    token: alice.token,
    signal,
    timeoutMs,
  });
};
const live = () => {
  const alice = seeded(sb.current, 'alice');
  return sb.current.ctx.state.orders.filter((o) => o.ownerId === alice.profileId && o.status === 'LIVE');
};
const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    (v) => ({ resolved: v }),
    (e: unknown) => e,
  );

describe('abort', () => {
  it('a place aborted at 300 ms while its POST is held 2 s, then cancelAll at once: rejects sent:true with the client and order id, 0 orders live', async () => {
    const pm = client();
    try {
      proxy.current.reset();
      proxy.current.set({ method: 'POST', path: '/orders', fault: { kind: 'delay', ms: 2000 } });
      const ac = new AbortController();
      const placing = rejection(
        pm.orders.place(
          { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5', clientId: 'abort-1' },
          { signal: ac.signal },
        ),
      );
      await eventually(() => proxy.current.count('POST', '/orders') === 1, { what: 'the POST on the wire' });
      await sleep(300); // the scenario's timing: abort 300 ms into the 2 s hold
      // The kill switch as a bot writes it: abort, then cancel everything (not waiting for the aborted call).
      ac.abort();
      const killed = await pm.orders.cancelAll();
      const e = await placing;
      expect(e).toBeInstanceOf(InterruptedError);
      const ie = e as InterruptedError;
      expect(ie).toMatchObject({ code: 'INTERRUPTED', exitCode: 130, sent: true, clientId: 'abort-1' });
      const placed = sb.current.ctx.state.orders.find((o) => o.clientOrderId === 'abort-1');
      expect(placed).toBeDefined();
      expect(ie.orderId).toBe(placed?.id);
      expect(ie.hint).toMatch(/cancel/);
      expect(killed.results.map((r) => r.order.id)).toContain(placed?.id);
      await eventually(() => proxy.current.inFlight === 0, { what: 'nothing held by the proxy' });
      expect(live()).toEqual([]);
    } finally {
      proxy.current.reset();
      await pm.close();
    }
  });

  it('a place aborted before anything was sent rejects sent:false, and nothing is placed', async () => {
    const pm = client();
    try {
      const ac = new AbortController();
      ac.abort();
      const e = await rejection(
        pm.orders.place(
          { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5', clientId: 'abort-2' },
          { signal: ac.signal },
        ),
      );
      expect(e).toBeInstanceOf(InterruptedError);
      expect(e).toMatchObject({ sent: false, clientId: 'abort-2' });
      expect(sb.current.ctx.state.orders.some((o) => o.clientOrderId === 'abort-2')).toBe(false);
    } finally {
      await pm.close();
    }
  });

  it('a replace aborted while its request is held rejects sent:true naming the replacement', async () => {
    const pm = client();
    try {
      const a = await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5' });
      proxy.current.reset();
      proxy.current.set({ method: 'POST', path: '/orders/cancel-replace', fault: { kind: 'delay', ms: 1500 } });
      const ac = new AbortController();
      const replacing = rejection(pm.orders.replace(a.order.id, { price: '0.04', clientId: 'abort-r' }, { signal: ac.signal }));
      await eventually(() => proxy.current.count('POST', '/orders/cancel-replace') === 1, { what: 'the request on the wire' });
      ac.abort();
      const e = await replacing;
      expect(e).toBeInstanceOf(InterruptedError);
      expect(e).toMatchObject({ sent: true, clientId: 'abort-r' });
      expect((e as InterruptedError).orderId).toBe(sb.current.ctx.state.orders.find((o) => o.clientOrderId === 'abort-r')?.id);
      await pm.orders.cancelAll();
      expect(live()).toEqual([]);
    } finally {
      proxy.current.reset();
      await pm.close();
    }
  });

  it('after a client-level signal fired, cancelAll still works (with a fresh signal, or none); other calls are interrupted', async () => {
    const ac = new AbortController();
    const pm = client(ac.signal);
    try {
      await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5' });
      expect(live().length).toBeGreaterThan(0);
      ac.abort();
      await expect(pm.markets.get('sol-500-2026')).rejects.toBeInstanceOf(InterruptedError);
      const r = await pm.orders.cancelAll({}, { signal: new AbortController().signal });
      expect(r.results.filter((x) => x.status === 'CANCELLED').length).toBeGreaterThan(0);
      expect(live()).toEqual([]);
      await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5' }).catch(() => null);
      await pm.orders.cancelAll();
      expect(live()).toEqual([]);
    } finally {
      await pm.close();
    }
  });
});

describe('orders.cancelAll({ market }) whose answer is lost and the open orders cannot be read', () => {
  it("is an UnknownStateError whose hint names pm.orders.list({ market }), the call the library takes (not orders.list('slug'))", async () => {
    const pm = client(undefined, 3000);
    try {
      proxy.current.reset();
      await pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '5' });
      proxy.current.set(
        { method: 'DELETE', path: '/orders/all/sol-500-2026', fault: { kind: 'truncate' } },
        {
          method: 'GET',
          path: '/markets/sol-500-2026/user-orders',
          times: Number.POSITIVE_INFINITY,
          fault: { kind: 'status', status: 503 },
        },
      );
      const e = (await rejection(pm.orders.cancelAll({ market: 'sol-500-2026' }))) as { code: string; hint?: string };
      proxy.current.reset();
      expect(e).toMatchObject({ code: 'UNKNOWN_STATE', exitCode: 7 });
      expect(e.hint).toContain("pm.orders.list({ market: 'sol-500-2026' })");
      expect(e.hint).not.toMatch(/orders\.list\('/);
      // The call the hint names is one the library takes.
      expect(Array.isArray(await pm.orders.list({ market: 'sol-500-2026' }))).toBe(true);
    } finally {
      proxy.current.reset();
      await pm.orders.cancelAll();
      await pm.close();
    }
  });
});

describe('a 429 from place', () => {
  it('is a RateLimitError carrying retryAfterMs (the exchange asked for 2 s), nothing placed', async () => {
    const pm = client();
    try {
      proxy.current.reset();
      proxy.current.set({
        method: 'POST',
        path: '/orders',
        times: Number.POSITIVE_INFINITY,
        fault: { kind: 'status', status: 429, retryAfterSeconds: 2 },
      });
      const e = await rejection(
        pm.orders.place({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5', clientId: 'rl-1' }),
      );
      expect(e).toBeInstanceOf(RateLimitError);
      expect(e).toMatchObject({ code: 'RATE_LIMITED', exitCode: 6, retryAfterMs: 2000, hint: expect.stringMatching(/\S/) });
      expect(sb.current.ctx.state.orders.some((o) => o.clientOrderId === 'rl-1')).toBe(false);
    } finally {
      proxy.current.reset();
      await pm.close();
    }
  });
});
