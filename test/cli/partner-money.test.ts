// Money on a child's behalf, end to end through `pm` against the real sandbox: a partner
// creates a server-wallet child, funds it, drives its allowances to ready, trades for it with
// delegated orders, the market resolves, and the partner withdraws and redeems for the child.
// Every balance is an exact raw bigint, read before and after each step (the child's and the
// partner's USDC, the child's shares from `pm portfolio positions --json`); every refusal is
// checked with its HTTP status, its exit code, and balances that did not move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { seeded } from '../helpers/account-env.js';
import { limitOrder, marketOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import type { RunResult } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';
import { addOtherPartner } from '../helpers/subaccount.js';
import { auditState } from '../../src/sandbox/engine.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

type Tok = { tokenId: string; secret: string };
const acct = (name: string) => seeded(sb.current, name);
const envFor = (tok: Tok, extra: Record<string, string> = {}) => ({
  PM_HOME: home,
  PM_BASE_URL: sb.current.baseUrl,
  PM_TOKEN_ID: tok.tokenId,
  PM_TOKEN_SECRET: tok.secret,
  PM_PACE: 'off',
  PM_PASSPHRASE: 'money-pass-123',
  PM_SCRYPT_N: '16',
  ...extra,
});
/** pm as the seeded partner (scopes trading, account_creation, delegated_signing, withdrawal). */
const pm = (...argv: string[]) => runPm(argv, { env: envFor(acct('partner').token) });
const pmAs = (tok: Tok, ...argv: string[]) => runPm(argv, { env: envFor(tok) });

/** The exact raw USDC a profile holds (the sandbox's books: what its wallet holds). */
const usdc = (id: number): bigint => sb.current.ctx.state.accounts[String(id)]?.usdc ?? 0n;
const locked = (id: number): bigint => sb.current.ctx.state.accounts[String(id)]?.lockedUsdc ?? 0n;
const PARTNER = (): number => acct('partner').profileId;

/** A --json failure: its exit code and the one error object on stderr (status included). */
function refusal(r: RunResult): { code: number; status: number | undefined; message: string } {
  expect(r.code, r.stdout).not.toBe(0);
  const e = JSON.parse(r.stderr) as { error: { status?: number; message: string } };
  return { code: r.code, status: e.error.status, message: e.error.message };
}

/** A server-wallet child of the partner, funded with `fund` raw USDC, allowances ready. */
async function readyChild(name: string, fund: bigint): Promise<{ id: number; sid: string; account: string }> {
  const c = await pm('--json', 'partner', 'create', '--server-wallet', '--name', name);
  expect(c.code, c.stderr).toBe(0);
  const { profileId: id, account } = c.json<{ profileId: number; account: string }>();
  const sid = String(id);
  expect(usdc(id)).toBe(0n);
  const f = await pm('--json', 'sandbox', 'fund', (Number(fund) / 1e6).toString(), '--to', sid);
  expect(f.code, f.stderr).toBe(0);
  expect(f.json()).toMatchObject({ profileId: id, wallet: account, amountRaw: fund.toString(), balanceRaw: fund.toString() });
  expect(usdc(id)).toBe(fund);
  const a = await pm('--json', 'partner', 'allowances', sid, '--retry', '--wait', '--wait-timeout', '20s');
  expect(a.code, a.stderr).toBe(0);
  expect(a.json()).toMatchObject({ ready: true, walletAddress: account });
  return { id, sid, account };
}

/** Shares of one outcome a child holds, raw, from the API's positions read on its behalf. */
async function sharesOf(sid: string, slug: string, outcome: 'YES' | 'NO'): Promise<bigint> {
  const r = await pm('--json', 'portfolio', 'positions', '--on-behalf-of', sid, '--market', slug);
  expect(r.code, r.stderr).toBe(0);
  const row = r.json<{ positions: { outcome: string; sharesRaw: string }[] }>().positions.find((p) => p.outcome === outcome);
  return BigInt(row?.sharesRaw ?? '0');
}

/** Another partner (its own profile and token): the partner's children are not its children. */
let other: Tok;

beforeAll(async () => {
  for (const [path, body] of [
    ['faults', { rateLimit: false }],
    ['allowances', { confirmAfterMs: 100, lockMs: 0, retryMax: 50, retryWindowMs: 1000, failures: [] }],
  ] as const) {
    expect(await postAdmin(sb.current, path, body)).toBe(200);
  }
  other = { tokenId: 'p2-money-token', secret: Buffer.from('p2-money-secret-for-tests-012345').toString('base64') };
  addOtherPartner(sb.current, 9301, other, ['trading', 'account_creation', 'delegated_signing', 'withdrawal']);
});

describe("withdraw and redeem on a child's behalf", () => {
  it('fund → allowances ready → delegated trade → resolve → withdraw and redeem, every raw balance exact', async () => {
    const FUND = 100_000_000n;
    const { id, sid, account } = await readyChild('money-flow', FUND);
    const slug = 'btc-100k-2026';

    // The child buys YES with 10 USDC (FOK, delegated: the server signs with the child's wallet).
    const o = await pm('--json', ...marketOrder(slug, 'buy', 'yes', 'fok', '10'), '--on-behalf-of', sid, '--delegated');
    expect(o.code, o.stderr).toBe(0);
    const fill = o.json<{ matched: boolean; filled: { sharesRaw: string; usdRaw: string; feeRaw: string; netRaw: string } }>();
    expect(fill.matched).toBe(true);
    const bought = BigInt(fill.filled.sharesRaw);
    const spent = BigInt(fill.filled.netRaw);
    expect(spent).toBe(BigInt(fill.filled.usdRaw) + BigInt(fill.filled.feeRaw));
    expect(bought).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(10_300_000n); // 10 USDC + at most the 3 % fee
    expect(usdc(id)).toBe(FUND - spent);
    expect(await sharesOf(sid, slug, 'YES')).toBe(bought);
    const afterTrade = FUND - spent;

    // Withdraw 5 USDC on its behalf, no destination: the partner's default (its account address).
    const partner0 = usdc(PARTNER());
    const w = await pm('--json', '--yes', 'withdraw', '5', '--on-behalf-of', sid);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json()).toMatchObject({ amount: '5', amountRaw: '5000000', walletAddress: account, destination: acct('partner').address });
    expect(usdc(id)).toBe(afterTrade - 5_000_000n);
    // The partner trades from its account address: the 5 USDC arrive there, exactly.
    expect(usdc(PARTNER())).toBe(partner0 + 5_000_000n);

    // Redeem before resolution: refused (400, exit 9), nothing moves.
    const early = refusal(await pm('--json', 'redeem', slug, '--on-behalf-of', sid));
    expect(early).toMatchObject({ code: 9, status: 400 });
    expect(early.message).toMatch(/not resolved/);

    // Resolved YES but the payout is not posted on chain yet: still refused (exit 9).
    const pending = await pm('--json', 'sandbox', 'resolve', slug, 'yes', '--payout-pending');
    expect(pending.code, pending.stderr).toBe(0);
    const notYet = refusal(await pm('--json', 'redeem', slug, '--on-behalf-of', sid));
    expect(notYet).toMatchObject({ code: 9, status: 400 });
    expect(notYet.message).toMatch(/not redeemable yet/);
    expect(usdc(id)).toBe(afterTrade - 5_000_000n);

    // Payout posted: the redemption pays 1 USDC (1000000 raw) per winning share, to the child.
    expect((await pm('--json', 'sandbox', 'resolve', slug, 'yes')).code).toBe(0);
    const before = usdc(id);
    const rd = await pm('--json', 'redeem', slug, '--on-behalf-of', sid);
    expect(rd.code, rd.stderr).toBe(0);
    expect(rd.json()).toMatchObject({ market: slug, status: 'redeemed', payoutRaw: bought.toString() });
    expect(usdc(id)).toBe(before + bought);
    expect(usdc(id)).toBe(FUND - spent - 5_000_000n + bought);
    expect(await sharesOf(sid, slug, 'YES')).toBe(0n);
    expect(usdc(PARTNER())).toBe(partner0 + 5_000_000n); // the payout stays with the child

    // Twice: 409, exit 5, nothing paid again.
    const twice = refusal(await pm('--json', 'redeem', slug, '--on-behalf-of', sid));
    expect(twice).toMatchObject({ code: 5, status: 409 });
    expect(twice.message).toMatch(/Already redeemed/);
    expect(usdc(id)).toBe(before + bought);

    // Withdraw everything that is left: the child is empty afterwards.
    const rest = usdc(id);
    const all = await pm('--json', '--yes', 'withdraw', (Number(rest) / 1e6).toFixed(6), '--on-behalf-of', sid);
    expect(all.code, all.stderr).toBe(0);
    expect(all.json()).toMatchObject({ amountRaw: rest.toString() });
    expect(usdc(id)).toBe(0n);
    expect(usdc(PARTNER())).toBe(partner0 + 5_000_000n + rest);

    // The child's history on its behalf: deposit, trade, withdraw, claim, withdraw.
    const h = await pm('--json', 'portfolio', 'history', '--on-behalf-of', sid);
    expect(h.code, h.stderr).toBe(0);
    const entries = h.json<{ strategy: string; collateralAmount: string; transactionHash: string }[]>();
    expect(entries.map((e) => [e.strategy, e.collateralAmount])).toEqual([
      ['Withdraw', rest.toString()],
      ['Claim', bought.toString()],
      ['Withdraw', '5000000'],
      ['Buy', fill.filled.usdRaw],
      ['Deposit', FUND.toString()],
    ]);
    // The partner's own history books both withdrawals as deposits, under the same transactions.
    const ph = await pm('--json', 'portfolio', 'history', '--limit', '5');
    expect(ph.code, ph.stderr).toBe(0);
    const deposits = ph
      .json<{ strategy: string; collateralAmount: string; transactionHash: string }[]>()
      .filter((e) => e.strategy === 'Deposit');
    expect(deposits.slice(0, 2)).toEqual([
      expect.objectContaining({ collateralAmount: rest.toString(), transactionHash: entries[0]?.transactionHash }),
      expect.objectContaining({ collateralAmount: '5000000', transactionHash: entries[2]?.transactionHash }),
    ]);
    expect(auditState(sb.current.ctx.state)).toEqual([]);
  });

  it("destination rules: the partner's own address or its allowlist; never the child's wallet or a stranger", async () => {
    const { id, sid, account } = await readyChild('money-dest', 20_000_000n);
    const partner0 = usdc(PARTNER());
    const stranger = acct('bob').address;
    const bob0 = usdc(acct('bob').profileId);

    // A stranger's address (bob): 403, exit 3, nothing moves.
    const toBob = refusal(await pm('--json', '--yes', 'withdraw', '1', '--on-behalf-of', sid, '--to', stranger));
    expect(toBob).toMatchObject({ code: 3, status: 403 });
    expect(toBob.message).toMatch(/not allowed/);
    // The child's own wallet, the one the USDC would leave: pm says so before sending (exit 2), and
    // its hint does not send the partner to the allowlist (the exchange refuses that wallet even listed).
    const toChild = await pm('--json', '--yes', 'withdraw', '1', '--on-behalf-of', sid, '--to', account);
    expect(toChild.code, toChild.stderr).toBe(2);
    const childError = (JSON.parse(toChild.stderr) as { error: { message: string; hint?: string } }).error;
    expect(childError.message).toMatch(new RegExp(`${account}.*sub-account ${sid}'s own wallet.*nothing was sent`, 'i'));
    expect(childError.hint).toMatch(/Leave out --to/);
    expect(childError.hint).not.toMatch(/withdrawal-address add/);
    const text = await pm('--yes', 'withdraw', '1', '--on-behalf-of', sid, '--to', account.toLowerCase());
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^hint: Leave out --to/m);
    expect(usdc(id)).toBe(20_000_000n);
    expect(usdc(acct('bob').profileId)).toBe(bob0);
    expect(usdc(PARTNER())).toBe(partner0);

    // The partner's own address, explicitly: allowed, and credited to the partner.
    const own = await pm('--json', '--yes', 'withdraw', '1.5', '--on-behalf-of', sid, '--to', acct('partner').address);
    expect(own.code, own.stderr).toBe(0);
    expect(own.json()).toMatchObject({ amount: '1.5', amountRaw: '1500000', destination: acct('partner').address });
    expect(usdc(id)).toBe(18_500_000n);
    expect(usdc(PARTNER())).toBe(partner0 + 1_500_000n);

    // A cold wallet: refused until it is on the PARTNER's allowlist (identity token), then allowed.
    const cold = getAddress('0x000000000000000000000000000000000000c01d');
    const notListed = refusal(await pm('--json', '--yes', 'withdraw', '2', '--on-behalf-of', sid, '--to', cold));
    expect(notListed).toMatchObject({ code: 3, status: 403 });
    expect(notListed.message).toMatch(/partner's \(profile \d+\) withdrawal allowlist/);
    const add = await runPm(['--json', 'withdrawal-address', 'add', cold, '--label', 'cold'], {
      env: envFor(acct('partner').token, { PM_IDENTITY_TOKEN: acct('partner').identityToken }),
    });
    expect(add.code, add.stderr).toBe(0);
    const toCold = await pm('--json', '--yes', 'withdraw', '2', '--on-behalf-of', sid, '--to', cold);
    expect(toCold.code, toCold.stderr).toBe(0);
    expect(toCold.json()).toMatchObject({ amount: '2', amountRaw: '2000000', destination: cold, walletAddress: account });
    expect(usdc(id)).toBe(16_500_000n);
    expect(usdc(PARTNER())).toBe(partner0 + 1_500_000n); // an outside wallet: the partner is not credited

    // --dry-run shows the exact wire body and sends nothing.
    const dry = await pm('--json', 'withdraw', '0.000001', '--on-behalf-of', sid, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toEqual({ method: 'POST', path: '/portfolio/withdraw', body: { amount: '1', onBehalfOf: id } });
    expect(usdc(id)).toBe(16_500_000n);
  });

  it("refusals: insufficient balance (exit 9), another partner's child and a trader's token (exit 3), an EOA child (exit 9)", async () => {
    const { id, sid } = await readyChild('money-refuse', 10_000_000n);
    const partner0 = usdc(PARTNER());

    // More than it holds: 400, exit 9, the available amount in the message, nothing moves.
    const over = refusal(await pm('--json', '--yes', 'withdraw', '10.000001', '--on-behalf-of', sid));
    expect(over).toMatchObject({ code: 9, status: 400 });
    expect(over.message).toMatch(/Insufficient balance: .* \(10000000 raw\), asked 10\.000001 \(10000001 raw\)/);
    expect(usdc(id)).toBe(10_000_000n);

    // Collateral locked by an open order is not available: a resting delegated BUY of 10 at 0.10
    // locks 1 USDC (+ fee), so withdrawing the whole 10 is refused, and the free part is not.
    const gtc = await pm('--json', ...limitOrder('fed-cut-december', 'buy', 'yes', '0.1', '10'), '--on-behalf-of', sid, '--delegated');
    expect(gtc.code, gtc.stderr).toBe(0);
    const lock = locked(id);
    expect(lock).toBeGreaterThanOrEqual(1_000_000n);
    const lockedOut = refusal(await pm('--json', '--yes', 'withdraw', '10', '--on-behalf-of', sid));
    expect(lockedOut).toMatchObject({ code: 9, status: 400 });
    expect(lockedOut.message).toMatch(/locked by open orders/);
    expect(usdc(id)).toBe(10_000_000n);
    const free = 10_000_000n - lock;
    const freeOut = await pm('--json', '--yes', 'withdraw', (Number(free) / 1e6).toFixed(6), '--on-behalf-of', sid);
    expect(freeOut.code, freeOut.stderr).toBe(0);
    expect(usdc(id)).toBe(lock);
    expect(usdc(PARTNER())).toBe(partner0 + free);

    // Another partner: the child is not its sub-account (403, exit 3), for withdraw and redeem.
    const theirs = refusal(await pmAs(other, '--json', '--yes', 'withdraw', '0.5', '--on-behalf-of', sid));
    expect(theirs).toMatchObject({ code: 3, status: 403 });
    expect(theirs.message).toMatch(/not a sub-account/);
    const theirRedeem = refusal(await pmAs(other, '--json', 'redeem', 'eth-5k-2025', '--on-behalf-of', sid));
    expect(theirRedeem).toMatchObject({ code: 3, status: 403 });
    expect(theirRedeem.message).toMatch(/not a sub-account/);

    // A trader's token: alice's (trading only) lacks the withdrawal scope; carol's has it, but the
    // child is not hers. Both 403, exit 3; redeem with alice's token is refused as not hers.
    const alice = refusal(await pmAs(acct('alice').token, '--json', '--yes', 'withdraw', '0.5', '--on-behalf-of', sid));
    expect(alice).toMatchObject({ code: 3, status: 403 });
    expect(alice.message).toMatch(/scope: withdrawal/);
    const carol = refusal(await pmAs(acct('carol').token, '--json', '--yes', 'withdraw', '0.5', '--on-behalf-of', sid));
    expect(carol).toMatchObject({ code: 3, status: 403 });
    expect(carol.message).toMatch(/not a sub-account/);
    const aliceRedeem = refusal(await pmAs(acct('alice').token, '--json', 'redeem', 'eth-5k-2025', '--on-behalf-of', sid));
    expect(aliceRedeem).toMatchObject({ code: 3, status: 403 });
    expect(usdc(id)).toBe(lock);

    // An EOA child holds its own funds: the exchange has no server wallet to withdraw from.
    const eoa = await pm('--json', 'partner', 'create', '--name', 'money-eoa');
    expect(eoa.code, eoa.stderr).toBe(0);
    const eoaId = eoa.json<{ profileId: number }>().profileId;
    expect((await pm('--json', 'sandbox', 'fund', '3', '--to', String(eoaId))).code).toBe(0);
    const noWallet = refusal(await pm('--json', '--yes', 'withdraw', '1', '--on-behalf-of', String(eoaId)));
    expect(noWallet).toMatchObject({ code: 9, status: 400 });
    expect(noWallet.message).toMatch(/no managed server wallet/);
    expect(usdc(eoaId)).toBe(3_000_000n);

    // Bad input exits 2 before any request.
    expect((await pm('--yes', 'withdraw', '1', '--on-behalf-of', '0')).code).toBe(2);
    expect((await pm('--yes', 'withdraw', '-1', '--on-behalf-of', sid)).code).toBe(2);
    expect((await pm('--yes', 'withdraw', '0.0000001', '--on-behalf-of', sid)).code).toBe(2);
    // --wait-timeout goes through the one duration parser (src/core/duration.ts): units, bounds.
    for (const bad of ['soon', '0', '2h', '1.5']) {
      const r = await pm('partner', 'allowances', sid, '--wait', '--wait-timeout', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--wait-timeout must be/);
    }
    expect(usdc(id)).toBe(lock);
    expect(usdc(PARTNER())).toBe(partner0 + free);
  });
});
