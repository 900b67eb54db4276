// Portfolio and money through the CLI against the real sandbox. Expected numbers are worked out
// here from the fills (bob quotes 100/200/300 shares one, two and three ticks of 0.01 around
// each market's fair price; alice pays 300 bps on taker fills, makers pay nothing), with average
// cost basis: a sale takes cost × sold / held out of the position and realises the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const ONE = 1_000_000n;
const FEE_BPS = 300n;
type Who = 'alice' | 'bob' | 'carol' | 'partner';
const acct = (name: Who) => seeded(sb.current, name);
const env = (name: Who, extra: Record<string, string> = {}) => accountEnv(sb.current, name, home, extra);
const pmAs = (name: Who, ...argv: string[]) => runPm(argv, { env: env(name) });
/** `pm --json order place MARKET SIDE yes --type fak --price P --size S` as `name`. */
const fakYes = (name: Who, market: string, side: 'buy' | 'sell', price: string, size: string) =>
  pmAs(name, '--json', 'order', 'place', market, side, 'yes', '--type', 'fak', '--price', price, '--size', size);
/** `pm --json order place MARKET buy yes --price P --size S --client-id C` as alice: an order that rests. */
const restBuyYes = (market: string, price: string, size: string, clientId: string) =>
  pmAs('alice', '--json', 'order', 'place', market, 'buy', 'yes', '--price', price, '--size', size, '--client-id', clientId);
const usdc = (id: number) => sb.current.ctx.state.accounts[String(id)]?.usdc ?? 0n;

interface Row {
  market: string;
  outcome: 'YES' | 'NO';
  group: string | null;
  sharesRaw: string;
  costRaw: string;
  avgPriceRaw: string;
  valueRaw: string;
  unrealisedPnlRaw: string;
  realisedPnlRaw: string;
  lockedCollateralRaw: string;
  openOrders: number;
  redeemable: boolean;
}

