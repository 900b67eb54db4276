// Partner platforms (exchange-api.md "partner accounts"; wire-facts §2.5, §4.4): sub-accounts
// in EOA mode (the child's wallet proves itself by signing a single-use message) or with a
// server wallet (managed key; delegated signing), the partner's listing, and the allowance
// readiness of server wallets (partner/allowances.ts). A new sub-account is one
// profile.created event (a server wallet's key is not in it: it derives from the server key and
// the wallet's salt, keys.ts), its allowances further events.
import { randomBytes } from 'node:crypto';
import { getAddress, hexToString, isAddress, isHex, recoverMessageAddress } from 'viem';
import { walletAddress } from '../keys.js';
import { liveTargets, retryAllowances, scheduleProvisioning, simOf } from '../partner/allowances.js';
import { allowanceView, initialTargets } from '../partner/targets.js';
import type { AllowanceFailure } from '../partner/allowances.js';
import type { Hex, Profile, SandboxState } from '../types.js';
import type { Route, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

const fail = (status: number, message: string): SandboxResponse => ({ status, body: { message } });

/** Signing messages handed out and not yet used, per state (a reset forgets them). */
interface Issued {
  message: string;
  issuedAt: number;
}
const issued = new WeakMap<SandboxState, Map<string, Issued>>();
/** How long a signing message stays valid. */
const NONCE_TTL_MS = 5 * 60_000;
const MAX_OUTSTANDING = 10_000;

function nonces(state: SandboxState): Map<string, Issued> {
  let m = issued.get(state);
  if (!m) {
    m = new Map();
    issued.set(state, m);
  }
  return m;
}

/** The message template of the SDKs (wire-facts §4.4). */
function signingMessage(nonce: string): string {
  return `Welcome to Limitless.exchange! Please sign this message to verify your identity.\n\nNonce: ${nonce}`;
}

const header = (req: SandboxRequest, k: string): string | undefined => {
  const v = req.headers[k];
  return Array.isArray(v) ? v[0] : v;
};

const CREATE: Route['auth'] = { kind: 'token', scopes: ['account_creation'], legacy: false, identity: false };
const ALLOWANCES: Route['auth'] = { kind: 'token', scopes: ['account_creation', 'delegated_signing'], legacy: false, identity: false };

/**
 * Checks the EOA proof headers: a message this exchange issued (single use, not expired),
 * signed with personal_sign by the EIP-55 `x-account`. Returns the address or a refusal.
 */
async function eoaProof(req: SandboxRequest, ctx: SandboxContext): Promise<Hex | SandboxResponse> {
  const account = header(req, 'x-account');
  const msgHex = header(req, 'x-signing-message');
  const signature = header(req, 'x-signature');
  if (account === undefined || msgHex === undefined || signature === undefined) {
    return fail(400, 'EOA mode needs the x-account, x-signing-message and x-signature headers (or createServerWallet: true)');
  }
  if (!isAddress(account, { strict: true }) || getAddress(account) !== account)
    return fail(400, `x-account must be an EIP-55 checksummed address, got ${account}`);
  if (!isHex(msgHex) || msgHex.length < 4)
    return fail(400, 'x-signing-message must be the 0x-prefixed hex of the UTF-8 message from GET /auth/signing-message');
  let message: string;
  try {
    message = hexToString(msgHex);
  } catch {
    return fail(400, 'x-signing-message is not valid hex of UTF-8 text');
  }
  const nonce = /Nonce: (0x[0-9a-f]{64})\s*$/.exec(message)?.[1];
  const list = nonces(ctx.state);
  const rec = nonce === undefined ? undefined : list.get(nonce);
  if (nonce === undefined || !rec || rec.message !== message)
    return fail(400, 'The signing message is unknown or was already used: get a fresh one from GET /auth/signing-message');
  // Single use: the first presentation spends it, whatever the outcome.
  list.delete(nonce);
  if (ctx.now() - rec.issuedAt > NONCE_TTL_MS)
    return fail(
      400,
      `The signing message expired (valid ${NONCE_TTL_MS / 60_000} minutes): get a fresh one from GET /auth/signing-message`,
    );
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return fail(400, 'x-signature must be a 65-byte 0x-prefixed hex signature');
  let recovered: Hex;
  try {
    recovered = await recoverMessageAddress({ message, signature: signature as Hex });
  } catch {
    return fail(400, 'x-signature is not a valid signature');
  }
  if (recovered !== account) return fail(400, `x-signature was not made by x-account ${account} (it recovers to ${recovered})`);
  return account;
}

async function createAccount(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  const body = req.json === undefined ? {} : req.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(400, 'Request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const displayName = b['displayName'];
  if (displayName !== undefined && (typeof displayName !== 'string' || displayName.length > 44))
    return fail(400, 'displayName must be a string of at most 44 characters');
  const server = b['createServerWallet'];
  if (server !== undefined && typeof server !== 'boolean') return fail(400, 'createServerWallet must be a boolean');
  const partner = ctx.state.profiles.find((p) => p.id === auth.profileId);
  if (!partner) return fail(401, 'Authenticated profile not found');
  if (partner.role === 'sub_account') return fail(403, 'A sub-account cannot create sub-accounts');

  let address: Hex;
  let walletSalt: string | undefined;
  if (server === true) {
    if (!auth.scopes.includes('delegated_signing')) return fail(403, 'Server wallet creation requires delegated_signing scope');
    const serverKey = ctx.state.serverKey;
    if (!serverKey) return fail(500, 'The sandbox has no server key to derive a server wallet from');
    walletSalt = randomBytes(16).toString('hex');
    address = walletAddress(serverKey, walletSalt);
  } else {
    const proof = await eoaProof(req, ctx);
    if (typeof proof !== 'string') return proof;
    address = proof;
  }
  // No await past this point: the uniqueness check and the commit must not interleave.
  const state = ctx.state;
  if (address.toLowerCase() === partner.address.toLowerCase())
    return fail(400, 'A partner cannot create a sub-account for its own address');
  if (state.profiles.some((p) => p.address.toLowerCase() === address.toLowerCase()))
    return fail(409, `A profile already exists for address ${address}`);
  const id = state.nextProfileId;
  const at = ctx.now();
  const name = typeof displayName === 'string' && displayName !== '' ? displayName : address;
  const profile: Profile = {
    id,
    name,
    role: 'sub_account',
    address,
    feeRateBps: partner.feeRateBps,
    parentProfileId: partner.id,
    ...(server === true ? { serverWallet: true } : {}),
    ...(walletSalt !== undefined ? { walletSalt } : {}),
    displayName: name,
    createdAt: new Date(at).toISOString(),
  };
  ctx.apply(
    { type: 'profile.created', at, profile },
    ...(server === true ? [{ type: 'allowances' as const, at, profileId: id, targets: initialTargets(state, ctx) }] : []),
  );
  if (server === true) scheduleProvisioning(ctx, id);
  return { status: 201, body: { profileId: id, account: address } };
}

function intParam(v: string | null, name: string, dflt: number, min: number): number | SandboxResponse {
  if (v === null || v === '') return dflt;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min) return fail(400, `${name} must be an integer ≥ ${min}, got ${v}`);
  return Number(v);
}

function listAccounts(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  if (header(req, 'x-on-behalf-of') !== undefined) return fail(400, 'x-on-behalf-of is not accepted on GET /profiles/partner-accounts');
  const limit = intParam(req.query.get('limit'), 'limit', 25, 1);
  if (typeof limit !== 'number') return limit;
  const page = intParam(req.query.get('page'), 'page', 1, 1);
  if (typeof page !== 'number') return page;
  const size = Math.min(limit, 25);
  const account = req.query.get('account');
  if (account !== null && !isAddress(account, { strict: false })) return fail(400, `account must be an address, got ${account}`);
  const all = ctx.state.profiles
    .filter((p) => p.parentProfileId === auth.profileId && (account === null || p.address.toLowerCase() === account.toLowerCase()))
    .sort((a, b) => a.id - b.id);
  const data = all.slice((page - 1) * size, page * size).map((p) => ({
    profileId: p.id,
    account: p.address,
    displayName: p.displayName,
    serverWallet: p.serverWallet === true,
    createdAt: p.createdAt,
  }));
  return { status: 200, body: { data, page, limit: size, hasMore: all.length > page * size } };
}

/** The caller's server-wallet child named in the path, or the refusal the exchange gives. */
function childOf(req: SandboxRequest, ctx: SandboxContext): Profile | SandboxResponse {
  const raw = req.params['profileId'] ?? '';
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) return fail(400, `profileId must be a positive integer, got ${raw}`);
  const id = Number(raw);
  const child = ctx.state.profiles.find((p) => p.id === id);
  if (!child || child.parentProfileId !== req.auth?.profileId)
    return fail(404, `Profile ${id} is not a sub-account of the authenticated partner`);
  if (!child.serverWallet)
    return fail(
      400,
      `Profile ${id} is an EOA sub-account: its wallet sets its own approvals on chain; allowances are tracked for server wallets only`,
    );
  return child;
}

