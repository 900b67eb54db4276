// Partner platforms on the sandbox over real HTTP: sub-accounts (EOA proof and server wallet),
// the listing, allowance readiness as a state machine (lock 409, per-wallet 429, failures),
// delegated orders gated on it, and every refusal. Requests are signed here with node:crypto
// and viem directly, not with the client's code.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringToHex, verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import type { Scope } from '../../src/sandbox/types.js';
import { eventually } from '../helpers/eventually.js';
import { delegatedBuyBody } from '../helpers/orders.js';
import { laneOf, pacedFetch } from '../helpers/pacer.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ORDER_TYPES } from '../helpers/eip712.js';

let skew = 0;
// The sandbox's own provisioning is held off here (the retry route drives readiness); the
// 'allowance provisioning' block below runs a sandbox that provisions after a short delay.
const sb = useSandbox({ now: () => Date.now() + skew, provisionDelayMs: 3_600_000 });
type Tok = { tokenId: string; secret: string };

const acct = (name: string) => {
  const a = sb.current.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(name);
  return a;
};

async function call(method: string, target: string, o: { token?: Tok; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const body = o.body === undefined ? '' : JSON.stringify(o.body);
  if (o.token) {
    const ts = new Date(Date.now() + skew).toISOString();
    headers['lmts-api-key'] = o.token.tokenId;
    headers['lmts-timestamp'] = ts;
    headers['lmts-signature'] = createHmac('sha256', Buffer.from(o.token.secret, 'base64'))
      .update(`${ts}\n${method}\n${target}\n${body}`)
      .digest('base64');
  }
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(`${sb.current.baseUrl}${target}`, { method, headers, ...(body ? { body } : {}) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: res.status, json, text };
}

const admin = (path: string, body: unknown) => call('POST', `/__sandbox/${path}`, { body });
const partnerTok = (): Tok => acct('partner').token;

async function derive(scopes: string[], identity = 'idt_sandbox_partner'): Promise<Tok> {
  const r = await call('POST', '/auth/api-tokens/derive', { body: { scopes }, headers: { identity: `Bearer ${identity}` } });
  expect(r.status).toBe(201);
  return { tokenId: String(r.json['tokenId']), secret: String(r.json['secret']) };
}

/** EOA proof headers: a fresh signing message signed by `key` (claiming `claim` as x-account). */
async function proof(key: `0x${string}`, claim?: string, message?: string): Promise<Record<string, string>> {
  const msg = message ?? (await call('GET', '/auth/signing-message')).text;
  const a = privateKeyToAccount(key);
  return { 'x-account': claim ?? a.address, 'x-signing-message': stringToHex(msg), 'x-signature': await a.signMessage({ message: msg }) };
}

async function serverChild(name = 'sw'): Promise<{ profileId: number; account: string }> {
  const r = await call('POST', '/profiles/partner-accounts', {
    token: partnerTok(),
    body: { displayName: name, createServerWallet: true },
  });
  expect(r.status).toBe(201);
  return r.json as { profileId: number; account: string };
}

interface View {
  ready: boolean;
  walletAddress: string;
  summary: Record<string, number>;
  targets: {
    label: string;
    status: string;
    confirmed: boolean;
    retryable: boolean;
    errorCode?: string;
    requiredFor: string;
    type: string;
    transactionId?: string;
  }[];
}
const allowances = async (id: number, token = partnerTok()) => call('GET', `/profiles/partner-accounts/${id}/allowances`, { token });
const retry = async (id: number, token = partnerTok()) =>
  call('POST', `/profiles/partner-accounts/${id}/allowances/retry`, { token, body: {} });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  expect((await admin('faults', { rateLimit: false })).status).toBe(200);
  expect((await admin('allowances', { confirmAfterMs: 100, lockMs: 150, retryMax: 50, retryWindowMs: 1000, failures: [] })).status).toBe(
    200,
  );
});

