// What every route handler shares: the JSON error answer, body and header readers, the acting
// profile (the caller or one of its sub-accounts), and the HTTP status of an engine refusal.
import type { Refusal } from '../engine.js';
import type { Profile } from '../types.js';
import type { SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

/** A JSON error answer: `{message}` with a status. */
export function fail(status: number, message: string): SandboxResponse {
  return { status, body: { message } };
}

/** The answer to an engine refusal: 404 for what does not exist, 400 for the rest. */
export function refused(r: Refusal): SandboxResponse {
  return fail(r.reason === 'MARKET_NOT_FOUND' || r.reason === 'ORDER_NOT_FOUND' ? 404 : 400, r.message);
}

/** A plain JSON object, or null. */
export function asObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** One request header (the first, when repeated). */
export function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** An integer id from a number or a decimal string; null when absent, NaN when malformed. */
export function parseId(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return Number.NaN;
}

/**
 * The profile a request acts for: the caller, or with `onBehalfOf` one of its sub-accounts.
 * Returns the profile or a refusal (403 when the target is not the caller's child).
 */
export function actingProfile(ctx: SandboxContext, callerId: number, onBehalfOf: unknown): Profile | SandboxResponse {
  const id = parseId(onBehalfOf);
  if (Number.isNaN(id)) return fail(400, 'onBehalfOf must be a profile id (integer)');
  const state = ctx.state;
  if (id === null || id === callerId) {
    const self = state.profiles.find((p) => p.id === callerId);
    return self ?? fail(401, 'Authenticated profile not found');
  }
  const target = state.profiles.find((p) => p.id === id);
  if (!target || target.parentProfileId !== callerId) {
    return fail(403, `Profile ${id} is not a sub-account of the authenticated profile`);
  }
  return target;
}

/** Narrowing helper: was a value returned by actingProfile a refusal? */
export function isResponse<T extends object>(v: T | SandboxResponse): v is SandboxResponse {
  return 'status' in v;
}

/** A scoped token must carry `scope`; identity auth acts with the profile's own rights. */
export function needScope(req: SandboxRequest, scope: 'trading' | 'withdrawal'): SandboxResponse | null {
  const a = req.auth;
  if (!a) return fail(401, 'Authentication required');
  if (a.method === 'hmac' && !a.scopes.includes(scope))
    return fail(403, `Missing required scope: ${scope} (this API token cannot ${scope === 'withdrawal' ? 'withdraw' : 'redeem'})`);
  return null;
}

/** The profile a `?profileId=N` query names (the admin views of one profile), or 400/404. */
export function queriedProfile(req: SandboxRequest, ctx: SandboxContext): Profile | SandboxResponse {
  const raw = req.query.get('profileId') ?? '';
  if (!/^\d{1,15}$/.test(raw)) return fail(400, 'profileId must be a profile id (integer)');
  const id = Number(raw);
  return ctx.state.profiles.find((p) => p.id === id) ?? fail(404, `Profile ${id} not found`);
}
