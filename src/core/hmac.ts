// HMAC request signing for scoped API tokens (wire-facts §2.1).
// Pure functions, pinned by the published vector in test/unit/hmac.test.ts.
import { nodeCrypto } from './node-crypto.js';

/** The canonical string: `ts\nMETHOD\npathWithQuery\nbody` (no trailing LF added). */
export function hmacMessage(timestamp: string, method: string, pathWithQuery: string, body: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${pathWithQuery}\n${body}`;
}

/**
 * Signs one request. `secretBase64` is the token secret as issued (base64); it is decoded to
 * raw bytes for the key. Returns standard base64 of the HMAC-SHA256 digest.
 * @example signHmac('c3VwZXItc2VjcmV0LWtleQ==', '2026-03-23T12:34:56.789Z', 'PATCH', '/orders?market=btc', '{"foo":"bar"}')
 */
export function signHmac(secretBase64: string, timestamp: string, method: string, pathWithQuery: string, body: string): string {
  const key = Buffer.from(secretBase64, 'base64');
  return nodeCrypto()
    .createHmac('sha256', key)
    .update(hmacMessage(timestamp, method, pathWithQuery, body), 'utf8')
    .digest('base64');
}

/** True when `s` is canonical standard base64 (what token secrets must be). */
export function isBase64(s: string): boolean {
  return s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
}

export interface HmacHeaders {
  'lmts-api-key': string;
  'lmts-timestamp': string;
  'lmts-signature': string;
}

/** The three auth headers for one request. */
export function hmacHeaders(
  tokenId: string,
  secretBase64: string,
  method: string,
  pathWithQuery: string,
  body: string,
  now: Date = new Date(),
): HmacHeaders {
  const ts = now.toISOString();
  return { 'lmts-api-key': tokenId, 'lmts-timestamp': ts, 'lmts-signature': signHmac(secretBase64, ts, method, pathWithQuery, body) };
}
