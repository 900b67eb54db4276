// The market maker's two moves: cancel-replace (one request: the old order cancelled and the new
// one resting) and the kill switch (every open order of every market cancelled). The
// replacement is an ordinary order for exactly-once purposes: journaled before it is sent, its
// client id looked up after an ambiguous answer, never sent twice.
import { exchangeId } from '../journal-account.js';
import { createHash } from 'node:crypto';
import {
  ConflictError,
  ExchangeError,
  ExchangeValidationError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  PmError,
  UnknownStateError,
  UsageError,
  ValidationError,
} from '../errors.js';
import type { ApiClient } from '../http.js';
import { formatUnits } from '../money.js';
import { fetchPositions } from '../portfolio.js';
import { parsePrice, parseSize } from './amounts.js';
import { checkClientOrderId } from './build.js';
import { inputExample, inputName } from './terms.js';
import type { InputWords } from './terms.js';
import { buildSignedOrder } from './flow.js';
import type { ParsedOrder, SignDeps } from './flow.js';
import type { Journal } from './journal.js';
import { cancelOrders, isPlacedAnswer, lookupClientId, orderStatus, parsePlaced, unknownState } from './place.js';
import type { CancelOutcome } from './place.js';
import { cancelEntries, placedJson, placeResult } from './views.js';
import type { CancelEntry, CancelResult, PlacedJson, PlaceResult } from './views.js';
import { isObj, textOf } from '../wire.js';
import type { Json } from '../wire.js';

export interface ReplaceInput {
  /** The order to replace, by id… */
  orderId?: string | undefined;
  /** …or by its client id. */
  oldClientId?: string | undefined;
  /** New limit price (default: the old one), decimal. */
  price?: string | undefined;
  /** New size in shares (default: the old order's remaining size), decimal. */
  size?: string | undefined;
  /** The replacement's client id (default: generated). */
  clientId?: string | undefined;
  /**
   * The sub-account's orders are signed by the exchange (a server wallet). Only a check: pm tells
   * the sub-account's mode from the partner's records or the exchange.
   */
  delegated?: boolean | undefined;
  /** STOP_ON_FAILURE (default: never a second order when the first could not be cancelled) or ALLOW_FAILURE. */
  mode?: 'STOP_ON_FAILURE' | 'ALLOW_FAILURE' | undefined;
}

export interface PartResult {
  status: string;
  error?: { code: string; message: string } | undefined;
}

export interface ReplaceOutcome {
  /** Both parts happened. */
  ok: boolean;
  cancel: PartResult & { orderId: string };
  replacement: PartResult & { clientOrderId: string; order?: PlacedJson | undefined; alreadyPlaced?: boolean };
}

/** The order a replacement replaces (by id or client id), as the exchange holds it. */
export async function oldOrder(api: ApiClient, i: ReplaceInput): Promise<{ id: string; order: Json }> {
  const q = i.orderId !== undefined ? { ids: [i.orderId] } : { clientIds: [i.oldClientId ?? ''] };
  const [r] = await orderStatus(api, q);
  if (r?.status !== 'found' || !r.data || !isObj(r.data['order'])) {
    const what = i.orderId ?? `with client id ${i.oldClientId ?? ''}`;
    if (r?.status === 'not_found')
      throw new NotFoundError(`no order ${what} to replace`, { hint: 'pm order list shows your open orders.' });
    throw new ExchangeError(`could not look up the order ${what} to replace${r?.error ? `: ${r.error}` : ''}`, {
      hint: 'Nothing was cancelled or placed; try again.',
    });
  }
  return { id: textOf(r.data['order']['id']), order: r.data['order'] };
}

const part = (v: unknown): PartResult => {
  const o = isObj(v) ? v : {};
  const e = isObj(o['error']) ? o['error'] : undefined;
  return { status: textOf(o['status']) || 'UNKNOWN', ...(e ? { error: { code: textOf(e['code']), message: textOf(e['message']) } } : {}) };
};

/**
 * What a replacement asks, read offline: the order named once (id or client id), and a price, a
 * size or both, each parsed. Throws a UsageError or ValidationError in the caller's words.
 */
