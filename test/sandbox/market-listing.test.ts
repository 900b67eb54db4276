// Market listings from the listing index (src/sandbox/marketindex.ts) and synthetic markets
// (POST /__sandbox/markets/synthetic): every page of GET /markets/active slices one cached list,
// which must follow every change of the markets (created, resolved, traded), and synthetic
// markets are logged like any state change (they survive a restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/sandbox/place.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

const handles: SandboxHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string | null = null): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, dataDir });
  handles.push(h);
  return h;
}

async function post(h: SandboxHandle, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

interface Page {
  data: { slug: string; id: number; expirationDate: string; expirationTimestamp: number; volume: string }[];
  totalMarketsCount: number;
}

async function page(h: SandboxHandle, query: string): Promise<Page> {
  const res = await fetch(`${h.baseUrl}/markets/active?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** Every page of a query, as `pm markets list --all` follows them. */
async function all(h: SandboxHandle, query = ''): Promise<{ slugs: string[]; totals: number[] }> {
  const slugs: string[] = [];
  const totals: number[] = [];
  for (let p = 1; ; p++) {
    const r = await page(h, `limit=25&page=${p}${query}`);
    slugs.push(...r.data.map((m) => m.slug));
    totals.push(r.totalMarketsCount);
    if (r.data.length < 25) break;
  }
  return { slugs, totals };
}

describe('synthetic markets', () => {
  it('refuses a count that is not an integer from 1 to 100000', async () => {
    const h = await start();
    for (const count of [0, -1, 1.5, '10', 100_001, null]) {
      const r = await post(h, '/__sandbox/markets/synthetic', { count });
      expect(r.status, String(count)).toBe(400);
      expect(r.json['message']).toMatch(/count must be an integer/);
    }
    expect((await post(h, '/__sandbox/markets/synthetic', {})).status).toBe(400);
  });

  it('adds open CLOB markets that every page lists exactly once, in id order', async () => {
    const h = await start();
    const before = await all(h);
    const r = await post(h, '/__sandbox/markets/synthetic', { count: 260 });
    expect(r.status).toBe(201);
    expect(r.json['count']).toBe(260);
    const firstId = r.json['firstId'] as number;
    expect(firstId).toBe(Math.max(...h.ctx.state.markets.filter((m) => !m.slug.startsWith('synthetic-')).map((m) => m.id)) + 1);
    const after = await all(h);
    expect(after.slugs).toHaveLength(before.slugs.length + 260);
    expect(new Set(after.slugs).size).toBe(after.slugs.length);
    expect(after.totals.every((t) => t === after.slugs.length)).toBe(true);
    expect(after.slugs.slice(0, before.slugs.length)).toEqual(before.slugs);
    expect(after.slugs.slice(-260)).toEqual(Array.from({ length: 260 }, (_, k) => `synthetic-${firstId + k}`));
    // A second batch continues after the first; the same ids never come twice.
    const again = await post(h, '/__sandbox/markets/synthetic', { count: 3 });
    expect(again.json['firstId']).toBe(firstId + 260);
    expect((await all(h)).slugs).toHaveLength(before.slugs.length + 263);
  });

  it('shows the expiration date as the exchange does (en-US, UTC)', async () => {
    const h = await start();
    await post(h, '/__sandbox/markets/synthetic', { count: 40 });
    const { data } = await page(h, 'limit=25&page=2');
    expect(data.length).toBeGreaterThan(0);
    for (const m of data) {
      expect(m.expirationDate).toBe(
        new Date(m.expirationTimestamp).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
      );
      expect(m.expirationDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    }
  });

  it('survives a restart on the same data dir (one logged event)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-listing-'));
    dirs.push(dir);
    const a = await start(dir);
    await post(a, '/__sandbox/markets/synthetic', { count: 120 });
    const listed = await all(a);
    await a.close();
    handles.splice(handles.indexOf(a), 1);
    const b = await start(dir);
    expect(b.ctx.state.markets.filter((m) => m.slug.startsWith('synthetic-'))).toHaveLength(120);
    expect(await all(b)).toEqual(listed);
  });
});

describe('the listing follows changes of the markets', () => {
  it('drops a resolved market and adds a created one, on every page and in the total', async () => {
    const s = await start();
    await post(s, '/__sandbox/markets/synthetic', { count: 60 });
    const before = await all(s);
    const gone = before.slugs[30] as string;
    expect((await post(s, `/__sandbox/markets/${gone}/resolve`, { winner: 'YES' })).status).toBe(200);
    const afterResolve = await all(s);
    expect(afterResolve.slugs).toEqual(before.slugs.filter((x) => x !== gone));
    expect(afterResolve.totals.every((t) => t === before.slugs.length - 1)).toBe(true);
    expect((await post(s, '/__sandbox/markets', { slug: 'listing-new', title: 'New' })).status).toBe(201);
    const afterCreate = await all(s);
    expect(afterCreate.slugs).toEqual([...afterResolve.slugs, 'listing-new']);
    // Filtered queries are cached separately and follow too.
    const clob = await all(s, '&tradeType=clob');
    expect(clob.slugs).toContain('listing-new');
    expect(clob.slugs).not.toContain(gone);
  });

  it('re-sorts by volume after a trade (sortBy=high_value)', async () => {
    const s = await start();
    await post(s, '/__sandbox/markets/synthetic', { count: 30 });
    const first = await all(s, '&sortBy=high_value');
    const last = first.slugs[first.slugs.length - 1] as string;
    const m = s.ctx.state.markets.find((x) => x.slug === last);
    if (!m?.positionIds) throw new Error(last);
    // bob rests a NO bid at 0.50; alice's YES bid at 0.50 mints against it: 10M shares, 5M USDC
    // of volume, more than any seeded market has.
    for (const profileId of [1001, 1002])
      expect((await post(s, '/__sandbox/fund', { profileId, amount: '6000000000000' })).status).toBe(200);
    const size = 10_000_000_000_000n;
    const base = {
      marketSlug: last,
      orderType: 'GTC' as const,
      side: 'BUY' as const,
      price: 500_000n,
      size,
      makerAmount: 0n,
      takerAmount: 0n,
      postOnly: false,
      clientOrderId: null,
      feeRateBps: 0,
    };
    const bid = placeOrder(s.ctx, { ...base, ownerId: 1002, tokenId: m.positionIds[1], signedOrder: { salt: 1n } });
    expect(bid.ok && bid.order.status).toBe('LIVE');
    const taken = placeOrder(s.ctx, { ...base, ownerId: 1001, tokenId: m.positionIds[0], feeRateBps: 300, signedOrder: { salt: 2n } });
    expect(taken.ok && taken.order.status).toBe('MATCHED');
    const after = await all(s, '&sortBy=high_value');
    expect(after.slugs[0]).toBe(last);
    expect(after.slugs.slice(1)).toEqual(first.slugs.filter((x) => x !== last));
  });
});