async function positions(name: Who): Promise<{ positions: Row[]; totals: Record<string, string> }> {
  const r = await pmAs(name, '--json', 'portfolio', 'positions');
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

async function row(name: Who, market: string, outcome: 'YES' | 'NO' = 'YES'): Promise<Row> {
  const p = (await positions(name)).positions.find((x) => x.market === market && x.outcome === outcome);
  if (!p) throw new Error(`no ${outcome} position in ${market}`);
  return p;
}

/** What the row must say for `shares` held at `cost`, realised `realised`, marked at `mark`. */
function expectRow(r: Row, shares: bigint, cost: bigint, realised: bigint, mark: bigint): void {
  const value = (shares * mark) / ONE;
  expect({
    shares: r.sharesRaw,
    cost: r.costRaw,
    avg: r.avgPriceRaw,
    value: r.valueRaw,
    unrealised: r.unrealisedPnlRaw,
    realised: r.realisedPnlRaw,
  }).toEqual({
    shares: shares.toString(),
    cost: cost.toString(),
    avg: shares > 0n ? ((cost * ONE) / shares).toString() : '0',
    value: value.toString(),
    unrealised: (value - cost).toString(),
    realised: realised.toString(),
  });
}

const fee = (usd: bigint): bigint => (usd * FEE_BPS) / 10_000n;

// Not a pacing test: a loaded machine must not turn a command's GET + POST into a 429.
beforeAll(async () => {
  await postAdmin(sb.current, 'faults', { rateLimit: false });
});

describe('pm portfolio positions', () => {
  it('a FAK across two levels, then a sell that realises PnL (sol-500-2026: asks 0.23/0.24, bids 0.21)', async () => {
    const buy = await fakYes('alice', 'sol-500-2026', 'buy', '0.24', '150');
    expect(buy.code, buy.stderr).toBe(0);
    // 100 @ 0.23 + 50 @ 0.24
    const gross = (100n * ONE * 230_000n) / ONE + (50n * ONE * 240_000n) / ONE;
    const cost = gross + fee(gross);
    expectRow(await row('alice', 'sol-500-2026'), 150n * ONE, cost, 0n, 240_000n);

    const sell = await fakYes('alice', 'sol-500-2026', 'sell', '0.21', '50');
    expect(sell.code, sell.stderr).toBe(0);
    const proceedsGross = (50n * ONE * 210_000n) / ONE;
    const proceeds = proceedsGross - fee(proceedsGross);
    const costOut = (cost * 50n) / 150n;
    expectRow(await row('alice', 'sol-500-2026'), 100n * ONE, cost - costOut, proceeds - costOut, 210_000n);
  });

  it('a GTC filled in two parts: locked collateral and open orders between, average cost after', async () => {
    // gpt-6-release-2026 (fair 0.35): alice rests BUY YES 20 @ 0.345 between bob's 0.34 bid and 0.36 ask
    const place = await restBuyYes('gpt-6-release-2026', '0.345', '20', 'pf-gtc');
    expect(place.code, place.stderr).toBe(0);
    const first = await fakYes('bob', 'gpt-6-release-2026', 'sell', '0.345', '8');
    expect(first.code, first.stderr).toBe(0);
    const mid = await row('alice', 'gpt-6-release-2026');
    expectRow(mid, 8n * ONE, 2_760_000n, 0n, 345_000n); // maker: 8 × 0.345, no fee
    expect(mid.openOrders).toBe(1);
    expect(mid.lockedCollateralRaw).toBe(((12n * ONE * 345_000n + ONE - 1n) / ONE).toString()); // ceil(12 × 0.345)
    const second = await fakYes('bob', 'gpt-6-release-2026', 'sell', '0.345', '12');
    expect(second.code, second.stderr).toBe(0);
    const done = await row('alice', 'gpt-6-release-2026');
    expectRow(done, 20n * ONE, 6_900_000n, 0n, 345_000n);
    expect(done.openOrders).toBe(0);
    expect(done.lockedCollateralRaw).toBe('0');
  });

  it('a NegRisk child shows up with its group (us-election-2028-other: ask 0.06)', async () => {
    const r = await fakYes('alice', 'us-election-2028-other', 'buy', '0.06', '10');
    expect(r.code, r.stderr).toBe(0);
    const gross = 600_000n;
    const p = await row('alice', 'us-election-2028-other');
    expect(p.group).toBe('us-election-2028');
    expectRow(p, 10n * ONE, gross + fee(gross), 0n, 60_000n);
    const filtered = await pmAs('alice', '--json', 'positions', '--market', 'us-election-2028');
    expect(filtered.json<{ positions: Row[] }>().positions.map((x) => x.market)).toEqual(['us-election-2028-other']);
    // A market that does not exist is not "no positions": exit 4, as elsewhere (it printed "(no positions)", exit 0).
    const typo = await pmAs('alice', '--json', 'positions', '--market', 'us-electon-2028');
    expect(typo.code).toBe(4);
  });

  it("--on-behalf-of reads a sub-account's positions, and refuses a profile that is not a child", async () => {
    const { addSubAccount } = await import('../helpers/subaccount.js');
    const child = addSubAccount(sb.current, 1003, 0n);
    const own = await pmAs('partner', '--json', 'portfolio', 'positions', '--on-behalf-of', String(child.profileId));
    expect(own.code, own.stderr).toBe(0);
    expect(own.json<{ positions: Row[] }>().positions).toEqual([]);
    const stranger = await pmAs('partner', '--json', 'portfolio', 'positions', '--on-behalf-of', '1001');
    expect(stranger.code).toBe(3);
  });

  it('totals add up the rows; the seeded resolved position is redeemable', async () => {
    const p = await positions('alice');
    const sum = (k: keyof Row) => p.positions.reduce((a, r) => a + BigInt(r[k] as string), 0n).toString();
    expect(p.totals['costRaw']).toBe(sum('costRaw'));
    expect(p.totals['valueRaw']).toBe(sum('valueRaw'));
    expect(p.totals['realisedPnlRaw']).toBe(sum('realisedPnlRaw'));
    const eth = p.positions.find((r) => r.market === 'eth-5k-2025');
    expect(eth?.redeemable).toBe(true);
    const only = await pmAs('alice', '--json', 'portfolio', 'positions', '--redeemable');
    expect(only.json<{ positions: Row[] }>().positions.every((r) => r.redeemable)).toBe(true);
    const table = await pmAs('alice', 'portfolio', 'positions');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/TOTAL/);
  });
});

