// A signed order cannot be replayed (issue 30): its EIP-712 hash is refused (409) once
// accepted, whatever its client id, across a restart too (the hashes come from the log). Ids in
// a create body may come as decimal strings. Effects are counted in the sandbox's event log.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { LogEntry, SandboxHandle } from '../../src/sandbox/index.js';
import { hmac, seeded, send, signedOrderBody, unpaced } from '../helpers/http.js';
import { sandboxDirs } from '../helpers/sandbox-dirs.js';

const { tmp, handles, stop } = sandboxDirs('pm-once-');

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

const message = (json: unknown): string => String((json as { message?: unknown }).message ?? '');

describe('a signed order cannot be replayed', () => {
  it('the same HTTP request twice (same timestamp, signature and body, no client id) places one order', async () => {
    const h = await start();
    const alice = seeded(h, 'alice');
    const raw = JSON.stringify(await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 2_000_000n }));
    const headers = hmac(alice, 'POST', '/orders', raw);
    const first = await send(h, 'POST', '/orders', headers, raw);
    expect(first.status).toBe(201);
    const again = await send(h, 'POST', '/orders', headers, raw);
    expect(again.status).toBe(409);
    expect(message(again.json)).toMatch(/already/);
    expect(placed(h)).toHaveLength(1);
  });

  it('the same EIP-712 order (salt and signature) under new client ids is accepted once, also after a restart', async () => {
    const dir = join(tmp(), 'sandbox');
    let h = await start(dir);
    const alice = seeded(h, 'alice');
    const body = await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.31, shares: 2_000_000n });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const raw = JSON.stringify({ ...body, clientOrderId: `replay-${i}` });
      statuses.push((await send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw)).status);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(h.ctx.state.orders.filter((o) => o.clientOrderId?.startsWith('replay-'))).toHaveLength(1);
    // A kill -9 copy of the data dir (no final snapshot) and a clean restart both remember it.
    const crashed = join(tmp(), 'sandbox');
    cpSync(dir, crashed, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    await stop(h);
    for (const d of [dir, crashed]) {
      h = await start(d);
      const raw = JSON.stringify({ ...body, clientOrderId: 'after-restart' });
      const r = await send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw);
      expect(r.status, d).toBe(409);
      expect(h.ctx.state.orders.filter((o) => o.clientOrderId === 'after-restart')).toHaveLength(0);
      await stop(h);
    }
  });

  it('an order with a new salt is a new order', async () => {
    const h = await start();
    const alice = seeded(h, 'alice');
    for (const cid of ['salt-a', 'salt-b']) {
      const raw = JSON.stringify({
        ...(await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.32, shares: 2_000_000n })),
        clientOrderId: cid,
      });
      expect((await send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw)).status).toBe(201);
    }
    expect(placed(h)).toHaveLength(2);
  });
});

describe('ids as decimal strings', () => {
  it('ownerId "1001" on POST /orders and profileId "1001" on the fund route are accepted', async () => {
    const h = await start();
    const alice = seeded(h, 'alice');
    const body = await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 2_000_000n });
    const raw = JSON.stringify({ ...body, ownerId: String(alice.profileId) });
    const r = await send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw);
    expect(r.status, message(r.json)).toBe(201);
    const fund = await send(h, 'POST', '/__sandbox/fund', {}, JSON.stringify({ profileId: String(alice.profileId), amount: '1000000' }));
    expect(fund.status, message(fund.json)).toBe(200);
  });
});
