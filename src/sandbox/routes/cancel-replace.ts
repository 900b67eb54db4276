// POST /orders/cancel-replace and /orders/cancel-replace/batch (wire-facts §3.10).
//
// One operation cancels a resting order (by orderId or clientOrderId) and then places a
// replacement. The two legs are not atomic: each reports its own outcome, and the legs go
// through exactly the paths of DELETE /orders/:id and POST /orders (engine, ctx.apply: reducer,
// event log, disk, streams), so a replacement is as exactly-once by clientOrderId as any order.
// STOP_ON_FAILURE skips the replacement when the cancel failed; ALLOW_FAILURE places it anyway.
// A single operation answers 200 when both legs succeeded and 409 otherwise (the SDKs accept
// 409 as a result). A batch of 1 to 4 operations is checked as a whole first (shape, mode,
// acting profile), then runs in order; it answers 200 when every operation fully succeeded and
// 207 otherwise.
import { cancelOrder } from '../place.js';
import { createOrder } from './create-order.js';
import { actingProfile, asObject, fail, isResponse, parseId } from './http.js';
import { createOrderShapeError, knownKeysError } from './order-shape.js';
import type { AuthContext, SandboxContext, SandboxRequest, SandboxResponse } from '../handlers.js';

/** Most operations one batch may carry (the Rust SDK documents "up to 4"). */
const MAX_CANCEL_REPLACE_BATCH = 4;

const MODES = ['ALLOW_FAILURE', 'STOP_ON_FAILURE'] as const;
type Mode = (typeof MODES)[number];
const NOT_FOUND_MESSAGE = 'Order not found or already canceled';

interface Operation {
  cancel: { orderId: string } | { clientOrderId: string };
  replacement: Record<string, unknown>;
  mode: Mode;
  onBehalfOf: unknown;
}

interface LegError {
  code: string;
  message: string;
}

type CancelLeg = { status: 'SUCCESS'; orderId: string; clientOrderId?: string } | { status: 'FAILURE'; error: LegError };
type ReplacementLeg = { status: 'SUCCESS'; data: unknown } | { status: 'FAILURE'; error: LegError } | { status: 'NOT_ATTEMPTED' };

interface OperationResult {
  cancel: CancelLeg;
  replacement: ReplacementLeg;
}

/** A machine-readable code for a refused replacement, from the status POST /orders gave it. */
function codeFor(status: number): string {
  switch (status) {
    case 400:
      return 'VALIDATION_ERROR';
    case 401:
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 425:
      return 'RECV_WINDOW_EXCEEDED';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'UNKNOWN_ERROR';
  }
}

/** Parses one operation, or says what is wrong with it (`where` prefixes field names). */
function parseOperation(v: unknown, where: string): Operation | string {
  const keys = knownKeysError(v, ['cancel', 'replacement', 'mode', 'onBehalfOf'], 'a cancel-replace operation');
  if (keys !== null) return `${where}${keys}`;
  const op = v as Record<string, unknown>;
  const cancel = asObject(op['cancel']);
  if (!cancel) return `${where}cancel must be an object with orderId or clientOrderId`;
  const cancelKeys = knownKeysError(cancel, ['orderId', 'clientOrderId'], 'cancel');
  if (cancelKeys !== null) return `${where}cancel.${cancelKeys}`;
  const orderId = cancel['orderId'];
  const clientOrderId = cancel['clientOrderId'];
  const ok = (x: unknown): x is string => typeof x === 'string' && x !== '' && x.length <= 128;
  if ((orderId === undefined) === (clientOrderId === undefined)) return `${where}cancel needs exactly one of orderId or clientOrderId`;
  if (orderId !== undefined && !ok(orderId)) return `${where}cancel.orderId must be a non-empty string of at most 128 characters`;
  if (clientOrderId !== undefined && !ok(clientOrderId))
    return `${where}cancel.clientOrderId must be a non-empty string of at most 128 characters`;
  const mode = op['mode'];
  if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode)) return `${where}mode must be one of ${MODES.join(', ')}`;
  const replacement = asObject(op['replacement']);
  if (!replacement) return `${where}replacement must be a create-order request object`;
  if (replacement['onBehalfOf'] !== undefined) return `${where}replacement.onBehalfOf is not allowed: put onBehalfOf on the operation`;
  const shape = createOrderShapeError(replacement, Buffer.byteLength(JSON.stringify(replacement), 'utf8'));
  if (shape !== null) return `${where}replacement: ${shape}`;
  if (Number.isNaN(parseId(op['onBehalfOf']))) return `${where}onBehalfOf must be a profile id (integer)`;
  return {
    cancel: orderId !== undefined ? { orderId: orderId as string } : { clientOrderId: clientOrderId as string },
    replacement,
    mode: mode as Mode,
    onBehalfOf: op['onBehalfOf'],
  };
}

