// Portfolio and money routes (exchange-api.md, wire-facts §4.3): positions, PnL chart, trades,
// history and points are projections of the ledger (../portfolio.ts); withdraw, the
// withdrawal-address allowlist and redeem decide here and commit one event each (with a
// chain, redeem first carries redemptions across the chain, ../redemptions.ts). The admin
// routes /__sandbox/fund and /__sandbox/resolve play a market's life cycle.
import { chainOf } from '../chainref.js';
import { DEV_KEYS } from '../keys.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import { commit, recipientOf } from '../reducer.js';
import { projectAccount } from '../ledger.js';
import { actingProfile, asObject, fail, isResponse, parseId } from '../orders/create.js';
import { knownKeysError } from '../orders/shape.js';
import { formatRaw } from '../orders/amounts.js';
import {
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  TIMEFRAMES,
  USDC_ADDRESS,
  decodeCursor,
  historyPage,
  ledgerOf,
  payoutPosted,
  pnlChart,
  positionsView,
  tradesView,
  tradingWallet,
} from '../portfolio.js';
import { burnOnChain, syncRedemptions } from '../redemptions.js';
import type {
  AuthRequirement,
  Hex,
  MarketRecord,
  Profile,
  Route,
  SandboxContext,
  SandboxRequest,
  SandboxResponse,
  SandboxState,
} from '../types.js';

const READ: AuthRequirement = { kind: 'token', scopes: ['trading'], legacy: true, identity: false };
/** Server-wallet operations: a scoped token (scope checked per route), identity or session; never a legacy key. */
const WALLET_OP: AuthRequirement = { kind: 'token', scopes: [], legacy: false, identity: true };
const IDENTITY: AuthRequirement = { kind: 'identity' };
const MAX_UINT256 = (1n << 256n) - 1n;

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;

function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The profile a read is for: the caller, or a child named by x-on-behalf-of (or ?onBehalfOf=). */
function readProfile(req: SandboxRequest, ctx: SandboxContext): Profile | SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  return actingProfile(ctx, req.auth.profileId, req.query.get('onBehalfOf') ?? header(req, 'x-on-behalf-of'));
}

/** A scoped token must carry `scope`; identity auth acts with the profile's own rights. */
function needScope(req: SandboxRequest, scope: 'trading' | 'withdrawal'): SandboxResponse | null {
  const a = req.auth;
  if (!a) return fail(401, 'Authentication required');
  if (a.method === 'hmac' && !a.scopes.includes(scope))
    return fail(403, `Missing required scope: ${scope} (this API token cannot ${scope === 'withdrawal' ? 'withdraw' : 'redeem'})`);
  return null;
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

/** Active allowlist entries of a profile. */
function allowlist(ctx: SandboxContext, profileId: number): NonNullable<typeof ctx.state.withdrawalAddresses> {
  return (ctx.state.withdrawalAddresses ?? []).filter((e) => e.profileId === profileId && e.deletedAt === null);
}

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
  const onBehalfOf = body['onBehalfOf'];
  const source = actingProfile(ctx, callerId, onBehalfOf);
  if (isResponse(source)) return source;
  if (!source.serverWallet) {
    return fail(
      400,
      source.id === callerId
        ? `Profile ${source.id} has no managed server wallet: its funds are in its own wallet (${source.address}); move them on chain`
        : `Profile ${source.id} has no managed server wallet to withdraw from`,
    );
  }
  const from = tradingWallet(source);
  // The destination rules (caller = the authenticated profile, the partner when onBehalfOf is used).
  if (destination === null) {
    destination = caller.serverWallet && caller.id !== source.id ? tradingWallet(caller) : caller.address;
  } else {
    const own =
      same(destination, caller.address) || (caller.serverWalletAddress !== undefined && same(destination, caller.serverWalletAddress));
    const listed = allowlist(ctx, caller.id).some((e) => same(e.destinationAddress, destination as string));
    if (!own && !listed) {
      return fail(
        403,
        `Destination ${destination} is not allowed: a withdrawal may go only to your account address (${caller.address})${caller.serverWalletAddress ? `, your smart wallet (${caller.serverWalletAddress})` : ''} or an active address on ${caller.id === source.id ? 'your' : `the partner's (profile ${caller.id})`} withdrawal allowlist; add it with POST /portfolio/withdrawal-addresses (identity token)`,
      );
    }
  }
  if (same(destination, from)) return fail(400, `Destination ${destination} is the wallet being withdrawn from`);
  const acct = ctx.state.accounts[String(source.id)];
  const available = acct ? acct.usdc - acct.lockedUsdc : 0n;
  if (available < amount) {
    return fail(
      400,
      `Insufficient balance: wallet ${from} has ${formatRaw(available)} USDC available (${available} raw${acct && acct.lockedUsdc > 0n ? `, ${formatRaw(acct.lockedUsdc)} more locked by open orders` : ''}), asked ${formatRaw(amount)} (${amount} raw)`,
    );
  }
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
  commit(ctx.state, { type: 'funds.withdrawn', at: ctx.now(), profileId: source.id, amount, token, destination, txHash: hash });
  ctx.persist();
  ctx.emit({ type: 'position', profileId: source.id, tokenId: 'USDC' });
  const to = recipientOf(ctx.state, destination);
  if (to !== undefined && to !== source.id) ctx.emit({ type: 'position', profileId: to, tokenId: 'USDC' });
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
  const existing = allowlist(ctx, profileId).find((e) => same(e.destinationAddress, a));
  if (existing) return fail(409, `Address ${a} is already on your withdrawal allowlist (id ${existing.id})`);
  const entry = {
    id: randomUUID(),
    profileId,
    destinationAddress: a as Hex,
    label: typeof label === 'string' ? label : '',
    createdAt: new Date(ctx.now()).toISOString(),
    deletedAt: null,
  };
  commit(ctx.state, { type: 'allowlist.added', entry });
  ctx.persist();
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
  const entry = allowlist(ctx, profileId).find((e) => same(e.destinationAddress, a));
  if (!entry) return fail(404, `Address ${a} is not on your withdrawal allowlist`);
  commit(ctx.state, { type: 'allowlist.removed', id: entry.id, at: new Date(ctx.now()).toISOString() });
  ctx.persist();
  return { status: 200, body: { message: 'Withdrawal address removed', ...entry } };
}

