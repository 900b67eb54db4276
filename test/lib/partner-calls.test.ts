// The library's calls that the CLI had alone (issue 32, item 4), against the real sandbox: an EOA
// sub-account kept in a profile's keystore, an EOA child's order refused (exit 2, nothing sent)
// when the client holds no key for it, orders.list({ all }), market pages, the withdrawal allowlist.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editConfig, loadConfig } from '../../src/core/config.js';
import { createClient } from '../../src/lib/index.js';
import type { PmClient } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const homes: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const h of homes) h.cleanup();
});
const newHome = (): string => {
  const h = tempHome();
  homes.push(h);
  return h.home;
};

const as = (name: string, home: string, extra: { profile?: string; passphrase?: string; subAccountKeys?: string[] } = {}): PmClient => {
  const a = seeded(sb.current, name);
  return createClient({
    home,
    baseUrl: sb.current.baseUrl,
    privateKey: a.privateKey,
    token: { tokenId: a.token.tokenId, secret: a.token.secret },
    identityToken: a.identityToken,
    ...extra,
  });
};

describe('partner calls of the library', () => {
  it('an EOA sub-account made with a profile in use: its key goes into that keystore (wallet child-…), recorded on the profile, and signs its orders', async () => {
    const home = newHome();
    await editConfig(home, (cfg) => {
      cfg.profiles['shop'] = { baseUrl: sb.current.baseUrl };
    });
    const pm = as('partner', home, { profile: 'shop', passphrase: 'shop-pass' });
    const child = await pm.partner.create({ serverWallet: false, displayName: 'kept' });
    expect(child).toMatchObject({ mode: 'eoa', displayName: 'kept', wallet: expect.stringMatching(/^child-[0-9a-f]{8}$/) });
    expect('privateKey' in child).toBe(false);
    const wallet = 'wallet' in child ? child.wallet : '';
    expect(existsSync(join(home, 'keystores', `${wallet}.json`))).toBe(true);
    expect(loadConfig(home).profiles['shop']?.subAccounts?.[String(child.profileId)]).toEqual({ address: child.account, wallet });
    expect(await postAdmin(sb.current, 'fund', { profileId: child.profileId, amount: '5000000' })).toBe(200);
    const r = await pm.orders.place({
      market: 'btc-100k-2026',
      side: 'buy',
      outcome: 'yes',
      price: '0.02',
      size: '5',
      onBehalfOf: child.profileId,
    });
    const o = sb.current.ctx.state.orders.find((x) => x.id === r.order.id);
    expect(o?.ownerId).toBe(child.profileId);
    expect(String(o?.signedOrder['maker']).toLowerCase()).toBe(child.account.toLowerCase());
    await pm.close();
  });

  it("an EOA child's order from a client that holds no key for it is exit 2 before anything is sent; given as subAccountKeys, it signs", async () => {
    const home = newHome();
    const maker = as('partner', home);
    const child = await maker.partner.create({ serverWallet: false });
    await maker.close();
    const key = 'privateKey' in child ? child.privateKey : '';
    expect(await postAdmin(sb.current, 'fund', { profileId: child.profileId, amount: '5000000' })).toBe(200);
    const order = {
      market: 'btc-100k-2026',
      side: 'buy' as const,
      outcome: 'yes' as const,
      price: '0.02',
      size: '5',
      onBehalfOf: child.profileId,
    };
    const mark = logMark(sb.current);
    const keyless = as('partner', home);
    await expect(keyless.orders.place(order)).rejects.toMatchObject({
      name: 'UsageError',
      exitCode: 2,
      hint: expect.stringMatching(/subAccountKeys/),
    });
    expect(countEvents(sb.current, 'order.placed', (e) => e.order.ownerId === child.profileId, mark)).toBe(0);
    await keyless.close();
    const keyed = as('partner', home, { subAccountKeys: [key] });
    const r = await keyed.orders.place(order);
    expect(sb.current.ctx.state.orders.find((x) => x.id === r.order.id)?.ownerId).toBe(child.profileId);
    expect(() => createClient({ home, baseUrl: sb.current.baseUrl, subAccountKeys: ['0x12'] })).toThrow(
      expect.objectContaining({ name: 'UsageError', exitCode: 2 }),
    );
    await keyed.close();
  });

  it('orders.list: every market, one market, and with all: true its closed orders too (all without a market is exit 2)', async () => {
    const pm = as('bob', newHome());
    const a = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5' });
    const b = await pm.orders.place({ market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '5' });
    await pm.orders.cancel(b.order.id);
    const every = (await pm.orders.list()).map((o) => o.id);
    expect(every).toContain(a.order.id);
    expect(every).not.toContain(b.order.id);
    expect((await pm.orders.list({ market: 'gpt-6-release-2026' })).map((o) => o.id)).not.toContain(b.order.id);
    const closed = await pm.orders.list({ market: 'gpt-6-release-2026', all: true });
    expect(closed.find((o) => o.id === b.order.id)?.status).toBe('CANCELED');
    await expect(pm.orders.list({ all: true })).rejects.toMatchObject({ name: 'UsageError', exitCode: 2 });
    await pm.orders.cancel(a.order.id);
    await pm.close();
  });

  it('markets.page: a page by path (aliases followed), offset and cursor paging, every market with all; a bad sort is exit 2', async () => {
    const pm = as('bob', newHome());
    const first = await pm.markets.page('/crypto', { limit: 2 });
    expect(first.page.path).toBe('/crypto');
    expect(first.markets.length).toBeGreaterThan(0);
    expect(first.markets.length).toBeLessThanOrEqual(2);
    expect(first.markets[0]?.volumeRaw).toMatch(/^\d+$/);
    const every = await pm.markets.page('/crypto', { all: true, limit: 1 });
    expect(every.markets.length).toBeGreaterThanOrEqual(first.markets.length);
    expect(new Set(every.markets.map((m) => m.slug)).size).toBe(every.markets.length);
    if (first.pagination) expect(every.markets.length).toBe(first.pagination.total);
    expect((await pm.markets.page('/c/crypto', { limit: 2 })).page.path).toBe('/crypto');
    await expect(pm.markets.page('/crypto', { sort: 'price' })).rejects.toMatchObject({ name: 'UsageError', exitCode: 2 });
    await pm.close();
  });

  it('funds.allowlist: add, list, remove (identity token); an address already there is a ConflictError', async () => {
    const pm = as('partner', newHome());
    const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const added = await pm.funds.allowlist.add(to.toLowerCase(), { label: 'ops' });
    expect(added).toMatchObject({ destinationAddress: to, label: 'ops', deletedAt: null });
    await expect(pm.funds.allowlist.add(to)).rejects.toMatchObject({ name: 'ConflictError', exitCode: 5 });
    expect((await pm.funds.allowlist.list()).map((e) => e.destinationAddress)).toContain(to);
    expect(await pm.funds.allowlist.remove(to)).toEqual({ removed: to });
    expect((await pm.funds.allowlist.list()).map((e) => e.destinationAddress)).not.toContain(to);
    expect((await pm.funds.allowlist.list({ all: true })).find((e) => e.id === added.id)?.deletedAt).not.toBeNull();
    // Removed already (as after a remove whose answer was lost): said so, with when; never listed: not found.
    expect(await pm.funds.allowlist.remove(to)).toEqual({ removed: to, alreadyRemoved: true, removedAt: expect.any(String) });
    await expect(pm.funds.allowlist.remove('0x000000000000000000000000000000000000beef')).rejects.toMatchObject({
      name: 'NotFoundError',
      exitCode: 4,
    });
    await pm.close();
  });
});
