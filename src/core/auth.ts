// Credentials as capabilities: the transport gets closures that sign or produce headers; the
// raw secrets stay inside the keystore (or the env-var resolver) that built them.
import { hmacMessage } from './hmac.js';
import { nodeCrypto } from './node-crypto.js';

export interface HmacSigner {
  tokenId: string;
  /**
   * Base64 HMAC-SHA256 of the canonical message; a Promise when another process holds the
   * secret (the session agent of pm unlock).
   */
  sign(message: string): string | Promise<string>;
}

export interface AuthProvider {
  /** Scoped API token (HMAC). */
  hmac?: HmacSigner;
  /** Legacy X-API-Key; `id` is a redacted label for logs and the rate limiter. */
  apiKey?: { id: string; header(): string };
  /** Identity-provider token, sent as `identity: Bearer <token>`. */
  identity?: { header(): string };
}

/** Builds an HMAC signer that keeps the decoded secret in a closure. */
export function hmacSigner(tokenId: string, secretBase64: string): HmacSigner & { sign(message: string): string } {
  const key = Buffer.from(secretBase64, 'base64');
  return { tokenId, sign: (message) => nodeCrypto().createHmac('sha256', key).update(message, 'utf8').digest('base64') };
}

/** Which credential a request uses (wire-facts §2.1 precedence). */
export type AuthMode = 'none' | 'auto' | 'identity';

/** The per-token rate-limit key a request will use, or null for unauthenticated calls. */
export function limiterKeyOf(auth: AuthProvider, mode: AuthMode): string | null {
  if (mode !== 'auto') return null;
  if (auth.hmac) return `hmac:${auth.hmac.tokenId}`;
  if (auth.apiKey) return `key:${auth.apiKey.id}`;
  return null;
}

type AuthHeaders = { headers: Record<string, string>; limiterKey: string | null; used: 'hmac' | 'apiKey' | 'identity' | null };

/** The HMAC scheme's headers (wire-facts §2.1); its requests are paced per token. */
function hmacHeaders(tokenId: string, ts: string, signature: string): AuthHeaders {
  return {
    headers: { 'lmts-api-key': tokenId, 'lmts-timestamp': ts, 'lmts-signature': signature },
    limiterKey: `hmac:${tokenId}`,
    used: 'hmac',
  };
}

/**
 * authHeaders for any signer, the session agent's (asynchronous) included: what the transport uses.
 */
export async function authHeadersAsync(
  auth: AuthProvider,
  mode: AuthMode,
  method: string,
  pathWithQuery: string,
  body: string,
  now: Date = new Date(),
): Promise<AuthHeaders> {
  if (mode === 'auto' && auth.hmac) {
    const ts = now.toISOString();
    return hmacHeaders(auth.hmac.tokenId, ts, await auth.hmac.sign(hmacMessage(ts, method, pathWithQuery, body)));
  }
  return authHeaders(auth, mode, method, pathWithQuery, body, now);
}

/**
 * Auth headers for one request: identity on identity routes; else HMAC when a token is set
 * (suppresses X-API-Key); else the legacy key. Returns the headers and the rate-limit key.
 * Synchronous: an asynchronous signer (the session agent) needs authHeadersAsync.
 */
export function authHeaders(
  auth: AuthProvider,
  mode: AuthMode,
  method: string,
  pathWithQuery: string,
  body: string,
  now: Date = new Date(),
): AuthHeaders {
  if (mode === 'none') return { headers: {}, limiterKey: null, used: null };
  if (mode === 'identity') {
    if (!auth.identity) return { headers: {}, limiterKey: null, used: null };
    return { headers: { identity: auth.identity.header() }, limiterKey: null, used: 'identity' };
  }
  if (auth.hmac) {
    const ts = now.toISOString();
    const signature = auth.hmac.sign(hmacMessage(ts, method, pathWithQuery, body));
    if (typeof signature !== 'string') throw new TypeError('internal: this HMAC signer answers asynchronously; use authHeadersAsync');
    return hmacHeaders(auth.hmac.tokenId, ts, signature);
  }
  if (auth.apiKey) return { headers: { 'X-API-Key': auth.apiKey.header() }, limiterKey: `key:${auth.apiKey.id}`, used: 'apiKey' };
  return { headers: {}, limiterKey: null, used: null };
}