/** A piped table's rows as objects of its header's names (the TOTAL row included). */
function tableRows(text: string): Record<string, string>[] {
  const [head = '', ...rows] = text.trimEnd().split('\n');
  const names = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [names[i] ?? String(i), v])));
}

describe('the portfolio tables on a terminal', () => {
  it('group thousands in money and share amounts, as balance and the market tables do', async () => {
    // bob's seeded positions are worth thousands (5000 shares each; their values move with the
    // other tests' trades, so only the form is checked).
    const tty = (argv: string[]) => runPm(argv, { env: env('bob'), tty: true, columns: 200 });
    const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
    const positions = plain((await tty(['portfolio', 'positions'])).stdout);
    expect(positions).toMatch(/\s\d,\d{3}\s/); // shares, e.g. 5,000
    expect(positions).toMatch(/\s\d{1,3}(,\d{3})+\.\d{2}\s/); // dollars, e.g. 3,100.00
    expect(positions).not.toMatch(/\b\d{4,}\.\d{2}\b/);
    const positionsTop = plain((await tty(['positions'])).stdout);
    // (No amount of four digits or more ungrouped: a slug's year, btc-100k-2026, is no amount.)
    expect(positionsTop).not.toMatch(/\s[+-]?\d{4,}(\.\d+)?(?=\s|$)/m);
    expect(positionsTop).toMatch(/\s\+\d{1,3}(,\d{3})+\.\d{2}\s/);
  });
});

describe('the portfolio tables, piped', () => {
  it('print prices to three decimals at least and dollars to two, as every other table does', async () => {
    // btc-100k-2026 (asks 0.63/0.64/0.65) is alice's here only: 10 YES at 0.63, $6.30 and a fee of $0.189.
    const buy = await fakYes('alice', 'btc-100k-2026', 'buy', '0.63', '10');
    expect(buy.code, buy.stderr).toBe(0);
    const positions = await pmAs('alice', 'portfolio', 'positions');
    expect(positions.code, positions.stderr).toBe(0);
    const byMarket = new Map(tableRows(positions.stdout).map((r) => [r['MARKET'], r]));
    // (They printed 0.4 and 1, and 0.62 beside markets list's 0.620.)
    expect(byMarket.get('eth-5k-2025')).toMatchObject({ AVG: '0.400', COST: '60.00', PRICE: '1.000', VALUE: '150.00' });
    expect(byMarket.get('btc-100k-2026')).toMatchObject({ AVG: '0.6489', COST: '6.489' });
    for (const r of byMarket.values()) {
      if (r['MARKET'] === 'TOTAL') continue;
      expect(r['AVG'], r['MARKET']).toMatch(/^\d+\.\d{3,6}$/);
      expect(r['PRICE'], r['MARKET']).toMatch(/^\d+\.\d{3,6}$/);
    }
    const trades = await pmAs('alice', 'portfolio', 'trades');
    expect(trades.code, trades.stderr).toBe(0);
    const fills = tableRows(trades.stdout);
    // (USDC printed 6.3.)
    expect(fills.filter((r) => r['MARKET'] === 'btc-100k-2026')).toEqual([
      expect.objectContaining({ SHARES: '10', PRICE: '0.630', USDC: '6.30', FEE: '0.189' }),
    ]);
    for (const r of fills)
      expect([r['USDC'], r['FEE']], r['MARKET']).toEqual([
        expect.stringMatching(/^\d+\.\d{2,6}$/),
        expect.stringMatching(/^\d+\.\d{2,6}$/),
      ]);
    // The account's history and the market's feed, the same fill: $6.30 (they printed 6.3, and the deposit 10000).
    const history = await pmAs('alice', 'portfolio', 'history');
    expect(history.code, history.stderr).toBe(0);
    const entries = tableRows(history.stdout);
    expect(entries.find((r) => r['MARKET'] === 'btc-100k-2026')).toMatchObject({ WHAT: 'Buy', SHARES: '10', USDC: '6.30' });
    expect(entries.find((r) => r['WHAT'] === 'Deposit')?.['USDC']).toMatch(/^\d+\.\d{2}$/);
    const feed = await pmAs('alice', 'markets', 'feed', 'btc-100k-2026');
    expect(feed.code, feed.stderr).toBe(0);
    const events = tableRows(feed.stdout);
    expect(events.find((r) => r['USER'] === 'alice')).toMatchObject({ CONTRACTS: '10', USD: '6.30' });
    for (const r of events) expect(r['USD'], JSON.stringify(r)).toMatch(/^(\d+\.\d{2,6})?$/);
  });
});