export function checkReplaceInput(i: ReplaceInput, w: InputWords = 'flags'): { price: bigint | undefined; size: bigint | undefined } {
  if ((i.orderId === undefined) === (i.oldClientId === undefined))
    throw new UsageError(`name the order to replace: its id or ${w === 'flags' ? '--client-id' : 'its clientId'}`);
  if (i.price === undefined && i.size === undefined)
    throw new UsageError(`give ${inputName(w, 'price')}, ${inputName(w, 'size')} or both for the replacement`, {
      hint: `for example ${inputExample(w, 'price', '0.42')}, ${inputExample(w, 'size', '10')} or both`,
    });
  return {
    price: i.price === undefined ? undefined : parsePrice(i.price, w),
    size: i.size === undefined ? undefined : parseSize(i.size, 'size', w),
  };
}

/**
 * Replaces a resting order in one request (POST /orders/cancel-replace). The replacement is
 * signed like any order (owner, fee, the right wallet), journaled first, and after a lost answer
 * found again by its client id.
 * @example await replaceOrder(deps, { orderId, price: '0.43' }, { journal })
 */
export async function replaceOrder(
  deps: SignDeps,
  i: ReplaceInput,
  o: {
    journal: Journal;
    signal?: AbortSignal | undefined;
    /** An old order that is not found: a NotFoundError (the CLI, exit 4), or the outcome the exchange gives for it (the library). */
    notFound?: 'throw' | 'outcome' | undefined;
    /** How errors name the inputs: the CLI's flags (default) or the library's keys. */
    words?: InputWords | undefined;
    /** Called just before the cancel-replace request is sent (an error before it sent nothing). */
    onSending?: (() => void) | undefined;
  },
): Promise<ReplaceOutcome> {
  const w = o.words ?? 'flags';
  const { price, size } = checkReplaceInput(i, w);
  const api = deps.api.withDeadline();
  deps = { ...deps, api };
  const clientOrderId = checkClientOrderId(i.clientId ?? replacementClientId(i, price, size, api.onBehalfOf), w);
  const mode = i.mode ?? 'STOP_ON_FAILURE';
  // A re-run with the same replacement client id: the exchange may hold it already.
  const earlier = o.journal.lookup(clientOrderId);
  if (earlier) {
    const l = await lookupClientId(api, clientOrderId, { signal: o.signal });
    if (l.kind === 'found') {
      const order = placedJson(parsePlaced(l.data, clientOrderId, '', true, 0));
      // The same replacement is success; other terms under its client id are another order.
      const diffs = [
        ...(price !== undefined && order.price !== formatUnits(price) ? [`price ${order.price ?? '?'} (asked ${formatUnits(price)})`] : []),
        ...(size !== undefined && order.size !== formatUnits(size) ? [`size ${order.size ?? '?'} (asked ${formatUnits(size)})`] : []),
      ];
      if (diffs.length > 0)
        throw new ConflictError(`client id ${clientOrderId} already names a replacement with other terms: ${diffs.join(', ')}`, {
          status: 409,
          hint: `Nothing new was placed. To replace again, give the new order another --new-client-id; to see this one: pm order status --client-id ${clientOrderId}`,
        });
      // The old order by id as given, or as its client id names it (it still exists, cancelled
      // unless ALLOW_FAILURE placed the replacement beside it).
      const held = mode === 'STOP_ON_FAILURE' && i.orderId !== undefined ? undefined : await oldOrder(api, i).catch(() => null);
      const cancel = await cancelOf(api, mode, i.orderId ?? held?.id ?? '', held);
      return {
        ok: cancel.status === 'SUCCESS',
        cancel,
        replacement: { status: 'SUCCESS', clientOrderId, alreadyPlaced: true, order },
      };
    }
  }
  let old: Awaited<ReturnType<typeof oldOrder>>;
  try {
    old = await oldOrder(api, i);
  } catch (e) {
    if (!(e instanceof NotFoundError) || o.notFound !== 'outcome') throw e;
    // As the exchange answers a cancel-replace of an order it does not hold: nothing cancelled, nothing placed.
    return {
      ok: false,
      cancel: { status: 'FAILURE', orderId: i.orderId ?? '', error: { code: 'ORDER_NOT_FOUND', message: e.shortMessage } },
      replacement: { status: 'NOT_ATTEMPTED', clientOrderId },
    };
  }
  const slug = textOf(isObj(old.order['market']) ? old.order['market']['slug'] : '') || textOf(old.order['marketSlug']);
  const market = await deps.cache.market(api, slug);
  const tokenId = textOf(old.order['tokenId']);
  const outcome = market.positionIds?.[0] === tokenId ? 'YES' : market.positionIds?.[1] === tokenId ? 'NO' : null;
  const side = old.order['side'] === 0 || old.order['side'] === 'BUY' ? 'BUY' : 'SELL';
  const oldPrice = textOf(old.order['price']);
  const remaining = /^\d+$/.test(textOf(old.order['remainingSize'])) ? BigInt(textOf(old.order['remainingSize'])) : undefined;
  if (outcome === null || (price === undefined && !oldPrice) || (size === undefined && remaining === undefined))
    throw new ExchangeError(`order ${old.id} is not a resting limit order pm can replace (unknown outcome, price or size)`);
  const parsed: ParsedOrder = {
    slug,
    side,
    outcome,
    type: 'GTC',
    price: price ?? parsePrice(oldPrice),
    size: size ?? remaining,
    amount: undefined,
    postOnly: old.order['postOnly'] === true,
    clientOrderId,
    onBehalfOf: api.onBehalfOf,
    // (The sub-account's mode decides: a server wallet's replacement goes unsigned.)
    delegated: i.delegated === true,
    stpPolicy: undefined,
    words: w,
  };
  if (parsed.size !== undefined && parsed.size <= 0n) throw new ValidationError(`order ${old.id} has nothing left to replace`);
  const signed = await buildSignedOrder(deps, parsed);
  const { onBehalfOf: _obo, ...replacement } = signed.body;
  const rec = (state: 'pending' | 'placed' | 'failed' | 'unknown', extra: { orderId?: string; error?: string } = {}): void =>
    o.journal.record({
      clientOrderId,
      state,
      marketSlug: slug,
      exchange: exchangeId(api.baseUrl),
      ...extra,
      ...(state === 'pending' ? { request: signed.body } : {}),
    });
  /**
   * The answer was lost, cut or unreadable: the replacement may exist. Found by its client id, it
   * did; not found proves nothing (the request may still arrive), so the outcome is unknown.
   */
  const settle = async (cause: PmError): Promise<ReplaceOutcome> => {
    let l: Awaited<ReturnType<typeof lookupClientId>>;
    try {
      l = await lookupClientId(api, clientOrderId, { signal: o.signal });
    } catch (e) {
      rec('unknown', { error: e instanceof PmError ? e.shortMessage : String(e) });
      if (e instanceof InterruptedError)
        throw new InterruptedError(`interrupted: the outcome of replacement ${clientOrderId} is unknown`, {
          cause: e,
          sent: true,
          clientId: clientOrderId,
          unknownClientId: clientOrderId,
          hint: `Run the same replace again (same clientId ${clientOrderId}): it never places a second order. Or check: pm order status --client-id ${clientOrderId}`,
        });
      throw e;
    }
    if (l.kind === 'absent') {
      rec('unknown', { error: cause.shortMessage });
      throw unknownState(clientOrderId, cause, 'the cancel-replace answer was lost and the exchange does not hold the replacement yet');
    }
    const placed = parsePlaced(l.data, clientOrderId, slug, false, 1, market.positionIds);
    rec('placed', { orderId: placed.orderId });
    const cancel = await cancelOf(api, mode, old.id);
    return {
      ok: cancel.status === 'SUCCESS',
      cancel,
      replacement: { status: 'SUCCESS', clientOrderId, order: placedJson(placed) },
    };
  };
  rec('pending');
  o.onSending?.();
  let d: unknown;
  try {
    d = (
      await api.request<unknown>({
        method: 'POST',
        path: '/orders/cancel-replace',
        body: { cancel: { orderId: old.id }, replacement, mode },
        auth: 'auto',
        onBehalfOfIn: 'body',
        retry: 'never',
        okStatuses: [409],
      })
    ).data;
  } catch (e) {
    const ambiguous = e instanceof NetworkError && e.ambiguous;
    if (!ambiguous || !(e instanceof PmError)) {
      rec('failed', { error: e instanceof PmError ? e.shortMessage : String(e) });
      throw e;
    }
    return settle(e);
  }
  if (!wellFormed(d)) return settle(new NetworkError('POST /orders/cancel-replace answered, but its answer could not be read'));
  const res = d;
  const rp = part(res['replacement']);
  // The exchange's own UNKNOWN (it could not tell): the replacement is looked up by its client id
  // as after a lost answer, the old order asked for.
  if (rp.status === 'UNKNOWN')
    return settle(new ExchangeError(`the exchange answered the replacement UNKNOWN${rp.error ? ` (${rp.error.message})` : ''}`));
  const said = { ...part(res['cancel']), orderId: old.id };
  const cancel = said.status === 'UNKNOWN' ? await cancelOf(api, 'ALLOW_FAILURE', old.id) : said;
  // An earlier run whose outcome was unknown may have replaced the order since this run looked
  // (its request was still on the way): the old order is gone, so ask for the replacement again.
  if (earlier && cancel.status !== 'SUCCESS' && rp.status !== 'SUCCESS')
    return settle(new NetworkError(`an earlier run of replacement ${clientOrderId} had an unknown outcome and order ${old.id} is gone`));
  const rd = isObj(res['replacement']) ? res['replacement']['data'] : undefined;
  let order: PlacedJson | undefined;
  if (rp.status === 'SUCCESS' && isObj(rd)) {
    const placed = parsePlaced(rd, clientOrderId, slug, false, 1, market.positionIds);
    rec('placed', { orderId: placed.orderId });
    order = placedJson(placed);
  } else rec(rp.status === 'UNKNOWN' ? 'unknown' : 'failed', { error: rp.error?.message ?? rp.status });
  return {
    ok: cancel.status === 'SUCCESS' && rp.status === 'SUCCESS',
    cancel,
    replacement: { ...rp, clientOrderId, ...(order ? { order } : {}) },
  };
}

