import { describe, expect, it } from 'vitest';
import { hmacHeaders, hmacMessage, isBase64, signHmac } from '../../src/core/hmac.js';
import { authHeaders, hmacSigner } from '../../src/core/auth.js';

// wire-facts §2.1, the published vector.
const V = {
  secret: 'c3VwZXItc2VjcmV0LWtleQ==',
  ts: '2026-03-23T12:34:56.789Z',
  method: 'PATCH',
  path: '/orders?market=btc',
  body: '{"foo":"bar"}',
  sig: 'mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=',
};

describe('HMAC signing (client)', () => {
  it('matches the published vector', () => {
    expect(signHmac(V.secret, V.ts, V.method, V.path, V.body)).toBe(V.sig);
  });
  it('upper-cases the method and keeps an empty body as a trailing LF', () => {
    expect(hmacMessage(V.ts, 'get', '/orders', '')).toBe(`${V.ts}\nGET\n/orders\n`);
    expect(signHmac(V.secret, V.ts, 'patch', V.path, V.body)).toBe(V.sig);
  });
  it('changes with any byte of the body or path', () => {
    expect(signHmac(V.secret, V.ts, V.method, V.path, '{"foo":"baz"}')).not.toBe(V.sig);
    expect(signHmac(V.secret, V.ts, V.method, '/orders?market=eth', V.body)).not.toBe(V.sig);
  });
  it('builds the three headers, and the signer closure agrees with the pure function', () => {
    const h = hmacHeaders('tok', V.secret, V.method, V.path, V.body, new Date(V.ts));
    expect(h).toEqual({ 'lmts-api-key': 'tok', 'lmts-timestamp': V.ts, 'lmts-signature': V.sig });
    const a = authHeaders(
      { hmac: hmacSigner('tok', V.secret), apiKey: { id: 'k', header: () => 'lmts_x' } },
      'auto',
      V.method,
      V.path,
      V.body,
      new Date(V.ts),
    );
    expect(a.headers['lmts-signature']).toBe(V.sig);
    expect(a.headers['X-API-Key']).toBeUndefined(); // HMAC suppresses the legacy key
    expect(a.used).toBe('hmac');
  });
  it('falls back to the legacy key, and uses identity only on identity routes', () => {
    const auth = { apiKey: { id: 'k', header: () => 'lmts_x' }, identity: { header: () => 'Bearer idt' } };
    expect(authHeaders(auth, 'auto', 'GET', '/x', '').headers).toEqual({ 'X-API-Key': 'lmts_x' });
    expect(authHeaders(auth, 'identity', 'GET', '/x', '').headers).toEqual({ identity: 'Bearer idt' });
    expect(authHeaders(auth, 'none', 'GET', '/x', '').headers).toEqual({});
  });
  it('recognises base64 secrets', () => {
    expect(isBase64(V.secret)).toBe(true);
    expect(isBase64('not base64!')).toBe(false);
    expect(isBase64('abc')).toBe(false);
  });
});