describe('pm order list without --market', () => {
  it('lists open orders across markets', async () => {
    const a = await restBuyYes('world-cup-2026-brazil', '0.15', '5', 'everywhere-1');
    const b = await restBuyYes('eth-flip-btc', '0.05', '5', 'everywhere-2');
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const r = await pmAs('alice', '--json', 'order', 'list');
    expect(r.code, r.stderr).toBe(0);
    const list = r.json<{ clientOrderId: string; market: string; remainingRaw: string; status: string }[]>();
    expect(list.find((o) => o.clientOrderId === 'everywhere-1')).toMatchObject({
      market: 'world-cup-2026-brazil',
      remainingRaw: '5000000',
      status: 'LIVE',
    });
    expect(list.find((o) => o.clientOrderId === 'everywhere-2')).toMatchObject({ market: 'eth-flip-btc', status: 'LIVE' });
    expect(list.every((o) => o.status === 'LIVE')).toBe(true);
    const table = await pmAs('alice', 'order', 'list');
    expect(table.stdout).toMatch(/world-cup-2026-brazil/);
    expect(table.stdout).toMatch(/eth-flip-btc/);
  });
});

describe('pm withdraw', () => {
  const carolEnv = () => env('carol', { PM_IDENTITY_TOKEN: acct('carol').identityToken });
  const pmCarol = (...argv: string[]) => runPm(argv, { env: carolEnv() });

  it('sends exactly "1" for 0.000001 and "1000000000000000" for 1000000000, with balances before and after', async () => {
    const b0 = usdc(1004);
    const small = await pmCarol('--json', '--yes', 'withdraw', '0.000001', '--to', acct('carol').address);
    expect(small.code, small.stderr).toBe(0);
    expect(small.json<{ amount: string; amountRaw: string }>()).toMatchObject({ amount: '0.000001', amountRaw: '1' });
    expect(b0 - usdc(1004)).toBe(1n);

    const fund = await pmCarol('--json', 'sandbox', 'fund', '1000000000', '--to', '1004');
    expect(fund.code, fund.stderr).toBe(0);
    const b1 = usdc(1004);
    expect(b1 - (b0 - 1n)).toBe(1_000_000_000n * ONE);
    const dry = await pmCarol('--json', 'withdraw', '1000000000', '--dry-run');
    expect(dry.json<{ body: { amount: string } }>().body).toEqual({ amount: '1000000000000000' });
    expect(usdc(1004)).toBe(b1);
    const big = await pmCarol('--json', '--yes', 'withdraw', '1000000000');
    expect(big.code, big.stderr).toBe(0);
    expect(big.json<{ amount: string; amountRaw: string; destination: string }>()).toMatchObject({
      amount: '1000000000',
      amountRaw: '1000000000000000',
      destination: acct('carol').address,
    });
    expect(b1 - usdc(1004)).toBe(1_000_000_000_000_000n);
  });

  it('refuses bad amounts and destinations before sending (exit 2), and asks for --yes without a TTY', async () => {
    const b0 = usdc(1004);
    for (const amount of [
      '1.0000001',
      '0',
      '-1',
      '1e3',
      '1,000',
      '115792089237316195423570985008687907853269984665640564039457584007913.129639936',
      'abc',
    ]) {
      const r = await pmCarol('--yes', 'withdraw', '--', amount);
      expect(r.code, `${amount}: ${r.stderr}`).toBe(2);
    }
    const near = await pmCarol('--yes', 'withdraw', '1.0000001');
    expect(near.stderr).toMatch(/1\.000000/);
    expect((await pmCarol('--yes', 'withdraw', '1', '--to', '0x1234')).code).toBe(2);
    const checksum = await pmCarol('--yes', 'withdraw', '1', '--to', '0x000000000000000000000000000000000000DeAD');
    expect(checksum.code).toBe(2);
    expect(checksum.stderr).toMatch(/checksum/);
    expect(usdc(1004)).toBe(b0);
  });

  it('an address off the allowlist is refused by the exchange (exit 3) until added with the identity token', async () => {
    const dest = '0x000000000000000000000000000000000000bEEF';
    const b0 = usdc(1004);
    const refused = await pmCarol('--yes', 'withdraw', '2', '--to', dest);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/withdrawal-address add/);
    const noIdentity = await pmAs('carol', 'withdrawal-address', 'add', dest);
    expect(noIdentity.code).toBe(3);
    const add = await pmCarol('--json', 'withdrawal-address', 'add', dest, '--label', 'cold');
    expect(add.code, add.stderr).toBe(0);
    expect(add.json<{ destinationAddress: string; deletedAt: null }>()).toMatchObject({
      destinationAddress: dest,
      label: 'cold',
      deletedAt: null,
    });
    expect((await pmCarol('withdrawal-address', 'add', dest)).code).toBe(5);
    const list = await pmCarol('--json', 'withdrawal-address', 'list');
    expect(list.json<{ destinationAddress: string }[]>().map((e) => e.destinationAddress)).toContain(dest);
    const ok = await pmCarol('--json', '--yes', 'withdraw', '2', '--to', dest);
    expect(ok.code, ok.stderr).toBe(0);
    expect(b0 - usdc(1004)).toBe(2n * ONE);
    expect((await pmCarol('withdrawal-address', 'remove', dest)).code).toBe(0);
    expect((await pmCarol('--yes', 'withdraw', '2', '--to', dest)).code).toBe(3);
    const tooMuch = await pmCarol('--yes', 'withdraw', '999999999999', '--to', acct('carol').address);
    expect(tooMuch.code).toBe(9);
    expect(tooMuch.stderr).toMatch(/Insufficient balance/);
    expect(b0 - usdc(1004)).toBe(2n * ONE);
  });
});

