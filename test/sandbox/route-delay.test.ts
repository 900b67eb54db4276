// The delay fault on one route (POST /__sandbox/faults {"delay":{"route","ms"}}): that route's
// handling waits (its write lands after the delay), every other route answers at once.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { LogEntry, SandboxHandle } from '../../src/sandbox/index.js';
import { hmac, seeded, send, signedOrderBody, unpaced } from '../helpers/http.js';

const dirs: string[] = [];
const handles: SandboxHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string | null = null): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, dataDir, settlement: { minedAfterMs: 5, confirmedAfterMs: 5 } });
  handles.push(h);
  await unpaced(h);
  return h;
}

/** The order.placed events in the log of a sandbox started afresh (from its seed). */
function placed(h: SandboxHandle): LogEntry[] {
  const out: LogEntry[] = [];
  h.subscribe(1, (e) => {
    if (e.type === 'order.placed') out.push(e);
  })();
  return out;
}

describe('a delay fault on one route', () => {
  it('holds POST /orders (the write lands after the delay) while lookups answer at once', async () => {
    const h = await start();
    const alice = seeded(h, 'alice');
    const ms = 1500;
    const set = await send(h, 'POST', '/__sandbox/faults', {}, JSON.stringify({ delay: { route: 'POST /orders', ms } }));
    expect(set.status).toBe(200);
    expect((set.json as { delay?: unknown }).delay).toEqual({ route: 'POST /orders', ms });
    const before = h.seq();
    const raw = JSON.stringify(await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 2_000_000n }));
    const t0 = Date.now();
    const post = send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw).then((r) => ({ ...r, ms: Date.now() - t0 }));
    // Lookups (another route, and the same path with another method) answer while the write waits.
    const lookup = await send(h, 'GET', '/markets/btc-100k-2026/orderbook', {});
    const userOrders = await send(
      h,
      'GET',
      '/markets/btc-100k-2026/user-orders',
      hmac(alice, 'GET', '/markets/btc-100k-2026/user-orders', ''),
    );
    expect(lookup.status).toBe(200);
    expect(userOrders.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(ms);
    expect(h.seq()).toBe(before); // nothing written yet
    const r = await post;
    expect(r.status).toBe(201);
    expect(r.ms).toBeGreaterThanOrEqual(ms);
    expect(placed(h)).toHaveLength(1);
    // Cleared with ms 0 (or a reset).
    const off = await send(h, 'POST', '/__sandbox/faults', {}, JSON.stringify({ delay: { route: 'POST /orders', ms: 0 } }));
    expect((off.json as { delay?: unknown }).delay).toBeNull();
  });

  it('names a route the sandbox serves, with ms within bounds', async () => {
    const h = await start();
    for (const bad of [
      { route: 'POST /nowhere', ms: 10 },
      { route: 'POST /orders', ms: -1 },
      { route: 'POST /orders', ms: 1e9 },
      { ms: 5 },
      'x',
    ]) {
      const r = await send(h, 'POST', '/__sandbox/faults', {}, JSON.stringify({ delay: bad }));
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });
});
