// Authentication as the exchange does it (wire-facts §2): HMAC scoped tokens over the raw
// request target and raw body with a ±30 s window, the legacy X-API-Key, and identity bearer
// tokens, then scopes. An independent implementation: it does not use the client's code.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SandboxState, Scope } from './types.js';
import type { AuthContext, AuthRequirement } from './handlers.js';
import { ALLOWED_SCOPES } from './seed.js';

const WINDOW_MS = 30_000;

/** The signature the exchange expects for one request. */
export function expectedSignature(secretBase64: string, timestamp: string, method: string, target: string, rawBody: string): string {
  const message = [timestamp, method.toUpperCase(), target, rawBody].join('\n');
  return createHmac('sha256', Buffer.from(secretBase64, 'base64')).update(message, 'utf8').digest('base64');
}

export type AuthResult =
  | { ok: true; auth: AuthContext | null; limiterKey: string | null }
  | { ok: false; status: 401 | 403; message: string };

const header = (h: Record<string, string | string[] | undefined>, k: string): string | undefined => {
  const v = h[k];
  return Array.isArray(v) ? v[0] : v;
};

/** Every scope a profile may use with a non-HMAC credential. */
export function allowedScopes(state: SandboxState, profileId: number): Scope[] {
  const p = state.profiles.find((x) => x.id === profileId);
  return (p && ALLOWED_SCOPES[p.role]) ?? ['trading'];
}

/** Checks the credentials of one request against the route's requirement. */
export function authenticate(
  state: SandboxState,
  req: AuthRequirement,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  target: string,
  rawBody: string,
  nowMs: number,
): AuthResult {
  if (req.kind === 'public') return { ok: true, auth: null, limiterKey: null };
  const tokenId = header(headers, 'lmts-api-key');
  const apiKey = header(headers, 'x-api-key');
  const identity = header(headers, 'identity');
  const identityOk = req.kind === 'identity' || req.identity;

  if (identity !== undefined && identityOk) {
    const m = /^Bearer\s+(.+)$/.exec(identity);
    const rec = m ? state.identityTokens.find((t) => t.token === m[1]) : undefined;
    if (!rec) return { ok: false, status: 401, message: 'Invalid identity token' };
    return scoped(state, req, { method: 'identity', profileId: rec.profileId, scopes: allowedScopes(state, rec.profileId) }, null);
  }
  if (req.kind === 'identity') {
    if (tokenId !== undefined || apiKey !== undefined)
      return {
        ok: false,
        status: 403,
        message: 'This route requires an identity token (identity: Bearer <token>); API tokens and keys are not accepted',
      };
    return { ok: false, status: 401, message: 'Authentication required: identity token missing' };
  }
  if (tokenId !== undefined) {
    const ts = header(headers, 'lmts-timestamp');
    const sig = header(headers, 'lmts-signature');
    const token = state.tokens.find((t) => t.tokenId === tokenId && t.revokedAt === null);
    if (!token || ts === undefined || sig === undefined) return { ok: false, status: 401, message: 'Invalid HMAC authentication' };
    const at = Date.parse(ts);
    if (!Number.isFinite(at)) return { ok: false, status: 401, message: 'Invalid HMAC authentication: bad timestamp' };
    if (Math.abs(nowMs - at) > WINDOW_MS) {
      return {
        ok: false,
        status: 401,
        message: `Invalid HMAC authentication: timestamp ${ts} is outside the 30 s window (server time ${new Date(nowMs).toISOString()})`,
      };
    }
    const expected = Buffer.from(expectedSignature(token.secret, ts, method, target, rawBody));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return { ok: false, status: 401, message: 'Invalid HMAC authentication' };
    token.lastUsedAt = new Date(nowMs).toISOString();
    return scoped(
      state,
      req,
      { method: 'hmac', profileId: token.profileId, scopes: [...token.scopes], tokenId: token.tokenId },
      `hmac:${token.tokenId}`,
    );
  }
  if (apiKey !== undefined) {
    const rec = state.apiKeys.find((k) => k.key === apiKey);
    if (!rec) return { ok: false, status: 401, message: 'Invalid API key' };
    if (!req.legacy) return { ok: false, status: 403, message: 'Legacy API keys are not supported on this route: use a scoped API token' };
    return scoped(state, req, { method: 'apiKey', profileId: rec.profileId, scopes: allowedScopes(state, rec.profileId) }, `key:${apiKey}`);
  }
  if (identity !== undefined)
    return { ok: false, status: 403, message: 'This route does not accept identity tokens: use a scoped API token' };
  return { ok: false, status: 401, message: 'Authentication required' };
}

function scoped(state: SandboxState, req: AuthRequirement, auth: AuthContext, limiterKey: string | null): AuthResult {
  if (!state.profiles.some((p) => p.id === auth.profileId)) return { ok: false, status: 401, message: 'Unknown profile' };
  if (req.kind === 'token') {
    for (const s of req.scopes) if (!auth.scopes.includes(s)) return { ok: false, status: 403, message: `Missing required scope: ${s}` };
  }
  return { ok: true, auth, limiterKey };
}
