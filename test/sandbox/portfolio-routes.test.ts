// The money routes over real HTTP: withdraw (three shapes, destination rules, balance),
// the withdrawal-address allowlist (identity only, soft delete), fund/resolve/redeem (pays
// once), history cursors, and onBehalfOf. Requests are signed here with node:crypto, not with
// the client's code.
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { addSubAccount } from '../helpers/subaccount.js';
import { auditState } from '../../src/sandbox/engine.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { encode } from '../../src/sandbox/codec.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sb = useSandbox();
const ONE = 1_000_000n;

type Who = 'alice' | 'bob' | 'partner' | 'carol';
const acct = (name: Who) => {
  const a = sb.current.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(name);
  return a;
};
const usdc = (id: number) => sb.current.ctx.state.accounts[String(id)]?.usdc ?? 0n;

interface Res {
  status: number;
  body: Record<string, unknown> & { message?: string };
}

async function call(
  method: string,
  target: string,
  o: { as?: Who; auth?: 'hmac' | 'identity' | 'apiKey'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Res> {
  const body = o.body === undefined ? '' : JSON.stringify(o.body);
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (body) headers['content-type'] = 'application/json';
  if (o.as) {
    const a = acct(o.as);
    const kind = o.auth ?? 'hmac';
    if (kind === 'identity') headers['identity'] = `Bearer ${a.identityToken}`;
    else if (kind === 'apiKey') headers['x-api-key'] = a.apiKey;
    else {
      const ts = new Date().toISOString();
      headers['lmts-api-key'] = a.token.tokenId;
      headers['lmts-timestamp'] = ts;
      headers['lmts-signature'] = createHmac('sha256', Buffer.from(a.token.secret, 'base64'))
        .update(`${ts}\n${method}\n${target}\n${body}`)
        .digest('base64');
    }
  }
  // The sandbox paces each token (one start per 300 ms); tests turn that off below.
  const r = await fetch(`${sb.current.baseUrl}${target}`, body ? { method, headers, body } : { method, headers });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as Res['body']) : {} };
}

const admin = (path: string, body: unknown) => call('POST', `/__sandbox/${path}`, { body });

