// Trading through the CLI against the real sandbox, with credentials from the environment.
// Expected numbers are worked out by hand from the seeded books (bob quotes 100/200/300 shares
// one, two and three ticks of 0.01 around each market's fair price; alice pays 300 bps).
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { limitOrder } from '../helpers/orders.js';
import { laneOf, pacedFetch } from '../helpers/pacer.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const ALICE = 1001;
const alice = () => seeded(sb.current, 'alice');
const env = () => accountEnv(sb.current, 'alice', home);
const pm = (...argv: string[]) => runPm(argv, { env: env() });
const account = () => {
  const a = sb.current.ctx.state.accounts[String(ALICE)];
  if (!a) throw new Error('no account');
  return a;
};
const market = (slug: string) => {
  const m = sb.current.ctx.state.markets.find((x) => x.slug === slug);
  if (!m?.positionIds) throw new Error(slug);
  return { yes: m.positionIds[0], no: m.positionIds[1] };
};
const shares = (slug: string, outcome: 'yes' | 'no') => account().positions[market(slug)[outcome]]?.shares ?? 0n;
const ordersOf = (cid: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === cid);
const faults = (b: object) =>
  fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(b),
  });

interface PlacedJson {
  orderId: string;
  clientOrderId: string;
  matched: boolean;
  settlementStatus: string;
  alreadyPlaced: boolean;
  filled: { sharesRaw: string; usdRaw: string; feeRaw: string; netRaw: string };
}

