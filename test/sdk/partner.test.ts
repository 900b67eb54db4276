// Conformance: the SDK's partner flows against the sandbox, as the seeded partner uses them:
// PartnerAccountService (server-wallet and EOA sub-accounts, listing, allowances),
// DelegatedOrderService (unsigned orders the server signs, cancels, cancel-replace) and
// ServerWalletService (withdraw, redeem). Legacy-key clients are refused by the SDK itself.
import { Wallet, getAddress } from 'ethers';
import { describe, expect, it } from 'vitest';
import { CancelReplaceMode, ConflictError, OrderType, RateLimitError, Side } from '@limitless-exchange/sdk';
import type { Client } from '@limitless-exchange/sdk';
import { SPARE_DEV_KEYS } from '../../src/sandbox/seed.js';
import { useSandbox } from '../helpers/sandbox.js';
import { account, eventually, rejection, sdkClient } from './helpers.js';

// The sandbox's own allowance provisioning is held off: these flows drive readiness with
// retryAllowances (test/sandbox/provisioning.test.ts covers the provisioning).
const sb = useSandbox({ provisionDelayMs: 3_600_000 });
const SLUG = 'sol-500-2026'; // bob's book around 0.22

async function admin(path: string, body: Record<string, unknown>): Promise<unknown> {
  const r = await fetch(`${sb.current.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

let partnerClient: Client | undefined;
const partner = (): Client => (partnerClient ??= sdkClient(sb.current, 'partner'));

let child: Promise<{ profileId: number; account: string }> | undefined;

/**
 * A funded server-wallet sub-account whose allowances are ready, made once per file through
 * the SDK (create → check → retry → poll), as the contract's recommended loop describes.
 */
function serverWalletChild(): Promise<{ profileId: number; account: string }> {
  child ??= (async () => {
    await admin('/__sandbox/allowances', { confirmAfterMs: 50 });
    const created = await partner().partnerAccounts.createAccount({ displayName: 'sdk bot', createServerWallet: true });
    await admin('/__sandbox/fund', { profileId: created.profileId, amount: '100000000' });
    await eventually(
      async () => {
        const a = await partner().partnerAccounts.checkAllowances(created.profileId);
        if (a.ready) return true;
        if (a.targets.some((t) => t.status === 'missing' || (t.status === 'failed' && t.retryable)))
          await partner().partnerAccounts.retryAllowances(created.profileId);
        return false;
      },
      { what: 'the allowances to become ready' },
    );
    return created;
  })();
  return child;
}

describe('PartnerAccountService', () => {
  it('createAccount (server wallet) returns the new profile id and its managed wallet', async () => {
    const r = await partner().partnerAccounts.createAccount({ displayName: 'sdk server wallet', createServerWallet: true });
    expect(Number.isInteger(r.profileId)).toBe(true);
    expect(r.account).toBe(getAddress(r.account));
    const listed = await partner().partnerAccounts.listAccounts({ account: r.account.toLowerCase() });
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ profileId: r.profileId, account: r.account, displayName: 'sdk server wallet' });
  });

  it('createAccount (EOA) with the signed signing message; the same address again is a ConflictError', async () => {
    const key = SPARE_DEV_KEYS[SPARE_DEV_KEYS.length - 1];
    if (!key) throw new Error('no spare key');
    const wallet = new Wallet(key.key);
    const message = await partner().http.get<string>('/auth/signing-message');
    expect(typeof message).toBe('string');
    const headers = {
      account: wallet.address,
      signingMessage: `0x${Buffer.from(message, 'utf8').toString('hex')}`,
      signature: await wallet.signMessage(message),
    };
    const r = await partner().partnerAccounts.createAccount({ displayName: 'sdk eoa' }, headers);
    expect(r).toEqual({ profileId: expect.any(Number), account: wallet.address });
    const message2 = await partner().http.get<string>('/auth/signing-message');
    const again = await rejection(() =>
      partner().partnerAccounts.createAccount(
        { displayName: 'sdk eoa' },
        {
          account: wallet.address,
          signingMessage: `0x${Buffer.from(message2, 'utf8').toString('hex')}`,
          signature: wallet.signMessageSync(message2),
        },
      ),
    );
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.status).toBe(409);
  });

  it('listAccounts pages the partner sub-accounts ({data, page, limit, hasMore})', async () => {
    await partner().partnerAccounts.createAccount({ displayName: 'list a', createServerWallet: true });
    await partner().partnerAccounts.createAccount({ displayName: 'list b', createServerWallet: true });
    const page1 = await partner().partnerAccounts.listAccounts({ limit: 1, page: 1 });
    expect(page1).toMatchObject({ page: 1, limit: 1, hasMore: true });
    expect(page1.data).toHaveLength(1);
    const page2 = await partner().partnerAccounts.listAccounts({ limit: 1, page: 2 });
    expect(page2.data[0]?.profileId).not.toBe(page1.data[0]?.profileId);
  });

  it('checkAllowances / retryAllowances: missing → submitted → confirmed, ready at the end', async () => {
    await admin('/__sandbox/allowances', { confirmAfterMs: 50 });
    const created = await partner().partnerAccounts.createAccount({ createServerWallet: true });
    const before = await partner().partnerAccounts.checkAllowances(created.profileId);
    expect(before).toMatchObject({
      profileId: created.profileId,
      partnerProfileId: account(sb.current, 'partner').profileId,
      chainId: 8453,
      walletAddress: created.account,
      ready: false,
    });
    expect(before.summary.total).toBe(before.targets.length);
    expect(before.targets.every((t) => t.status === 'missing' && ['USDC_ALLOWANCE', 'CTF_APPROVAL'].includes(t.type))).toBe(true);
    const retried = await partner().partnerAccounts.retryAllowances(created.profileId);
    expect(retried.summary.submitted).toBe(before.summary.total);
    expect(retried.targets.every((t) => t.status === 'submitted')).toBe(true);
    const after = await eventually(async () => {
      const a = await partner().partnerAccounts.checkAllowances(created.profileId);
      return a.ready ? a : null;
    });
    expect(after.summary).toMatchObject({ confirmed: before.summary.total, missing: 0 });
  });

  it('retryAllowances beyond the per-wallet limit is a RateLimitError carrying retryAfterSeconds', async () => {
    await admin('/__sandbox/allowances', { confirmAfterMs: 50, lockMs: 0, retryMax: 1, retryWindowMs: 10_000 });
    try {
      const created = await partner().partnerAccounts.createAccount({ createServerWallet: true });
      await partner().partnerAccounts.retryAllowances(created.profileId);
      const e = await rejection(() => partner().partnerAccounts.retryAllowances(created.profileId));
      expect(e).toBeInstanceOf(RateLimitError);
      expect(e.status).toBe(429);
      expect((e.data as { retryAfterSeconds?: unknown }).retryAfterSeconds).toEqual(expect.any(Number));
    } finally {
      await admin('/__sandbox/allowances', { lockMs: 150, retryMax: 3 });
    }
  });
});

describe('DelegatedOrderService (server signs for a server-wallet child)', () => {
  it('createOrder GTC onBehalfOf: the order is made and signed by the child wallet; cancelOnBehalfOf cancels it', async () => {
    const c = await serverWalletChild();
    const market = await partner().markets.getMarket(SLUG);
    const yes = market.tokens?.yes ?? '';
    const r = await partner().delegatedOrders.createOrder({
      marketSlug: SLUG,
      orderType: OrderType.GTC,
      onBehalfOf: c.profileId,
      args: { tokenId: yes, price: 0.1, size: 5, side: Side.BUY },
    });
    expect(r.order).toMatchObject({ maker: c.account, signer: c.account, ownerId: c.profileId });
    expect(r.order.signature).toMatch(/^0x[0-9a-f]{130}$/i);
    expect(r.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    const msg = await partner().delegatedOrders.cancelOnBehalfOf(r.order.id, c.profileId);
    expect(msg).toBe('Order canceled successfully');
  });

  it('FOK onBehalfOf fills; cancelReplace onBehalfOf swaps a resting order; cancelAllOnBehalfOf clears the market', async () => {
    const c = await serverWalletChild();
    const market = await partner().markets.getMarket(SLUG);
    const yes = market.tokens?.yes ?? '';
    const fok = await partner().delegatedOrders.createOrder({
      marketSlug: SLUG,
      orderType: OrderType.FOK,
      onBehalfOf: c.profileId,
      args: { tokenId: yes, makerAmount: 2.3, side: Side.BUY },
    });
    expect(fok.execution?.matched).toBe(true);
    const resting = await partner().delegatedOrders.createOrder({
      marketSlug: SLUG,
      orderType: OrderType.GTC,
      onBehalfOf: c.profileId,
      args: { tokenId: yes, price: 0.1, size: 5, side: Side.BUY },
    });
    const cr = await partner().delegatedOrders.cancelReplace({
      cancel: { orderId: resting.order.id },
      replacement: {
        tokenId: yes,
        price: 0.11,
        size: 5,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
        clientOrderId: `dlg-${Date.now()}`,
      },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
      onBehalfOf: c.profileId,
    });
    expect(cr.cancel).toMatchObject({ status: 'SUCCESS', orderId: resting.order.id });
    expect(cr.replacement.status).toBe('SUCCESS');
    if (cr.replacement.status === 'SUCCESS') expect(cr.replacement.data.order).toMatchObject({ maker: c.account, ownerId: c.profileId });
    const all = await partner().delegatedOrders.cancelAllOnBehalfOf(SLUG, c.profileId);
    expect(all).toBe('Orders canceled successfully');
    const live = sb.current.ctx.state.orders.filter((o) => o.ownerId === c.profileId && o.status === 'LIVE');
    expect(live).toEqual([]);
  });
});

describe('ServerWalletService', () => {
  it('withdraw onBehalfOf moves USDC from the child wallet to the partner', async () => {
    const c = await serverWalletChild();
    const r = await partner().serverWallets.withdraw({ amount: '1000000', onBehalfOf: c.profileId });
    expect(r).toMatchObject({ walletAddress: c.account, amount: '1000000', destination: account(sb.current, 'partner').address });
    expect(typeof r.transactionId).toBe('string');
  });

  it('redeemPositions onBehalfOf pays out a resolved market the child holds', async () => {
    const c = await serverWalletChild();
    const slug = 'gpt-6-release-2026';
    const market = await partner().markets.getMarket(slug);
    const yes = market.tokens?.yes ?? '';
    const conditionId = market.conditionId ?? '';
    const fok = await partner().delegatedOrders.createOrder({
      marketSlug: slug,
      orderType: OrderType.FOK,
      onBehalfOf: c.profileId,
      args: { tokenId: yes, makerAmount: 3.6, side: Side.BUY },
    });
    expect(fok.execution?.matched).toBe(true);
    await admin('/__sandbox/resolve', { slug, winningOutcome: 'YES' });
    const r = await partner().serverWallets.redeemPositions({ conditionId, onBehalfOf: c.profileId });
    expect(r).toMatchObject({ walletAddress: c.account, conditionId: market.conditionId, marketId: market.id });
    const again = await rejection(() => partner().serverWallets.redeemPositions({ conditionId, onBehalfOf: c.profileId }));
    expect(again).toBeInstanceOf(ConflictError);
  });

  it('a legacy X-API-Key client is refused by the SDK before any request (HMAC-only operations)', async () => {
    const legacy = sdkClient(sb.current, 'partner', 'apiKey');
    const w = await rejection(() => legacy.serverWallets.withdraw({ amount: '1', onBehalfOf: 1 }));
    expect(w.message).toMatch(/HMAC/);
    const l = await rejection(() => legacy.partnerAccounts.listAccounts());
    expect(l.message).toMatch(/HMAC/);
  });
});