describe('partner sub-accounts', () => {
  it('creates an EOA child from a signed single-use message, and lists it', async () => {
    const key = generatePrivateKey();
    const headers = await proof(key);
    const r = await call('POST', '/profiles/partner-accounts', { token: partnerTok(), body: { displayName: 'Ada' }, headers });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ profileId: expect.any(Number), account: privateKeyToAccount(key).address });
    const id = Number(r.json['profileId']);
    const me = await call('GET', `/profiles/${privateKeyToAccount(key).address}`);
    expect(me.json).toMatchObject({ id, parentProfileId: acct('partner').profileId, displayName: 'Ada' });

    // The same message again: spent.
    const again = await call('POST', '/profiles/partner-accounts', {
      token: partnerTok(),
      body: {},
      headers: await proof(generatePrivateKey(), undefined, Buffer.from(headers['x-signing-message']!.slice(2), 'hex').toString('utf8')),
    });
    expect(again.status).toBe(400);
    expect(again.json['message']).toMatch(/unknown or was already used/);

    const list = await call('GET', `/profiles/partner-accounts?account=${privateKeyToAccount(key).address.toLowerCase()}`, {
      token: partnerTok(),
    });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({
      data: [
        {
          profileId: id,
          account: privateKeyToAccount(key).address,
          displayName: 'Ada',
          serverWallet: false,
          createdAt: expect.any(String),
        },
      ],
      page: 1,
      limit: 25,
      hasMore: false,
    });
  });

  it('refuses a wrong signer, a lower-case x-account, an unknown or expired message, an existing address and the partner itself', async () => {
    const key = generatePrivateKey();
    const other = privateKeyToAccount(generatePrivateKey()).address;
    const post = (headers: Record<string, string>, body: unknown = {}) =>
      call('POST', '/profiles/partner-accounts', { token: partnerTok(), body, headers });

    const wrong = await post(await proof(key, other));
    expect(wrong.status).toBe(400);
    expect(wrong.json['message']).toMatch(/was not made by x-account .* recovers to/);

    const lower = await post(await proof(key, privateKeyToAccount(key).address.toLowerCase()));
    expect(lower).toMatchObject({ status: 400, json: { message: expect.stringMatching(/EIP-55/) } });

    const forged = await post(
      await proof(
        key,
        undefined,
        `Welcome to Limitless.exchange! Please sign this message to verify your identity.\n\nNonce: 0x${'ab'.repeat(32)}`,
      ),
    );
    expect(forged).toMatchObject({ status: 400, json: { message: expect.stringMatching(/unknown or was already used/) } });

    const stale = await proof(key);
    skew = 6 * 60_000;
    try {
      const expired = await post(stale);
      expect(expired).toMatchObject({ status: 400, json: { message: expect.stringMatching(/expired/) } });
    } finally {
      skew = 0;
    }

    const missing = await post({});
    expect(missing).toMatchObject({
      status: 400,
      json: { message: expect.stringMatching(/x-account, x-signing-message and x-signature/) },
    });

    const existing = await post(await proof(acct('alice').privateKey as `0x${string}`));
    expect(existing.status).toBe(409);

    const self = await post(await proof(acct('partner').privateKey as `0x${string}`));
    expect(self).toMatchObject({ status: 400, json: { message: expect.stringMatching(/own address/) } });

    const long = await post(await proof(key), { displayName: 'x'.repeat(45) });
    expect(long).toMatchObject({ status: 400, json: { message: expect.stringMatching(/44 characters/) } });
  });

  it('needs HMAC with account_creation: legacy key, identity and a trading-only token are refused', async () => {
    const body = { createServerWallet: true };
    const legacy = await call('POST', '/profiles/partner-accounts', { body, headers: { 'x-api-key': acct('partner').apiKey } });
    expect(legacy.status).toBe(403);
    const identity = await call('POST', '/profiles/partner-accounts', {
      body,
      headers: { identity: `Bearer ${acct('partner').identityToken}` },
    });
    expect(identity.status).toBe(403);
    const trader = await call('POST', '/profiles/partner-accounts', { token: acct('alice').token, body });
    expect(trader).toMatchObject({ status: 403, json: { message: 'Missing required scope: account_creation' } });
    const tradingOnly = await call('POST', '/profiles/partner-accounts', { token: await derive(['trading']), body });
    expect(tradingOnly.status).toBe(403);
    const noDelegated = await call('POST', '/profiles/partner-accounts', { token: await derive(['account_creation']), body });
    expect(noDelegated).toMatchObject({ status: 403, json: { message: 'Server wallet creation requires delegated_signing scope' } });
    const list = await call('GET', '/profiles/partner-accounts', { token: acct('alice').token });
    expect(list.status).toBe(403);
  });

  it('capabilities and derivation honour allowedScopes', async () => {
    const caps = await call('GET', '/auth/api-tokens/capabilities', { headers: { identity: `Bearer ${acct('alice').identityToken}` } });
    expect(caps.json).toEqual({ partnerProfileId: acct('alice').profileId, tokenManagementEnabled: false, allowedScopes: [] });
    const denied = await call('POST', '/auth/api-tokens/derive', {
      body: { scopes: ['account_creation'] },
      headers: { identity: `Bearer ${acct('alice').identityToken}` },
    });
    expect(denied.status).toBe(403);
    const t = await derive(['trading', 'account_creation', 'delegated_signing']);
    expect((await call('GET', '/profiles/partner-accounts', { token: t })).status).toBe(200);
  });

  it('pages the listing (limit capped at 25) and refuses bad paging', async () => {
    for (let i = 0; i < 3; i++) await serverChild(`page-${i}`);
    const all = await call('GET', '/profiles/partner-accounts?limit=100', { token: partnerTok() });
    expect(all.json['limit']).toBe(25);
    const n = (all.json['data'] as unknown[]).length;
    expect(n).toBeGreaterThanOrEqual(3);
    const p1 = await call('GET', '/profiles/partner-accounts?limit=2&page=1', { token: partnerTok() });
    expect(p1.json).toMatchObject({ page: 1, limit: 2, hasMore: true });
    expect((p1.json['data'] as unknown[]).length).toBe(2);
    expect((await call('GET', '/profiles/partner-accounts?page=0', { token: partnerTok() })).status).toBe(400);
    expect((await call('GET', '/profiles/partner-accounts?limit=x', { token: partnerTok() })).status).toBe(400);
  });
});