/** Redemptions running with a chain, by profile and condition (a second one at once is a 409). */
const redeeming = new WeakMap<SandboxContext, Set<string>>();

async function redeem(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const scope = needScope(req, 'trading');
  if (scope) return scope;
  const shape = knownKeysError(req.json, ['conditionId', 'onBehalfOf'], 'a redeem request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object: {conditionId, onBehalfOf?}');
  const cid = body['conditionId'];
  if (typeof cid !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(cid))
    return fail(400, 'conditionId must be a bytes32 hex string (0x + 64 hex digits)');
  const who = actingProfile(ctx, req.auth?.profileId ?? 0, body['onBehalfOf']);
  if (isResponse(who)) return who;
  const chain = chainOf(ctx);
  if (!chain) return redeemNow(ctx, who.id, cid);
  // With a chain, one record of who holds which shares: a redemption made on the chain is in
  // the ledger before this one is judged, and this one burns the same shares on the chain.
  const key = `${who.id}:${cid.toLowerCase()}`;
  const running = redeeming.get(ctx) ?? new Set<string>();
  redeeming.set(ctx, running);
  if (running.has(key))
    return fail(409, `A redemption of condition ${cid} for profile ${who.id} is running already; check again in a moment`);
  running.add(key);
  try {
    await syncRedemptions(ctx);
    const plan = redeemPlan(ctx, who.id, cid);
    if (isResponse(plan)) return plan;
    await burnOnChain(ctx, plan.who, plan.payouts);
    await syncRedemptions(ctx); // one made on the chain meanwhile
    return redeemNow(ctx, who.id, cid);
  } catch (e) {
    return fail(
      503,
      `The local chain did not answer (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): nothing was redeemed; try again`,
    );
  } finally {
    running.delete(key);
  }
}

interface RedeemPlan {
  who: Profile;
  market: MarketRecord;
  win: string;
  winShares: bigint;
  loseShares: bigint;
  payouts: { tokenId: string; shares: bigint; usdc: bigint }[];
}

