// pm partner create / list / allowances / onboard against the real sandbox: EOA and server
// wallet children, the allowance loop through 409 and 429 (both honoured), exit codes 2/3/4/5/6/7/9,
// delegated orders gated on readiness, the wizard in a pseudo-terminal and its flag-only form.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTypedData } from 'viem';
import { seeded } from '../helpers/account-env.js';
import { limitOrder, marketOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';
import { addOtherPartner } from '../helpers/subaccount.js';
import { KEY, runInPty } from '../helpers/pty.js';
import { Keystore } from '../../src/keystore/index.js';
import { ORDER_TYPES } from '../helpers/eip712.js';
import { retryAllowances } from '../../src/sandbox/partner/allowances.js';
import type { Hex } from '../../src/sandbox/types.js';

// The sandbox's own allowance provisioning (2 s after creation) is held off: these tests drive
// missing → ready with --retry themselves (test/cli/partner-provisioning.test.ts covers it).
const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 }, provisionDelayMs: 3_600_000 });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const acct = (name: string) => seeded(sb.current, name);
type Tok = { tokenId: string; secret: string };
const envFor = (tok: Tok, h = home) => ({
  PM_HOME: h,
  PM_BASE_URL: sb.current.baseUrl,
  PM_TOKEN_ID: tok.tokenId,
  PM_TOKEN_SECRET: tok.secret,
  PM_PASSPHRASE: 'partner-pass-123',
  PM_SCRYPT_N: '16',
  PM_PACE: 'off',
});
const pm = (...argv: string[]) => runPm(argv, { env: envFor(acct('partner').token) });
const admin = async (path: string, body: unknown) => {
  expect(await postAdmin(sb.current, path, body)).toBe(200);
};
const SIM = { confirmAfterMs: 100, lockMs: 0, retryMax: 50, retryWindowMs: 1000, failures: [] };