describe('allowance readiness', () => {
  it('starts missing, is submitted by a retry, confirms on the timer; summary follows targets', async () => {
    const child = await serverChild('ready-1');
    const g = await allowances(child.profileId);
    expect(g.status).toBe(200);
    const v = g.json as unknown as View;
    expect(v).toMatchObject({
      profileId: child.profileId,
      partnerProfileId: acct('partner').profileId,
      chainId: 8453,
      walletAddress: child.account,
      ready: false,
    });
    expect(v.targets.map((t) => `${t.type}/${t.requiredFor}/${t.label}`).sort()).toEqual([
      'CTF_APPROVAL/SELL/ctf:ctf-exchange',
      'CTF_APPROVAL/SELL/ctf:negrisk-adapter',
      'CTF_APPROVAL/SELL/ctf:negrisk-exchange',
      'USDC_ALLOWANCE/BUY/usdc:ctf-exchange',
      'USDC_ALLOWANCE/BUY/usdc:negrisk-exchange',
    ]);
    expect(v.summary).toEqual({ total: 5, confirmed: 0, missing: 5, submitted: 0, failed: 0 });
    const r = await retry(child.profileId);
    expect(r.status).toBe(200);
    const rv = r.json as unknown as View;
    expect(rv.summary).toEqual({ total: 5, confirmed: 0, missing: 0, submitted: 5, failed: 0 });
    expect(rv.targets.every((t) => typeof t.transactionId === 'string' && !t.confirmed)).toBe(true);
    const done = await eventually(async () => {
      const v = (await allowances(child.profileId)).json as unknown as View;
      return v.ready && v;
    });
    expect(done.summary).toEqual({ total: 5, confirmed: 5, missing: 0, submitted: 0, failed: 0 });
  });

  it('answers 409 while a retry holds the wallet lock, and 429 with retryAfterSeconds past the per-wallet limit', async () => {
    const child = await serverChild('lock-1');
    await admin('allowances', { retryMax: 2, retryWindowMs: 1500, lockMs: 200 });
    try {
      // Whichever reaches the lock first holds it for 200 ms; the other meets it.
      const both = await Promise.all([retry(child.profileId), pause(40).then(() => retry(child.profileId))]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.status === 409)?.json).toEqual({ message: expect.stringMatching(/already running/) });
      expect((await retry(child.profileId)).status).toBe(200);
      const limited = await retry(child.profileId);
      expect(limited.status).toBe(429);
      expect(limited.json).toEqual({ message: expect.stringMatching(/rate limited/), retryAfterSeconds: expect.any(Number) });
      expect(limited.json['retryAfterSeconds']).toBeGreaterThanOrEqual(1);
      expect(limited.json['retryAfterSeconds']).toBeLessThanOrEqual(2);
    } finally {
      await admin('allowances', { retryMax: 50, retryWindowMs: 1000, lockMs: 150 });
    }
  });

  it('a failure switch makes a target fail with errorCode and retryable; a later retry submits it', async () => {
    const child = await serverChild('fail-1');
    await admin('allowances', {
      failures: [
        { label: 'ctf:negrisk-adapter', errorCode: 'PRIVY_SPONSORSHIP_UNAVAILABLE', retryable: true, times: 1 },
        { label: 'usdc:negrisk', errorCode: 'REQUEST_BUDGET_EXCEEDED', retryable: false, times: 0 },
      ],
    });
    const r = (await retry(child.profileId)).json as unknown as View;
    const failed = r.targets.find((t) => t.label === 'ctf:negrisk-adapter');
    expect(failed).toMatchObject({ status: 'failed', retryable: true, errorCode: 'PRIVY_SPONSORSHIP_UNAVAILABLE', confirmed: false });
    expect(r.summary).toMatchObject({ failed: 1, submitted: 4 });
    const g = await eventually(async () => {
      const v = (await allowances(child.profileId)).json as unknown as View;
      return v.summary['confirmed'] === 4 && v;
    });
    expect(g).toMatchObject({ ready: false, summary: { confirmed: 4, failed: 1 } });
    const again = (await retry(child.profileId)).json as unknown as View;
    expect(again.targets.find((t) => t.label === 'ctf:negrisk-adapter')).toMatchObject({ status: 'submitted' });
    expect(again.targets.filter((t) => t.status === 'confirmed').length).toBe(4); // only the failed one was submitted again
    await eventually(async () => ((await allowances(child.profileId)).json as unknown as View).ready);
  });

  it("refuses another partner's child (404), a trader's token (403) and an EOA child (400)", async () => {
    const child = await serverChild('mine');
    // A second partner: no route creates one, so its events are committed here.
    const state = sb.current.ctx.state;
    const at = Date.now();
    const profile = {
      id: 9101,
      name: 'partner2',
      role: 'partner' as const,
      address: privateKeyToAccount(generatePrivateKey()).address,
      feeRateBps: 300,
      displayName: 'partner2',
      createdAt: new Date(at).toISOString(),
    };
    sb.current.ctx.apply({ type: 'profile.created', at, profile });
    const scopes: Scope[] = ['trading', 'account_creation', 'delegated_signing'];
    const token = { tokenId: 'partner2-token', profileId: 9101, scopes, label: null, createdAt: new Date(at).toISOString() };
    sb.current.ctx.apply({ type: 'token.derived', at, token });
    const other: Tok = { tokenId: token.tokenId, secret: state.tokens.find((t) => t.tokenId === token.tokenId)?.secret ?? '' };
    expect((await allowances(child.profileId, other)).status).toBe(404);
    expect((await retry(child.profileId, other)).status).toBe(404);
    expect((await allowances(child.profileId, acct('alice').token)).status).toBe(403);
    expect(
      (await call('GET', `/profiles/partner-accounts/${child.profileId}/allowances`, { headers: { 'x-api-key': acct('partner').apiKey } }))
        .status,
    ).toBe(403);
    const onlyCreate = await derive(['account_creation']);
    expect((await allowances(child.profileId, onlyCreate)).json).toEqual({ message: 'Missing required scope: delegated_signing' });
    const eoa = await call('POST', '/profiles/partner-accounts', {
      token: partnerTok(),
      body: {},
      headers: await proof(generatePrivateKey()),
    });
    expect((await allowances(Number(eoa.json['profileId']))).status).toBe(400);
    expect((await allowances(0)).status).toBe(400);
    // The other partner's list does not show this partner's children.
    const theirs = await call('GET', '/profiles/partner-accounts', { token: other });
    expect(theirs.json['data']).toEqual([]);
  });
});

