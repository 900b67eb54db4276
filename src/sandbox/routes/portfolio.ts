// Portfolio and money routes (exchange-api.md, wire-facts §4.3): positions, PnL chart, trades,
// history and points are projections of the ledger (../portfolio.ts); withdraw (its rules in
// ../withdrawals.ts) and the withdrawal-address allowlist apply one event each. Redeem is in
// redeem.ts, the admin routes /__sandbox/fund and /__sandbox/resolve in money-admin.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import { chainOf } from '../chainref.js';
import { DEV_KEYS } from '../keys.js';
import {
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  TIMEFRAMES,
  USDC_ADDRESS,
  decodeCursor,
  historyPage,
  pnlChart,
  positionsView,
  tradesView,
} from '../portfolio.js';
import { syncRedemptions } from '../redemptions.js';
import { activeAllowlist, decideWithdrawal } from '../withdrawals.js';
import { actingProfile, asObject, fail, header, isResponse, needScope } from './http.js';
import { knownKeysError } from './order-shape.js';
import { redeem } from './redeem.js';
import type { Hex, Profile } from '../types.js';
import type { AuthRequirement, Route, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

const READ: AuthRequirement = { kind: 'token', scopes: ['trading'], legacy: true, identity: false };
/** Server-wallet operations: a scoped token (scope checked per route), identity or session; never a legacy key. */
const WALLET_OP: AuthRequirement = { kind: 'token', scopes: [], legacy: false, identity: true };
const IDENTITY: AuthRequirement = { kind: 'identity' };
const MAX_UINT256 = (1n << 256n) - 1n;

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;

/** The profile a read is for: the caller, or a child named by x-on-behalf-of (or ?onBehalfOf=). */
function readProfile(req: SandboxRequest, ctx: SandboxContext): Profile | SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  return actingProfile(ctx, req.auth.profileId, req.query.get('onBehalfOf') ?? header(req, 'x-on-behalf-of'));
}

async function positions(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  // With a chain, shares redeemed there leave the positions here (a chain that does not answer
  // leaves the view as the ledger has it).
  if (chainOf(ctx)) await syncRedemptions(ctx).catch(() => undefined);
  const who = readProfile(req, ctx);
  if (isResponse(who)) return who;
  return { status: 200, body: positionsView(ctx.state, who) };
}

function chart(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const who = readProfile(req, ctx);
  if (isResponse(who)) return who;
  const tf = req.query.get('timeframe') ?? '7d';
  if (!(tf in TIMEFRAMES)) return fail(400, `timeframe must be one of ${Object.keys(TIMEFRAMES).join(', ')}; got "${tf}"`);
  return { status: 200, body: pnlChart(ctx.state, who.id, tf, ctx.now()) };
}

function trades(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const who = readProfile(req, ctx);
  if (isResponse(who)) return who;
  return { status: 200, body: tradesView(ctx.state, who.id) };
}

function history(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const who = readProfile(req, ctx);
  if (isResponse(who)) return who;
  const limitRaw = req.query.get('limit');
  let limit = HISTORY_DEFAULT_LIMIT;
  if (limitRaw !== null) {
    if (!/^\d{1,4}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > HISTORY_MAX_LIMIT)
      return fail(400, `limit must be an integer from 1 to ${HISTORY_MAX_LIMIT}`);
    limit = Number(limitRaw);
  }
  const cursor = req.query.get('cursor') ?? '';
  let before: number | null = null;
  if (cursor !== '') {
    before = decodeCursor(cursor);
    if (before === null) return fail(400, 'cursor is not a cursor this endpoint returned (send cursor= empty for the first page)');
  }
  return { status: 200, body: historyPage(ctx.state, who.id, before, limit) };
}

function points(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const who = readProfile(req, ctx);
  if (isResponse(who)) return who;
  return {
    status: 200,
    body: { profileId: who.id, points: 0, accumulativePoints: 0, enrolledInPointsProgram: false, leaderboardPosition: null },
  };
}

/** A checksum-valid (or all-lowercase) address, normalised; or a message. */
function address(v: unknown, field: string): Hex | string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) return `${field} must be a 0x-prefixed 20-byte hex address`;
  if (!isAddress(v)) return `${field} ${v} fails its EIP-55 checksum: check the address (or send it all lowercase)`;
  return getAddress(v);
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