describe('portfolio routes', () => {
  beforeAll(async () => {
    expect((await admin('faults', { rateLimit: false })).status).toBe(200);
  });

  it('lists carol with her server wallet in the ready line', () => {
    const carol = acct('carol');
    expect(carol.profileId).toBe(1004);
    expect(carol.serverWallet).toBe('0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f');
    expect(acct('alice').serverWallet).toBeUndefined();
    expect(acct('alice').profileId).toBe(1001);
    expect(acct('partner').profileId).toBe(1003);
  });

  it("withdraws from carol's server wallet to her own account (shape 2) and refuses other destinations", async () => {
    const before = usdc(1004);
    const ok = await call('POST', '/portfolio/withdraw', { as: 'carol', body: { amount: '12500000', destination: acct('carol').address } });
    expect(ok.status, ok.body.message).toBe(201);
    expect(ok.body).toMatchObject({
      walletAddress: acct('carol').serverWallet,
      destination: acct('carol').address,
      amount: '12500000',
      token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    expect(before - usdc(1004)).toBe(12_500_000n);

    const stranger = '0x000000000000000000000000000000000000dEaD';
    const no = await call('POST', '/portfolio/withdraw', { as: 'carol', body: { amount: '1', destination: stranger } });
    expect(no.status).toBe(403);
    expect(no.body.message).toMatch(/not allowed.*allowlist/);
    const bad = await call('POST', '/portfolio/withdraw', {
      as: 'carol',
      body: { amount: '1', destination: '0x000000000000000000000000000000000000DEAD' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/checksum/);
    const tooMuch = await call('POST', '/portfolio/withdraw', {
      as: 'carol',
      body: { amount: (usdc(1004) + 1n).toString(), destination: acct('carol').address },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toMatch(/Insufficient balance/);
    for (const amount of ['0', '1.5', 12, '-1', '1e3']) {
      const r = await call('POST', '/portfolio/withdraw', { as: 'carol', body: { amount, destination: acct('carol').address } });
      expect(r.status, String(amount)).toBe(400);
    }
    expect(usdc(1004)).toBe(before - 12_500_000n);
  });

  it('refuses a legacy key, a token without the withdrawal scope, and a profile without a server wallet', async () => {
    const legacy = await call('POST', '/portfolio/withdraw', {
      as: 'carol',
      auth: 'apiKey',
      body: { amount: '1', destination: acct('carol').address },
    });
    expect(legacy.status).toBe(403);
    expect(legacy.body.message).toMatch(/Legacy API keys/);
    const alice = await call('POST', '/portfolio/withdraw', { as: 'alice', body: { amount: '1', destination: acct('alice').address } });
    expect(alice.status).toBe(403);
    expect(alice.body.message).toMatch(/scope: withdrawal/);
    const aliceId = await call('POST', '/portfolio/withdraw', {
      as: 'alice',
      auth: 'identity',
      body: { amount: '1', destination: acct('alice').address },
    });
    expect(aliceId.status).toBe(400);
    expect(aliceId.body.message).toMatch(/no managed server wallet/);
  });

  it('allowlist: identity token only, then a withdrawal to it; soft delete closes it again', async () => {
    const dest = '0x000000000000000000000000000000000000bEEF';
    const byToken = await call('POST', '/portfolio/withdrawal-addresses', { as: 'carol', body: { address: dest } });
    expect(byToken.status).toBe(403);
    const byKey = await call('POST', '/portfolio/withdrawal-addresses', { as: 'carol', auth: 'apiKey', body: { address: dest } });
    expect(byKey.status).toBe(403);
    const add = await call('POST', '/portfolio/withdrawal-addresses', {
      as: 'carol',
      auth: 'identity',
      body: { address: dest, label: 'cold' },
    });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ profileId: 1004, destinationAddress: dest, label: 'cold', deletedAt: null });
    expect(typeof add.body['id']).toBe('string');
    const again = await call('POST', '/portfolio/withdrawal-addresses', {
      as: 'carol',
      auth: 'identity',
      body: { address: dest.toLowerCase() },
    });
    expect(again.status).toBe(409);

    const before = usdc(1004);
    const w = await call('POST', '/portfolio/withdraw', { as: 'carol', body: { amount: '1000000', destination: dest } });
    expect(w.status, w.body.message).toBe(201);
    expect(before - usdc(1004)).toBe(ONE);

    expect((await call('DELETE', `/portfolio/withdrawal-addresses/${dest}`, { as: 'carol' })).status).toBe(403);
    const del = await call('DELETE', `/portfolio/withdrawal-addresses/${dest}`, { as: 'carol', auth: 'identity' });
    expect(del.status).toBe(200);
    expect(typeof del.body['deletedAt']).toBe('string');
    const list = await call('GET', '/portfolio/withdrawal-addresses?includeDeleted=true', { as: 'carol', auth: 'identity' });
    expect((list.body as unknown as { deletedAt: string | null }[])[0]?.deletedAt).not.toBeNull();
    const after = await call('POST', '/portfolio/withdraw', { as: 'carol', body: { amount: '1000000', destination: dest } });
    expect(after.status).toBe(403);
    expect(usdc(1004)).toBe(before - ONE);
  });

  it("withdraws for a server-wallet child: shape 1 to the partner, shape 3 to the partner's allowlist, never the child's", async () => {
    const child = addSubAccount(sb.current, 1003, 0n);
    const p = sb.current.ctx.state.profiles.find((x) => x.id === child.profileId);
    if (p) p.serverWallet = true;
    expect((await admin('fund', { profileId: child.profileId, amount: '100000000' })).status).toBe(200);
    const c0 = usdc(child.profileId);
    const s1 = await call('POST', '/portfolio/withdraw', { as: 'partner', body: { amount: '2000000', onBehalfOf: child.profileId } });
    expect(s1.status, s1.body.message).toBe(201);
    expect(s1.body).toMatchObject({ walletAddress: child.address, destination: acct('partner').address });
    const dest = '0x000000000000000000000000000000000000cafE';
    const notYet = await call('POST', '/portfolio/withdraw', {
      as: 'partner',
      body: { amount: '1000000', onBehalfOf: child.profileId, destination: dest },
    });
    expect(notYet.status).toBe(403);
    expect(notYet.body.message).toMatch(/partner's \(profile 1003\) withdrawal allowlist/);
    expect(
      (await call('POST', '/portfolio/withdrawal-addresses', { as: 'partner', auth: 'identity', body: { address: dest } })).status,
    ).toBe(201);
    const s3 = await call('POST', '/portfolio/withdraw', {
      as: 'partner',
      body: { amount: '1000000', onBehalfOf: child.profileId, destination: dest },
    });
    expect(s3.status, s3.body.message).toBe(201);
    expect(c0 - usdc(child.profileId)).toBe(3_000_000n);
    const notChild = await call('POST', '/portfolio/withdraw', { as: 'partner', body: { amount: '1', onBehalfOf: 1004 } });
    expect(notChild.status).toBe(403);
    expect(notChild.body.message).toMatch(/not a sub-account/);
    // reads honour x-on-behalf-of and refuse a stranger
    const h = await call('GET', '/portfolio/history?cursor=&limit=5', {
      as: 'partner',
      headers: { 'x-on-behalf-of': String(child.profileId) },
    });
    expect(h.status).toBe(200);
    expect((h.body['data'] as { strategy: string }[]).map((x) => x.strategy)).toEqual(['Withdraw', 'Withdraw', 'Deposit']);
    expect((await call('GET', '/portfolio/positions', { as: 'partner', headers: { 'x-on-behalf-of': '1004' } })).status).toBe(403);
  });

  it('resolve → redeem pays 1 USDC per winning share exactly once; not before the payout is posted', async () => {
    expect((await admin('fund', { profileId: 1001, amount: 'x' })).status).toBe(400);
    const noJson = await fetch(`${sb.current.baseUrl}/__sandbox/fund`, { method: 'POST', body: '{"profileId":1001,"amount":"1"}' });
    expect(noJson.status).toBe(415);
    // carol's seeded winning position in eth-5k-2025: 200 YES (cost 80), 50 NO (cost 10)
    const m = sb.current.ctx.state.markets.find((x) => x.slug === 'eth-5k-2025');
    const before = usdc(1004);
    const r = await call('POST', '/portfolio/redeem', { as: 'carol', body: { conditionId: m?.conditionId } });
    expect(r.status, r.body.message).toBe(201);
    expect(r.body).toMatchObject({
      payout: '200000000',
      sharesRedeemed: '200000000',
      losingSharesBurnt: '50000000',
      walletAddress: acct('carol').serverWallet,
    });
    expect(usdc(1004) - before).toBe(200n * ONE);
    const twice = await call('POST', '/portfolio/redeem', { as: 'carol', body: { conditionId: m?.conditionId } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/Already redeemed/);
    expect(usdc(1004) - before).toBe(200n * ONE);
    const legacy = await call('POST', '/portfolio/redeem', { as: 'carol', auth: 'apiKey', body: { conditionId: m?.conditionId } });
    expect(legacy.status).toBe(403);

    // an open market: not resolved; then resolved without payout: not redeemable yet; then paid
    const open = sb.current.ctx.state.markets.find((x) => x.slug === 'sp500-7000-nov-2026');
    const notResolved = await call('POST', '/portfolio/redeem', { as: 'alice', body: { conditionId: open?.conditionId } });
    expect(notResolved.status).toBe(400);
    expect(notResolved.body.message).toMatch(/not resolved/);
    const res1 = await admin('resolve', { slug: 'sp500-7000-nov-2026', winningOutcome: 'NO', payout: false });
    expect(res1.status, res1.body.message).toBe(200);
    const pending = await call('POST', '/portfolio/redeem', { as: 'bob', body: { conditionId: open?.conditionId } });
    expect(pending.status).toBe(400);
    expect(pending.body.message).toMatch(/not redeemable yet/);
    expect((await admin('resolve', { slug: 'sp500-7000-nov-2026', winningOutcome: 'YES' })).status).toBe(409);
    const res2 = await admin('resolve', { slug: 'sp500-7000-nov-2026', winningOutcome: 'NO', payout: true });
    expect(res2.status).toBe(200);
    expect(sb.current.ctx.state.orders.filter((o) => o.marketSlug === 'sp500-7000-nov-2026' && o.status === 'LIVE')).toHaveLength(0);
    const nothing = await call('POST', '/portfolio/redeem', { as: 'alice', body: { conditionId: open?.conditionId } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toMatch(/Nothing to redeem/);
    expect(auditState(sb.current.ctx.state)).toEqual([]);

    // the realised-PnL chart: carol redeemed 200 YES (cost 80) and burnt 50 NO (cost 10): +120 − 10 = 110
    for (const tf of ['1d', '7d', '30d', 'all']) {
      const c = await call('GET', `/portfolio/pnl-chart?timeframe=${tf}`, { as: 'carol' });
      expect(c.status).toBe(200);
      expect(c.body['timeframe']).toBe(tf);
      const data = c.body['data'] as { timestamp: number; value: number }[];
      expect(data.length).toBeGreaterThan(0);
      expect(data[data.length - 1]?.value).toBe(110);
      expect(c.body['currentValue']).toBe(110);
      expect(c.body['previousValue']).toBe(0);
      expect((c.body['current'] as { realised: { raw: string } }).realised.raw).toBe('110000000');
    }
  });

  it('a NegRisk group has one winner: a second child resolved YES is refused (409), NO is fine', async () => {
    const children = sb.current.ctx.state.markets.filter((m) => m.groupSlug === 'us-election-2028').map((m) => m.slug);
    expect(children.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = children as [string, string, string];
    expect((await admin('resolve', { slug: first, winningOutcome: 'YES' })).status).toBe(200);
    const again = await admin('resolve', { slug: second, winningOutcome: 'YES' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(new RegExp(`${first} already resolved YES`));
    expect(sb.current.ctx.state.markets.find((m) => m.slug === second)?.status).not.toBe('RESOLVED');
    expect((await admin('resolve', { slug: third, winningOutcome: 'NO' })).status).toBe(200);
  });

  it('history: cursor paging over 500+ entries has no duplicate and no gap, even while entries are added', async () => {
    for (let i = 0; i < 520; i += 26) {
      const rs = await Promise.all(Array.from({ length: 26 }, (_, k) => admin('fund', { profileId: 1002, amount: String(i + k + 1) })));
      expect(rs.every((r) => r.status === 200)).toBe(true);
    }
    const ids: string[] = [];
    const amounts: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const r = await call('GET', `/portfolio/history?cursor=${encodeURIComponent(cursor)}&limit=100`, { as: 'bob' });
      expect(r.status, r.body.message).toBe(200);
      const data = r.body['data'] as { id: string; strategy: string; collateralAmount: string }[];
      for (const d of data) {
        ids.push(d.id);
        if (d.strategy === 'Deposit') amounts.push(d.collateralAmount);
      }
      pages++;
      if (pages === 2) await admin('fund', { profileId: 1002, amount: '999' }); // lands on a new first page only
      const next = r.body['nextCursor'] as string | null;
      if (next === null) break;
      cursor = next;
    }
    expect(new Set(ids).size).toBe(ids.length);
    // every funding of 1..520 exactly once (plus the seed deposit), newest first (ids descend)
    const funded = amounts
      .filter((a) => a !== '1000000000000' && a !== '999')
      .map(Number)
      .sort((a, b) => a - b);
    expect(funded).toEqual(Array.from({ length: 520 }, (_, i) => i + 1));
    const idx = ids.map((x) => Number(x.split('-')[1]));
    expect(idx).toEqual([...idx].sort((a, b) => b - a));
    expect(amounts).not.toContain('999');
    const bad = await call('GET', '/portfolio/history?cursor=nope&limit=5', { as: 'bob' });
    expect(bad.status).toBe(400);
  });

  it('points answers honest zeros; positions has the contract keys', async () => {
    const pts = await call('GET', '/portfolio/points', { as: 'alice' });
    expect(pts.status).toBe(200);
    expect(pts.body).toMatchObject({ points: 0, accumulativePoints: 0 });
    const pos = await call('GET', '/portfolio/positions', { as: 'alice' });
    expect(Object.keys(pos.body).sort()).toEqual(['accumulativePoints', 'amm', 'clob', 'group', 'points', 'rewards']);
    const item = (pos.body['clob'] as Record<string, unknown>[]).find((c) => (c['market'] as { slug: string }).slug === 'eth-5k-2025');
    expect(Object.keys(item ?? {}).sort()).toEqual([
      'latestTrade',
      'makerAddress',
      'market',
      'orders',
      'positions',
      'rewards',
      'tokensBalance',
    ]);
    expect(item?.['positions']).toMatchObject({
      yes: {
        cost: expect.any(String),
        fillPrice: expect.any(String),
        marketValue: expect.any(String),
        realisedPnl: expect.any(String),
        unrealizedPnl: expect.any(String),
      },
    });
    expect((await call('GET', '/portfolio/positions', { as: 'alice', auth: 'identity' })).status).toBe(403);
  });

  it('pnl chart refuses an unknown timeframe', async () => {
    const r = await call('GET', '/portfolio/pnl-chart?timeframe=2y', { as: 'carol' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/1d, 7d, 30d, all/);
  });

  it('every money event is logged: a restart on the same data dir rebuilds balances, ledger, allowlist and resolution', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-money-'));
    try {
      const a = await startSandbox({ port: 0, dataDir: dir });
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${a.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      expect((await post('/__sandbox/fund', { profileId: 1004, amount: '7000000' })).status).toBe(200);
      expect((await post('/__sandbox/resolve', { slug: 'sol-500-2026', winningOutcome: 'NO', payout: false })).status).toBe(200);
      expect((await post('/__sandbox/resolve', { slug: 'sol-500-2026', winningOutcome: 'NO' })).status).toBe(200);
      const idt = { identity: 'Bearer idt_sandbox_carol' };
      expect((await post('/portfolio/withdrawal-addresses', { address: '0x000000000000000000000000000000000000bEEF' }, idt)).status).toBe(
        201,
      );
      expect(
        (await post('/portfolio/withdraw', { amount: '3000000', destination: '0x000000000000000000000000000000000000bEEF' }, idt)).status,
      ).toBe(201);
      expect(
        (
          await fetch(`${a.baseUrl}/portfolio/withdrawal-addresses/0x000000000000000000000000000000000000bEEF`, {
            method: 'DELETE',
            headers: idt,
          })
        ).status,
      ).toBe(200);
      const m = a.ctx.state.markets.find((x) => x.slug === 'eth-5k-2025');
      expect((await post('/portfolio/redeem', { conditionId: m?.conditionId }, idt)).status).toBe(201);
      const snap = (s: typeof a.ctx.state) =>
        encode({
          accounts: s.accounts,
          ledger: s.ledger,
          allow: s.withdrawalAddresses,
          markets: s.markets,
          orders: s.orders.map((o) => [o.id, o.status]),
        });
      const before = snap(a.ctx.state);
      await a.close();
      const b = await startSandbox({ port: 0, dataDir: dir });
      try {
        expect(snap(b.ctx.state)).toBe(before);
        expect(auditState(b.ctx.state)).toEqual([]);
        expect(b.ctx.state.markets.find((x) => x.slug === 'sol-500-2026')).toMatchObject({
          status: 'RESOLVED',
          winningOutcomeIndex: 1,
          payoutPending: false,
        });
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