/** What redeeming `conditionId` for a profile pays now (from the ledger), or the refusal. */
function redeemPlan(ctx: SandboxContext, profileId: number, cid: string): RedeemPlan | SandboxResponse {
  const who = ctx.state.profiles.find((p) => p.id === profileId);
  if (!who) return fail(404, `Profile ${profileId} not found`);
  const market = ctx.state.markets.find((m) => m.conditionId !== null && same(m.conditionId, cid));
  if (!market?.positionIds) return fail(404, `No market has condition id ${cid}`);
  if (market.status !== 'RESOLVED' || market.winningOutcomeIndex === null)
    return fail(400, `Market ${market.slug} is not resolved: positions can be redeemed only after resolution`);
  if (!payoutPosted(market))
    return fail(
      400,
      `Market ${market.slug} is resolved (${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'}) but its payout is not posted on chain yet: not redeemable yet, try again later`,
    );
  const acct = projectAccount(ledgerOf(ctx.state, who.id));
  const win = market.positionIds[market.winningOutcomeIndex];
  const lose = market.positionIds[market.winningOutcomeIndex === 0 ? 1 : 0];
  const winShares = acct.positions[win]?.shares ?? 0n;
  const loseShares = acct.positions[lose]?.shares ?? 0n;
  if (winShares === 0n) {
    const done = ledgerOf(ctx.state, who.id).find(
      (e) => e.kind === 'redemption' && e.conditionId !== undefined && same(e.conditionId, cid),
    );
    if (done)
      return fail(
        409,
        `Already redeemed${done.onChain ? ' on chain' : ''}: the winning shares of ${market.slug} were paid out (tx ${done.txHash ?? '?'}); nothing is left to redeem`,
      );
    return fail(
      400,
      `Nothing to redeem: profile ${who.id} holds no winning ${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'} shares of ${market.slug}`,
    );
  }
  const payouts = [{ tokenId: win, shares: winShares, usdc: winShares }];
  if (loseShares > 0n) payouts.push({ tokenId: lose, shares: loseShares, usdc: 0n });
  return { who, market, win, winShares, loseShares, payouts };
}

/** Redeems as the ledger stands now (no await between the decision and the commit). */
function redeemNow(ctx: SandboxContext, profileId: number, cid: string): SandboxResponse {
  const plan = redeemPlan(ctx, profileId, cid);
  if (isResponse(plan)) return plan;
  const { who, market, win, winShares, loseShares, payouts } = plan;
  const hash = txHash();
  commit(ctx.state, {
    type: 'position.redeemed',
    at: ctx.now(),
    profileId: who.id,
    conditionId: market.conditionId ?? cid,
    payouts,
    txHash: hash,
  });
  ctx.persist();
  ctx.emit({ type: 'position', profileId: who.id, tokenId: win });
  return {
    status: 201,
    body: {
      hash: '',
      userOperationHash: hash,
      transactionId: randomUUID(),
      walletAddress: tradingWallet(who),
      conditionId: market.conditionId,
      marketId: market.id,
      // sandbox additions
      marketSlug: market.slug,
      profileId: who.id,
      winningOutcome: market.winningOutcomeIndex === 0 ? 'YES' : 'NO',
      sharesRedeemed: winShares.toString(),
      losingSharesBurnt: loseShares.toString(),
      payout: winShares.toString(),
    },
  };
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

// ------------------------------------------------------------------ admin: fund, resolve

function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  return addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.');
}

/** Admin writes: loopback peers only, JSON bodies only. */
function adminGuard(req: SandboxRequest): SandboxResponse | null {
  if (!isLoopback(req.remoteAddress)) return fail(403, 'Sandbox admin routes answer only on loopback (127.0.0.1 / ::1)');
  const ct = header(req, 'content-type') ?? '';
  if (!ct.includes('application/json')) return fail(415, 'Send a JSON body with content-type: application/json');
  if (!asObject(req.json)) return fail(400, 'Request body must be a JSON object');
  return null;
}