/** A raw signed allowance retry (another process of the partner, say). */
async function rawRetry(id: number): Promise<number> {
  const tok = acct('partner').token;
  const ts = new Date().toISOString();
  const target = `/profiles/partner-accounts/${id}/allowances/retry`;
  const sig = createHmac('sha256', Buffer.from(tok.secret, 'base64')).update(`${ts}\nPOST\n${target}\n{}`).digest('base64');
  const r = await fetch(`${sb.current.baseUrl}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lmts-api-key': tok.tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig },
    body: '{}',
  });
  return r.status;
}

async function serverChild(name: string): Promise<{ profileId: number; account: string }> {
  const r = await pm('--json', 'partner', 'create', '--server-wallet', '--name', name);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

beforeAll(async () => {
  await admin('faults', { rateLimit: false });
  await admin('allowances', SIM);
});

describe('pm partner create / list', () => {
  it('list --limit above the page size is a usage error (it was cut to 25 without a word)', async () => {
    const r = await pm('partner', 'list', '--limit', '26');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at most 25[\s\S]*--all/);
  });

  it('creates a server-wallet child and an EOA child (key into the keystore), and lists both', async () => {
    const sw = await pm('--json', 'partner', 'create', '--server-wallet', '--name', 'shop-1');
    expect(sw.code, sw.stderr).toBe(0);
    const s = sw.json<{ profileId: number; account: string; mode: string }>();
    expect(s).toMatchObject({ mode: 'server-wallet', displayName: 'shop-1' });
    const eoa = await pm('--json', 'partner', 'create', '--name', 'ada');
    expect(eoa.code, eoa.stderr).toBe(0);
    const e = eoa.json<{ profileId: number; account: string; wallet: string }>();
    expect(e.wallet).toMatch(/^child-[0-9a-f]{8}$/);
    expect(new Keystore(home).walletAddress(e.wallet)).toBe(e.account);
    expect(sb.current.ctx.state.profiles.find((p) => p.id === e.profileId)).toMatchObject({
      parentProfileId: acct('partner').profileId,
      address: e.account,
    });

    const list = await pm('--json', 'partner', 'list', '--all');
    expect(list.code).toBe(0);
    const items = list.json<{ profileId: number; serverWallet: boolean }[]>();
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ profileId: s.profileId, serverWallet: true }),
        expect.objectContaining({ profileId: e.profileId, serverWallet: false, displayName: 'ada' }),
      ]),
    );
    const one = await pm('--json', 'partner', 'list', '--account', e.account.toLowerCase());
    expect(one.json<unknown[]>()).toEqual([expect.objectContaining({ profileId: e.profileId })]);
    const human = await pm('partner', 'list');
    expect(human.stdout).toMatch(/server wallet/);
    expect(human.stdout).toMatch(/eoa/);
  });

  it('bad input exits 2 before any request', async () => {
    const before = sb.current.ctx.state.profiles.length;
    const long = await pm('partner', 'create', '--server-wallet', '--name', 'x'.repeat(45));
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/44/);
    const both = await pm('partner', 'create', '--server-wallet', '--wallet', 'w');
    expect(both.code).toBe(2);
    expect((await pm('partner', 'allowances', 'abc')).code).toBe(2);
    expect((await pm('partner', 'allowances', '0')).code).toBe(2);
    expect((await pm('partner', 'allowances', '-3')).code).toBe(2);
    const noTarget = await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '1', '--delegated');
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/--on-behalf-of/);
    expect(sb.current.ctx.state.profiles.length).toBe(before);
  });

  it('a missing scope exits 3 and names it; an existing address exits 5', async () => {
    const alice = await runPm(['partner', 'create', '--server-wallet'], { env: envFor(acct('alice').token) });
    expect(alice.code).toBe(3);
    expect(alice.stderr).toMatch(/account_creation/);
    const d = await fetch(`${sb.current.baseUrl}/auth/api-tokens/derive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', identity: `Bearer ${acct('partner').identityToken}` },
      body: JSON.stringify({ scopes: ['account_creation'] }),
    });
    const tok = (await d.json()) as Tok;
    const noDelegated = await runPm(['partner', 'create', '--server-wallet'], { env: envFor(tok) });
    expect(noDelegated.code).toBe(3);
    expect(noDelegated.stderr).toMatch(/delegated_signing/);
    const allowances = await runPm(['partner', 'allowances', '2001'], { env: envFor(tok) });
    expect(allowances.code).toBe(3);
    expect(allowances.stderr).toMatch(/delegated_signing/);

    await new Keystore(home, { scrypt: { n: 16, r: 8, p: 1 } }).importWalletKey('bob-key', acct('bob').privateKey, 'partner-pass-123');
    const existing = await pm('partner', 'create', '--wallet', 'bob-key');
    expect(existing.code).toBe(5);
    expect(existing.stderr).toMatch(/already exists/);
  });
});

