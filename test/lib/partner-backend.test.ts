// A partner backend through the library alone (issue 32's done-means): 3 server-wallet and 2 EOA
// sub-accounts created, funded (the sandbox's admin route, as pm sandbox fund), each trading one
// order placed for it (unsigned for the exchange's server wallet, signed by the EOA child's own
// key) and cancel-replaced once, then filled; the market resolved, every child redeemed, the
// server wallets withdrawn to an address on the partner's allowlist. Every child's balance
// reconciles to the raw unit: held = free + locked, and held = the money the sandbox's event log
// says went in minus what went out (deposits, fills, redemptions, withdrawals).
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import type { EoaSubAccount, PmClient, ServerWalletSubAccount } from '../../src/lib/index.js';
import type { LogEntry } from '../../src/sandbox/events.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { seeded } from '../helpers/account-env.js';
import { eventsOf } from '../helpers/fault-proxy.js';
import { tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

const MARKET = 'partner-backend-2026';
/** An address outside the sandbox (the dev mnemonic's 10th account): where the partner sends withdrawals. */
const TREASURY = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

const partnerClient = (extra: { onBehalfOf?: number; subAccountKeys?: string[] } = {}): PmClient => {
  const p = seeded(sb.current, 'partner');
  return createClient({
    home,
    baseUrl: sb.current.baseUrl,
    privateKey: p.privateKey,
    token: { tokenId: p.token.tokenId, secret: p.token.secret },
    identityToken: p.identityToken,
    ...extra,
  });
};

/**
 * USDC (raw) that profile `id` holds by the sandbox's event log alone: deposits, minus
 * withdrawals, minus what its BUY fills cost (taker: gross plus fee; maker: its side of the
 * fill), plus what SELL fills and redemptions paid.
 */
function heldByLog(s: SandboxHandle, id: number): bigint {
  const orders = new Map<string, { ownerId: number; side: string }>();
  let held = 0n;
  const off = s.subscribe(1, (e: LogEntry) => {
    if (e.type === 'funds.deposited' && e.profileId === id) held += e.amount;
    if (e.type === 'funds.withdrawn' && e.profileId === id) held -= e.amount;
    if (e.type === 'position.redeemed' && e.profileId === id && e.onChain !== true) for (const p of e.payouts) held += p.usdc;
    if (e.type !== 'order.placed') return;
    orders.set(e.order.id, { ownerId: e.order.ownerId, side: e.order.side });
    for (const f of e.fills) {
      const maker = orders.get(f.makerOrderId);
      if (maker?.ownerId === id) held += maker.side === 'BUY' ? -f.makerUsd : f.makerUsd;
    }
    if (e.order.ownerId === id && e.totals.contracts > 0n)
      held += e.order.side === 'BUY' ? -(e.totals.usdGross + e.totals.usdFee) : e.totals.usdGross - e.totals.usdFee;
  });
  off();
  return held;
}

describe('a partner backend on the library alone', () => {
  it('5 sub-accounts (3 server wallets, 2 EOA) created, funded, traded with a replace each, resolved, redeemed, withdrawn; every balance reconciles to the raw unit', async () => {
    expect(await postAdmin(sb.current, 'markets', { slug: MARKET, title: 'Partner backend test' })).toBe(201);
    const pm = partnerClient();
    const server: ServerWalletSubAccount[] = [];
    for (let i = 0; i < 3; i++) server.push(await pm.partner.create({ serverWallet: true, displayName: `sw-${i}` }));
    const eoa: EoaSubAccount[] = [];
    for (let i = 0; i < 2; i++) eoa.push(await pm.partner.create({ serverWallet: false, displayName: `eoa-${i}` }));
    const children = [...server, ...eoa];
    // Created on the exchange, as the mode asked: a server wallet the sandbox holds, or the EOA's own address.
    for (const c of children) {
      const p = sb.current.ctx.state.profiles.find((x) => x.id === c.profileId);
      expect(p?.parentProfileId, String(c.profileId)).toBe(seeded(sb.current, 'partner').profileId);
      expect(p?.serverWallet === true, String(c.profileId)).toBe(c.mode === 'server-wallet');
    }
    // Without a profile, an EOA child's key is the caller's to keep; pm wrote it nowhere.
    const keys = eoa.map((c) => ('privateKey' in c ? c.privateKey : ''));
    for (const c of eoa) expect(sb.current.ctx.state.profiles.find((x) => x.id === c.profileId)?.address).toBe(c.account);
    for (const k of keys) expect(k).toMatch(/^0x[0-9a-f]{64}$/);
    const listed = await pm.partner.list({ limit: 25 });
    for (const c of children) expect(listed.data.map((x) => x.profileId)).toContain(c.profileId);

    for (const c of server) expect((await pm.partner.allowances(c.profileId, { wait: true, retry: true })).ready).toBe(true);
    const deposit = 50_000_000n;
    for (const c of children) expect(await postAdmin(sb.current, 'fund', { profileId: c.profileId, amount: String(deposit) })).toBe(200);

    // Each child bids for YES; the bid is moved once with a cancel-replace; alice then takes every bid.
    const size = (i: number): string => String(10 + i);
    const replaced: string[] = [];
    for (const [i, c] of children.entries()) {
      const placed = await pm.orders.place({
        market: MARKET,
        side: 'buy',
        outcome: 'yes',
        price: '0.55',
        size: size(i),
        clientId: `pb-${c.profileId}`,
        onBehalfOf: c.profileId,
        delegated: c.mode === 'server-wallet',
      });
      expect(placed.status).toBe('LIVE');
      const r = await pm.orders.replace(placed.order.id, {
        price: '0.6',
        onBehalfOf: c.profileId,
        delegated: c.mode === 'server-wallet',
        clientId: `pb-${c.profileId}-2`,
      });
      expect(r.cancelled.status).toBe('CANCELLED');
      expect(r.replacement?.status).toBe('LIVE');
      replaced.push(r.replacement?.order.id ?? '');
    }
    const orders = sb.current.ctx.state.orders;
    for (const [i, c] of children.entries()) {
      const o = orders.find((x) => x.id === replaced[i]);
      expect(o?.ownerId).toBe(c.profileId);
      // Made by the child's wallet: signed by its own key here (EOA), or by the exchange, which holds the server wallet's key.
      expect(String(o?.signedOrder['maker']).toLowerCase(), `${c.mode} ${c.profileId}`).toBe(c.account.toLowerCase());
    }
    // One open order per child, by a client acting for it (EOA: handed the key it keeps).
    for (const [i, c] of children.entries()) {
      const child = partnerClient({ onBehalfOf: c.profileId, subAccountKeys: keys });
      expect((await child.orders.list()).map((o) => o.id)).toEqual([replaced[i]]);
      await child.close();
    }

    const alice = seeded(sb.current, 'alice');
    const taker = createClient({
      home,
      baseUrl: sb.current.baseUrl,
      privateKey: alice.privateKey,
      token: { tokenId: alice.token.tokenId, secret: alice.token.secret },
    });
    const total = children.reduce((n, _, i) => n + 10 + i, 0);
    const took = await taker.orders.place({ market: MARKET, side: 'buy', outcome: 'no', price: '0.4', size: String(total), type: 'fak' });
    expect(took.execution.filled.shares).toBe(String(total));
    await taker.close();
    for (const id of replaced) expect(orders.find((x) => x.id === id)?.status).toBe('MATCHED');

    expect(await postAdmin(sb.current, 'resolve', { slug: MARKET, winningOutcome: 'YES' })).toBe(200);
    for (const [i, c] of children.entries()) {
      const child = partnerClient({ onBehalfOf: c.profileId });
      const r = await child.funds.redeem(MARKET);
      expect(r.payoutRaw, String(c.profileId)).toBe(String(BigInt(10 + i) * 1_000_000n));
      await child.close();
    }

    // Withdrawals go to the partner's allowlist: refused before the address is on it, paid after.
    await expect(pm.funds.allowlist.add(TREASURY, { label: 'treasury' })).resolves.toMatchObject({ destinationAddress: TREASURY });
    expect((await pm.funds.allowlist.list()).map((e) => e.destinationAddress)).toContain(TREASURY);
    for (const c of server) {
      const child = partnerClient({ onBehalfOf: c.profileId });
      const w = await child.funds.withdraw({ amount: '12.345678', to: TREASURY });
      expect(w.amountRaw).toBe('12345678');
      await child.close();
    }
    expect(eventsOf(sb.current, 'funds.withdrawn', (e) => e.destination.toLowerCase() === TREASURY.toLowerCase())).toHaveLength(3);

    for (const c of children) {
      const b = await pm.funds.balance({ onBehalfOf: c.profileId });
      const held = BigInt(b.usdc.heldRaw);
      expect(held, `${c.mode} ${c.profileId}`).toBe(BigInt(b.usdc.freeRaw) + BigInt(b.usdc.lockedRaw));
      expect(b.usdc.lockedRaw).toBe('0');
      expect(held, `${c.mode} ${c.profileId}`).toBe(heldByLog(sb.current, c.profileId));
    }
    // The figures themselves: 50 in, 0.60 a share for 10+i shares, 1 a share back, 12.345678 out (server wallets).
    for (const [i, c] of children.entries()) {
      const shares = BigInt(10 + i);
      const expected = deposit - shares * 600_000n + shares * 1_000_000n - (c.mode === 'server-wallet' ? 12_345_678n : 0n);
      expect(BigInt((await pm.funds.balance({ onBehalfOf: c.profileId })).usdc.heldRaw)).toBe(expected);
    }
    await pm.close();
  }, 120_000);
});