function fund(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  const g = adminGuard(req);
  if (g) return g;
  const shape = knownKeysError(req.json, ['profileId', 'amount'], 'a fund request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json) ?? {};
  const id = parseId(body['profileId']);
  if (id === null || Number.isNaN(id)) return fail(400, 'profileId must be a profile id (integer)');
  const amountRaw = body['amount'];
  if (typeof amountRaw !== 'string' || !/^\d{1,30}$/.test(amountRaw) || BigInt(amountRaw) === 0n)
    return fail(400, 'amount must be a positive integer string of raw USDC units (1000000 is one USDC)');
  const profile = ctx.state.profiles.find((p) => p.id === id);
  if (!profile) return fail(404, `Profile ${id} not found`);
  const amount = BigInt(amountRaw);
  const hash = txHash();
  commit(ctx.state, { type: 'funds.deposited', at: ctx.now(), profileId: id, amount, txHash: hash });
  ctx.persist();
  const acct = ctx.state.accounts[String(id)];
  return {
    status: 200,
    body: {
      profileId: id,
      wallet: tradingWallet(profile),
      amount: amount.toString(),
      balance: (acct?.usdc ?? 0n).toString(),
      txHash: hash,
    },
  };
}

/** A NegRisk group resolves exactly one of its markets YES: why `market` cannot be a second, or null. */
export function secondWinner(state: SandboxState, market: MarketRecord, index: 0 | 1): string | null {
  if (index !== 0 || market.groupSlug === null) return null;
  const winner = state.markets.find(
    (m) => m.groupSlug === market.groupSlug && m.slug !== market.slug && m.status === 'RESOLVED' && m.winningOutcomeIndex === 0,
  );
  return winner
    ? `Market ${market.slug} cannot resolve YES: ${winner.slug} already resolved YES, and one market of ${market.groupSlug} wins`
    : null;
}

async function resolve(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const g = adminGuard(req);
  if (g) return g;
  const shape = knownKeysError(req.json, ['slug', 'winningOutcome', 'payout'], 'a resolve request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json) ?? {};
  const slug = body['slug'];
  if (typeof slug !== 'string' || slug === '') return fail(400, 'slug is required');
  const w = body['winningOutcome'];
  if (w !== 'YES' && w !== 'NO') return fail(400, 'winningOutcome must be "YES" or "NO"');
  const payoutRaw = body['payout'] ?? true;
  if (typeof payoutRaw !== 'boolean')
    return fail(400, 'payout must be true (post the payout now, the default) or false (resolved, not redeemable yet)');
  const market = ctx.state.markets.find((m) => m.slug === slug);
  if (!market) return fail(404, `Market ${slug} not found`);
  if (!market.positionIds || !market.conditionId)
    return fail(
      400,
      `Market ${slug} has no outcome tokens to resolve${market.marketType === 'group' ? ': resolve its child markets' : ''}`,
    );
  const index: 0 | 1 = w === 'YES' ? 0 : 1;
  if (market.status === 'RESOLVED' && market.winningOutcomeIndex !== null) {
    if (market.winningOutcomeIndex !== index)
      return fail(409, `Market ${slug} is already resolved ${market.winningOutcomeIndex === 0 ? 'YES' : 'NO'}`);
    if (!market.payoutPending || !payoutRaw)
      return fail(
        409,
        `Market ${slug} is already resolved ${w}${market.payoutPending ? ' (payout pending: resolve again with payout true to post it)' : ''}`,
      );
  }
  const second = secondWinner(ctx.state, market, index);
  if (second !== null) return fail(409, second);
  const canceled = ctx.state.orders.filter((o) => o.marketSlug === slug && o.status === 'LIVE').map((o) => o.id);
  const hash = txHash();
  commit(ctx.state, {
    type: 'market.resolved',
    at: ctx.now(),
    slug,
    winningOutcomeIndex: index,
    payoutPosted: payoutRaw,
    txHash: hash,
    canceled,
  });
  ctx.persist();
  const payload = {
    marketId: market.id,
    slug,
    conditionId: market.conditionId,
    winningOutcome: w,
    winningOutcomeIndex: index,
    payoutPosted: payoutRaw,
    txHash: hash,
  };
  ctx.emit({ type: 'marketResolved', payload });
  if (canceled.length > 0) ctx.emit({ type: 'orderbook', slug });
  // With a chain (--chain), the payout goes on chain too before answering.
  const chain = chainOf(ctx);
  if (chain && payoutRaw) await chain.postPayout(market, index);
  return { status: 200, body: { ...payload, status: market.status, canceledOrders: canceled.length } };
}

export const portfolioAdminRoutes: Route[] = [
  { method: 'POST', pattern: '/__sandbox/fund', auth: { kind: 'public' }, handler: fund },
  { method: 'POST', pattern: '/__sandbox/resolve', auth: { kind: 'public' }, handler: resolve },
];
