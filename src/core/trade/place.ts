// Placing, cancelling and reading orders with exactly-once semantics: a journal entry before
// the send; after an ambiguous failure, ask the exchange by client id before re-sending; a
// 409 on re-send means "already placed".
import type { ApiClient } from '../http.js';
import { ConflictError, ExchangeError, NetworkError, PmError, ValidationError } from '../errors.js';
import type { Journal } from './journal.js';
import type { OrderBody } from './build.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : typeof o[k] === 'number' ? String(o[k]) : '');
const big = (v: unknown): bigint => (typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : 0n);

export interface Totals {
  contractsGross: bigint;
  contractsFee: bigint;
  contractsNet: bigint;
  usdGross: bigint;
  usdFee: bigint;
  usdNet: bigint;
}

export interface Placed {
  orderId: string;
  clientOrderId: string;
  marketSlug: string;
  matched: boolean;
  settlementStatus: string;
  totals: Totals;
  makerMatches: number;
  feeRateBps: number | null;
  alreadyPlaced: boolean;
  attempts: number;
  raw: Json;
}

/** Reads a create-order answer (or a status-batch `data`) into a Placed. */
export function parsePlaced(d: unknown, clientOrderId: string, marketSlug: string, alreadyPlaced: boolean, attempts: number): Placed {
  if (!isObj(d) || !isObj(d['order'])) throw new ExchangeError('unexpected answer to POST /orders (no order)');
  const order = d['order'];
  const ex = isObj(d['execution']) ? d['execution'] : {};
  const t = isObj(ex['totalsRaw']) ? ex['totalsRaw'] : {};
  return {
    orderId: str(order, 'id'),
    clientOrderId: str(ex, 'clientOrderId') || str(order, 'clientOrderId') || clientOrderId,
    marketSlug,
    matched: ex['matched'] === true,
    settlementStatus: str(ex, 'settlementStatus') || 'UNKNOWN',
    totals: { contractsGross: big(t['contractsGross']), contractsFee: big(t['contractsFee']), contractsNet: big(t['contractsNet']), usdGross: big(t['usdGross']), usdFee: big(t['usdFee']), usdNet: big(t['usdNet']) },
    makerMatches: Array.isArray(d['makerMatches']) ? d['makerMatches'].length : 0,
    feeRateBps: typeof ex['feeRateBps'] === 'number' ? ex['feeRateBps'] : null,
    alreadyPlaced,
    attempts,
    raw: d,
  };
}

export interface StatusResult {
  index: number;
  status: string;
  orderId: string | null;
  clientOrderId: string | null;
  error: string | null;
  data: Json | null;
}