describe('pm partner allowances', () => {
  it('drives missing → ready with --retry --wait through a 409 (backed off) and a 429 (its retryAfterSeconds waited out)', async () => {
    const child = await serverChild('wait-1');
    await admin('allowances', {
      ...SIM,
      lockMs: 300,
      retryMax: 2,
      retryWindowMs: 3000,
      failures: [{ label: 'ctf:negrisk-adapter', errorCode: 'PRIVY_SPONSORSHIP_UNAVAILABLE', retryable: true, times: 2 }],
      clearLog: true,
    });
    try {
      const show = await pm('--json', 'partner', 'allowances', String(child.profileId));
      expect(show.json<{ ready: boolean; summary: { missing: number } }>()).toMatchObject({ ready: false, summary: { missing: 5 } });
      // Another retry of the partner holds the wallet lock for 300 ms. The sandbox's own retry,
      // called in-process, takes the lock before it returns, so pm's retry cannot overtake it
      // however slowly this machine runs (over HTTP, the first to arrive would hold it).
      const other = retryAllowances(sb.current.ctx, child.profileId, child.account as Hex);
      const started = Date.now();
      // Without --json, so the progress lines reach stderr (with --json stderr carries only an error).
      const r = await pm('partner', 'allowances', String(child.profileId), '--retry', '--wait', '--wait-timeout', '20s');
      expect((await other).ok).toBe(true);
      expect(r.code, r.stderr).toBe(0);
      const after = await pm('--json', 'partner', 'allowances', String(child.profileId));
      expect(after.json<{ ready: boolean; summary: unknown }>()).toMatchObject({ ready: true, summary: { total: 5, confirmed: 5 } });
      expect(r.stderr).toMatch(/409: another retry is running/);
      expect(r.stderr).toMatch(/429: allowance retry rate limited; waiting \d s/);
      const log = (await (await fetch(`${sb.current.baseUrl}/__sandbox/allowances`)).json()) as {
        answered: { profileId: number; status: number; at: number }[];
      };
      const mine = log.answered.filter((a) => a.profileId === child.profileId);
      expect(mine.map((a) => a.status)).toEqual([409, 200, 200, 429, 200]); // answers in time order: the 409 comes back while the other retry still holds the lock
      // The retry after the 429 came no sooner than the retryAfterSeconds the exchange named.
      const asked = Number(/waiting (\d) s/.exec(r.stderr)?.[1]);
      expect(asked).toBeGreaterThanOrEqual(1);
      const t429 = mine[3]?.at ?? 0;
      const tNext = mine[4]?.at ?? 0;
      expect(tNext - t429).toBeGreaterThanOrEqual(asked * 1000 - 50);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await admin('allowances', SIM);
    }
  });

  it('exits 6 with the seconds asked when the rate limit outlasts the timeout, and 7 when not ready in time', async () => {
    const child = await serverChild('slow-1');
    await admin('allowances', {
      ...SIM,
      retryMax: 1,
      retryWindowMs: 9000,
      failures: [{ label: 'usdc:ctf-exchange', retryable: true, times: 1 }],
    });
    try {
      expect(await rawRetry(child.profileId)).toBe(200); // one target failed (retryable), the window is used up
      const r = await pm('partner', 'allowances', String(child.profileId), '--retry', '--wait', '--wait-timeout', '2s');
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/asked to wait (8|9) s/);
    } finally {
      await admin('allowances', SIM);
    }
    const slow = await serverChild('slow-2');
    await admin('allowances', { ...SIM, confirmAfterMs: 60_000 });
    try {
      const r = await pm('partner', 'allowances', String(slow.profileId), '--retry', '--wait', '--wait-timeout', '1s');
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/not ready within 1 s/);
    } finally {
      await admin('allowances', SIM);
    }
  });

  it("another partner's child is not found (exit 4); the table shows each target", async () => {
    const child = await serverChild('mine-1');
    const other: Tok = { tokenId: 'p2-token', secret: Buffer.from('p2-secret-for-tests-0123456789').toString('base64') };
    addOtherPartner(sb.current, 9201, other, ['trading', 'account_creation', 'delegated_signing']);
    const r = await runPm(['partner', 'allowances', String(child.profileId)], { env: envFor(other) });
    expect(r.code).toBe(4);
    const cancel = await runPm(['order', 'cancel', '--all', 'btc-100k-2026', '--on-behalf-of', String(child.profileId)], {
      env: envFor(other),
    });
    expect(cancel.code).toBe(3);
    const table = await pm('partner', 'allowances', String(child.profileId));
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/usdc:ctf-exchange\s.*USDC_ALLOWANCE\s.*BUY\s.*missing/);
  });
});