/**
 * What became of the old order once the cancel-replace was done. STOP_ON_FAILURE places the
 * replacement only after the cancel; otherwise (ALLOW_FAILURE, or the exchange's cancel answered
 * UNKNOWN) the old order is asked for (`held`: already looked up, null when that failed):
 * cancelled, still there (FAILURE), or UNKNOWN when it cannot be looked up.
 */
async function cancelOf(
  api: ApiClient,
  mode: 'STOP_ON_FAILURE' | 'ALLOW_FAILURE',
  orderId: string,
  held?: { order: Json } | null,
): Promise<PartResult & { orderId: string }> {
  if (mode === 'STOP_ON_FAILURE') return { status: 'SUCCESS', orderId };
  const order = held === undefined ? (await oldOrder(api, { orderId }).catch(() => null))?.order : held?.order;
  if (!order) return { status: 'UNKNOWN', orderId, error: { code: 'UNKNOWN', message: `order ${orderId || '?'} could not be looked up` } };
  const status = textOf(order['status']);
  if (status === 'CANCELED' || status === 'CANCELLED') return { status: 'SUCCESS', orderId };
  return { status: 'FAILURE', orderId, error: { code: 'NOT_CANCELLED', message: `order ${orderId} is ${status || 'not cancelled'}` } };
}

