// pm balance against the real sandbox (issue 33 #1): USDC held, locked by open orders (summed from
// them) and free; shares held and locked by open SELLs; for the profile's account and a
// sub-account. The truth is the sandbox's own ledger (state.accounts), never pm's output.
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { addSubAccount } from '../helpers/subaccount.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

type Who = 'alice' | 'bob' | 'partner';
const env = (name: Who, extra: Record<string, string> = {}) => accountEnv(sb.current, name, home, { PM_PACE: 'off', ...extra });
const pmAs = (name: Who, ...argv: string[]) => runPm(argv, { env: env(name) });
const account = (id: number) => {
  const a = sb.current.ctx.state.accounts[String(id)];
  if (!a) throw new Error(`no account ${id}`);
  return a;
};

/** A decimal string of USDC or shares as raw units (6 decimals). */
const raw = (decimal: string): bigint => {
  const [w = '', f = ''] = decimal.split('.');
  expect(decimal).toMatch(/^\d+(\.\d{1,6})?$/);
  return BigInt(w) * 1_000_000n + BigInt(f.padEnd(6, '0'));
};

interface Amount {
  held: string;
  heldRaw: string;
  locked: string;
  lockedRaw: string;
  free: string;
  freeRaw: string;
}
interface BalanceJson {
  profileId: number;
  source: string;
  usdc: Amount;
  markets?: { market: string; lockedRaw: string; orders: number }[];
  positions: (Amount & { market: string; outcome: string; tokenId: string })[];
}

async function balance(name: Who, ...extra: string[]): Promise<BalanceJson> {
  const r = await pmAs(name, '--json', 'balance', ...extra);
  expect(r.code, r.stderr).toBe(0);
  return r.json<BalanceJson>();
}

/** held = free + locked, each equal to the sandbox's ledger, to the raw unit; shares likewise. */
function expectLedger(b: BalanceJson, id: number): void {
  const a = account(id);
  expect(b.profileId).toBe(id);
  expect(BigInt(b.usdc.heldRaw)).toBe(a.usdc);
  expect(BigInt(b.usdc.lockedRaw)).toBe(a.lockedUsdc);
  expect(BigInt(b.usdc.freeRaw) + BigInt(b.usdc.lockedRaw)).toBe(BigInt(b.usdc.heldRaw));
  expect(raw(b.usdc.held)).toBe(BigInt(b.usdc.heldRaw));
  expect(raw(b.usdc.free)).toBe(BigInt(b.usdc.freeRaw));
  for (const p of b.positions) {
    const pos = a.positions[p.tokenId];
    expect(BigInt(p.heldRaw), `${p.market} ${p.outcome}`).toBe(pos?.shares ?? 0n);
    expect(BigInt(p.lockedRaw), `${p.market} ${p.outcome}`).toBe(pos?.locked ?? 0n);
    expect(BigInt(p.freeRaw) + BigInt(p.lockedRaw)).toBe(BigInt(p.heldRaw));
  }
  const heldTokens = Object.entries(a.positions).filter(([, p]) => p.shares > 0n || p.locked > 0n);
  expect(b.positions.length).toBeGreaterThanOrEqual(heldTokens.length);
}

