// pm sandbox report against the real sandbox: alice trades (bob's seeded quotes fill her, bob
// hits one of her resting orders), cancels one, a market is resolved (cancelling another of her
// orders) and she redeems. The report must agree to the raw unit with pm positions and pm
// portfolio pnl, and its counts, volume and fees with the sandbox's event log (fees by the
// sandbox's rule: 300 bps of a taker's gross, rounded down; makers pay none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits } from '../../src/core/money.js';
import { accountEnv } from '../helpers/account-env.js';
import { eventsOf } from '../helpers/fault-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const ALICE = 1001;
const FEE_BPS = 300n;
const ONE = 1_000_000n;
type Who = 'alice' | 'bob';
const pmAs = (name: Who, ...argv: string[]) => runPm(argv, { env: accountEnv(sb.current, name, home) });

async function ok(name: Who, ...argv: string[]): Promise<void> {
  const r = await pmAs(name, ...argv);
  expect(r.code, `pm ${argv.join(' ')}: ${r.stderr}`).toBe(0);
}

const MONEY = ['volume', 'fees', 'realisedPnl', 'unrealisedPnl', 'pnl', 'maxDrawdown'] as const;
type Figures = { placed: number; filled: number; cancelled: number; fills: number } & Record<
  (typeof MONEY)[number] | `${(typeof MONEY)[number]}Raw`,
  string
>;
interface Report {
  account: { name: string; profileId: number };
  markets: (Figures & { market: string; title: string; resolved: boolean; yesPrice: string; yesPriceRaw: string })[];
  total: Figures;
  curve: { timestamp: number; at: string; pnl: string; pnlRaw: string }[];
}

let report: Report;

beforeAll(async () => {
  await postAdmin(sb.current, 'faults', { rateLimit: false });
  const place = (...a: string[]) => ok('alice', '--json', 'order', 'place', ...a);
  // sol-500-2026 (asks 0.23/0.24, bid 0.21): a buy across two levels, then a sale at a loss.
  await place('sol-500-2026', 'buy', 'yes', '--type', 'fak', '--price', '0.24', '--size', '150');
  await place('sol-500-2026', 'sell', 'yes', '--type', 'fak', '--price', '0.21', '--size', '50');
  // gpt-6-release-2026: a resting buy bob hits in part (alice is the maker), then she cancels it.
  await place('gpt-6-release-2026', 'buy', 'yes', '--price', '0.345', '--size', '20', '--client-id', 'rp-rest');
  await ok('bob', '--json', 'order', 'place', 'gpt-6-release-2026', 'sell', 'yes', '--type', 'fak', '--price', '0.345', '--size', '8');
  await ok('alice', '--json', 'order', 'cancel', '--client-id', 'rp-rest');
  // fed-cut-december (ask 0.72): a buy, a resting bid the resolution cancels, then YES wins and she redeems.
  await place('fed-cut-december', 'buy', 'yes', '--type', 'fak', '--price', '0.72', '--size', '10');
  await place('fed-cut-december', 'buy', 'yes', '--price', '0.60', '--size', '5');
  await ok('alice', '--json', 'sandbox', 'resolve', 'fed-cut-december', 'yes');
  await ok('alice', '--json', 'redeem', 'fed-cut-december');
  const r = await pmAs('alice', '--json', 'sandbox', 'report', '--account', 'alice');
  expect(r.code, r.stderr).toBe(0);
  report = r.json<Report>();
});

const line = (slug: string) => {
  const m = report.markets.find((x) => x.market === slug);
  if (!m) throw new Error(`no line for ${slug}`);
  return m;
};