/**
 * A replacement whose outcome pm could not learn in full: the cancel's (the replacement stands;
 * whether the old order beside it was cancelled is unknown). Such an outcome is unknown, never
 * "not replaced": making the same replacement again finds it and asks for the old order again.
 */
export function replaceUnknown(r: ReplaceOutcome, w: InputWords = 'flags'): UnknownStateError | undefined {
  if (r.cancel.status !== 'UNKNOWN' && r.replacement.status !== 'UNKNOWN') return undefined;
  const cid = r.replacement.clientOrderId;
  const placed =
    r.replacement.status === 'SUCCESS'
      ? `replacement ${cid} is placed${r.replacement.order ? ` (order ${r.replacement.order.orderId})` : ''}`
      : `replacement ${cid} was not placed`;
  const standing = r.replacement.status !== 'FAILURE' && r.replacement.status !== 'NOT_ATTEMPTED';
  const why =
    r.cancel.status === 'UNKNOWN' ? (r.cancel.error?.message ?? 'the old order could not be looked up') : `the cancel: ${r.cancel.status}`;
  return new UnknownStateError(`the outcome of replacing order ${r.cancel.orderId} is unknown: ${placed}; ${why}`, {
    // (A replacement that may stand: the same replacement again finds it and asks for the old order.)
    ...(standing ? { unknownClientId: cid } : {}),
    details: JSON.stringify(r),
    hint: `Check the old order: ${oldOrderCheck(r.cancel.orderId, w)}`,
  });
}