describe('delegated trading for a child', () => {
  it('is refused (exit 9) until allowances are ready; then the server signs with the child wallet; cancel on behalf', async () => {
    const child = await serverChild('trade-1');
    await admin('fund', { profileId: child.profileId, amount: '20000000' });
    const args = [...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '10'), '--on-behalf-of', String(child.profileId), '--delegated'];
    const early = await pm('--json', ...args);
    expect(early.code).toBe(9);
    expect(early.stderr).toMatch(/run the allowance check/);
    expect((await pm('partner', 'allowances', String(child.profileId), '--retry', '--wait')).code).toBe(0);
    const placed = await pm('--json', ...args);
    expect(placed.code, placed.stderr).toBe(0);
    const orderId = placed.json<{ orderId: string }>().orderId;
    const rec = sb.current.ctx.state.orders.find((o) => o.id === orderId);
    const m = sb.current.ctx.state.markets.find((x) => x.slug === 'btc-100k-2026');
    const so = rec?.signedOrder as Record<string, unknown>;
    const valid = await verifyTypedData({
      address: child.account as `0x${string}`,
      domain: { name: 'Limitless CTF Exchange', version: '1', chainId: 8453, verifyingContract: m?.venue?.exchange as `0x${string}` },
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: {
        salt: BigInt(String(so['salt'])),
        maker: child.account as `0x${string}`,
        signer: child.account as `0x${string}`,
        taker: '0x0000000000000000000000000000000000000000',
        tokenId: BigInt(String(so['tokenId'])),
        makerAmount: BigInt(String(so['makerAmount'])),
        takerAmount: BigInt(String(so['takerAmount'])),
        expiration: 0n,
        nonce: 0n,
        feeRateBps: BigInt(String(so['feeRateBps'])),
        side: 0,
        signatureType: 0,
      },
      signature: so['signature'] as `0x${string}`,
    });
    expect(valid).toBe(true);
    expect(rec).toMatchObject({ ownerId: child.profileId, status: 'LIVE' });
    const c = await pm('order', 'cancel', orderId, '--on-behalf-of', String(child.profileId));
    expect(c.code, c.stderr).toBe(0);
    expect(sb.current.ctx.state.orders.find((o) => o.id === orderId)?.status).toBe('CANCELED');
    expect(sb.current.ctx.state.accounts[String(child.profileId)]?.lockedUsdc).toBe(0n);
  });
});

