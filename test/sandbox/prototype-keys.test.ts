// Bodies with keys that name Object.prototype's members ("__proto__", "constructor", …) are
// ordinary data to the exchange: a client error at worst (4xx), never a crash (500) and never a
// change to any object's prototype. Every route that takes a body is read from the sandbox's own
// route tables, so a route added later is fuzzed without touching this file.
import { describe, expect, it } from 'vitest';
import { createOrderShapeError } from '../../src/sandbox/routes/order-shape.js';
import type { Route } from '../../src/sandbox/handlers.js';
import { hmac, type Json, send, seeded, signedOrderBody, unpaced } from '../helpers/http.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
/** JSON texts of the values put under those keys (an object that would pollute if merged). */
const VALUES = ['{"polluted":"yes","isAdmin":true}', '"x"', 'null'];

/**
 * Realistic bodies of the routes that read one ("METHOD pattern"), so the injected key meets the
 * handler's real checks rather than an early "field missing". A route not listed gets `{}` and `[]`.
 */
async function examples(child: number): Promise<Record<string, unknown[]>> {
  const partner = seeded(sb.current, 'partner');
  const order = await signedOrderBody(sb.current, partner, { slug: 'sol-500-2026', price: 0.2, shares: 2_000_000n });
  const market = sb.current.ctx.state.markets.find((m) => m.slug === 'sol-500-2026');
  const op = { cancel: { orderId: 'x' }, replacement: order, mode: 'PROCEED_ON_FAILURE' };
  return {
    'POST /orders': [order, { ...order, onBehalfOf: child, ownerId: child }],
    'POST /orders/cancel-replace': [op],
    'POST /orders/cancel-replace/batch': [{ operations: [op, { ...op, onBehalfOf: child }] }],
    'POST /orders/batch-cancel': [{ orderIds: ['x'] }],
    'POST /orders/cancel-batch': [{ orderIds: ['x'] }],
    'POST /orders/status/batch': [{ orderIds: ['x'] }, { clientOrderIds: ['x'] }],
    'POST /auth/api-tokens/derive': [{ label: 'fuzz', scopes: ['trading'] }],
    'POST /profiles/partner-accounts': [{ displayName: 'fuzz', createServerWallet: true }],
    'POST /portfolio/withdraw': [{ amount: '1', onBehalfOf: child }],
    'POST /portfolio/redeem': [{ conditionId: market?.conditionId, onBehalfOf: child }],
    'POST /portfolio/withdrawal-addresses': [{ address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9', label: 'fuzz' }],
    'POST /__sandbox/fund': [{ profileId: child, amount: '1' }],
    'POST /__sandbox/allowances': [{ failures: [{ label: 'x', times: 1 }], lockMs: 0 }],
    'POST /__sandbox/markets': [{ slug: 'fuzz-market', title: 'Fuzz' }],
    'POST /__sandbox/markets/synthetic': [{ count: 1 }],
    'POST /__sandbox/faults': [{ rateLimit: false }],
  };
}

/**
 * Each variant of `base` as JSON text with the pair `kv(i)` added to its i-th object, top level
 * first (written by hand: JSON.stringify cannot write an own "__proto__" key from a literal).
 */
function injected(base: unknown, kv: (i: number) => string): string[] {
  const out: string[] = [];
  for (let target = 0; ; target++) {
    let seen = 0;
    const write = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
      if (v === null || typeof v !== 'object') return JSON.stringify(v);
      const parts = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`);
      if (seen++ === target) parts.push(kv(target));
      return `{${parts.join(',')}}`;
    };
    const text = write(base);
    if (target >= seen) return out;
    out.push(text);
  }
}

/** A value for each path parameter: real ones where the seed has them (so handlers get past lookups). */
function fill(pattern: string, child: number): string {
  const values: Record<string, string> = {
    slug: 'sol-500-2026',
    profileId: String(child),
    address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  };
  return pattern.replace(/:(\w+)/g, (_m, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? 'x') : 'x'));
}

/** The headers a route needs to reach its handler: the partner (every scope) by HMAC, or its identity token. */
function credentials(route: Route, method: string, target: string, raw: string): Record<string, string> {
  const partner = seeded(sb.current, 'partner');
  if (route.auth.kind === 'public') return {};
  if (route.auth.kind === 'identity') return { identity: `Bearer ${partner.identityToken}` };
  return hmac(partner, method, target, raw);
}

describe('keys named like Object.prototype members in request bodies', () => {
  it('a signed POST /orders with a top-level "constructor" or "__proto__" key answers 400 naming the key', async () => {
    await unpaced(sb.current);
    const alice = seeded(sb.current, 'alice');
    const before = sb.current.ctx.state.orders.length;
    for (const key of ['constructor', '__proto__', 'toString']) {
      const body = await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 2_000_000n });
      const raw = `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(key)}:"x"}`;
      const r = await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw);
      expect(r.status, `${key}: ${JSON.stringify(r.json)}`).toBe(400);
      expect(String((r.json as Json)['message'])).toContain(key);
    }
    const deep = `${'{"a":'.repeat(5000)}{"__proto__":{"polluted":1}}${'}'.repeat(5000)}`;
    const r = await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', deep), deep);
    expect(r).toEqual({
      status: 400,
      json: { message: `Body key …${'.a'.repeat(55)}.__proto__ is not accepted: no request field has that name` },
    });
    expect(sb.current.ctx.state.orders.length).toBe(before);
  });

  it('the HMAC still covers the raw bytes: the same JSON value in other bytes is refused, the signed bytes accepted', async () => {
    await unpaced(sb.current);
    const alice = seeded(sb.current, 'alice');
    const body = await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.31, shares: 2_000_000n });
    const signed = JSON.stringify(body);
    const spaced = JSON.stringify(body, null, 1);
    expect((await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', signed), spaced)).status).toBe(401);
    expect((await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', signed), signed)).status).toBe(201);
  });

  it('the create-order shape check looks fields up as own keys only (a lookup table is a plain object)', () => {
    const body = JSON.parse('{"order":{"toString":"x"},"constructor":"x"}') as unknown;
    expect(createOrderShapeError(body, 40)).toMatch(/^constructor is not a field of a create-order request/);
    expect(createOrderShapeError(JSON.parse('{"order":{"valueOf":1}}') as unknown, 40)).toMatch(/^order\.valueOf is not a field/);
  });

  it('every route that takes a body answers < 500 to such keys in any of its objects, and no prototype changes', {
    timeout: 120_000,
  }, async () => {
    await unpaced(sb.current);
    const partner = seeded(sb.current, 'partner');
    const create = JSON.stringify({ displayName: 'fuzz-child', createServerWallet: true });
    const made = await send(
      sb.current,
      'POST',
      '/profiles/partner-accounts',
      hmac(partner, 'POST', '/profiles/partner-accounts', create),
      create,
    );
    expect(made.status).toBe(201);
    const child = Number((made.json as Json)['profileId']);
    const known = await examples(child);
    const routes = [...sb.current.routes.api, ...sb.current.routes.admin].filter((r) => r.method !== 'GET');
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const target = fill(route.pattern, child);
      const bases = [{}, [{}], ...(known[`${route.method} ${route.pattern}`] ?? [])];
      // Every key at every object of every base; its value rotates over VALUES from one object to the next.
      const raws = KEYS.flatMap((key, k) =>
        bases.flatMap((b) => injected(b, (i) => `${JSON.stringify(key)}:${VALUES[(k + i) % VALUES.length]}`)),
      );
      for (const raw of raws) {
        const r = await send(sb.current, route.method, target, credentials(route, route.method, target, raw), raw);
        sent += 1;
        if (r.status >= 500) failures.push(`${route.method} ${target} ${raw} → ${r.status} ${JSON.stringify(r.json)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(routes.length * KEYS.length * 2);
    const probe: Record<string, unknown> = {};
    expect([probe['polluted'], probe['isAdmin'], Object.getPrototypeOf(probe)]).toEqual([undefined, undefined, Object.prototype]);
  });
});
