import { Agent, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/core/retry.js';
import { ApiClient, errorForStatus, errorMessage, redactBody, redactHeaders } from '../../src/core/http.js';
import { hmacSigner } from '../../src/core/auth.js';
import { AuthError, ConflictError, ExchangeValidationError, NetworkError, NotFoundError, RateLimitError } from '../../src/core/errors.js';

describe('status mapping and redaction', () => {
  it('maps each status to the error class of its exit code', () => {
    expect(errorForStatus(400, { message: 'bad' }, {}, 'x')).toBeInstanceOf(ExchangeValidationError);
    expect(errorForStatus(401, { message: 'Invalid HMAC authentication' }, {}, 'x')).toBeInstanceOf(AuthError);
    expect(errorForStatus(403, {}, {}, 'x').exitCode).toBe(3);
    expect(errorForStatus(404, {}, {}, 'x')).toBeInstanceOf(NotFoundError);
    expect(errorForStatus(409, {}, {}, 'x')).toBeInstanceOf(ConflictError);
    const rl = errorForStatus(429, { retryAfterSeconds: 2 }, {}, 'x') as RateLimitError;
    expect(rl).toBeInstanceOf(RateLimitError);
    expect(rl.retryAfterMs).toBe(2000);
    expect((errorForStatus(429, {}, { 'retry-after': '3' }, 'x') as RateLimitError).retryAfterMs).toBe(3000);
    const e5 = errorForStatus(503, {}, {}, 'x') as NetworkError;
    expect(e5.exitCode).toBe(7);
    expect(e5.ambiguous).toBe(true);
    expect(errorForStatus(401, { message: 'timestamp outside window' }, {}, 'x').hint).toMatch(/30 s/);
  });
  it('extracts messages as the SDKs do', () => {
    expect(errorMessage({ message: [{ field: 'price', error: 'bad' }] }, 'f')).toBe('field: price, error: bad');
    expect(errorMessage({ error: 'nope' }, 'f')).toBe('nope');
    expect(errorMessage(null, 'fallback')).toBe('fallback');
  });
  it('redacts credentials', () => {
    expect(
      redactHeaders({ 'lmts-signature': 'abc', 'X-API-Key': 'lmts_123', identity: 'Bearer t', 'lmts-api-key': 'token-id-123' }),
    ).toEqual({
      'lmts-signature': '[redacted]',
      'X-API-Key': '[redacted]',
      identity: '[redacted]',
      'lmts-api-key': 'toke…',
    });
    expect(redactBody('{"tokenId":"a","secret":"c2VjcmV0","apiKey":"x"}')).toBe(
      '{"tokenId":"a","secret":"[redacted]","apiKey":"[redacted]"}',
    );
  });
  it('backs off with jitter within bounds', () => {
    expect(backoffMs(0, () => 0)).toBe(125);
    expect(backoffMs(0, () => 1)).toBe(250);
    expect(backoffMs(10, () => 1)).toBe(8000);
  });
});

// A tiny local HTTP server standing in for a flaky network path (transport behaviour only;
// exchange behaviour is tested against the real sandbox).
describe('ApiClient transport', () => {
  let url = '';
  let hits = 0;
  let lastHeaders: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    hits++;
    lastHeaders = req.headers;
    if (req.url?.startsWith('/flaky') && hits % 3 !== 0) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down"}');
      return;
    }
    if (req.url?.startsWith('/limited') && hits % 2 === 1) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"message":"slow down"}');
      return;
    }
    if (req.url?.startsWith('/slow')) {
      setTimeout(() => res.writeHead(200).end('{}'), 500);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('retries reads on 5xx and 429, never writes', async () => {
    const api = new ApiClient({ baseUrl: url });
    hits = 0;
    const res = await api.request<{ url: string }>({ method: 'GET', path: '/flaky', query: { a: 1, b: ['x', 'y'] } });
    expect(res.data.url).toBe('/flaky?a=1&b=x&b=y');
    expect(hits).toBe(3);
    hits = 0;
    await expect(api.request({ method: 'POST', path: '/flaky', body: {} })).rejects.toBeInstanceOf(NetworkError);
    expect(hits).toBe(1);
    hits = 0;
    await api.request({ method: 'GET', path: '/limited' });
    expect(hits).toBe(2);
    await api.close();
  });

  it('times out, and reports a refused connection as exit 7 with a sandbox hint', async () => {
    const api = new ApiClient({ baseUrl: url, timeoutMs: 100, maxRetries: 0 });
    const err = await api.request({ method: 'POST', path: '/slow', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).ambiguous).toBe(true);
    await api.close();
    const dead = new ApiClient({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    const e2 = (await dead.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e)) as NetworkError;
    expect(e2.exitCode).toBe(7);
    expect(e2.ambiguous).toBe(false);
    expect(e2.hint).toMatch(/pm sandbox start/);
    await dead.close();
  });

  it('speaks TLS to an https URL (node:https, loaded only then)', async () => {
    // The test server speaks plain HTTP: a TLS client fails its handshake there.
    const tls = new ApiClient({ baseUrl: url.replace('http:', 'https:'), maxRetries: 0, timeoutMs: 2000 });
    const e = (await tls.request({ method: 'GET', path: '/x' }).catch((err: unknown) => err)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect(`${e.message} ${String((e.cause as Error | undefined)?.message ?? '')}`).toMatch(/EPROTO|SSL|TLS|wrong version|socket/i);
    await tls.close();
  });

  it('signs with HMAC and sends the exact body it signed', async () => {
    const api = new ApiClient({ baseUrl: url, auth: { hmac: hmacSigner('tok-1', 'c3VwZXItc2VjcmV0LWtleQ==') } });
    await api.request({ method: 'POST', path: '/orders', body: { a: 1 }, auth: 'auto' });
    expect(lastHeaders['lmts-api-key']).toBe('tok-1');
    expect(String(lastHeaders['lmts-timestamp'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(String(lastHeaders['lmts-signature'])).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await expect(api.request({ method: 'GET', path: '/x', auth: 'identity' })).rejects.toBeInstanceOf(AuthError);
    await api.close();
  });

  it('stamps a paced request’s start once the request has left (never before its connection is made)', async () => {
    // The shared limiter records when a request actually leaves, so the next start is spaced
    // from it: the stamp must come after the request is written, and must not hold up the send.
    const events: string[] = [];
    const limiter = {
      acquire: async () => Object.assign(() => events.push('release'), { started: () => events.push('stamp') }),
    };
    const agent = new Agent({ keepAlive: false });
    const create = agent.createConnection.bind(agent);
    agent.createConnection = ((...a: Parameters<typeof create>) => {
      const s = create(...a) as Socket;
      s.once('connect', () => events.push('connect'));
      return s;
    }) as typeof agent.createConnection;
    const api = new ApiClient(
      {
        baseUrl: url,
        auth: { hmac: hmacSigner('tok-stamp', 'c3VwZXItc2VjcmV0LWtleQ==') },
        paceStore: { load: () => 0, save: () => undefined, shared: () => limiter },
      },
      { agent, limiters: new Map(), counter: { seq: 0 } },
    );
    await api.request({ method: 'POST', path: '/orders', body: { a: 1 }, auth: 'auto' });
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['connect', 'stamp', 'release']);
    await api.close();
  });

  it('refuses a base URL with a path (signatures would not match)', () => {
    expect(() => new ApiClient({ baseUrl: 'http://127.0.0.1:1/api' })).toThrow(/root/);
  });
});