describe('delegated orders for server-wallet children', () => {
  const ZERO = '0x0000000000000000000000000000000000000000';
  const slug = 'btc-100k-2026';
  const delegated = (childId: number, tokenId: string) => delegatedBuyBody(childId, tokenId, slug, 11);

  it('refuses orders until the side is confirmed, then signs with the managed wallet; cancels on behalf, never for another partner', async () => {
    const child = await serverChild('trader-1');
    const fund = await admin('fund', { profileId: child.profileId, amount: '50000000' });
    expect(fund).toMatchObject({ status: 200, json: { amount: '50000000', balance: '50000000' } });
    const m = sb.current.ctx.state.markets.find((x) => x.slug === slug);
    const yes = m?.positionIds?.[0] ?? '';
    const early = await call('POST', '/orders', { token: partnerTok(), body: delegated(child.profileId, yes) });
    expect(early.status).toBe(400);
    expect(early.json['message']).toMatch(/not confirmed .*usdc:ctf-exchange missing.*run the allowance check/);

    await retry(child.profileId);
    await eventually(async () => ((await allowances(child.profileId)).json as unknown as View).ready);
    const placed = await call('POST', '/orders', { token: partnerTok(), body: delegated(child.profileId, yes) });
    expect(placed.status).toBe(201);
    const order = placed.json['order'] as Record<string, unknown>;
    expect(order).toMatchObject({ maker: child.account, signer: child.account, ownerId: child.profileId });
    const ok = await verifyTypedData({
      address: child.account as `0x${string}`,
      domain: { name: 'Limitless CTF Exchange', version: '1', chainId: 8453, verifyingContract: m?.venue?.exchange as `0x${string}` },
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: {
        salt: 11n,
        maker: child.account as `0x${string}`,
        signer: child.account as `0x${string}`,
        taker: ZERO,
        tokenId: BigInt(yes),
        makerAmount: 2_000_000n,
        takerAmount: 5_000_000n,
        expiration: 0n,
        nonce: 0n,
        feeRateBps: 300n,
        side: 0,
        signatureType: 0,
      },
      signature: order['signature'] as `0x${string}`,
    });
    expect(ok).toBe(true);
    const id = String(order['id']);
    expect(sb.current.ctx.state.accounts[String(child.profileId)]?.lockedUsdc).toBe(2_000_000n);

    // Not a child of alice: refused; the partner's own cancel with onBehalfOf works.
    const foreign = await call('DELETE', `/orders/${id}?onBehalfOf=${child.profileId}`, { token: acct('alice').token });
    expect(foreign.status).toBe(403);
    const cancel = await call('DELETE', `/orders/${id}?onBehalfOf=${child.profileId}`, { token: partnerTok() });
    expect(cancel.status).toBe(200);
    expect(sb.current.ctx.state.accounts[String(child.profileId)]?.lockedUsdc).toBe(0n);

    // SELL needs the CTF approvals, which a failure now keeps from confirming.
    const sell = {
      ...delegated(child.profileId, yes),
      order: { ...delegated(child.profileId, yes).order, side: 1, makerAmount: 5_000_000, takerAmount: 2_000_000 },
    };
    sb.current.ctx.state.allowances![String(child.profileId)]!.find((t) => t.label === 'ctf:ctf-exchange')!.status = 'failed';
    const refused = await call('POST', '/orders', { token: partnerTok(), body: sell });
    expect(refused.json['message']).toMatch(/SELL orders .*ctf:ctf-exchange failed/);
  });

  it('funding goes through the ledger; bad fund requests are refused', async () => {
    const child = await serverChild('fund-1');
    await admin('fund', { profileId: child.profileId, amount: '1000000' });
    await admin('fund', { profileId: child.profileId, amount: '2500000' });
    const ledger = sb.current.ctx.state.ledger?.[String(child.profileId)] ?? [];
    expect(ledger.map((e) => [e.kind, e.usdc])).toEqual([
      ['deposit', 1_000_000n],
      ['deposit', 2_500_000n],
    ]);
    expect((await admin('fund', { profileId: 999_999, amount: '1' })).status).toBe(404);
    expect((await admin('fund', { profileId: child.profileId, amount: '-1' })).status).toBe(400);
    expect((await admin('fund', { profileId: child.profileId, amount: 1.5 })).status).toBe(400);
  });
});