/** Checks who an operation acts for (the caller or one of its sub-accounts) before anything runs. */
function actingRefusal(ctx: SandboxContext, auth: AuthContext, op: Operation): SandboxResponse | null {
  const who = actingProfile(ctx, auth.profileId, op.onBehalfOf);
  return isResponse(who) ? who : null;
}

/** Runs one operation: the cancel leg, then (unless stopped) the replacement through POST /orders. */
async function runOperation(req: SandboxRequest, ctx: SandboxContext, auth: AuthContext, op: Operation): Promise<OperationResult> {
  const who = actingProfile(ctx, auth.profileId, op.onBehalfOf);
  if (isResponse(who)) {
    const message = String((who.body as { message?: unknown } | undefined)?.message ?? 'Forbidden');
    return { cancel: { status: 'FAILURE', error: { code: codeFor(who.status), message } }, replacement: { status: 'NOT_ATTEMPTED' } };
  }
  let cancel: CancelLeg;
  const target =
    'orderId' in op.cancel
      ? ctx.state.orders.find((o) => o.ownerId === who.id && o.id === (op.cancel as { orderId: string }).orderId)
      : ctx.state.orders.find((o) => o.ownerId === who.id && o.clientOrderId === (op.cancel as { clientOrderId: string }).clientOrderId);
  const r = target && target.status === 'LIVE' ? cancelOrder(ctx, target.id, who.id) : null;
  if (r?.ok) {
    cancel = {
      status: 'SUCCESS',
      orderId: r.order.id,
      ...(r.order.clientOrderId !== null ? { clientOrderId: r.order.clientOrderId } : {}),
    };
  } else {
    cancel = { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: r && !r.ok ? r.message : NOT_FOUND_MESSAGE } };
  }
  if (cancel.status !== 'SUCCESS' && op.mode === 'STOP_ON_FAILURE') return { cancel, replacement: { status: 'NOT_ATTEMPTED' } };

  // The replacement is a POST /orders body; the operation's onBehalfOf applies to it too.
  const body: Record<string, unknown> = { ...op.replacement };
  if (op.onBehalfOf !== undefined) body['onBehalfOf'] = op.onBehalfOf;
  const rawBody = JSON.stringify(body);
  const placed = await createOrder({ ...req, json: body, rawBody }, ctx);
  if (placed.status === 201) return { cancel, replacement: { status: 'SUCCESS', data: placed.body } };
  const message = String((placed.body as { message?: unknown } | undefined)?.message ?? `replacement refused (${placed.status})`);
  return { cancel, replacement: { status: 'FAILURE', error: { code: codeFor(placed.status), message } } };
}

function succeeded(r: OperationResult): boolean {
  return r.cancel.status === 'SUCCESS' && r.replacement.status === 'SUCCESS';
}

/** POST /orders/cancel-replace. */
export async function cancelReplace(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  const op = parseOperation(req.json, '');
  if (typeof op === 'string') return fail(400, op);
  const refusal = actingRefusal(ctx, auth, op);
  if (refusal) return refusal;
  const result = await runOperation(req, ctx, auth, op);
  return { status: succeeded(result) ? 200 : 409, body: result };
}

/** POST /orders/cancel-replace/batch. */
export async function cancelReplaceBatch(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxResponse> {
  const auth = req.auth;
  if (!auth) return fail(401, 'Authentication required');
  const keys = knownKeysError(req.json, ['operations'], 'a cancel-replace batch');
  if (keys !== null) return fail(400, keys);
  const list = (req.json as Record<string, unknown>)['operations'];
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_CANCEL_REPLACE_BATCH) {
    return fail(400, `operations must be an array of 1 to ${MAX_CANCEL_REPLACE_BATCH} cancel-replace operations`);
  }
  const ops: Operation[] = [];
  for (const [i, v] of list.entries()) {
    const op = parseOperation(v, `operations[${i}].`);
    if (typeof op === 'string') return fail(400, op);
    const refusal = actingRefusal(ctx, auth, op);
    if (refusal) return refusal;
    ops.push(op);
  }
  const results: (OperationResult & { index: number })[] = [];
  for (const [index, op] of ops.entries()) {
    results.push({ index, ...(await runOperation(req, ctx, auth, op)) });
  }
  return { status: results.every(succeeded) ? 200 : 207, body: { results } };
}
