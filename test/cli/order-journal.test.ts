// pm order journal: what was sent and what came back (issue 14).
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { limitOrder, marketOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = () => accountEnv(sb.current, 'alice', home);
const pm = (...argv: string[]) => runPm(argv, { env: env() });
/** `order place btc-100k-2026 buy yes --price 0.1 --size 5 --client-id ID` (five shares that rest). */
const placeArgs = (clientId: string) => [...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '5'), '--client-id', clientId];

describe('pm order journal', () => {
  it('shows the request sent and the answer for a client id, and filters by --since', async () => {
    const first = await pm('--json', ...placeArgs('j-1'));
    expect(first.code, first.stderr).toBe(0);
    const bad = await pm('--json', ...placeArgs('j-2'), '--post-only', '--type', 'gtc');
    expect([0, 9]).toContain(bad.code);
    const r = await pm('--json', 'order', 'journal', '--client-id', 'j-1');
    expect(r.code).toBe(0);
    const es = r.json<{ state: string; request?: { clientOrderId: string; order: { makerAmount: number } }; orderId?: string }[]>();
    expect(es.map((e) => e.state)).toEqual(['pending', 'placed']);
    expect(es[0]?.request?.clientOrderId).toBe('j-1');
    expect(es[0]?.request?.order.makerAmount).toBe(500_000);
    expect(es[1]?.orderId).toMatch(/\S/);
    const table = await pm('order', 'journal', '--client-id', 'j-1');
    expect(table.stdout).toMatch(/j-1\tpending\tbtc-100k-2026\tGTC BUY 5 @ 0\.100 \(0\.5 USDC\)\n/);
    const all = await pm('--json', 'order', 'journal', '--since', '1h');
    expect(all.json<{ clientOrderId: string }[]>().map((e) => e.clientOrderId)).toEqual(expect.arrayContaining(['j-1', 'j-2']));
    expect((await pm('--json', 'order', 'journal', '--since', '2999-01-01')).json<unknown[]>()).toEqual([]);
    expect((await pm('order', 'journal', '--since', 'yesterday')).code).toBe(2);
  });

  it('says what was sent in shares, a price of three decimals and USDC, as order place echoes it (it printed raw wire units)', async () => {
    // A market BUY by amount (placed), a limit SELL of shares alice does not have (refused: the request is journaled all the same).
    expect((await pm(...marketOrder('btc-100k-2026', 'buy', 'yes', 'fok', '1.5'), '--client-id', 'j-fok')).code).toBe(0);
    expect((await pm(...limitOrder('btc-100k-2026', 'sell', 'no', '0.97', '1.5'), '--client-id', 'j-sell')).code).toBe(9);
    const text = (await pm('order', 'journal', '--since', '1h')).stdout;
    expect(text).toMatch(/j-fok\tpending\tbtc-100k-2026\tFOK BUY 1\.5 USDC\n/);
    expect(text).toMatch(/j-sell\tpending\tbtc-100k-2026\tGTC SELL 1\.5 @ 0\.970 \(1\.455 USDC\)\n/);
    expect(text).not.toMatch(/maker|taker/);
  });
});

describe('rate limited to the end', () => {
  it('every attempt refused with 429: "not placed", exit 6 (it said the state was unknown, exit 7: its lookups were refused too)', async () => {
    const faults = (b: object) => postAdmin(sb.current, 'faults', b);
    await faults({ burst429: 50, match: 'POST /orders' });
    try {
      const r = await pm('--json', ...placeArgs('j-429-all'));
      expect(r.code, r.stderr).toBe(6);
      const err = JSON.parse(r.stderr).error as { code: string; message: string };
      expect(err.code).toBe('RATE_LIMITED');
      expect(err.message).toMatch(/was not placed/);
      expect(err.message).not.toMatch(/unknown/);
    } finally {
      await faults({ burst429: 0, match: '' });
    }
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'j-429-all')).toEqual([]);
  });
});

describe('retry notes match what happened', () => {
  it('a 429 is not reported as a request that did not reach the exchange', async () => {
    const faults = (b: object) => postAdmin(sb.current, 'faults', b);
    await faults({ burst429: 1, match: 'POST /orders' });
    try {
      const r = await pm(...placeArgs('j-429'));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/j-429 was refused by the exchange's rate limit \(429\)/);
      expect(r.stderr).not.toMatch(/did not reach/);
    } finally {
      await faults({ burst429: 0, match: '' });
    }
  });
});