/** How to ask for an order by its id, in the CLI's words or the library's. */
export function oldOrderCheck(orderId: string, w: InputWords): string {
  return w === 'flags' ? `pm order status ${orderId}` : `pm.orders.status({ ids: [${JSON.stringify(orderId)}] })`;
}

/** Whether a cancel-replace answer says what became of both parts (a success carries its order). */
function wellFormed(d: unknown): d is Json {
  if (!isObj(d) || !isObj(d['cancel']) || !isObj(d['replacement'])) return false;
  const rp = d['replacement'];
  if (typeof d['cancel']['status'] !== 'string' || typeof rp['status'] !== 'string') return false;
  return rp['status'] !== 'SUCCESS' || isPlacedAnswer(rp['data']);
}

/**
 * The replacement's client id when none is given: `pmr-` and 32 hex characters of sha256 of the
 * old order (as named), the new price and size and who acts. The same command always gets the
 * same id, so running it again after an unknown outcome finds the replacement instead of placing
 * a second one (the old order can be replaced only once, so nothing legitimate is lost).
 */
function replacementClientId(i: ReplaceInput, price: bigint | undefined, size: bigint | undefined, onBehalfOf: number | undefined): string {
  const old = i.orderId !== undefined ? `id:${i.orderId}` : `cid:${i.oldClientId ?? ''}`;
  const h = createHash('sha256')
    .update(['pm-replace-v1', old, String(price ?? ''), String(size ?? ''), String(onBehalfOf ?? '')].join('\n'))
    .digest('hex');
  return `pmr-${h.slice(0, 32)}`;
}

/** The error for an outcome where the exchange refused either part (exit 9; both results in the details). */
export function replaceRefusal(r: ReplaceOutcome): PmError {
  const rp = r.replacement;
  // (ALLOW_FAILURE: the replacement is placed although the cancel failed.)
  if (rp.status === 'SUCCESS' && r.cancel.status !== 'SUCCESS')
    return new ExchangeValidationError(
      `replacement ${rp.clientOrderId} is placed${rp.order ? ` (order ${rp.order.orderId})` : ''}, but the cancel of ${r.cancel.orderId} failed: ${r.cancel.error?.message ?? r.cancel.status}`,
      {
        details: JSON.stringify(r),
        hint: `See what became of the old order: pm order status ${r.cancel.orderId} (pm order cancel ${r.cancel.orderId} if it still rests).`,
      },
    );
  const why =
    r.cancel.status !== 'SUCCESS'
      ? `the cancel of ${r.cancel.orderId}: ${r.cancel.error?.message ?? r.cancel.status}`
      : `the replacement: ${r.replacement.error?.message ?? r.replacement.status}`;
  return new ExchangeValidationError(`not replaced: ${why}`, { details: JSON.stringify(r) });
}

export interface EverywhereOutcome {
  markets: (CancelOutcome & { market: string; error?: { code: string; message: string } | undefined })[];
}

/**
 * The kill switch: cancels every open order in every market. The exchange cancels per market
 * only (DELETE /orders/all/{slug}), so this fans out over the markets of the open orders, all at
 * once (the limiter paces the sends): one market that fails or hangs neither stops nor holds back
 * the others.
 */
export async function cancelEverywhere(api: ApiClient): Promise<EverywhereOutcome> {
  const { liveOrders } = await fetchPositions(api);
  const slugs = [...new Set(liveOrders.map((x) => textOf(x['market'])).filter(Boolean))];
  const settled = await Promise.all(
    slugs.map((market) =>
      cancelOrders(api, { slug: market }).then(
        (r) => ({ market, r }),
        (e: unknown) => ({ market, e: e instanceof PmError ? e : new PmError(String(e), { cause: e }) }),
      ),
    ),
  );
  const markets: EverywhereOutcome['markets'] = settled.map((s) =>
    'r' in s
      ? { market: s.market, ...s.r }
      : { market: s.market, canceled: [], failed: [], error: { code: s.e.code, message: s.e.shortMessage } },
  );
  if (api.signal?.aborted) {
    // Ctrl-C: what was cancelled, the markets whose cancel was on its way (it may have gone
    // through), and those never asked (their send was still waiting its turn).
    const done = markets.filter((m) => m.error === undefined);
    const failed = settled.flatMap((s) => ('e' in s ? [s] : []));
    const onItsWay = failed
      .filter((s) => s.e.code === 'UNKNOWN_STATE' || (s.e instanceof NetworkError && s.e.ambiguous))
      .map((s) => s.market);
    const left = failed.map((s) => s.market).filter((m) => !onItsWay.includes(m));
    if (onItsWay.length > 0 || left.length > 0) throw interruptedEverywhere(done, onItsWay, left, api.signal.reason);
  }
  return { markets };
}