async function withdraw(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const scope = needScope(req, 'withdrawal');
  if (scope) return scope;
  const callerId = req.auth?.profileId ?? 0;
  const shape = knownKeysError(req.json, ['amount', 'token', 'onBehalfOf', 'destination'], 'a withdraw request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object: {amount, token?, onBehalfOf?, destination?}');
  const amountRaw = body['amount'];
  if (typeof amountRaw !== 'string' || !/^\d{1,78}$/.test(amountRaw))
    return fail(400, 'amount must be an integer string of raw token units (1000000 is one USDC), e.g. "12500000"');
  const amount = BigInt(amountRaw);
  if (amount === 0n) return fail(400, 'amount must be greater than zero');
  if (amount > MAX_UINT256) return fail(400, 'amount exceeds 2^256-1');
  let token: Hex = USDC_ADDRESS;
  if (body['token'] !== undefined) {
    const t = address(body['token'], 'token');
    if (!t.startsWith('0x') || t.length !== 42) return fail(400, t);
    if (!same(t, USDC_ADDRESS))
      return fail(400, `token ${t} is not supported: this exchange's server wallets hold only USDC (${USDC_ADDRESS}); omit token for USDC`);
    token = t as Hex;
  }
  let destination: Hex | null = null;
  if (body['destination'] !== undefined) {
    const d = address(body['destination'], 'destination');
    if (d.length !== 42 || !d.startsWith('0x')) return fail(400, d);
    destination = d as Hex;
  }
  const caller = ctx.state.profiles.find((p) => p.id === callerId);
  if (!caller) return fail(401, 'Authenticated profile not found');
  const source = actingProfile(ctx, callerId, body['onBehalfOf']);
  if (isResponse(source)) return source;
  const w = decideWithdrawal(ctx.state, { caller, source, amount, destination });
  if (!w.ok) return fail(w.reason === 'DESTINATION_NOT_ALLOWED' ? 403 : 400, w.message);
  const { from } = w;
  destination = w.destination;
  // With a local chain the USDC really leaves the server wallet (first: a refused transfer moves nothing).
  const chain = chainOf(ctx);
  let hash: string = txHash();
  if (chain) {
    const key = source.serverWalletAddress ? DEV_KEYS.get(source.serverWalletAddress.toLowerCase()) : source.privateKey;
    if (!key) return fail(500, `the sandbox holds no key for the server wallet ${from}`);
    try {
      hash = await chain.withdraw(key, destination as Hex, amount);
    } catch (e) {
      return fail(
        502,
        `the withdrawal transaction failed on the local chain: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      );
    }
  }
  ctx.apply({ type: 'funds.withdrawn', at: ctx.now(), profileId: source.id, amount, token, destination, txHash: hash });
  return {
    status: 201,
    body: {
      hash: '',
      userOperationHash: hash,
      transactionId: randomUUID(),
      walletAddress: from,
      token,
      destination,
      amount: amount.toString(),
      profileId: source.id,
    },
  };
}

function addAddress(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const profileId = req.auth?.profileId ?? 0;
  const shape = knownKeysError(req.json, ['address', 'label'], 'a withdrawal-address request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object: {address, label?}');
  const a = address(body['address'], 'address');
  if (a.length !== 42 || !a.startsWith('0x')) return fail(400, a);
  const label = body['label'];
  if (label !== undefined && (typeof label !== 'string' || label.length > 64))
    return fail(400, 'label must be a string of at most 64 characters');
  const existing = activeAllowlist(ctx.state, profileId).find((e) => same(e.destinationAddress, a));
  if (existing) return fail(409, `Address ${a} is already on your withdrawal allowlist (id ${existing.id})`);
  const entry = {
    id: randomUUID(),
    profileId,
    destinationAddress: a as Hex,
    label: typeof label === 'string' ? label : '',
    createdAt: new Date(ctx.now()).toISOString(),
    deletedAt: null,
  };
  ctx.apply({ type: 'allowlist.added', entry });
  return { status: 201, body: entry };
}

function listAddresses(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const profileId = req.auth?.profileId ?? 0;
  const all = req.query.get('includeDeleted') === 'true';
  return {
    status: 200,
    body: (ctx.state.withdrawalAddresses ?? []).filter((e) => e.profileId === profileId && (all || e.deletedAt === null)),
  };
}

function removeAddress(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const profileId = req.auth?.profileId ?? 0;
  const a = req.params['address'] ?? '';
  const entry = activeAllowlist(ctx.state, profileId).find((e) => same(e.destinationAddress, a));
  if (!entry) return fail(404, `Address ${a} is not on your withdrawal allowlist`);
  ctx.apply({ type: 'allowlist.removed', id: entry.id, at: new Date(ctx.now()).toISOString() });
  return { status: 200, body: { message: 'Withdrawal address removed', ...entry } };
}

export const portfolioRoutes: Route[] = [
  { method: 'GET', pattern: '/portfolio/positions', auth: READ, handler: positions },
  { method: 'GET', pattern: '/portfolio/pnl-chart', auth: READ, handler: chart },
  { method: 'GET', pattern: '/portfolio/trades', auth: READ, handler: trades },
  { method: 'GET', pattern: '/portfolio/history', auth: READ, handler: history },
  { method: 'GET', pattern: '/portfolio/points', auth: READ, handler: points },
  { method: 'POST', pattern: '/portfolio/withdraw', auth: WALLET_OP, handler: withdraw },
  { method: 'POST', pattern: '/portfolio/redeem', auth: WALLET_OP, handler: redeem },
  { method: 'POST', pattern: '/portfolio/withdrawal-addresses', auth: IDENTITY, handler: addAddress },
  { method: 'GET', pattern: '/portfolio/withdrawal-addresses', auth: IDENTITY, handler: listAddresses },
  { method: 'DELETE', pattern: '/portfolio/withdrawal-addresses/:address', auth: IDENTITY, handler: removeAddress },
];
