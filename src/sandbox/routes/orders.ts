// Trading routes: create, cancel (one, all, batch, legacy batch), cancel-replace (one, batch),
// user orders, status batch.
// Every write goes through place.ts (engine, then ctx.apply) before the handler answers.
import { cancelOrder, cancelOrders } from '../place.js';
import { createdView, userOrderView } from '../orders/views.js';
import { cancelReplace, cancelReplaceBatch } from './cancel-replace.js';
import { createOrder } from './create-order.js';
import { actingProfile, asObject, fail, header, isResponse, refused } from './http.js';
import { knownKeysError } from './order-shape.js';
import type { OrderRecord, OrderStatus } from '../types.js';
import type { AuthRequirement, Route, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

const TRADING: AuthRequirement = { kind: 'token', scopes: ['trading'], legacy: true, identity: false };
const NOT_FOUND_MESSAGE = 'Order not found or already canceled';
const STATUSES: readonly OrderStatus[] = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];

/** onBehalfOf from the query (signed cancels) or the x-on-behalf-of header (reads). */
function onBehalfOfFrom(req: SandboxRequest): string | undefined {
  return req.query.get('onBehalfOf') ?? header(req, 'x-on-behalf-of');
}

interface CancelOutcome {
  canceled: string[];
  failed: { orderId: string; reason: string; message: string }[];
}

/** Batch cancel by internal ids or client ids, for one acting profile. */
function cancelByIds(ctx: SandboxContext, profileId: number, ids: readonly string[], byClientId: boolean): CancelOutcome {
  const toCancel: OrderRecord[] = [];
  const failed: CancelOutcome['failed'] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const o = ctx.state.orders.find((x) => x.ownerId === profileId && (byClientId ? x.clientOrderId === id : x.id === id));
    if (o?.status !== 'LIVE' || seen.has(o.id)) {
      failed.push({ orderId: id, reason: 'ORDER_NOT_FOUND', message: NOT_FOUND_MESSAGE });
      continue;
    }
    seen.add(o.id);
    toCancel.push(o);
  }
  return { canceled: cancelOrders(ctx, toCancel), failed };
}

/** A string array of at most 50 entries (each ≤ maxLen), or an error message naming `field`. */
function stringList(v: unknown, field: string, maxLen: number): string[] | string {
  if (!Array.isArray(v)) return `${field} must be an array of strings`;
  if (v.length === 0 || v.length > 50) return `${field} must hold 1 to 50 entries`;
  for (const x of v) {
    if (typeof x !== 'string' || x === '' || x.length > maxLen)
      return `${field} entries must be non-empty strings of at most ${maxLen} characters`;
  }
  return v as string[];
}

