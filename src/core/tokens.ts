// Scoped API tokens and profiles (wire-facts §2.2, §4.4).
import type { ApiClient } from './http.js';
import {
  AuthError,
  ExchangeError,
  NetworkError,
  NotFoundError,
  UnknownStateError,
  ValidationError,
  errorMessage,
  withHint,
} from './errors.js';
import { isObj } from './wire.js';
import type { Json } from './wire.js';

const SCOPES = ['trading', 'account_creation', 'delegated_signing', 'withdrawal'] as const;
export type Scope = (typeof SCOPES)[number];

const s = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : typeof o[k] === 'number' ? String(o[k]) : '');

/** Checks a comma-separated scope list. */
export function parseScopes(input: string): Scope[] {
  const list = input
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new ValidationError('no scope given', { hint: `Name at least one (${SCOPES.join(', ')}), or leave out --scopes for trading.` });
  for (const sc of list) {
    if (!(SCOPES as readonly string[]).includes(sc))
      throw new ValidationError(`unknown scope "${sc}"`, { hint: `Scopes: ${SCOPES.join(', ')}` });
  }
  if (list.includes('delegated_signing') && !list.includes('trading'))
    throw new ValidationError('the delegated_signing scope needs trading too', { hint: 'Use --scopes trading,delegated_signing' });
  return [...new Set(list)] as Scope[];
}

export interface DerivedToken {
  tokenId: string;
  secret: string;
  scopes: string[];
  createdAt: string;
  profileId: number;
  account: string;
}

/**
 * Derives a scoped token with an identity token; the secret is returned once. An answer pm cannot
 * read is an UnknownStateError: a token made then is live and its secret was only in that answer,
 * so the message says to find it (`check`: the CLI's own `pm token list` line) and revoke it.
 */
export async function deriveToken(
  api: ApiClient,
  p: { label?: string | undefined; scopes?: Scope[] | undefined },
  o: { check?: string | undefined } = {},
): Promise<DerivedToken> {
  const body: Json = {};
  if (p.label !== undefined) body['label'] = p.label;
  if (p.scopes !== undefined) body['scopes'] = p.scopes;
  const sentAt = new Date().toISOString();
  let res: { status: number; data: unknown };
  try {
    res = await api.request<unknown>({ method: 'POST', path: '/auth/api-tokens/derive', body, auth: 'identity' });
  } catch (e) {
    if (e instanceof NetworkError && e.ambiguous) throw lostToken(p.label, sentAt, o.check, e);
    if (e instanceof AuthError && e.status === 403)
      throw withHint(
        e,
        'The scopes an account may request are its capabilities: pm token capabilities lists them (trading is self-serve; account_creation and delegated_signing are for partners).',
        'replace',
      );
    throw e;
  }
  const d = res.data;
  if (!isObj(d) || typeof d['secret'] !== 'string' || (typeof d['tokenId'] !== 'string' && typeof d['apiKey'] !== 'string'))
    throw lostToken(p.label, sentAt, o.check, undefined, res.status);
  const prof = isObj(d['profile']) ? d['profile'] : {};
  return {
    tokenId: s(d, 'tokenId') || s(d, 'apiKey'),
    secret: d['secret'],
    scopes: Array.isArray(d['scopes']) ? d['scopes'].map(String) : [],
    createdAt: s(d, 'createdAt'),
    profileId: Number(s(prof, 'id')),
    account: s(prof, 'account'),
  };
}