describe('order place', () => {
  it('rests a GTC order and locks its collateral', async () => {
    const before = account();
    const usdc0 = before.usdc;
    const locked0 = before.lockedUsdc;
    const r = await pm('--json', ...limitOrder('gpt-6-release-2026', 'buy', 'yes', '0.301', '10'), '--client-id', 'gtc-1');
    expect(r.code, r.stderr).toBe(0);
    const j = r.json<PlacedJson>();
    expect(j.clientOrderId).toBe('gtc-1');
    expect(j.matched).toBe(false);
    expect(j.settlementStatus).toBe('UNMATCHED');
    expect(account().usdc).toBe(usdc0);
    expect(account().lockedUsdc - locked0).toBe(3_010_000n); // 10 × 0.301
    const book = await pm('--json', 'book', 'gpt-6-release-2026');
    expect(book.json<{ bids: { price: string; size: string }[] }>().bids).toContainEqual({
      price: '0.301',
      size: '10',
      sizeRaw: '10000000',
    });
    const list = await pm('--json', 'order', 'list', '--market', 'gpt-6-release-2026');
    expect(list.json<{ clientOrderId: string; remainingRaw: string }[]>().find((o) => o.clientOrderId === 'gtc-1')?.remainingRaw).toBe(
      '10000000',
    );
  });

  it('fills a crossing FOK by USDC amount at the maker price, with the taker fee', async () => {
    // eth-flip-btc asks: 100 @ 0.09, 200 @ 0.10, 300 @ 0.11. Spending 5 USDC at 0.09 buys
    // the largest 0.001-share multiple with cost ≤ 5: 55.555 shares for 4.99995 USDC.
    const usdc0 = account().usdc;
    const r = await pm('--json', 'order', 'place', 'eth-flip-btc', 'buy', 'yes', '--type', 'fok', '--amount', '5');
    expect(r.code, r.stderr).toBe(0);
    const j = r.json<PlacedJson>();
    expect(j.matched).toBe(true);
    expect(j.filled.sharesRaw).toBe('55555000');
    expect(j.filled.usdRaw).toBe('4999950');
    expect(j.filled.feeRaw).toBe('149998'); // floor(4.99995 × 3%)
    expect(shares('eth-flip-btc', 'yes')).toBe(55_555_000n);
    expect(usdc0 - account().usdc).toBe(4_999_950n + 149_998n);
  });

  it('kills a FOK it cannot fill completely, changing nothing', async () => {
    const usdc0 = account().usdc;
    const r = await pm('--json', 'order', 'place', 'eth-flip-btc', 'buy', 'no', '--type', 'fok', '--amount', '9000');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<PlacedJson>().matched).toBe(false);
    expect(account().usdc).toBe(usdc0);
    expect(shares('eth-flip-btc', 'no')).toBe(0n);
  });

  it('partially fills a FAK across three levels and kills the rest', async () => {
    // fed-cut-december asks: 100 @ 0.72, 200 @ 0.73, 300 @ 0.74; BUY 700 @ 0.74 takes 600.
    const usdc0 = account().usdc;
    const locked0 = account().lockedUsdc;
    const r = await pm('--json', 'order', 'place', 'fed-cut-december', 'buy', 'yes', '--type', 'fak', '--price', '0.74', '--size', '700');
    expect(r.code, r.stderr).toBe(0);
    const j = r.json<PlacedJson>();
    expect(j.filled.sharesRaw).toBe('600000000');
    expect(j.filled.usdRaw).toBe('440000000'); // 72 + 146 + 222
    expect(j.filled.feeRaw).toBe('13200000');
    expect(shares('fed-cut-december', 'yes')).toBe(600_000_000n);
    expect(usdc0 - account().usdc).toBe(453_200_000n);
    expect(account().lockedUsdc).toBe(locked0); // nothing rests
    const book = (await pm('--json', 'book', 'fed-cut-december')).json<{ asks: unknown[] }>();
    expect(book.asks).toHaveLength(0);
  });

  it('prints the exact body with --dry-run, which the exchange then accepts as sent', async () => {
    const r = await pm(...limitOrder('sol-500-2026', 'buy', 'yes', '0.1', '3'), '--client-id', 'dry-1', '--dry-run');
    expect(r.code).toBe(0);
    expect(ordersOf('dry-1')).toHaveLength(0);
    const body = JSON.stringify(JSON.parse(r.stdout));
    expect(JSON.parse(body)).toMatchObject({
      orderType: 'GTC',
      marketSlug: 'sol-500-2026',
      ownerId: ALICE,
      clientOrderId: 'dry-1',
      order: { price: 0.1, makerAmount: 300000, takerAmount: 3000000 },
    });
    // Sent right after pm's own requests with the same token: paced, and signed afresh on a retry.
    const res = await pacedFetch(laneOf(sb.current.baseUrl, alice().token.tokenId), () => {
      const ts = new Date().toISOString();
      const sig = createHmac('sha256', Buffer.from(alice().token.secret, 'base64'))
        .update(`${ts}\nPOST\n/orders\n${body}`)
        .digest('base64');
      return fetch(`${sb.current.baseUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'lmts-api-key': alice().token.tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig },
        body,
      });
    });
    expect(res.status).toBe(201);
    expect(ordersOf('dry-1')).toHaveLength(1);
  });

  it('reports a re-run with the same client id as already placed, never twice', async () => {
    const a = await pm('--json', 'order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.11', '--size', '1', '--client-id', 'same-1');
    const b = await pm('--json', 'order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.11', '--size', '1', '--client-id', 'same-1');
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(b.json<PlacedJson>().alreadyPlaced).toBe(true);
    expect(b.json<PlacedJson>().orderId).toBe(a.json<PlacedJson>().orderId);
    // As text: the same order, and a note that no second one was placed.
    const c = await pm('order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.11', '--size', '1', '--client-id', 'same-1');
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain(a.json<PlacedJson>().orderId);
    expect(c.stderr).toMatch(/already placed; reporting the existing order \(no second order was placed\)/);
    expect(ordersOf('same-1')).toHaveLength(1);
    expect(c.stdout).toMatch(/status\s+resting on the book/);
    // Cancelled since: the re-run says so (it said "resting on the book"), and --json carries the status.
    expect((await pm('order', 'cancel', '--client-id', 'same-1')).code).toBe(0);
    const d = await pm('order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.11', '--size', '1', '--client-id', 'same-1');
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toMatch(/status\s+cancelled/);
    expect(d.stdout).not.toMatch(/resting/);
    const e = await pm('--json', 'order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.11', '--size', '1', '--client-id', 'same-1');
    expect(e.json<PlacedJson & { status: string }>()).toMatchObject({ alreadyPlaced: true, status: 'CANCELED' });
    expect(ordersOf('same-1')).toHaveLength(1);
  });

  it('places exactly one order per client id when the connection drops after commit, or 5xx before it', async () => {
    for (let i = 0; i < 4; i++) {
      await faults(i % 2 === 0 ? { commitThenDrop: 1, match: 'POST /orders' } : { fail5xx: 1, match: 'POST /orders' });
      const cid = `flaky-${i}`;
      const r = await pm('--json', 'order', 'place', 'sol-500-2026', 'buy', 'yes', '--price', '0.05', '--size', '1', '--client-id', cid);
      expect(r.code, r.stderr).toBe(0);
      expect(ordersOf(cid), cid).toHaveLength(1);
      expect(r.json<PlacedJson>().orderId).toBe(ordersOf(cid)[0]?.id);
    }
    await faults({ commitThenDrop: 0, fail5xx: 0, match: '' });
  });

  it('refuses bad orders before sending, with exit 2 and the field named', async () => {
    const n0 = sb.current.ctx.state.orders.length;
    const cases: [string[], RegExp][] = [
      [['--price', '0.4235', '--size', '1'], /0.423 or 0.424/],
      [['--price', '0', '--size', '1'], /above 0/],
      [['--price', '0.5', '--size', '1.0001'], /0.001-share grid/],
      [['--type', 'fok', '--price', '0.5', '--amount', '1'], /no --price/],
      [['--type', 'fak', '--price', '0.5', '--size', '1', '--post-only'], /GTC orders only/],
      [['--price', '0.5', '--size', '1', '--client-id', 'x'.repeat(129)], /128/],
    ];
    for (const [flags, re] of cases) {
      const r = await pm('order', 'place', 'sol-500-2026', 'buy', 'yes', ...flags);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(re);
    }
    expect((await pm('order', 'place', 'eth-5k-2025', 'buy', 'yes', '--price', '0.5', '--size', '1')).stderr).toMatch(/resolved/);
    expect((await pm('order', 'place', 'sp500-7000-nov-2026', 'buy', 'yes', '--price', '0.5', '--size', '1')).code).toBe(2);
    expect((await pm('order', 'place', 'us-election-2028', 'buy', 'yes', '--price', '0.5', '--size', '1')).stderr).toMatch(
      /us-election-2028-democrat/,
    );
    expect((await pm('order', 'place', 'no-such-market', 'buy', 'yes', '--price', '0.5', '--size', '1')).code).toBe(4);
    expect(sb.current.ctx.state.orders.length).toBe(n0);
  });

  it('maps exchange refusals to exit 9 (sent, then refused): insufficient funds, post-only crossing', async () => {
    const big = await pm('order', 'place', 'world-cup-2026-brazil', 'buy', 'yes', '--price', '0.15', '--size', '900000');
    expect(big.code).toBe(9);
    expect(big.stderr).toMatch(/Insufficient/i);
    expect(big.stderr).toMatch(/hint: Not enough free USDC/);
    const po = await pm('order', 'place', 'world-cup-2026-brazil', 'buy', 'yes', '--price', '0.19', '--size', '1', '--post-only');
    expect(po.code).toBe(9);
    expect(po.stderr).toMatch(/Post-only/);
  });
});

describe('self-trade prevention (--stp)', () => {
  it("cancel_taker: an order that would match the account's own resting order is cancelled, the resting one stays", async () => {
    const slug = 'us-election-2028-other';
    const book = (await pm('--json', 'book', slug)).json<{ bids: { price: string }[]; asks: { price: string }[] }>();
    const bid = Math.max(0, ...book.bids.map((b) => Number(b.price)));
    const ask = Math.min(1, ...book.asks.map((a) => Number(a.price)));
    // Inside the spread: alice's BUY NO at 1 − p rests as the best YES ask p; her BUY YES at p meets it first.
    const p = (Math.round(bid * 1000) + 1) / 1000;
    expect(p).toBeLessThan(ask);
    const no = (Math.round((1 - p) * 1000) / 1000).toFixed(3);
    const rest = await pm('--json', 'order', 'place', slug, 'buy', 'no', '--price', no, '--size', '2', '--client-id', 'stp-rest');
    expect(rest.code, rest.stderr).toBe(0);
    const r = await pm('--json', ...limitOrder(slug, 'buy', 'yes', p.toFixed(3), '2'), '--client-id', 'stp-taker', '--stp', 'cancel_taker');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<PlacedJson & { reason: string | null }>()).toMatchObject({
      matched: false,
      settlementStatus: 'CANCELED',
      reason: 'STP_TAKER_REJECTED',
    });
    expect(ordersOf('stp-rest')[0]?.status).toBe('LIVE');
    expect(ordersOf('stp-taker')[0]?.status).toBe('CANCELED');
    // The same in text, and a policy the exchange does not know is a usage error (nothing sent).
    const again = await pm('order', 'place', slug, 'buy', 'yes', '--price', p.toFixed(3), '--size', '1', '--stp', 'cancel_both');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/cancelled: it would have matched your own resting order/);
    expect(ordersOf('stp-rest')[0]?.status).toBe('CANCELED'); // cancel_both cancelled it too
    const bad = await pm('order', 'place', slug, 'buy', 'yes', '--price', p.toFixed(3), '--size', '1', '--stp', 'cancel_all');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cancel_maker, cancel_taker, cancel_both/);
  });
});

describe('batch placement', () => {
  it('places lines from a file, one result per line, exit 8 when some fail, without 429s', async () => {
    const file = join(home, 'orders.ndjson');
    const lines = [
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '1', clientId: 'b-1' },
      { market: 'sol-500-2026', side: 'buy', outcome: 'no', price: '0.5', size: '2', clientId: 'b-2' },
      'this is not json',
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.0205', size: '1', clientId: 'b-4' },
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '1', clientId: 'b-5' },
      { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.04', size: '1', clientId: 'b-6' },
    ];
    writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
    const t0 = Date.now();
    const r = await pm('--json', 'order', 'place', '--file', file);
    const ms = Date.now() - t0;
    expect(r.code).toBe(8);
    const out = ndjson<{ line: number; ok: boolean; error?: { code: string; status?: number } }>(r.stdout);
    expect(out.map((o) => o.line).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(
      out
        .filter((o) => o.ok)
        .map((o) => o.line)
        .sort(),
    ).toEqual([1, 2, 5, 6]);
    expect(out.find((o) => o.line === 4)?.error?.code).toBe('VALIDATION');
    expect(out.some((o) => o.error?.status === 429)).toBe(false);
    for (const c of ['b-1', 'b-2', 'b-5', 'b-6']) expect(ordersOf(c)).toHaveLength(1);
    expect(ms).toBeGreaterThanOrEqual(3 * 300 - 50); // 4 orders paced 300 ms apart
    expect(r.stderr).toMatch(/line 3/);
  });

  it('reads a batch from stdin', async () => {
    const r = await runPm(['--json', 'order', 'place', '--file', '-'], {
      env: env(),
      stdin: `${JSON.stringify({ market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.01', size: '1', clientId: 'stdin-1' })}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(ordersOf('stdin-1')).toHaveLength(1);
  });
});

describe('cancel and status', () => {
  it('cancels by id, by client id and by market, and unlocks collateral', async () => {
    const place = async (cid: string) => {
      const r = await pm('--json', ...limitOrder('world-cup-2026-brazil', 'buy', 'yes', '0.1', '1'), '--client-id', cid);
      expect(r.code, r.stderr).toBe(0);
      return r.json<PlacedJson>();
    };
    const a = await place('c-1');
    await place('c-2');
    await place('c-3');
    await place('c-4');
    const locked = account().lockedUsdc;
    const byId = await pm('--json', 'order', 'cancel', a.orderId);
    expect(byId.code).toBe(0);
    expect(byId.json<{ canceled: string[] }>().canceled).toEqual([a.orderId]);
    expect(account().lockedUsdc).toBe(locked - 100_000n);
    const byCid = await pm('--json', 'order', 'cancel', '--client-id', 'c-2', 'c-3');
    expect(byCid.json<{ canceled: string[] }>().canceled).toHaveLength(2);
    const all = await pm('--json', 'order', 'cancel', '--all', 'world-cup-2026-brazil');
    expect(all.json<{ canceled: string[] }>().canceled).toContain(ordersOf('c-4')[0]?.id);
    expect(ordersOf('c-4')[0]?.status).toBe('CANCELED');
  });

  it('reports partial failures with exit 8, and none found with exit 4, splitting more than 50 ids into batches', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `ghost-${i}`);
    // Not one of them exists: not found (exit 4), not a partial failure (it was exit 8).
    const r = await pm('--json', 'order', 'cancel', '--client-id', ...ids);
    expect(r.code).toBe(4);
    const j = r.json<{ canceled: string[]; failed: { reason: string }[] }>();
    expect(j.failed).toHaveLength(51);
    expect(j.failed[0]?.reason).toBe('ORDER_NOT_FOUND');
    // One real order among them: partial (exit 8).
    expect((await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '1', '--client-id', 'c-real')).code).toBe(
      0,
    );
    const mixed = await pm('--json', 'order', 'cancel', '--client-id', 'c-real', ...ids);
    expect(mixed.code).toBe(8);
    expect(mixed.json<{ canceled: string[] }>().canceled).toHaveLength(1);
    expect((await pm('order', 'cancel')).code).toBe(2);
  });

  it('shows status by id and client id, with settlement reaching CONFIRMED', async () => {
    const r = await pm('--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.63', '--size', '5', '--client-id', 'st-1');
    const j = r.json<PlacedJson>();
    expect(j.settlementStatus).toBe('MATCHED');
    await eventually(() => ordersOf('st-1')[0]?.settlementStatus === 'CONFIRMED', { what: 'st-1 to settle' });
    const s = await pm('--json', 'order', 'status', '--client-id', 'st-1');
    expect(s.code).toBe(0);
    expect(s.json<{ orderId: string; settlementStatus: string }[]>()[0]).toMatchObject({
      orderId: j.orderId,
      settlementStatus: 'CONFIRMED',
    });
    const both = await pm('--json', 'order', 'status', j.orderId, '--client-id', 'nope');
    expect(both.code).toBe(8);
    expect(both.json<{ found: boolean }[]>().map((x) => x.found)).toEqual([true, false]);
  });
});