describe('persistence', () => {
  let dir: string;
  let s: SandboxHandle | null = null;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-partner-'));
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replays children, allowances and deposits from the event log', async () => {
    s = await startSandbox({ port: 0, dataDir: dir });
    const tok = s.info.accounts.find((a) => a.name === 'partner')?.token as Tok;
    const post = async (target: string, body: unknown) => {
      const raw = JSON.stringify(body);
      // This sandbox paces the token (rate limit on): through the tests' pacer.
      const r = await pacedFetch(laneOf(s?.baseUrl ?? '', tok.tokenId), () => {
        const ts = new Date().toISOString();
        const sig = createHmac('sha256', Buffer.from(tok.secret, 'base64')).update(`${ts}\nPOST\n${target}\n${raw}`).digest('base64');
        return fetch(`${s?.baseUrl}${target}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'lmts-api-key': tok.tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig },
          body: raw,
        });
      });
      return (await r.json()) as Record<string, unknown>;
    };
    const child = await post('/profiles/partner-accounts', { createServerWallet: true });
    const id = Number(child['profileId']);
    await fetch(`${s.baseUrl}/__sandbox/allowances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lockMs: 0 }),
    });
    await post(`/profiles/partner-accounts/${id}/allowances/retry`, {});
    await fetch(`${s.baseUrl}/__sandbox/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: id, amount: '7000000' }),
    });
    const before = structuredClone({
      allowances: s.ctx.state.allowances,
      usdc: s.ctx.state.accounts[String(id)]?.usdc,
      profile: s.ctx.state.profiles.find((p) => p.id === id),
    });
    await s.close();
    s = await startSandbox({ port: 0, dataDir: dir });
    expect({
      allowances: s.ctx.state.allowances,
      usdc: s.ctx.state.accounts[String(id)]?.usdc,
      profile: s.ctx.state.profiles.find((p) => p.id === id),
    }).toEqual(before);
    expect(before.profile?.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
