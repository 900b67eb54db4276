// The sandbox over real HTTP: seed, public shapes, authentication (the server-side HMAC
// implementation), rate limits, persistence, faults. Requests are signed here with
// node:crypto directly, not with the client's code.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedSignature } from '../../src/sandbox/auth.js';
import { startSandbox, seedState } from '../../src/sandbox/index.js';
import { yesBook } from '../../src/sandbox/book.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

function acct(name: string) {
  const a = sb.current.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(name);
  return a;
}

function sign(secret: string, ts: string, method: string, target: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'base64')).update(`${ts}\n${method}\n${target}\n${body}`).digest('base64');
}

async function call(
  method: string,
  target: string,
  opts: {
    token?: { tokenId: string; secret: string };
    body?: string;
    sendBody?: string;
    ts?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const body = opts.body ?? '';
  if (opts.token) {
    const ts = opts.ts ?? new Date().toISOString();
    headers['lmts-api-key'] = opts.token.tokenId;
    headers['lmts-timestamp'] = ts;
    headers['lmts-signature'] = sign(opts.token.secret, ts, method, target, body);
  }
  const sent = opts.sendBody ?? body;
  if (sent) headers['content-type'] = 'application/json';
  const res = await fetch(`${sb.current.baseUrl}${target}`, { method, headers, ...(sent ? { body: sent } : {}) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown>, headers: res.headers, text };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('seed', () => {
  it('is deterministic and internally consistent (locks match resting orders)', () => {
    const a = seedState(1_800_000_000_000);
    const b = seedState(1_800_000_000_000);
    expect(JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(
      JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
    );
    for (const acc of Object.values(a.accounts)) {
      const live = a.orders.filter((o) => o.ownerId === acc.profileId && o.status === 'LIVE');
      const locked = live
        .filter((o) => o.side === 'BUY')
        .reduce((s, o) => s + (o.remainingSize * (o.price ?? 0n) + 999_999n) / 1_000_000n, 0n);
      expect(acc.lockedUsdc).toBe(locked);
      expect(acc.usdc).toBeGreaterThanOrEqual(acc.lockedUsdc);
      for (const [token, pos] of Object.entries(acc.positions)) {
        const lockedShares = live.filter((o) => o.side === 'SELL' && o.tokenId === token).reduce((s, o) => s + o.remainingSize, 0n);
        expect(pos.locked).toBe(lockedShares);
        expect(pos.shares).toBeGreaterThanOrEqual(pos.locked);
      }
    }
    const open = a.markets.filter((m) => m.tradeType === 'clob' && m.status === 'FUNDED' && !m.expired);
    expect(open.length).toBeGreaterThanOrEqual(5);
    for (const m of open) {
      const book = yesBook(a, m.slug);
      expect(book?.bids.length, m.slug).toBeGreaterThan(0);
      expect(book?.asks.length, m.slug).toBeGreaterThan(0);
    }
    expect(a.markets.some((m) => m.negRiskRequestId && m.venue?.adapter)).toBe(true);
    expect(a.markets.some((m) => m.tradeType === 'amm')).toBe(true);
    expect(a.markets.some((m) => m.status === 'RESOLVED')).toBe(true);
    expect(a.markets.some((m) => m.expired && m.status === 'FUNDED')).toBe(true);
  });
});

describe('public routes', () => {
  it('lists active markets with paging and the documented shape', async () => {
    const r = await call('GET', '/markets/active?limit=2&page=1');
    expect(r.status).toBe(200);
    const data = r.json['data'] as Record<string, unknown>[];
    expect(data).toHaveLength(2);
    expect(typeof r.json['totalMarketsCount']).toBe('number');
    for (const k of [
      'id',
      'slug',
      'title',
      'description',
      'collateralToken',
      'prices',
      'categories',
      'tags',
      'status',
      'expired',
      'expirationDate',
      'expirationTimestamp',
      'volume',
      'volumeFormatted',
      'liquidity',
      'tradeType',
      'marketType',
    ]) {
      expect(data[0], k).toHaveProperty(k);
    }
    expect((await call('GET', '/markets/active?limit=26')).status).toBe(400);
    expect((await call('GET', '/markets/active?sortBy=random')).status).toBe(400);
  });
  it('answers 404 {message} for an unknown slug and 400 for an AMM book', async () => {
    const r = await call('GET', '/markets/nope');
    expect(r.status).toBe(404);
    expect(r.json['message']).toBe('Market nope not found');
    expect((await call('GET', '/markets/rain-in-london-weekend/orderbook')).status).toBe(400);
  });
  it('returns a market with venue, positionIds (YES first) and tokens', async () => {
    const m = (await call('GET', '/markets/us-election-2028-democrat')).json;
    const ids = m['positionIds'] as string[];
    expect(m['tokens']).toEqual({ yes: ids[0], no: ids[1] });
    expect((m['venue'] as { adapter: string }).adapter).toBe('0x6151EF8368b6316c1aa3C68453EF083ad31E712D');
    expect(m['negRiskRequestId']).toMatch(/^0x/);
  });
  it('serves the book with raw sizes, sorted sides', async () => {
    const b = (await call('GET', '/markets/btc-100k-2026/orderbook')).json as {
      bids: { price: number; size: number }[];
      asks: { price: number; size: number }[];
      minSize: string;
    };
    expect(b.bids[0]?.price).toBe(0.61);
    expect(b.asks[0]?.price).toBe(0.63);
    expect(b.bids[0]?.size).toBe(100_000_000);
    expect(b.minSize).toBe('1000000');
  });
  it('redirects old market-page paths with 301 and a Location', async () => {
    const r = await fetch(`${sb.current.baseUrl}/market-pages/by-path?path=%2Fc%2Fcrypto`, { redirect: 'manual' });
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/market-pages/by-path?path=%2Fcrypto');
    const c = await call('GET', '/market-pages/page-crypto/markets?cursor=&limit=1');
    expect((c.json['cursor'] as { nextCursor: string | null }).nextCursor).toBeTruthy();
  });
  it('serves the signing message as raw text', async () => {
    const r = await call('GET', '/auth/signing-message');
    expect(r.text).toMatch(/^Welcome to Limitless\.exchange! .*\n\nNonce: 0x[0-9a-f]{64}$/s);
  });
});

describe('authentication (server side)', () => {
  it('pins the server HMAC to the published vector', () => {
    expect(expectedSignature('c3VwZXItc2VjcmV0LWtleQ==', '2026-03-23T12:34:56.789Z', 'PATCH', '/orders?market=btc', '{"foo":"bar"}')).toBe(
      'mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=',
    );
  });
  it('accepts a correct signature and rejects a wrong secret, a tampered body, a stale timestamp', async () => {
    const alice = acct('alice');
    await pause(320);
    const ok = await call('GET', '/profiles/me', { token: alice.token });
    expect(ok.status).toBe(200);
    expect(ok.json['id']).toBe(alice.profileId);
    await pause(320);
    const wrong = await call('GET', '/profiles/me', {
      token: { tokenId: alice.token.tokenId, secret: Buffer.from('nope').toString('base64') },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json['message']).toBe('Invalid HMAC authentication');
    await pause(320);
    const tampered = await call('POST', '/orders/status/batch', {
      token: alice.token,
      body: '{"items":[{"orderId":"a"}]}',
      sendBody: '{"items":[{"orderId":"b"}]}',
    });
    expect(tampered.status).toBe(401);
    await pause(320);
    const stale = await call('GET', '/profiles/me', { token: alice.token, ts: new Date(Date.now() - 31_000).toISOString() });
    expect(stale.status).toBe(401);
    expect(stale.json['message']).toMatch(/30 s window/);
    expect(stale.json['message']).toMatch(/server time/);
  });
  it('answers 403 for a missing scope and for the wrong kind of credential', async () => {
    const alice = acct('alice');
    const partner = acct('partner');
    // alice's seeded token has only "trading": deriving account_creation is refused.
    const denied = await call('POST', '/auth/api-tokens/derive', {
      headers: { identity: `Bearer ${alice.identityToken}` },
      body: '{"scopes":["account_creation"]}',
    });
    expect(denied.status).toBe(403);
    // identity-only routes refuse HMAC and legacy keys.
    await pause(320);
    const hmacOnIdentity = await call('GET', '/auth/api-tokens/capabilities', { token: partner.token });
    expect(hmacOnIdentity.status).toBe(403);
    const keyOnIdentity = await call('GET', '/auth/api-tokens/capabilities', { headers: { 'x-api-key': partner.apiKey } });
    expect(keyOnIdentity.status).toBe(403);
    const none = await call('GET', '/profiles/me');
    expect(none.status).toBe(401);
    // a derived token without trading may not trade: 403 Missing required scope.
    const d = await call('POST', '/auth/api-tokens/derive', {
      headers: { identity: `Bearer ${partner.identityToken}` },
      body: '{"scopes":["account_creation"],"label":"no-trading"}',
    });
    expect(d.status).toBe(201);
    const tok = { tokenId: d.json['tokenId'] as string, secret: d.json['secret'] as string };
    const trade = await call('POST', '/orders/status/batch', { token: tok, body: '{"items":[{"orderId":"x"}]}' });
    expect(trade.status).toBe(403);
    expect(trade.json['message']).toBe('Missing required scope: trading');
  });
  it('accepts the legacy key where it is allowed, and revokes tokens', async () => {
    const bob = acct('bob');
    const me = await call('GET', '/profiles/me', { headers: { 'x-api-key': bob.apiKey } });
    expect(me.json['id']).toBe(bob.profileId);
    const partner = acct('partner');
    const d = await call('POST', '/auth/api-tokens/derive', {
      headers: { identity: `Bearer ${partner.identityToken}` },
      body: '{"label":"temp"}',
    });
    const tok = { tokenId: d.json['tokenId'] as string, secret: d.json['secret'] as string };
    expect(d.json['scopes']).toEqual(['trading']);
    await pause(320);
    expect((await call('DELETE', `/auth/api-tokens/${tok.tokenId}`, { token: tok })).status).toBe(200);
    await pause(320);
    expect((await call('GET', '/profiles/me', { token: tok })).status).toBe(401);
  });
  it('enforces 2 in flight and 300 ms between starts per token with 429', async () => {
    const bob = acct('bob');
    await pause(350);
    const rs = await Promise.all([0, 1, 2].map(() => call('GET', '/profiles/me', { token: bob.token })));
    const codes = rs.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(1);
    expect(codes).toContain(200);
    const limited = rs.find((r) => r.status === 429);
    expect(limited?.headers.get('retry-after')).toBeTruthy();
  });
});

describe('lifecycle', () => {
  it('persists state atomically (0600/0700) and reloads it; a corrupt file is a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-sb-'));
    try {
      const a = await startSandbox({ port: 0, dataDir: join(dir, 'sandbox') });
      const partner = a.info.accounts.find((x) => x.name === 'partner');
      const res = await fetch(`${a.baseUrl}/auth/api-tokens/derive`, {
        method: 'POST',
        headers: { identity: `Bearer ${partner?.identityToken ?? ''}`, 'content-type': 'application/json' },
        body: '{"label":"kept"}',
      });
      const tokenId = ((await res.json()) as { tokenId: string }).tokenId;
      const derivedSecret = a.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret ?? 'missing';
      await a.close();
      expect(statSync(join(dir, 'sandbox', 'state.json')).mode & 0o777).toBe(0o600);
      // The stored state holds no private key and no token secret in plain text.
      const stored = readFileSync(join(dir, 'sandbox', 'state.json'), 'utf8');
      for (const acc of a.info.accounts) {
        expect(stored).not.toContain(acc.privateKey.slice(2));
        expect(stored).not.toContain(acc.token.secret);
      }
      expect(stored).not.toContain(derivedSecret);
      expect(statSync(join(dir, 'sandbox')).mode & 0o777).toBe(0o700);
      const b = await startSandbox({ port: 0, dataDir: join(dir, 'sandbox') });
      expect(b.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret).toBe(derivedSecret);
      expect(b.ctx.state.profiles.find((p) => p.name === 'alice')?.privateKey).toBe(a.info.accounts[0]?.privateKey);
      b.reset();
      expect(b.ctx.state.tokens.some((t) => t.tokenId === tokenId)).toBe(false);
      await b.close();
      writeFileSync(join(dir, 'sandbox', 'state.json'), '{"broken');
      await expect(startSandbox({ port: 0, dataDir: join(dir, 'sandbox') })).rejects.toThrow(/corrupt.*pm sandbox reset/);
      expect(readFileSync(join(dir, 'sandbox', 'state.json'), 'utf8')).toBe('{"broken');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('refuses a port in use with EADDRINUSE', async () => {
    await expect(startSandbox({ port: sb.current.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
  it('injects latency, 5xx and 429 faults', async () => {
    const set = (b: object) =>
      fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
    await set({ fail5xx: 1, match: 'GET /markets/active' });
    expect((await call('GET', '/markets/active')).status).toBe(503);
    expect((await call('GET', '/markets/active')).status).toBe(200);
    await set({ burst429: 2, match: '' });
    expect((await call('GET', '/navigation')).status).toBe(429);
    expect((await call('GET', '/navigation')).status).toBe(429);
    expect((await call('GET', '/navigation')).status).toBe(200);
    await set({ latencyMs: 150 });
    const t = Date.now();
    await call('GET', '/navigation');
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    await set({ latencyMs: 0 });
  });
});