/** "2 orders in 1 market" for messages. */
export function countText(r: EverywhereOutcome): string {
  const n = r.markets.reduce((a, m) => a + m.canceled.length, 0);
  return `${n} order${n === 1 ? '' : 's'} in ${r.markets.length} market${r.markets.length === 1 ? '' : 's'}`;
}

/** What `orders.cancelAll` returns: every order cancelled (or not), and each market's failure, if any. */
export interface CancelAllResult extends CancelResult {
  /** answerLost: an answer of the exchange was lost, so `results` cannot name the orders it cancelled then (none of the market's is open now but those FAILED STILL_OPEN). */
  markets: { market: string; error: { code: string; message: string } | null; answerLost?: true }[];
}

/** Everywhere's outcome (or one market's) as CancelAllResult. */
export function cancelAllResult(r: EverywhereOutcome): CancelAllResult {
  return {
    results: r.markets.flatMap((m) => cancelEntries(m, m.market)),
    markets: r.markets.map((m) => ({ market: m.market, error: m.error ?? null, ...(m.answerLost ? { answerLost: true as const } : {}) })),
  };
}

/**
 * What `orders.replace` returns: the old order's cancel as a cancel entry, and the replacement
 * as `orders.place` returns an order (null when it was not placed: `error` says why). An old
 * order that is gone is `cancelled.status: 'NOT_FOUND'`, as in every cancel.
 */
export interface ReplaceResult {
  cancelled: CancelEntry;
  replacement: PlaceResult | null;
  /** Why the replacement was not placed (the cancel failed, or the exchange refused it); null when placed. */
  error: { code: string; message: string } | null;
}

export function replaceResult(r: ReplaceOutcome): ReplaceResult {
  const c = r.cancel;
  const code = c.error?.code ?? '';
  const cancelled: CancelEntry = {
    order: { id: c.orderId, market: r.replacement.order?.market ?? null },
    clientId: null,
    status: c.status === 'SUCCESS' ? 'CANCELLED' : code === 'ORDER_NOT_FOUND' ? 'NOT_FOUND' : 'FAILED',
    error: c.status === 'SUCCESS' ? null : { code: code || c.status, message: c.error?.message ?? '' },
  };
  const placed = r.replacement.status === 'SUCCESS' && r.replacement.order ? placeResult(r.replacement.order) : null;
  const why =
    c.status !== 'SUCCESS'
      ? cancelled.error
      : { code: r.replacement.error?.code || r.replacement.status, message: r.replacement.error?.message ?? '' };
  return { cancelled, replacement: placed, error: placed ? null : why };
}

/** The kill switch stopped by Ctrl-C: what was cancelled before it, the market on its way, the ones not asked. */
function interruptedEverywhere(
  done: EverywhereOutcome['markets'],
  onItsWay: readonly string[],
  left: readonly string[],
  cause: unknown,
): InterruptedError {
  const way = onItsWay.length === 0 ? '' : `the cancel of ${onItsWay.join(', ')} may or may not have gone through; `;
  return new InterruptedError(
    `interrupted: ${countText({ markets: done })} canceled; ${way}${left.length} market${left.length === 1 ? '' : 's'} not asked`,
    {
      cause,
      details: [
        ...done.map((m) => `${m.market}: ${m.canceled.length} canceled${m.failed.length ? `, ${m.failed.length} failed` : ''}`),
        ...onItsWay.map((m) => `${m}: interrupted on its way`),
        ...(left.length ? [`not asked: ${left.join(', ')}`] : []),
      ].join('\n'),
      hint: 'Run it again: cancelling is idempotent. pm order list shows what is still open.',
    },
  );
}