function deleteOne(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const who = actingProfile(ctx, req.auth.profileId, onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const orderId = req.params['orderId'] ?? '';
  const r = cancelOrder(ctx, orderId, who.id);
  if (!r.ok) return refused(r);
  return { status: 200, body: { message: 'Order canceled successfully' } };
}

function deleteAll(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const who = actingProfile(ctx, req.auth.profileId, onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const slug = req.params['slug'] ?? '';
  if (!ctx.state.markets.some((m) => m.slug === slug)) return fail(404, `Market ${slug} not found`);
  const live = ctx.state.orders.filter((o) => o.ownerId === who.id && o.marketSlug === slug && o.status === 'LIVE');
  const canceled = cancelOrders(ctx, live);
  return {
    status: 200,
    body: { message: canceled.length > 0 ? 'Orders canceled successfully' : 'No open orders to cancel', canceled, failed: [] },
  };
}

function batchCancel(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const shape = knownKeysError(req.json, ['orderIds', 'clientOrderIds', 'onBehalfOf'], 'a batch-cancel request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object');
  const hasIds = body['orderIds'] !== undefined;
  const hasClient = body['clientOrderIds'] !== undefined;
  if (hasIds === hasClient) return fail(400, 'Provide exactly one of orderIds or clientOrderIds');
  const list = hasIds ? stringList(body['orderIds'], 'orderIds', 128) : stringList(body['clientOrderIds'], 'clientOrderIds', 128);
  if (typeof list === 'string') return fail(400, list);
  const who = actingProfile(ctx, req.auth.profileId, body['onBehalfOf'] ?? onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const r = cancelByIds(ctx, who.id, list, hasClient);
  return { status: 200, body: { message: 'Orders canceled successfully', canceled: r.canceled, failed: r.failed } };
}

function legacyCancelBatch(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const shape = knownKeysError(req.json, ['orderIds', 'onBehalfOf'], 'a cancel-batch request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  if (!body) return fail(400, 'Request body must be a JSON object');
  const list = stringList(body['orderIds'], 'orderIds', 128);
  if (typeof list === 'string') return fail(400, list);
  const who = actingProfile(ctx, req.auth.profileId, body['onBehalfOf'] ?? onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const r = cancelByIds(ctx, who.id, list, false);
  return { status: 200, body: { message: 'Orders canceled successfully', canceled: r.canceled, failed: r.failed } };
}

function userOrders(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const who = actingProfile(ctx, req.auth.profileId, onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const slug = req.params['slug'] ?? '';
  if (!ctx.state.markets.some((m) => m.slug === slug)) return fail(404, `Market ${slug} not found`);
  // Accept repeated `statuses=`, `statuses[]=` and comma-separated values.
  const raw = [...req.query.getAll('statuses'), ...req.query.getAll('statuses[]')].flatMap((s) => s.split(','));
  const wanted = raw.map((s) => s.trim().toUpperCase()).filter((s) => s !== '');
  for (const s of wanted) {
    if (!STATUSES.includes(s as OrderStatus)) return fail(400, `statuses must be among ${STATUSES.join(', ')}; got ${s}`);
  }
  const statuses = new Set(wanted.length > 0 ? wanted : ['LIVE']);
  const limitRaw = req.query.get('limit');
  let limit = Number.POSITIVE_INFINITY;
  if (limitRaw !== null) {
    if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1) return fail(400, 'limit must be an integer ≥ 1');
    limit = Number(limitRaw);
  }
  const orders = ctx.state.orders
    .filter((o) => o.ownerId === who.id && o.marketSlug === slug && statuses.has(o.status))
    .sort((a, b) => b.seq - a.seq)
    .slice(0, limit)
    .map((o) => userOrderView(ctx.state, o));
  return { status: 200, body: { orders } };
}

function statusBatch(req: SandboxRequest, ctx: SandboxContext): SandboxResponse {
  if (!req.auth) return fail(401, 'Authentication required');
  const shape = knownKeysError(req.json, ['items', 'onBehalfOf'], 'a status-batch request');
  if (shape !== null) return fail(400, shape);
  const body = asObject(req.json);
  const items = body?.['items'];
  if (!Array.isArray(items) || items.length < 1 || items.length > 50) return fail(400, 'items must be an array of 1 to 50 entries');
  const who = actingProfile(ctx, req.auth.profileId, body?.['onBehalfOf'] ?? onBehalfOfFrom(req));
  if (isResponse(who)) return who;
  const results = items.map((item: unknown, index) => {
    const it = asObject(item);
    const orderId = it?.['orderId'];
    const clientOrderId = it?.['clientOrderId'];
    const hasId = typeof orderId === 'string' && orderId !== '';
    const hasClient = typeof clientOrderId === 'string' && clientOrderId !== '';
    if (!it || hasId === hasClient || (orderId !== undefined && !hasId) || (clientOrderId !== undefined && !hasClient)) {
      return { index, status: 'error', error: 'Exactly one of orderId or clientOrderId is required' };
    }
    const o = ctx.state.orders.find((x) => x.ownerId === who.id && (hasId ? x.id === orderId : x.clientOrderId === clientOrderId));
    const ids = hasId ? { orderId: orderId as string } : { clientOrderId: clientOrderId as string };
    if (!o) return { index, status: 'not_found', ...ids };
    const found: Record<string, unknown> = { index, status: 'found', orderId: o.id, data: createdView(ctx.state, o) };
    if (o.clientOrderId !== null) found['clientOrderId'] = o.clientOrderId;
    return found;
  });
  return { status: 200, body: { results } };
}

/** The trading routes, mounted by the sandbox router. */
export const orderRoutes: Route[] = [
  { method: 'POST', pattern: '/orders', auth: TRADING, handler: createOrder },
  { method: 'POST', pattern: '/orders/batch-cancel', auth: TRADING, handler: batchCancel },
  { method: 'POST', pattern: '/orders/cancel-batch', auth: TRADING, handler: legacyCancelBatch },
  { method: 'POST', pattern: '/orders/status/batch', auth: TRADING, handler: statusBatch },
  { method: 'POST', pattern: '/orders/cancel-replace', auth: TRADING, handler: cancelReplace },
  { method: 'POST', pattern: '/orders/cancel-replace/batch', auth: TRADING, handler: cancelReplaceBatch },
  { method: 'DELETE', pattern: '/orders/all/:slug', auth: TRADING, handler: deleteAll },
  { method: 'DELETE', pattern: '/orders/:orderId', auth: TRADING, handler: deleteOne },
  { method: 'GET', pattern: '/markets/:slug/user-orders', auth: TRADING, handler: userOrders },
];