describe('pm partner onboard', () => {
  it('flag-only form without a TTY: creates, waits, funds, places a first order, saves a profile', async () => {
    const r = await pm(
      '--json',
      'partner',
      'onboard',
      '--server-wallet',
      '--name',
      'Shop 7',
      '--yes',
      '--wait',
      '--fund',
      '100',
      '--first-order',
      'btc-100k-2026',
      '--first-amount',
      '2',
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{
      profileId: number;
      profile: string;
      allowances: { ready: boolean };
      funded: string;
      firstOrder: { orderId: string; contracts: string };
    }>();
    expect(out).toMatchObject({
      mode: 'server-wallet',
      profile: 'shop-7',
      allowances: { ready: true },
      funded: '100',
      fundedRaw: '100000000',
    });
    expect(Number(out.firstOrder.contracts)).toBeGreaterThan(0);
    // Amounts as everywhere in JSON: the decimal and its raw integer beside it.
    const { contracts, contractsRaw } = out.firstOrder as { contracts: string; contractsRaw?: string };
    expect(contractsRaw).toMatch(/^\d+$/);
    const [whole = '', frac = ''] = contracts.split('.');
    expect(BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'))).toBe(BigInt(contractsRaw ?? '-1'));
    const cfg = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
      profiles: Record<string, { onBehalfOf?: number; sandbox?: boolean }>;
    };
    expect(cfg.profiles['shop-7']).toMatchObject({ onBehalfOf: out.profileId });
    // The saved profile acts for the child, and its listing says so (it showed a profile id "-" and nothing of the child).
    const listed = await pm('--json', 'profile', 'list');
    expect(listed.json<{ name: string; onBehalfOf: number | null }[]>().find((p) => p.name === 'shop-7')).toMatchObject({
      onBehalfOf: out.profileId,
    });
    expect((await pm('profile', 'list')).stdout).toMatch(
      new RegExp(`^\\tPROFILE\\t.*\\tACTS FOR\\n(.*\\n)*\\tshop-7\\t.*\\t${out.profileId}\\n`, 'm'),
    );
    // whoami with that profile says whom it acts for, and what that sub-account can trade with (it
    // named the partner alone, beside the partner's own USDC).
    const who = await pm('--json', '--profile', 'shop-7', 'whoami');
    expect(who.code, who.stderr).toBe(0);
    const bal = await pm('--json', '--profile', 'shop-7', 'balance');
    expect(who.json<{ onBehalfOf: number | null; usdc: { free: string } }>()).toMatchObject({
      onBehalfOf: out.profileId,
      usdc: { free: bal.json<{ usdc: { free: string } }>().usdc.free },
    });
    const whoText = await pm('--profile', 'shop-7', 'whoami');
    expect(whoText.stdout).toMatch(new RegExp(`^acts for +sub-account ${out.profileId} \\(0x[0-9a-fA-F]{40}\\)`, 'm'));
    expect(whoText.stdout).toMatch(new RegExp(`^USDC free +\\$\\S+ \\(sub-account ${out.profileId}'s;`, 'm'));
    // An order of the child's profile says whom it is placed for (on a sandbox nothing asks first).
    const childOrder = await pm('--profile', 'shop-7', ...marketOrder('btc-100k-2026', 'buy', 'yes', 'fok', '1'), '--delegated');
    expect(childOrder.code, childOrder.stderr).toBe(0);
    expect(childOrder.stderr).toMatch(
      new RegExp(`^placing BUY YES on btc-100k-2026 for sub-account ${out.profileId} \\(client id pm-`, 'm'),
    );
    // And the journal says whom a pending order was for (it read as the partner's own).
    const childCid = /\(client id (pm-\S+)\)/.exec(childOrder.stderr)?.[1] ?? '';
    const journal = await pm('order', 'journal', '--client-id', childCid);
    expect(journal.stdout).toMatch(new RegExp(`\\tpending\\tbtc-100k-2026\\tFOK BUY 1 USDC for sub-account ${out.profileId}\\n`));
    // A sub-account that is not the partner's: said, exit 4 (it printed "acts for sub-account 999", exit 0).
    const notOurs = await pm('--profile', 'shop-7', 'whoami', '--on-behalf-of', '999');
    expect(notOurs.code).toBe(4);
    expect(notOurs.stdout).toMatch(/^acts for +sub-account 999: not one of this partner's sub-accounts/m);
    expect(notOurs.stderr).toMatch(/sub-account 999 is not one of this partner's sub-accounts/);
    const status = await pm('--json', '--profile', 'shop-7', 'order', 'status', out.firstOrder.orderId);
    expect(status.code, status.stderr).toBe(0);
    const again = await pm('partner', 'onboard', '--server-wallet', '--name', 'Shop 7', '--yes');
    expect(again.code).toBe(5);
  });

  it('the wizard through a pseudo-terminal', async () => {
    const h = tempHome();
    try {
      expect(existsSync(join(process.cwd(), 'dist', 'cli', 'run.js'))).toBe(true);
      const { code, screen } = await runInPty(
        ['node', 'bin/pm.js', 'partner', 'onboard'],
        [
          { waitFor: 'What kind of sub-account?', send: KEY.enter }, // server wallet
          { waitFor: 'Display name', send: `pty shop${KEY.enter}` },
          { waitFor: 'Name of the pm profile for this sub-account (Enter: pty-shop)', send: KEY.enter }, // the prompt names the default Enter gives (it said "empty: child-<id>")
          { waitFor: 'Fund it with how many USDC', send: `25${KEY.enter}` },
          { waitFor: 'Place a first delegated order', send: `y${KEY.enter}` },
          { waitFor: 'Market slug', send: KEY.enter },
        ],
        { PATH: process.env['PATH'], HOME: process.env['HOME'], ...envFor(acct('partner').token, h.home) },
        30_000,
      );
      expect(code, screen).toBe(0);
      expect(screen).toMatch(/ready: allowances 5\/5 confirmed/);
      expect(screen).toMatch(/funded with 25 USDC/);
      expect(screen).toMatch(/first order/);
      const cfg = JSON.parse(readFileSync(join(h.home, 'config.json'), 'utf8')) as { profiles: Record<string, { onBehalfOf?: number }> };
      expect(cfg.profiles['pty-shop']?.onBehalfOf).toBeGreaterThan(0);
    } finally {
      h.cleanup();
    }
  });
});