describe('pm balance', () => {
  it("bob's seeded quotes: USDC locked by his BUYs and shares by his SELLs, per market with --by-market", async () => {
    const bob = seeded(sb.current, 'bob').profileId;
    const b = await balance('bob', '--by-market');
    expect(b.source).toBe('exchange');
    expectLedger(b, bob);
    expect(BigInt(b.usdc.lockedRaw)).toBeGreaterThan(0n);
    const byMarket = b.markets ?? [];
    expect(byMarket.length).toBeGreaterThan(1);
    expect(byMarket.reduce((s, m) => s + BigInt(m.lockedRaw), 0n)).toBe(BigInt(b.usdc.lockedRaw));
    const t = await pmAs('bob', 'balance', '--by-market');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/held/i);
    expect(t.stdout).toContain('btc-100k-2026');
  });

  it('--by-market with markets named: the lock table holds those markets only', async () => {
    const all = (await balance('bob', '--by-market')).markets ?? [];
    const [one, other] = all;
    expect(one && other, 'bob quotes in two markets at least').toBeTruthy();
    if (!one || !other) return;
    const b = await balance('bob', one.market, '--by-market');
    expect(b.markets).toEqual([one]);
    expect(b.positions.every((p) => p.market === one.market)).toBe(true);
    const t = await pmAs('bob', 'balance', one.market, '--by-market');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain(one.market);
    expect(t.stdout).not.toContain(other.market);
  });

  it('held = free + locked to the raw unit after orders are placed, filled and cancelled', async () => {
    const alice = seeded(sb.current, 'alice').profileId;
    expectLedger(await balance('alice'), alice);
    // A resting BUY locks ceil(size × price).
    const rest = await pmAs(
      'alice',
      '--json',
      'order',
      'place',
      'btc-100k-2026',
      'buy',
      'yes',
      '--price',
      '0.013',
      '--size',
      '77',
      '--client-id',
      'bal-rest-1',
    );
    expect(rest.code, rest.stderr).toBe(0);
    let b = await balance('alice');
    expectLedger(b, alice);
    expect(BigInt(b.usdc.lockedRaw)).toBe(1_001_000n);
    // A fill takes USDC and gives shares.
    const fill = await pmAs(
      'alice',
      '--json',
      'order',
      'place',
      'btc-100k-2026',
      'buy',
      'yes',
      '--type',
      'fak',
      '--price',
      '0.99',
      '--size',
      '10',
    );
    expect(fill.code, fill.stderr).toBe(0);
    b = await balance('alice');
    expectLedger(b, alice);
    const yes = b.positions.find((p) => p.market === 'btc-100k-2026' && p.outcome === 'YES');
    expect(yes?.heldRaw).toBe('10000000');
    // A resting SELL locks shares.
    const sell = await pmAs(
      'alice',
      '--json',
      'order',
      'place',
      'btc-100k-2026',
      'sell',
      'yes',
      '--price',
      '0.99',
      '--size',
      '4',
      '--client-id',
      'bal-sell-1',
    );
    expect(sell.code, sell.stderr).toBe(0);
    b = await balance('alice', 'btc-100k-2026');
    expectLedger(b, alice);
    expect(b.positions.find((p) => p.outcome === 'YES')?.lockedRaw).toBe('4000000');
    // Cancelling releases both.
    const cancel = await pmAs('alice', '--json', 'order', 'cancel', '--all', 'btc-100k-2026');
    expect(cancel.code, cancel.stderr).toBe(0);
    b = await balance('alice');
    expectLedger(b, alice);
    expect(b.usdc.lockedRaw).toBe('0');
    expect(b.usdc.freeRaw).toBe(b.usdc.heldRaw);
  });

  it('a BUY refused for insufficient collateral says how much is free and how much the order needs (exit 9)', async () => {
    const alice = seeded(sb.current, 'alice').profileId;
    const free = account(alice).usdc - account(alice).lockedUsdc;
    const r = await pmAs('alice', 'order', 'place', 'gpt-6-release-2026', 'buy', 'yes', '--price', '0.5', '--size', '100000');
    expect(r.code, r.stderr).toBe(9);
    expect(r.stderr).toContain('Insufficient collateral balance');
    const m = /: ([\d.]+) USDC free, this order needs ([\d.]+) USDC \(plus up to ([\d.]+) USDC taker fee\)/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(raw(m?.[1] ?? '')).toBe(free);
    expect(raw(m?.[2] ?? '')).toBe(50_000n * 1_000_000n);
    expect(raw(m?.[3] ?? '')).toBe(1_500n * 1_000_000n); // alice pays 300 bps as a taker
  });

  it('--on-behalf-of a sub-account: its own USDC and orders, not the partner’s', async () => {
    const partner = seeded(sb.current, 'partner').profileId;
    const child = addSubAccount(sb.current, partner, 700n);
    const b = await runPm(['--json', 'balance', '--on-behalf-of', String(child.profileId)], { env: env('partner') });
    expect(b.code, b.stderr).toBe(0);
    const j = b.json<BalanceJson>();
    expectLedger(j, child.profileId);
    expect(j.usdc.heldRaw).toBe('700000000');
  });

  it('whoami shows the free USDC', async () => {
    const alice = seeded(sb.current, 'alice').profileId;
    const r = await pmAs('alice', '--json', 'whoami');
    expect(r.code, r.stderr).toBe(0);
    const a = account(alice);
    expect(r.json<{ usdc: { freeRaw: string } }>().usdc.freeRaw).toBe(String(a.usdc - a.lockedUsdc));
    const t = await pmAs('alice', 'whoami');
    expect(t.stdout).toMatch(/USDC free/);
  });

  it('the library: funds.balance() gives the same figures', async () => {
    const a = seeded(sb.current, 'alice');
    const pm = createClient({
      home,
      baseUrl: sb.current.baseUrl,
      privateKey: a.privateKey,
      token: { tokenId: a.token.tokenId, secret: a.token.secret },
    });
    try {
      const b = await pm.funds.balance();
      const acct = account(a.profileId);
      expect(b.usdc.heldRaw).toBe(String(acct.usdc));
      expect(b.usdc.lockedRaw).toBe(String(acct.lockedUsdc));
    } finally {
      await pm.close();
    }
  });
});