/** Order status by ids or client ids, in chunks of 50. */
export async function orderStatus(api: ApiClient, q: { ids?: string[]; clientIds?: string[] }, retry: 'read' | 'never' = 'read'): Promise<StatusResult[]> {
  const items = [...(q.ids ?? []).map((orderId) => ({ orderId })), ...(q.clientIds ?? []).map((clientOrderId) => ({ clientOrderId }))];
  if (items.length === 0) throw new ValidationError('give at least one order id or --client-id');
  const out: StatusResult[] = [];
  for (let i = 0; i < items.length; i += 50) {
    const chunk = items.slice(i, i + 50);
    // A status read changes nothing, so it may be retried like a GET.
    const d = (await api.request<unknown>({ method: 'POST', path: '/orders/status/batch', body: { items: chunk }, auth: 'auto', retry })).data;
    const results = isObj(d) && Array.isArray(d['results']) ? d['results'] : [];
    for (const r of results.filter(isObj)) {
      const index = typeof r['index'] === 'number' ? r['index'] + i : out.length;
      out.push({ index, status: str(r, 'status'), orderId: str(r, 'orderId') || null, clientOrderId: str(r, 'clientOrderId') || null, error: str(r, 'error') || null, data: isObj(r['data']) ? r['data'] : null });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

async function findByClientId(api: ApiClient, clientOrderId: string): Promise<Json | null> {
  const [r] = await orderStatus(api, { clientIds: [clientOrderId] });
  return r && r.status === 'found' && r.data ? r.data : null;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Adds what to do next to the exchange's terse refusals of an order. */
function explain(e: unknown): unknown {
  if (!(e instanceof ExchangeError) || e.hint) return e;
  const m = e.shortMessage;
  const hint = /insufficient collateral|insufficient.*(usdc|balance|funds)/i.test(m)
    ? 'Not enough free USDC: resting BUY orders lock theirs. Lower --size/--amount, or cancel resting orders (pm order list --market …).'
    : /insufficient conditional token|shares/i.test(m)
      ? 'Not enough free shares of that outcome: resting SELL orders lock theirs.'
      : /post-only/i.test(m)
        ? 'A post-only order must not cross: lower a BUY price (or raise a SELL price) below the best opposite quote (pm book …).'
        : /fee/i.test(m)
          ? 'The fee rate must equal your profile rate: run pm whoami (cached rates refresh within a day).'
          : /Profile ID does not match/i.test(m)
            ? 'The token and the signing wallet belong to different profiles: check pm whoami.'
            : undefined;
  return hint ? Object.assign(e, { hint }) : e;
}

export interface PlaceOptions {
  /** Total send attempts after ambiguous failures (default 4). */
  maxAttempts?: number;
  /** Called with a note when pm retries or reconciles (for --verbose / stderr). */
  onNote?: (note: string) => void;
}

/**
 * Places one order exactly once.
 * @example const placed = await placeOrder(api, body, journal)
 */
export async function placeOrder(api: ApiClient, body: OrderBody, journal: Journal, opts: PlaceOptions = {}): Promise<Placed> {
  const cid = body.clientOrderId;
  const maxAttempts = opts.maxAttempts ?? 4;
  journal.record({ clientOrderId: cid, state: 'pending', marketSlug: body.marketSlug, request: body });
  let lastError: PmError | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const res = await api.request<unknown>({ method: 'POST', path: '/orders', body, auth: 'auto', retry: 'never' });
      const placed = parsePlaced(res.data, cid, body.marketSlug, false, attempt);
      journal.record({ clientOrderId: cid, state: 'placed', marketSlug: body.marketSlug, orderId: placed.orderId });
      return placed;
    } catch (e) {
      if (e instanceof ConflictError) {
        // The client id is taken: this very order already went through (a re-run, or our
        // earlier attempt that lost its answer). Report it as placed.
        const existing = await findByClientId(api, cid).catch(() => null);
        if (existing) {
          const placed = parsePlaced(existing, cid, body.marketSlug, true, attempt);
          journal.record({ clientOrderId: cid, state: 'placed', marketSlug: body.marketSlug, orderId: placed.orderId });
          return placed;
        }
        journal.record({ clientOrderId: cid, state: 'failed', marketSlug: body.marketSlug, error: e.shortMessage });
        throw new ConflictError(`client order id ${cid} is already used by another order`, { status: 409, hint: 'Use a new --client-id (or leave it out to get a fresh one).' });
      }
      const ambiguous = (e instanceof NetworkError && e.ambiguous) || (e instanceof PmError && e.status === 429);
      if (!ambiguous) {
        journal.record({ clientOrderId: cid, state: 'failed', marketSlug: body.marketSlug, error: e instanceof PmError ? e.shortMessage : String(e) });
        throw explain(e);
      }
      lastError = e instanceof PmError ? e : undefined;
      // Did it land? Ask before sending again.
      let existing: Json | null = null;
      let known = false;
      for (let q = 0; q < 5 && !known; q++) {
        try {
          existing = await findByClientId(api, cid);
          known = true;
        } catch {
          await sleep(200 * 2 ** q);
        }
      }
      if (existing) {
        opts.onNote?.(`the answer to ${cid} was lost, but the order is on the book: not sending it again`);
        const placed = parsePlaced(existing, cid, body.marketSlug, true, attempt);
        journal.record({ clientOrderId: cid, state: 'placed', marketSlug: body.marketSlug, orderId: placed.orderId });
        return placed;
      }
      if (!known) break;
      opts.onNote?.(`${cid} did not reach the exchange (${lastError?.shortMessage ?? 'no answer'}); sending it again (attempt ${attempt + 1})`);
      await sleep(Math.min(2000, 150 * 2 ** (attempt - 1)));
    }
  }
  journal.record({ clientOrderId: cid, state: 'unknown', marketSlug: body.marketSlug, error: lastError?.shortMessage });
  throw new NetworkError(`could not confirm order ${cid}: ${lastError?.shortMessage ?? 'no answer'}`, {
    hint: `Check with: pm order status --client-id ${cid} (re-running the same command with --client-id ${cid} is safe).`,
  });
}

export interface CancelOutcome {
  canceled: string[];
  failed: { orderId: string; reason: string; message: string }[];
}

function cancelResult(d: unknown): CancelOutcome {
  const o = isObj(d) ? d : {};
  return {
    canceled: Array.isArray(o['canceled']) ? o['canceled'].map(String) : [],
    failed: Array.isArray(o['failed']) ? o['failed'].filter(isObj).map((f) => ({ orderId: str(f, 'orderId'), reason: str(f, 'reason'), message: str(f, 'message') })) : [],
  };
}

/** Cancels by ids, by client ids (batches of ≤50), or every order of a market. */
export async function cancelOrders(api: ApiClient, q: { ids?: string[]; clientIds?: string[]; slug?: string; onBehalfOf?: number }): Promise<CancelOutcome> {
  const out: CancelOutcome = { canceled: [], failed: [] };
  const query = q.onBehalfOf === undefined ? undefined : { onBehalfOf: q.onBehalfOf };
  if (q.slug !== undefined) {
    // Cancelling twice is harmless, so a lost answer or a 429 may be retried.
    const d = (await api.request<unknown>({ method: 'DELETE', path: `/orders/all/${encodeURIComponent(q.slug)}`, query, auth: 'auto', retry: 'read', okStatuses: [207] })).data;
    return cancelResult(d);
  }
  for (const [key, list] of [['orderIds', q.ids ?? []], ['clientOrderIds', q.clientIds ?? []]] as const) {
    for (let i = 0; i < list.length; i += 50) {
      const chunk = list.slice(i, i + 50);
      const body: Json = { [key]: chunk };
      if (q.onBehalfOf !== undefined) body['onBehalfOf'] = q.onBehalfOf;
      const d = (await api.request<unknown>({ method: 'POST', path: '/orders/batch-cancel', body, auth: 'auto', retry: 'read', okStatuses: [207] })).data;
      const r = cancelResult(d);
      out.canceled.push(...r.canceled);
      out.failed.push(...r.failed);
    }
  }
  return out;
}

export interface OpenOrder {
  id: string;
  clientOrderId: string | null;
  side: string;
  outcome: string;
  price: string;
  originalSize: bigint;
  remainingSize: bigint;
  status: string;
  type: string;
  createdAt: string;
  raw: Json;
}

/** Open orders of the caller in one market (bare array or {orders}). */
export async function listOpenOrders(api: ApiClient, slug: string, statuses?: string[]): Promise<OpenOrder[]> {
  const d = (await api.request<unknown>({ method: 'GET', path: `/markets/${encodeURIComponent(slug)}/user-orders`, query: statuses ? { statuses } : undefined, auth: 'auto' })).data;
  const list = Array.isArray(d) ? d : isObj(d) && Array.isArray(d['orders']) ? d['orders'] : null;
  if (!list) throw new ExchangeError('unexpected answer from user-orders');
  return list.filter(isObj).map((o) => ({
    id: str(o, 'id'),
    clientOrderId: str(o, 'clientOrderId') || null,
    side: str(o, 'side') || (o['side'] === 0 ? 'BUY' : 'SELL'),
    outcome: str(o, 'token') || str(o, 'outcome'),
    price: str(o, 'price'),
    originalSize: big(o['originalSize']),
    remainingSize: big(o['remainingSize']),
    status: str(o, 'status'),
    type: str(o, 'type') || str(o, 'orderType'),
    createdAt: str(o, 'createdAt'),
    raw: o,
  }));
}