async function getAllowances(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const child = childOf(req, ctx);
  if ('status' in child) return child;
  const targets = await liveTargets(ctx, child.id);
  return { status: 200, body: allowanceView(child, targets ?? []) };
}

async function retry(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const child = childOf(req, ctx);
  if ('status' in child) return child;
  if (
    req.json !== undefined &&
    (typeof req.json !== 'object' || req.json === null || Array.isArray(req.json) || Object.keys(req.json).length > 0)
  ) {
    return fail(400, 'The retry route takes an empty JSON object {}');
  }
  if (!ctx.state.allowances?.[String(child.id)]) return { status: 200, body: allowanceView(child, []) };
  const r = await retryAllowances(ctx, child.id, child.address);
  if (!r.ok)
    return {
      status: r.status,
      body: r.body,
      ...(r.status === 429 ? { headers: { 'retry-after': String(r.body['retryAfterSeconds']) } } : {}),
    };
  return { status: 200, body: allowanceView(child, r.targets) };
}

export const partnerRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/auth/signing-message',
    auth: { kind: 'public' },
    handler: (_req, ctx) => {
      const list = nonces(ctx.state);
      const now = ctx.now();
      if (list.size >= MAX_OUTSTANDING)
        for (const [k, v] of list) if (now - v.issuedAt > NONCE_TTL_MS || list.size >= MAX_OUTSTANDING) list.delete(k);
      const nonce = `0x${randomBytes(32).toString('hex')}`;
      const message = signingMessage(nonce);
      list.set(nonce, { message, issuedAt: now });
      return { status: 200, text: message, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    },
  },
  { method: 'POST', pattern: '/profiles/partner-accounts', auth: CREATE, handler: createAccount },
  { method: 'GET', pattern: '/profiles/partner-accounts', auth: CREATE, handler: listAccounts },
  { method: 'GET', pattern: '/profiles/partner-accounts/:profileId/allowances', auth: ALLOWANCES, handler: getAllowances },
  { method: 'POST', pattern: '/profiles/partner-accounts/:profileId/allowances/retry', auth: ALLOWANCES, handler: retry },
];