export interface TokenInfo {
  tokenId: string;
  label: string | null;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** Active tokens of the caller. */
export async function listTokens(api: ApiClient): Promise<TokenInfo[]> {
  const d = (await api.request<unknown>({ method: 'GET', path: '/auth/api-tokens', auth: 'auto' })).data;
  const list = Array.isArray(d) ? d : isObj(d) && Array.isArray(d['data']) ? d['data'] : null;
  if (!list) throw new ExchangeError('unexpected answer from token list');
  return list.filter(isObj).map((t) => ({
    tokenId: s(t, 'tokenId'),
    label: typeof t['label'] === 'string' ? t['label'] : null,
    scopes: Array.isArray(t['scopes']) ? t['scopes'].map(String) : [],
    createdAt: s(t, 'createdAt'),
    lastUsedAt: typeof t['lastUsedAt'] === 'string' ? t['lastUsedAt'] : null,
  }));
}

/** Revokes a token. */
/** A token id as given (trimmed); an empty one is refused before anything is sent. */
export function checkTokenId(input: string): string {
  const id = input.trim();
  if (id === '') throw new ValidationError('the token id is empty', { hint: 'pm token list shows the ids.' });
  return id;
}

export async function revokeToken(api: ApiClient, tokenId: string): Promise<string> {
  checkTokenId(tokenId);
  let d: unknown;
  try {
    d = (await api.request<unknown>({ method: 'DELETE', path: `/auth/api-tokens/${encodeURIComponent(tokenId)}`, auth: 'auto' })).data;
  } catch (e) {
    if (e instanceof NotFoundError && !e.hint)
      throw withHint(
        e,
        `No active token ${tokenId} on this account (revoked already, or another account's): pm token list shows its tokens.`,
      );
    // Sent, and its answer lost: the token may be revoked. Revoking again tells (not found: it is).
    if (e instanceof NetworkError && e.ambiguous)
      throw new UnknownStateError(`the revoke of token ${tokenId} may or may not have happened: its answer was lost (${e.shortMessage})`, {
        cause: e,
        hint: `Revoke it again: a token revoked already is said so. Or look: pm token list.`,
      });
    throw e;
  }
  return isObj(d) ? s(d, 'message') : 'Token revoked';
}

/** Scopes every profile may derive, partner or not (wire-facts §2.2: trading is self-serve, the default). */
const SELF_SERVE_SCOPES: readonly Scope[] = ['trading'];

export interface Capabilities {
  partnerProfileId: number;
  /** The exchange's partner capability record: false (and no scopes) when there is none. */
  tokenManagementEnabled: boolean;
  /** The partner scopes of that record, as the exchange sent them. */
  allowedScopes: string[];
  /** What `token derive` can really ask for: the self-serve scopes plus the partner ones. */
  derivableScopes: string[];
  /** The scopes any profile may derive without a partner record. */
  selfServeScopes: string[];
}

/**
 * What scopes the identity may request. The capabilities route describes the *partner*
 * record only (exchange-api: "defaults to false / an empty array when no capability record
 * exists"), while a trading token is self-serve for every profile; so the derivable scopes
 * are the self-serve ones plus, when token management is enabled, the partner's allowed ones.
 */
export async function capabilities(api: ApiClient): Promise<Capabilities> {
  const d = (await api.request<unknown>({ method: 'GET', path: '/auth/api-tokens/capabilities', auth: 'identity' })).data;
  if (!isObj(d)) throw new ExchangeError('unexpected answer from capabilities');
  const tokenManagementEnabled = d['tokenManagementEnabled'] === true;
  const allowedScopes = Array.isArray(d['allowedScopes']) ? d['allowedScopes'].map(String) : [];
  return {
    partnerProfileId: Number(s(d, 'partnerProfileId')),
    tokenManagementEnabled,
    allowedScopes,
    derivableScopes: derivableScopes(tokenManagementEnabled, allowedScopes),
    selfServeScopes: [...SELF_SERVE_SCOPES],
  };
}

/** The scopes `token derive` can ask for, in the usual order. */
function derivableScopes(tokenManagementEnabled: boolean, allowedScopes: readonly string[]): string[] {
  const set = new Set<string>([...SELF_SERVE_SCOPES, ...(tokenManagementEnabled ? allowedScopes : [])]);
  return [...SCOPES.filter((x) => set.has(x)), ...[...set].filter((x) => !(SCOPES as readonly string[]).includes(x))];
}

/** Which request credential the next command uses (the transport's precedence: HMAC token, then the legacy key). */
export interface CredentialInUse {
  kind: 'token' | 'apiKey' | 'none';
  source: 'env' | 'keystore' | null;
  tokenId?: string;
}

/**
 * What a profile authenticates with after `revoked` is revoked, given what the environment
 * sets and what stays stored: a token or key from the environment replaces the stored ones.
 */
export function credentialAfterRevoke(p: {
  revoked: string;
  env: { tokenId?: string | undefined; apiKey?: string | undefined };
  stored: { tokenId?: string | undefined; apiKey: boolean };
}): CredentialInUse & { revokedStillSet: boolean } {
  const envToken = p.env.tokenId?.trim() || undefined;
  const envKey = p.env.apiKey?.trim() || undefined;
  if (envToken !== undefined) return { kind: 'token', source: 'env', tokenId: envToken, revokedStillSet: envToken === p.revoked };
  if (envKey !== undefined) return { kind: 'apiKey', source: 'env', revokedStillSet: false };
  if (p.stored.tokenId !== undefined)
    return { kind: 'token', source: 'keystore', tokenId: p.stored.tokenId, revokedStillSet: p.stored.tokenId === p.revoked };
  if (p.stored.apiKey) return { kind: 'apiKey', source: 'keystore', revokedStillSet: false };
  return { kind: 'none', source: null, revokedStillSet: false };
}

export interface Profile {
  id: number;
  account: string;
  displayName: string;
  feeRateBps: number;
  /** The managed wallet the profile trades from, when it has one (a server wallet). */
  embeddedAccount: string | null;
  raw: Json;
}

function parseProfile(d: unknown): Profile {
  if (!isObj(d) || (typeof d['id'] !== 'number' && typeof d['id'] !== 'string'))
    throw new ExchangeError('unexpected profile answer (no id)');
  const rank = isObj(d['rank']) ? d['rank'] : {};
  const fee = rank['feeRateBps'];
  return {
    id: Number(d['id']),
    account: s(d, 'account'),
    displayName: s(d, 'displayName') || s(d, 'username'),
    feeRateBps: typeof fee === 'number' ? fee : 300,
    embeddedAccount: /^0x[0-9a-fA-F]{40}$/.test(s(d, 'embeddedAccount')) ? s(d, 'embeddedAccount') : null,
    raw: d,
  };
}

/** The caller's own profile: verifies the credentials with an authenticated call. */
export async function profileMe(api: ApiClient): Promise<Profile> {
  return parseProfile((await api.request<unknown>({ method: 'GET', path: '/profiles/me', auth: 'auto', onBehalfOfIn: 'none' })).data);
}

/** A derivation whose answer was lost (`cause`) or unreadable (a 2xx `status`): find the token, revoke it. */
function lostToken(
  label: string | undefined,
  sentAt: string,
  check: string | undefined,
  cause: NetworkError | undefined,
  status?: number,
): UnknownStateError {
  const why = cause ? errorMessage(cause.cause instanceof Error ? cause.cause : cause) : `it answered ${status} with a body pm cannot read`;
  const err = new UnknownStateError(
    `${cause ? 'the exchange may have made a token' : 'the exchange made a token'} whose secret pm never read (${why})`,
    {
      cause,
      status,
      hint: `A token made then is live, and its secret was only in that answer: nobody can use it. Run exactly this\n  ${
        check ?? 'tokens.list()'
      }\nthe token${label !== undefined ? ` labelled ${label}` : ''} created at ${sentAt} or just after is it: pm token revoke <its id>. Then derive a new one.`,
    },
  );
  err.ambiguous = true;
  return err;
}