describe('pm redeem', () => {
  it('resolve → redeem pays exactly the winning shares once; "not redeemable yet" before the payout', async () => {
    // alice buys 10 YES of fed-cut-december (fair 0.71, ask 0.72)
    const buy = await fakYes('alice', 'fed-cut-december', 'buy', '0.72', '10');
    expect(buy.code, buy.stderr).toBe(0);
    expect((await pmAs('alice', 'sandbox', 'resolve', 'fed-cut-december', 'yes', '--payout-pending')).code).toBe(0);
    const early = await pmAs('alice', 'redeem', 'fed-cut-december');
    expect(early.code).toBe(9);
    expect(early.stderr).toMatch(/not redeemable yet/);
    expect((await pmAs('alice', 'sandbox', 'resolve', 'fed-cut-december', 'yes')).code).toBe(0);
    const b0 = usdc(1001);
    const r = await pmAs('alice', '--json', 'redeem', 'fed-cut-december');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ status: string; payoutRaw: string }>()).toMatchObject({ status: 'redeemed', payoutRaw: '10000000' });
    expect(usdc(1001) - b0).toBe(10n * ONE);
    const again = await pmAs('alice', 'redeem', 'fed-cut-december');
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/Already redeemed/);
    expect(usdc(1001) - b0).toBe(10n * ONE);
    // its realised PnL: 10 USDC in, cost 7.2 + fee
    const p = await row('alice', 'fed-cut-december');
    const cost = 7_200_000n + fee(7_200_000n);
    expect(p.realisedPnlRaw).toBe((10n * ONE - cost).toString());
    expect(p.sharesRaw).toBe('0');
  });

  it('--all claims every redeemable position in a table (carol: the seeded resolved market)', async () => {
    const b0 = usdc(1004);
    const r = await pmAs('carol', '--json', 'redeem', '--all');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ market: string; status: string; payoutRaw: string }[]>()).toEqual([
      expect.objectContaining({ market: 'eth-5k-2025', status: 'redeemed', payoutRaw: '200000000' }),
    ]);
    expect(usdc(1004) - b0).toBe(200n * ONE);
    // Nothing left: found before anything is sent, exit 2 (issue 23), stdout empty.
    const none = await pmAs('carol', '--json', 'redeem', '--all');
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
  });
});

