// Tokens and profiles (wire-facts §2.2, §4.4).
import { randomBytes } from 'node:crypto';
import { allowedScopes } from '../auth.js';
import type { Profile, SandboxState, Scope } from '../types.js';
import type { Route, SandboxResponse } from '../handlers.js';

const err = (status: number, message: string): SandboxResponse => ({ status, body: { message } });
const ANY: Route['auth'] = { kind: 'token', scopes: [], legacy: true, identity: true };
const SCOPES: Scope[] = ['trading', 'account_creation', 'delegated_signing', 'withdrawal'];

/** The private profile view. */
function profileJson(p: Profile): Record<string, unknown> {
  return {
    id: p.id,
    account: p.address,
    // The wallet kind the profile signs with; the Python SDK's UserProfile requires it. Every
    // sandbox wallet (server wallets too) signs as an EOA (signatureType 0).
    client: 'eoa',
    displayName: p.displayName,
    username: p.name,
    rank: { id: p.feeRateBps === 0 ? 0 : 1, name: p.feeRateBps === 0 ? 'Market maker' : 'Bronze', feeRateBps: p.feeRateBps },
    createdAt: p.createdAt,
    ...(p.parentProfileId !== undefined ? { parentProfileId: p.parentProfileId } : {}),
    // The managed wallet a profile trades from (UserProfile.embeddedAccount in the official SDK).
    ...(p.serverWalletAddress !== undefined ? { embeddedAccount: p.serverWalletAddress } : {}),
  };
}

function me(state: SandboxState, id: number): Profile | undefined {
  return state.profiles.find((p) => p.id === id);
}

export const accountRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/auth/api-tokens/derive',
    auth: { kind: 'identity' },
    handler: (req, ctx) => {
      const profileId = req.auth?.profileId ?? 0;
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) return err(400, 'body must be an object');
      const label = body['label'];
      if (label !== undefined && (typeof label !== 'string' || label.length > 128))
        return err(400, 'label must be a string of at most 128 characters');
      const raw = body['scopes'] ?? ['trading'];
      if (!Array.isArray(raw) || raw.some((s) => typeof s !== 'string' || !SCOPES.includes(s as Scope)))
        return err(400, `scopes must be a list of ${SCOPES.join(', ')}`);
      const scopes = [...new Set(raw as Scope[])];
      const allowed = allowedScopes(ctx.state, profileId);
      const denied = scopes.filter((s) => !allowed.includes(s));
      if (denied.length) return err(403, `Scopes not allowed for this profile: ${denied.join(', ')}`);
      if (scopes.includes('delegated_signing') && !scopes.includes('trading'))
        return err(400, 'delegated_signing requires the trading scope');
      const at = ctx.now();
      const now = new Date(at).toISOString();
      const tokenId = `tok_${randomBytes(9).toString('base64url')}`;
      // The event holds no secret: the reducer derives it from the server key.
      ctx.apply({
        type: 'token.derived',
        at,
        token: { tokenId, profileId, scopes, label: typeof label === 'string' ? label : null, createdAt: now },
      });
      const secret = ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret ?? '';
      const p = me(ctx.state, profileId);
      return {
        status: 201,
        body: { apiKey: tokenId, secret, tokenId, createdAt: now, scopes, profile: { id: profileId, account: p?.address ?? '' } },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/auth/api-tokens',
    auth: { kind: 'token', scopes: [], legacy: true, identity: false },
    handler: (req, ctx) => ({
      status: 200,
      body: ctx.state.tokens
        .filter((t) => t.profileId === req.auth?.profileId && t.revokedAt === null)
        .map((t) => ({ tokenId: t.tokenId, label: t.label, scopes: t.scopes, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt })),
    }),
  },
  {
    method: 'DELETE',
    pattern: '/auth/api-tokens/:tokenId',
    auth: { kind: 'token', scopes: [], legacy: true, identity: true },
    handler: (req, ctx) => {
      const t = ctx.state.tokens.find(
        (x) => x.tokenId === req.params['tokenId'] && x.profileId === req.auth?.profileId && x.revokedAt === null,
      );
      if (!t) return err(404, 'Token not found');
      ctx.apply({ type: 'token.revoked', at: ctx.now(), tokenId: t.tokenId });
      return { status: 200, body: { message: 'Token revoked successfully' } };
    },
  },
  {
    method: 'GET',
    pattern: '/auth/api-tokens/capabilities',
    auth: { kind: 'identity' },
    handler: (req, ctx) => {
      const id = req.auth?.profileId ?? 0;
      const p = me(ctx.state, id);
      const partner = p?.role === 'partner';
      return {
        status: 200,
        body: { partnerProfileId: id, tokenManagementEnabled: partner, allowedScopes: partner ? allowedScopes(ctx.state, id) : [] },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/profiles/me',
    auth: ANY,
    handler: (req, ctx) => {
      const p = me(ctx.state, req.auth?.profileId ?? 0);
      return p ? { status: 200, body: profileJson(p) } : err(404, 'Profile not found');
    },
  },
  {
    method: 'GET',
    pattern: '/profiles/:address',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const a = (req.params['address'] ?? '').toLowerCase();
      const p = ctx.state.profiles.find((x) => x.address.toLowerCase() === a);
      return p ? { status: 200, body: profileJson(p) } : err(404, `Profile ${req.params['address'] ?? ''} not found`);
    },
  },
];