describe('pm sandbox report', () => {
  it('adds up with pm positions and pm portfolio pnl, per market and in total, to the raw unit', async () => {
    const pos = await pmAs('alice', '--json', 'positions');
    expect(pos.code, pos.stderr).toBe(0);
    const { positions, totals } = pos.json<{
      positions: { market: string; unrealisedPnlRaw: string; realisedPnlRaw: string }[];
      totals: { unrealisedPnlRaw: string; realisedPnlRaw: string };
    }>();
    const pnl = await pmAs('alice', '--json', 'portfolio', 'pnl', '--timeframe', 'all');
    expect(pnl.code, pnl.stderr).toBe(0);
    const { realisedRaw, unrealisedRaw } = pnl.json<{ realisedRaw: string; unrealisedRaw: string }>();
    expect(report.total.realisedPnlRaw).toBe(totals.realisedPnlRaw);
    expect(report.total.unrealisedPnlRaw).toBe(totals.unrealisedPnlRaw);
    expect(report.total.realisedPnlRaw).toBe(realisedRaw);
    expect(report.total.unrealisedPnlRaw).toBe(unrealisedRaw);
    expect(BigInt(report.total.pnlRaw)).toBe(BigInt(realisedRaw ?? '') + BigInt(unrealisedRaw ?? ''));
    // Every market with a position row has a line with the same sums (and none without).
    const slugs = new Set(positions.map((p) => p.market));
    for (const slug of slugs) {
      const rows = positions.filter((p) => p.market === slug);
      const sum = (k: 'realisedPnlRaw' | 'unrealisedPnlRaw') => rows.reduce((a, p) => a + BigInt(p[k]), 0n).toString();
      expect({ slug, r: line(slug).realisedPnlRaw, u: line(slug).unrealisedPnlRaw }).toEqual({
        slug,
        r: sum('realisedPnlRaw'),
        u: sum('unrealisedPnlRaw'),
      });
    }
    expect(report.markets.map((m) => m.market).sort()).toEqual(
      [...new Set([...slugs, 'gpt-6-release-2026', 'fed-cut-december', 'sol-500-2026'])].sort(),
    );
  });

  it("counts orders, fills, volume and fees as the sandbox's event log has them", () => {
    const placed = eventsOf(sb.current, 'order.placed');
    const mine = new Map(placed.filter((e) => e.order.ownerId === ALICE).map((e) => [e.order.id, e.order.marketSlug]));
    const cancelled = new Set<string>([
      ...eventsOf(sb.current, 'order.cancelled').map((e) => e.orderId),
      ...eventsOf(sb.current, 'market.resolved').flatMap((e) => e.canceled),
      ...placed.flatMap((e) => e.stpCanceled),
    ]);
    const want = new Map<string, { placed: number; filled: Set<string>; cancelled: number; volume: bigint; fees: bigint }>();
    const at = (slug: string) => {
      let w = want.get(slug);
      if (!w) want.set(slug, (w = { placed: 0, filled: new Set(), cancelled: 0, volume: 0n, fees: 0n }));
      return w;
    };
    for (const [id, slug] of mine) {
      at(slug).placed++;
      if (cancelled.has(id)) at(slug).cancelled++;
    }
    for (const e of placed) {
      if (e.order.ownerId === ALICE && e.fills.length > 0) {
        const w = at(e.order.marketSlug);
        w.filled.add(e.order.id);
        w.volume += e.totals.usdGross;
        const fee = (e.totals.usdGross * FEE_BPS) / 10_000n; // the sandbox's rule
        expect(e.totals.usdFee).toBe(fee);
        w.fees += fee;
      }
      for (const f of e.fills) {
        const slug = mine.get(f.makerOrderId);
        if (slug === undefined) continue;
        at(slug).filled.add(f.makerOrderId);
        at(slug).volume += f.makerUsd; // makers pay no fee
      }
    }
    for (const [slug, w] of want) {
      const l = line(slug);
      expect({ slug, placed: l.placed, filled: l.filled, cancelled: l.cancelled, volume: l.volumeRaw, fees: l.feesRaw }).toEqual({
        slug,
        placed: w.placed,
        filled: w.filled.size,
        cancelled: w.cancelled,
        volume: w.volume.toString(),
        fees: w.fees.toString(),
      });
    }
    // What the scenario did: 5 orders, 4 with fills (the cancelled one in part), 2 cancelled (one by her, one by the resolution).
    expect({ placed: report.total.placed, filled: report.total.filled, cancelled: report.total.cancelled }).toEqual({
      placed: 5,
      filled: 4,
      cancelled: 2,
    });
    expect(line('gpt-6-release-2026')).toMatchObject({ placed: 1, filled: 1, cancelled: 1, feesRaw: '0', volumeRaw: '2760000' });
    const sum = (k: 'volumeRaw' | 'feesRaw') => report.markets.reduce((a, m) => a + BigInt(m[k]), 0n).toString();
    expect({ volume: report.total.volumeRaw, fees: report.total.feesRaw }).toEqual({ volume: sum('volumeRaw'), fees: sum('feesRaw') });
  });

  it("a market's drawdown is the fall from its running peak (sol-500-2026, worked out from the fills)", () => {
    // The buy: 100 @ 0.23 + 50 @ 0.24, fee 3%, marked at 0.24; the sale: 50 @ 0.21, marked at 0.21.
    const gross = 23_000_000n + 12_000_000n;
    const cost = gross + (gross * FEE_BPS) / 10_000n;
    const afterBuy = (150n * ONE * 240_000n) / ONE - cost;
    const proceeds = 10_500_000n - (10_500_000n * FEE_BPS) / 10_000n;
    const costOut = (cost * 50n) / 150n;
    const afterSale = proceeds - costOut + (100n * ONE * 210_000n) / ONE - (cost - costOut);
    const lowest = afterBuy < afterSale ? afterBuy : afterSale;
    const l = line('sol-500-2026');
    expect(l.pnlRaw).toBe(afterSale.toString());
    expect(l.maxDrawdownRaw).toBe((lowest < 0n ? -lowest : 0n).toString());
  });

  it('--json: {account, markets, total, curve}, every amount a decimal plus its …Raw; the curve ends at the total', () => {
    expect(Object.keys(report).sort()).toEqual(['account', 'curve', 'markets', 'total']);
    expect(report.account).toEqual({ name: 'alice', profileId: ALICE });
    for (const f of [...report.markets, report.total]) {
      expect(Object.keys(f)).toEqual(
        expect.arrayContaining(['placed', 'filled', 'cancelled', 'fills', ...MONEY, ...MONEY.map((k) => `${k}Raw`)]),
      );
      for (const k of MONEY) {
        expect(f[`${k}Raw`]).toMatch(/^-?\d+$/);
        expect(f[k]).toBe(formatUnits(BigInt(f[`${k}Raw`])));
      }
      expect(BigInt(f.pnlRaw)).toBe(BigInt(f.realisedPnlRaw) + BigInt(f.unrealisedPnlRaw));
    }
    expect(report.curve.length).toBeGreaterThan(2);
    const times = report.curve.map((p) => p.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(report.curve.at(-1)?.pnlRaw).toBe(report.total.pnlRaw);
    // The total's drawdown is the curve's largest fall from its running peak (from 0 at the start).
    let peak = 0n;
    let dd = 0n;
    for (const p of report.curve) {
      const v = BigInt(p.pnlRaw);
      if (v > peak) peak = v;
      if (peak - v > dd) dd = peak - v;
      expect(p.at).toBe(new Date(p.timestamp).toISOString());
    }
    expect(report.total.maxDrawdownRaw).toBe(dd.toString());
  });

  it('the account defaults to the one the credentials act as; --account and --profile together are refused; an unknown one is exit 4', async () => {
    const own = await pmAs('alice', '--json', 'sandbox', 'report');
    expect(own.code, own.stderr).toBe(0);
    expect(own.json<Report>().total).toEqual(report.total);
    const bob = await pmAs('alice', '--json', 'sandbox', 'report', '--account', 'bob');
    expect(bob.json<Report>().account).toEqual({ name: 'bob', profileId: 1002 });
    expect((await pmAs('alice', '--json', 'sandbox', 'report', '--account', 'mallory')).code).toBe(4);
    expect((await pmAs('alice', '--json', 'sandbox', 'report', '--account', '99999')).code).toBe(4);
    // A profile of its own (a PM_HOME of its own, no credentials in the environment).
    const own2 = tempHome();
    try {
      const env = { PM_HOME: own2.home };
      expect((await runPm(['--profile', 'rp', 'config', 'set', 'base-url', sb.current.baseUrl], { env })).code).toBe(0);
      expect((await runPm(['--json', '--profile', 'rp', 'sandbox', 'report', '--account', 'alice'], { env })).code).toBe(2);
      // No credentials and no stored profile id: whose report is not known, exit 2 with the way out.
      const none = await runPm(['--json', '--profile', 'rp', 'sandbox', 'report'], { env });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('--account');
      // --account needs no credentials at all.
      const named = await runPm(['--json', 'sandbox', 'report', '--account', 'carol'], {
        env: { ...env, PM_BASE_URL: sb.current.baseUrl },
      });
      expect(named.json<Report>().account).toEqual({ name: 'carol', profileId: 1004 });
    } finally {
      own2.cleanup();
    }
  });

  it('text: a table per market plus TOTAL; the chart on a terminal only, never when piped', async () => {
    const piped = await pmAs('alice', 'sandbox', 'report', '--account', 'alice');
    expect(piped.code, piped.stderr).toBe(0);
    const rows = piped.stdout.trim().split('\n');
    expect(rows[0]?.split('\t')).toEqual([
      'MARKET',
      'PRICE',
      'PLACED',
      'FILLED',
      'CANCELLED',
      'VOLUME',
      'FEES',
      'REALISED',
      'UNREALISED',
      'PNL',
      'MAX DD',
    ]);
    expect(rows.at(-1)?.startsWith('TOTAL\t')).toBe(true);
    expect(rows).toHaveLength(report.markets.length + 2);
    // Prices as every table prints them, three decimals at least (it printed 0.62 and 1).
    const prices = rows.slice(1, -1).map((r) => r.split('\t')[1]);
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(p).toMatch(/^\d+\.\d{3,6}( \(resolved\))?$/);
    expect(piped.stdout).not.toMatch(/[┤┼╯╰╭╮│─]/);
    const tty = await runPm(['sandbox', 'report', '--account', 'alice'], {
      env: accountEnv(sb.current, 'alice', home),
      tty: true,
      columns: 120,
    });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/┤/);
    expect(tty.stdout).toContain('TOTAL');
  });
});