describe('pm portfolio history and pnl', () => {
  it('history --all -o ndjson streams over 500+ entries with no duplicate and no gap; --all --json is the same as one array', async () => {
    for (let i = 0; i < 520; i += 26) {
      await Promise.all(
        Array.from({ length: 26 }, (_, k) =>
          fetch(`${sb.current.baseUrl}/__sandbox/fund`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ profileId: 1003, amount: String(i + k + 1) }),
          }),
        ),
      );
    }
    const r = await runPm(['-o', 'ndjson', 'portfolio', 'history', '--all'], { env: { ...env('partner'), PM_PACE: 'off' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = ndjson<{ id: string; collateralAmount: string }>(r.stdout);
    const ids = lines.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    const ledgerLen = sb.current.ctx.state.ledger?.['1003']?.length ?? 0;
    expect(lines.length).toBe(ledgerLen); // partner has no grants: every ledger entry, once
    expect(
      lines
        .map((l) => Number(l.collateralAmount))
        .filter((a) => a <= 520)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 520 }, (_, i) => i + 1));
    // --json is one document whether or not --all follows every cursor (it was NDJSON with --all).
    const doc = await runPm(['--json', 'portfolio', 'history', '--all'], { env: { ...env('partner'), PM_PACE: 'off' } });
    expect(doc.json<{ id: string }[]>().map((l) => l.id)).toEqual(ids);
    const page = await pmAs('partner', '--json', 'portfolio', 'history', '--limit', '7');
    expect(page.json<unknown[]>()).toHaveLength(7);
    const future = await pmAs('partner', '--json', 'portfolio', 'history', '--since', '2999-01-01');
    expect(future.json<unknown[]>()).toEqual([]);
  });

  it('pnl --json prints the series and the realised total of the ledger', async () => {
    const r = await pmAs('bob', '--json', 'portfolio', 'pnl', '--timeframe', '1d');
    expect(r.code, r.stderr).toBe(0);
    const j = r.json<{ timeframe: string; points: { timestamp: number; value: string }[]; realisedRaw: string }>();
    expect(j.timeframe).toBe('1d');
    expect(j.points).toHaveLength(24);
    const p = await positions('bob');
    expect(j.realisedRaw).toBe(p.positions.reduce((a, x) => a + BigInt(x.realisedPnlRaw), 0n).toString());
    expect((await pmAs('bob', 'portfolio', 'pnl', '--timeframe', '2y')).code).toBe(2);
  });
});