function parseFailure(v: unknown): AllowanceFailure | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'each failure must be an object';
  const f = v as Record<string, unknown>;
  const times = f['times'] ?? 1;
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 0) return 'failure.times must be a non-negative integer';
  if (f['label'] !== undefined && typeof f['label'] !== 'string') return 'failure.label must be a string';
  if (f['retryable'] !== undefined && typeof f['retryable'] !== 'boolean') return 'failure.retryable must be a boolean';
  return {
    label: typeof f['label'] === 'string' ? f['label'] : '',
    errorCode: typeof f['errorCode'] === 'string' ? f['errorCode'] : 'PRIVY_SUBMISSION_FAILED',
    errorMessage: typeof f['errorMessage'] === 'string' ? f['errorMessage'] : 'sponsored transaction submission failed (injected)',
    retryable: f['retryable'] !== false,
    times,
  };
}

const NUM_KEYS = ['provisionDelayMs', 'confirmAfterMs', 'lockMs', 'retryMax', 'retryWindowMs'] as const;

/** Admin routes: the allowance simulation (timers, lock, rate limit, failures) and funding. */
export const partnerAdminRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/__sandbox/allowances',
    auth: { kind: 'public' },
    handler: (_req, ctx) => ({ status: 200, body: simOf(ctx) }),
  },
  {
    method: 'POST',
    pattern: '/__sandbox/allowances',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const sim = simOf(ctx);
      const b = (req.json ?? {}) as Record<string, unknown>;
      for (const k of NUM_KEYS) {
        const v = b[k];
        if (v === undefined) continue;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return fail(400, `${k} must be a non-negative integer`);
        sim[k] = v;
      }
      if (b['failures'] !== undefined) {
        if (!Array.isArray(b['failures'])) return fail(400, 'failures must be an array');
        const list: AllowanceFailure[] = [];
        for (const f of b['failures']) {
          const p = parseFailure(f);
          if (typeof p === 'string') return fail(400, p);
          list.push(p);
        }
        sim.failures = list;
      }
      if (b['clearLog'] === true) sim.answered = [];
      return { status: 200, body: sim };
    },
  },
];
