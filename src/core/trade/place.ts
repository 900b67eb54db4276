// Placing, cancelling and reading orders with exactly-once semantics: a journal entry before
// the send; after an ambiguous failure, ask the exchange by client id before re-sending; a
// 409 means the client id is taken, and the order behind it is compared with the request:
// the same order is an idempotent success (reported with the exchange's own fields), a
// different one is a conflict (exit 5). A lookup that cannot be answered is "unknown" (exit 7,
// re-run the same command), never "another order".
import type { ApiClient } from '../http.js';
import { exchangeId } from '../journal-account.js';
import { retrying } from '../retry.js';
import {
  AuthError,
  ConflictError,
  ExchangeError,
  ExchangeValidationError,
  InterruptedError,
  NetworkError,
  PmError,
  RateLimitError,
  UnknownStateError,
  ValidationError,
  errorMessage,
} from '../errors.js';
import { formatUnits, priceText } from '../money.js';
import type { Journal, JournalEntry, JournalState } from './journal.js';
import type { OrderBody } from './build.js';
import { checkClientOrderId } from './build.js';
import { inputName } from './terms.js';
import type { InputWords } from './terms.js';
import { isObj, textField } from '../wire.js';
import type { Json } from '../wire.js';

const big = (v: unknown): bigint =>
  typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : 0n;
const bigOrNull = (v: unknown): bigint | null =>
  typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : null;

export interface Totals {
  contractsGross: bigint;
  contractsFee: bigint;
  contractsNet: bigint;
  usdGross: bigint;
  usdFee: bigint;
  usdNet: bigint;
}

/** The order as the exchange holds it (never the request's idea of it). */
export interface OrderView {
  side: 'BUY' | 'SELL' | null;
  outcome: 'YES' | 'NO' | null;
  type: string | null;
  /** Limit price as a decimal string; null for FOK. */
  price: string | null;
  /** Shares (GTC, FAK) as a decimal string. */
  size: string | null;
  /** FOK: USDC to spend (BUY) or shares to sell (SELL), as a decimal string. */
  amount: string | null;
  tokenId: string | null;
  makerAmount: bigint | null;
  takerAmount: bigint | null;
}

export interface Placed {
  orderId: string;
  clientOrderId: string;
  marketSlug: string;
  matched: boolean;
  settlementStatus: string;
  /** Why the exchange ended the order at once, when it says (e.g. STP_TAKER_REJECTED); else null. */
  reason: string | null;
  totals: Totals;
  makerMatches: number;
  feeRateBps: number | null;
  alreadyPlaced: boolean;
  attempts: number;
  order: OrderView;
  /** The order's status as the exchange gives it (LIVE, MATCHED, CANCELED…), when it does. */
  status: string | null;
  raw: Json;
}

/** What the exchange's order object says, in the request's terms. */
export function orderView(order: Json, positionIds?: readonly [string, string] | null): OrderView {
  const sideRaw = order['side'];
  const side = sideRaw === 0 || sideRaw === 'BUY' ? 'BUY' : sideRaw === 1 || sideRaw === 'SELL' ? 'SELL' : null;
  const tokenId = textField(order, 'tokenId') || null;
  const mkt = isObj(order['market']) ? order['market'] : {};
  const yes = positionIds?.[0] ?? (textField(mkt, 'yesPositionId') || null);
  const no = positionIds?.[1] ?? (textField(mkt, 'noPositionId') || null);
  const outcome =
    tokenId === null ? null : tokenId === yes ? 'YES' : tokenId === no ? 'NO' : (textField(order, 'token') as 'YES' | 'NO') || null;
  const type = textField(order, 'orderType') || textField(order, 'type') || null;
  const makerAmount = bigOrNull(order['makerAmount']);
  const takerAmount = bigOrNull(order['takerAmount']);
  const priceRaw = order['price'];
  const price = typeof priceRaw === 'string' && priceRaw !== '' ? priceRaw : typeof priceRaw === 'number' ? String(priceRaw) : null;
  const fok = type === 'FOK';
  let size: string | null = null;
  const original = bigOrNull(order['originalSize']);
  if (!fok) {
    if (original !== null) size = formatUnits(original);
    else if (side === 'BUY' && takerAmount !== null) size = formatUnits(takerAmount);
    else if (side === 'SELL' && makerAmount !== null) size = formatUnits(makerAmount);
  }
  const amount = fok && makerAmount !== null ? formatUnits(makerAmount) : null;
  return { side, outcome, type, price: fok ? null : price, size, amount, tokenId, makerAmount, takerAmount };
}

/** Reads a create-order answer (or a status-batch `data`) into a Placed. */
export function parsePlaced(
  d: unknown,
  clientOrderId: string,
  marketSlug: string,
  alreadyPlaced: boolean,
  attempts: number,
  positionIds?: readonly [string, string] | null,
): Placed {
  if (!isObj(d) || !isObj(d['order'])) throw new ExchangeError('unexpected answer to POST /orders (no order)');
  const order = d['order'];
  const ex = isObj(d['execution']) ? d['execution'] : {};
  const t = isObj(ex['totalsRaw']) ? ex['totalsRaw'] : {};
  const mkt = isObj(order['market']) ? order['market'] : {};
  return {
    orderId: textField(order, 'id'),
    clientOrderId: textField(ex, 'clientOrderId') || textField(order, 'clientOrderId') || clientOrderId,
    marketSlug: marketSlug || textField(mkt, 'slug'),
    matched: ex['matched'] === true,
    settlementStatus: textField(ex, 'settlementStatus') || textField(order, 'settlementStatus') || 'UNKNOWN',
    reason: textField(ex, 'reason') || null,
    totals: {
      contractsGross: big(t['contractsGross']),
      contractsFee: big(t['contractsFee']),
      contractsNet: big(t['contractsNet']),
      usdGross: big(t['usdGross']),
      usdFee: big(t['usdFee']),
      usdNet: big(t['usdNet']),
    },
    makerMatches: Array.isArray(d['makerMatches']) ? d['makerMatches'].length : 0,
    feeRateBps: typeof ex['feeRateBps'] === 'number' ? ex['feeRateBps'] : null,
    alreadyPlaced,
    attempts,
    order: orderView(order, positionIds),
    status: textField(order, 'status') || null,
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

/** Order status by ids or client ids, in chunks of 50 (acting for the client's sub-account, if any). */
export async function orderStatus(
  api: ApiClient,
  q: { ids?: string[]; clientIds?: string[] },
  retry: 'read' | 'never' = 'read',
): Promise<StatusResult[]> {
  const items = [...(q.ids ?? []).map((orderId) => ({ orderId })), ...(q.clientIds ?? []).map((clientOrderId) => ({ clientOrderId }))];
  if (items.length === 0)
    throw new ValidationError(
      api.words === 'flags' ? 'give at least one order id or --client-id' : 'give at least one order id (ids) or client id (clientIds)',
    );
  checkIds(q);
  const out: StatusResult[] = [];
  for (let i = 0; i < items.length; i += 50) {
    const chunk = items.slice(i, i + 50);
    // A status read changes nothing, so it may be retried like a GET.
    const d = (await api.request<unknown>({ method: 'POST', path: '/orders/status/batch', body: { items: chunk }, auth: 'auto', retry }))
      .data;
    if (!isObj(d) || !Array.isArray(d['results'])) throw new ExchangeError('unexpected answer to POST /orders/status/batch (no results)');
    for (const r of d['results'].filter(isObj)) {
      const index = typeof r['index'] === 'number' ? r['index'] + i : out.length;
      out.push({
        index,
        status: textField(r, 'status'),
        orderId: textField(r, 'orderId') || null,
        clientOrderId: textField(r, 'clientOrderId') || null,
        error: textField(r, 'error') || null,
        data: isObj(r['data']) ? r['data'] : null,
      });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Settles the journal from a status lookup: an order found under a client id whose entry for this
 * exchange is pending or unknown was placed, and is recorded so with its order id (pm doctor stops
 * listing it). A client id not found stays as it is: absence proves nothing, a late attempt may
 * still land. Returns how many entries it settled.
 * @example settleFromStatus(journal, api.baseUrl, await orderStatus(api, { clientIds: ['bot-42'] }))
 */
export function settleFromStatus(journal: Journal, baseUrl: string, results: readonly StatusResult[]): number {
  let settled = 0;
  for (const r of results) {
    if (r.status !== 'found' || !r.clientOrderId || !r.orderId) continue;
    const e = journal.lookup(r.clientOrderId);
    if (!e || (e.state !== 'pending' && e.state !== 'unknown') || (e.exchange !== undefined && e.exchange !== exchangeId(baseUrl)))
      continue;
    journal.record({ clientOrderId: r.clientOrderId, state: 'placed', marketSlug: e.marketSlug, exchange: e.exchange, orderId: r.orderId });
    settled++;
  }
  return settled;
}

export type Lookup = { kind: 'found'; data: Json } | { kind: 'absent' };

/**
 * Asks the exchange for the order behind a client id, trying again (one backoff schedule, inside
 * the client's deadline) while it cannot answer. One that keeps failing is "unknown"
 * (UnknownStateError, exit 7), never "absent". Auth errors and Ctrl-C go straight up.
 */
export async function lookupClientId(
  api: ApiClient,
  clientOrderId: string,
  o: { tries?: number; signal?: AbortSignal | undefined } = {},
): Promise<Lookup> {
  const signal = o.signal ?? api.signal;
  try {
    return await retrying(
      async () => {
        const [r] = await orderStatus(api, { clientIds: [clientOrderId] }, 'never');
        if (r?.status === 'found' && r.data && isObj(r.data['order'])) return { kind: 'found', data: r.data } as const;
        if (r && /^not[_ ]?found$/i.test(r.status)) return { kind: 'absent' } as const;
        throw new ExchangeError(`the status lookup answered "${r?.status ?? 'nothing'}"${r?.error ? ` (${r.error})` : ''}`);
      },
      { tries: o.tries ?? 6, deadline: api.deadline, signal, retriable: (e) => !(e instanceof AuthError || e instanceof InterruptedError) },
    );
  } catch (e) {
    if (e instanceof AuthError || e instanceof InterruptedError) throw e;
    throw unknownState(
      clientOrderId,
      e instanceof PmError ? e : new PmError(errorMessage(e), { cause: e }),
      'the exchange could not be asked',
    );
  }
}

/** An order whose outcome pm cannot know: exit 7, and the client id to send it again under. */
export function unknownState(cid: string, cause: PmError | undefined, why: string): UnknownStateError {
  return new UnknownStateError(`the outcome of order ${cid} is unknown: ${why} (${cause?.shortMessage ?? 'no answer'})`, {
    cause,
    unknownClientId: cid,
    hint: `Send it again with the same client id ${cid} (re-run the same command with --client-id ${cid}): it never places a second order. Or check: pm order status --client-id ${cid}`,
  });
}

/** Whether a 2xx answer to POST /orders is a well-formed success (an order with an id). */
export function isPlacedAnswer(d: unknown): boolean {
  return isObj(d) && isObj(d['order']) && textField(d['order'], 'id') !== '';
}

/** Differences between a request and the order the exchange holds under the same client id. */
export function orderDifferences(body: OrderBody, existing: Json, earlier?: unknown): string[] {
  const order = isObj(existing['order']) ? existing['order'] : {};
  const v = orderView(order);
  const diffs: string[] = [];
  // Unsigned fields: post-only as the exchange reports it (else as an earlier run sent it), and
  // the self-trade policy as an earlier run sent it (the exchange does not report it).
  const before = isObj(earlier) ? earlier : undefined;
  const postOnly = body.postOnly === true;
  const heldPostOnly = typeof order['postOnly'] === 'boolean' ? order['postOnly'] : before ? before['postOnly'] === true : undefined;
  if (heldPostOnly !== undefined && heldPostOnly !== postOnly) diffs.push(`postOnly ${heldPostOnly} ≠ ${postOnly}`);
  if (before) {
    const stp = (x: unknown): string => (typeof x === 'string' ? x : 'cancel_maker');
    if (stp(before['stpPolicy']) !== stp(body.stpPolicy)) diffs.push(`stp ${stp(before['stpPolicy'])} ≠ ${stp(body.stpPolicy)}`);
  }
  const side = body.order.side === 0 ? 'BUY' : 'SELL';
  if (v.tokenId !== null && v.tokenId !== body.order.tokenId) diffs.push(`token ${v.tokenId} ≠ ${body.order.tokenId}`);
  if (v.side !== null && v.side !== side) diffs.push(`side ${v.side} ≠ ${side}`);
  if (v.makerAmount !== null && v.makerAmount !== BigInt(body.order.makerAmount))
    diffs.push(`makerAmount ${v.makerAmount} ≠ ${body.order.makerAmount}`);
  if (v.takerAmount !== null && v.takerAmount !== BigInt(body.order.takerAmount))
    diffs.push(`takerAmount ${v.takerAmount} ≠ ${body.order.takerAmount}`);
  if (v.type !== null && v.type !== body.orderType) diffs.push(`type ${v.type} ≠ ${body.orderType}`);
  if (v.tokenId === null && v.side === null && v.makerAmount === null) diffs.push('the exchange did not say what the existing order is');
  return diffs;
}

/**
 * Whether `earlier` (the request a journal entry holds) asks for the same order as `body`: the
 * same market, token, side, amounts, price, type, options, owner, sub-account and signer. Its salt,
 * signature, fee rate, expiry and client id aside: a new signing of the same order differs there.
 */
export function sameTerms(body: OrderBody, earlier: unknown): boolean {
  if (!isObj(earlier) || !isObj(earlier['order'])) return false;
  const e = earlier as Record<string, unknown>;
  const o = earlier['order'] as Record<string, unknown>;
  const b = body.order;
  const same = (x: unknown, y: unknown): boolean => String(x) === String(y);
  return (
    e['marketSlug'] === body.marketSlug &&
    e['orderType'] === body.orderType &&
    e['ownerId'] === body.ownerId &&
    e['onBehalfOf'] === body.onBehalfOf &&
    (e['postOnly'] ?? false) === (body.postOnly ?? false) &&
    e['stpPolicy'] === body.stpPolicy &&
    same(o['tokenId'], b.tokenId) &&
    o['side'] === b.side &&
    same(o['makerAmount'], b.makerAmount) &&
    same(o['takerAmount'], b.takerAmount) &&
    same(o['price'], b.price) &&
    o['maker'] === b.maker &&
    o['signer'] === b.signer
  );
}

/**
 * The request behind the order an earlier run placed: the last one sent before the first
 * "placed" entry, else (no answer was ever seen) the first one sent.
 */
export function requestBefore(entries: JournalEntry[]): unknown {
  const firstPlaced = entries.findIndex((e) => e.state === 'placed');
  const sent = (firstPlaced < 0 ? entries : entries.slice(0, firstPlaced)).filter((e) => e.state === 'pending' && e.request !== undefined);
  return (firstPlaced < 0 ? sent[0] : sent.at(-1))?.request;
}

/** "BUY YES 10 @ 0.3 (GTC)" for an order view. */
export function describeView(v: OrderView): string {
  const qty =
    v.size !== null
      ? `${v.size} @ ${priceText(v.price ?? '?')}`
      : v.amount !== null
        ? `${v.amount} ${v.side === 'BUY' ? 'USDC' : 'shares'}`
        : '?';
  return `${v.side ?? '?'} ${v.outcome ?? v.tokenId ?? '?'} ${qty} (${v.type ?? '?'})`;
}

/**
 * Adds what to do next to the exchange's terse refusals of an order, naming the inputs and the
 * calls as `w` says (the CLI's flags and commands, or the library's keys and calls).
 */
export function explain(e: unknown, w: InputWords = 'flags'): unknown {
  if (!(e instanceof ExchangeError) || e.hint) return e;
  const m = e.shortMessage;
  const size = inputName(w, 'size');
  const list = w === 'flags' ? 'pm order list' : 'pm.orders.list()';
  // Allowances first ("Insufficient … allowance" is an on-chain approval, not a balance), then
  // shares: "Insufficient conditional token balance" also says "balance".
  const hint = /insufficient .*allowance/i.test(m)
    ? 'The on-chain approval this order needs is missing: pm approve check <market> shows it, pm approve set <market> sends it.'
    : /conditional token|shares|position/i.test(m) && /insufficient|not enough/i.test(m)
      ? `Not enough free shares of that outcome: resting SELL orders lock theirs. Check ${list}, lower ${size}, or cancel resting SELL orders.`
      : /insufficient|not enough/i.test(m) && /collateral|usdc|balance|funds|allowance/i.test(m)
        ? `Not enough free USDC: resting BUY orders lock theirs. Lower ${size}/${inputName(w, 'amount')}, or cancel resting orders (${list}).`
        : /post-only|would execute immediately|would cross/i.test(m)
          ? `A post-only order must not cross: lower a BUY price (or raise a SELL price) below the best opposite quote (${w === 'flags' ? 'pm book …' : 'pm.markets.book(…)'}).`
          : /minimum size|below the market min/i.test(m)
            ? `Raise ${size} to at least the market's minimum (${w === 'flags' ? 'pm book' : 'pm.markets.book(…)'} shows minSize).`
            : /fee/i.test(m)
              ? 'The fee rate must equal your profile rate: run pm whoami to refresh it.'
              : /Profile ID does not match/i.test(m)
                ? 'The token and the signing wallet belong to different profiles: check pm whoami.'
                : undefined;
  return hint ? Object.assign(e, { hint }) : e;
}

/** True for the exchange's refusal of a stale fee rate. */
export function isFeeRefusal(e: unknown): boolean {
  return e instanceof ExchangeValidationError && /fee/i.test(e.shortMessage);
}

export interface PlaceOptions {
  /** Total send attempts after ambiguous failures (default 4). */
  maxAttempts?: number | undefined;
  /** Called with a note when pm retries or reconciles (for --verbose / stderr). */
  onNote?: ((note: string) => void) | undefined;
  /** Ctrl-C (default: the client's). */
  signal?: AbortSignal | undefined;
  /** Ask the exchange for the client id before the first send (a journal entry left pending or unknown). */
  lookupFirst?: boolean | undefined;
  /** The market's [YES, NO] position ids, to name the outcome of an existing order. */
  positionIds?: readonly [string, string] | null | undefined;
  /** How hints name the inputs and what to run: the CLI's flags (default) or the library's keys. */
  words?: InputWords | undefined;
}

/**
 * Places one order exactly once, acting for whoever the client acts for, within one deadline
 * (the client's, else its timeout from now) for every attempt and lookup.
 *
 * An attempt whose answer is not a well-formed success or refusal (lost, cut, garbled, timed out,
 * 5xx) may have placed the order: pm asks by client id before sending again (again under the same
 * id, which the exchange never places twice). A lookup that finds nothing proves nothing while
 * such an attempt may still arrive; so when the attempts end without a definite answer the outcome
 * is unknown (exit 7, journaled "unknown"), never "not placed". `alreadyPlaced` is true only when
 * an earlier run placed the order, not when this run's own answer was lost.
 * @example const placed = await placeOrder(api, body, journal)
 */
export async function placeOrder(client: ApiClient, body: OrderBody, journal: Journal, opts: PlaceOptions = {}): Promise<Placed> {
  const api = client.withDeadline();
  const cid = body.clientOrderId;
  // What an earlier run sent under this client id (only read when the journal knows the id), and
  // whether that run may have placed it (it ended placed, or with its outcome open).
  const before = journal.lookup(cid);
  const earlier = before ? requestBefore(journal.entries({ clientId: cid })) : undefined;
  const earlierMayHavePlaced = before !== undefined && before.state !== 'failed' && before.state !== 'unsent';
  const maxAttempts = opts.maxAttempts ?? 4;
  const signal = opts.signal ?? api.signal;
  const rec = (state: JournalState, extra: { orderId?: string | undefined; error?: string | undefined } = {}): void =>
    journal.record({
      clientOrderId: cid,
      state,
      marketSlug: body.marketSlug,
      exchange: exchangeId(api.baseUrl),
      ...extra,
      ...(state === 'pending' ? { request: body } : {}),
    });
  // Whether some attempt of this run may have reached the exchange without its answer reaching
  // us. Until one has, every attempt was refused outright (a 429 is a refusal): nothing of this
  // run can have been placed, and an order found under the id is an earlier run's. When one has,
  // the order found is this run's, unless an earlier run may have placed it.
  let uncertain = false;
  /** The exchange holds an order under this client id: the same one is success, another a conflict. */
  const adopt = (data: Json, attempt: number): Placed => {
    const diffs = orderDifferences(body, data, earlier);
    const placed = parsePlaced(data, cid, body.marketSlug, !uncertain || earlierMayHavePlaced, attempt, opts.positionIds);
    if (diffs.length > 0) {
      rec('failed', { error: 'client id used by a different order' });
      const requested = orderView({ ...body.order, orderType: body.orderType, price: body.order.price }, opts.positionIds);
      throw new ConflictError(`client id ${cid} is already used by a different order`, {
        status: 409,
        details: `existing:  ${describeView(placed.order)}, order ${placed.orderId}\nrequested: ${describeView(requested)}\ndiffers in: ${diffs.join('; ')}`,
        hint: `Nothing new was placed. To place the requested order as well, give it another client id (--client-id, or clientId); to see the existing one: pm order status --client-id ${cid}, or orders.status({ clientIds: ['${cid}'] }).`,
      });
    }
    rec('placed', { orderId: placed.orderId });
    return placed;
  };
  /** Looks up the client id; journals "unknown" when the exchange cannot be asked. */
  const ask = async (): Promise<Lookup> => {
    try {
      return await lookupClientId(api, cid, { signal });
    } catch (e) {
      rec('unknown', { error: errorMessage(e) });
      if (e instanceof InterruptedError) throw interruptedUnknown(cid, e);
      throw e;
    }
  };
  if (opts.lookupFirst) {
    const l = await ask();
    if (l.kind === 'found') {
      opts.onNote?.(`${cid} was already placed by an earlier run: not sending it again`);
      return adopt(l.data, 0);
    }
  }
  rec('pending');
  let lastError: PmError | undefined;
  // Set by an attempt whose failure may be tried again (under the same client id).
  let again = false;
  try {
    return await retrying(
      async (n) => {
        const attempt = n + 1;
        again = false;
        let data: unknown;
        try {
          data = (
            await api.request<unknown>({
              method: 'POST',
              path: '/orders',
              body,
              auth: 'auto',
              onBehalfOfIn: 'body',
              retry: 'never',
              signal,
            })
          ).data;
          if (!isPlacedAnswer(data))
            throw Object.assign(new NetworkError('POST /orders answered success, but its answer could not be read (no order in it)'), {
              ambiguous: true,
            });
        } catch (e) {
          if (e instanceof InterruptedError) throw e;
          if (e instanceof ConflictError) {
            // The client id is taken: a re-run, our own earlier attempt that lost its answer, or
            // another order. Ask which.
            const l = await ask();
            if (l.kind === 'found') return adopt(l.data, attempt);
            rec(uncertain ? 'unknown' : 'failed', { error: e.shortMessage });
            throw new ConflictError(
              `the exchange refused order ${cid} as a duplicate (${e.shortMessage}), but holds no order under that client id`,
              { status: 409, hint: 'Another order with the same signed content may exist: check pm order list.' },
            );
          }
          const ambiguous = (e instanceof NetworkError && e.ambiguous) || (e instanceof PmError && e.status === 429);
          if (!ambiguous) {
            // A well-formed refusal: not placed by this attempt (nor, since the exchange never
            // holds two orders under one id, by an earlier one still on its way).
            rec(uncertain ? 'unknown' : 'failed', { error: errorMessage(e) });
            if (uncertain)
              throw unknownState(cid, e instanceof PmError ? e : undefined, 'an earlier attempt got no answer, and this one was refused');
            throw explain(e, opts.words);
          }
          lastError = e instanceof PmError ? e : undefined;
          if (!(e instanceof PmError && e.status === 429)) uncertain = true;
          if (uncertain) {
            // Did it land? Ask before sending again.
            const l = await ask();
            if (l.kind === 'found') {
              opts.onNote?.(`the answer to ${cid} was lost, but the exchange has the order: not sending it again`);
              return adopt(l.data, attempt);
            }
          }
          again = true;
          throw e;
        }
        const placed = parsePlaced(data, cid, body.marketSlug, false, attempt, opts.positionIds);
        rec('placed', { orderId: placed.orderId });
        return placed;
      },
      {
        tries: maxAttempts,
        deadline: api.deadline,
        signal,
        retriable: () => again,
        baseMs: 150,
        capMs: 2000,
        onRetry: (_e, n) => {
          // Say what happened: a 429 did reach the exchange (it refused it); only a lost request may not have.
          const what =
            lastError?.status === 429
              ? `was refused by the exchange's rate limit (429)`
              : `got no answer (${lastError?.shortMessage ?? 'no answer'})`;
          opts.onNote?.(
            uncertain
              ? `${cid} ${what}, and the exchange does not hold it yet; sending it again under the same client id (attempt ${n + 2})`
              : `${cid} ${what}: not placed; sending it again (attempt ${n + 2})`,
          );
        },
      },
    );
  } catch (e) {
    if (e instanceof InterruptedError) {
      // A lookup cut short (after a 409 or a lost answer) has journaled "unknown" and says so.
      if (e.unknownClientId === cid) throw e;
      if (uncertain) {
        rec('unknown', { error: 'interrupted' });
        throw interruptedUnknown(cid, e);
      }
      // Ctrl-C before any attempt could have reached the exchange.
      rec('unsent', { error: 'interrupted before sending' });
      throw new InterruptedError(`interrupted: order ${cid} was not placed`, { cause: e, sent: false, clientId: cid });
    }
    if (!again) throw e;
  }
  if (uncertain) {
    // Some attempt may still reach the exchange (a held request), so no lookup proves absence now.
    rec('unknown', { error: lastError?.shortMessage });
    throw unknownState(cid, lastError, 'its answer was lost and the exchange does not hold it yet');
  }
  // Every attempt was refused outright (429, or a connection refused): not placed.
  rec('failed', { error: lastError?.shortMessage });
  const Err = lastError instanceof RateLimitError ? RateLimitError : NetworkError;
  const err = new Err(`order ${cid} was not placed: ${lastError?.shortMessage ?? 'no answer'}`, {
    status: lastError?.status,
    hint:
      opts.words === 'keys'
        ? `Nothing reached the exchange. Make the same call again (same clientId '${cid}') when it answers again.`
        : `Nothing reached the exchange. Re-run the same command (same --client-id ${cid}) when it answers again.`,
  });
  // The exchange's own wait, for a caller that paces itself.
  if (err instanceof RateLimitError && lastError instanceof RateLimitError) err.retryAfterMs = lastError.retryAfterMs;
  throw err;
}

/** Ctrl-C while an order's outcome is open: exit 130, and the client id to send it again under. */
function interruptedUnknown(cid: string, cause: unknown): InterruptedError {
  return new InterruptedError(`interrupted: the outcome of order ${cid} is unknown`, {
    cause,
    sent: true,
    clientId: cid,
    unknownClientId: cid,
    hint: `Re-run the same command with --client-id ${cid}: it never places a second order. Or check: pm order status --client-id ${cid}`,
  });
}

export interface CancelOutcome {
  canceled: string[];
  failed: { orderId: string; reason: string; message: string }[];
  /**
   * Set when an answer of the exchange was lost (dropped, or a 2xx pm could not read) while
   * cancelling a whole market: the orders cancelled then are not in `canceled` (nobody can name
   * them now), and every order of the market still open after it is in `failed` (STILL_OPEN).
   */
  answerLost?: true | undefined;
  /**
   * Orders the exchange said it could not find (ORDER_NOT_FOUND) whose status is CANCELED: an
   * earlier cancel ended them (a re-run after an unknown outcome), not this one.
   */
  alreadyCanceled?: string[] | undefined;
}

/** A cancel answer as the exchange gives it, or null when it is none (a garbled or truncated 2xx). */
function cancelResult(d: unknown): CancelOutcome | null {
  if (!isObj(d) || (!Array.isArray(d['canceled']) && !Array.isArray(d['failed']))) return null;
  return {
    canceled: Array.isArray(d['canceled']) ? d['canceled'].map(String) : [],
    failed: Array.isArray(d['failed'])
      ? d['failed']
          .filter(isObj)
          .map((f) => ({ orderId: textField(f, 'orderId'), reason: textField(f, 'reason'), message: textField(f, 'message') }))
      : [],
  };
}

/** Refuses a blank order id or client id before anything is sent (exit 2). */
function checkIds(q: { ids?: string[] | undefined; clientIds?: string[] | undefined }): void {
  for (const id of q.ids ?? [])
    if (typeof id !== 'string' || id.trim() === '')
      throw new ValidationError(
        typeof id === 'string'
          ? 'an order id must not be empty or blank'
          : `an order id must be a string, got ${JSON.stringify(id) ?? String(id)}`,
      );
  for (const id of q.clientIds ?? []) checkClientOrderId(id);
}

const isCancelled = (status: string): boolean => status === 'CANCELED' || status === 'CANCELLED';

/**
 * Cancels by ids, by client ids (batches of ≤50), or every order of a market, for whoever the
 * client acts for. Cancelling twice is harmless, so a lost answer is retried; but then the answer
 * read may not be the one that acted (an order the lost try cancelled is "not found" to the
 * next), and a 2xx may not be readable at all. Such orders are looked up, and reported as the
 * exchange holds them now (cancelled, still open, filled); when they cannot be looked up either,
 * the outcome is unknown (UnknownStateError naming them), never "nothing to cancel" or "not
 * found".
 */
export async function cancelOrders(api: ApiClient, q: { ids?: string[]; clientIds?: string[]; slug?: string }): Promise<CancelOutcome> {
  checkIds(q);
  const out: CancelOutcome = { canceled: [], failed: [] };
  if (q.slug !== undefined) {
    const slug = q.slug;
    const res = await api
      .request<unknown>({
        method: 'DELETE',
        path: `/orders/all/${encodeURIComponent(slug)}`,
        auth: 'auto',
        onBehalfOfIn: 'query',
        retry: 'read',
        okStatuses: [207],
      })
      .catch((e: unknown) => (mayHaveActed(e) ? null : Promise.reject(e)));
    // No answer at all (the deadline, a reset after sending): what is open there now tells.
    if (res === null) return marketAfterLostAnswer(api, slug, null);
    const r = cancelResult(res.data);
    if (r !== null && (res.attempts ?? 1) === 1) return r;
    return marketAfterLostAnswer(api, q.slug, r);
  }
  for (const [key, list] of [
    ['orderIds', q.ids ?? []],
    ['clientOrderIds', q.clientIds ?? []],
  ] as const) {
    for (let i = 0; i < list.length; i += 50) {
      const chunk = list.slice(i, i + 50);
      const body: Json = { [key]: chunk };
      const res = await api
        .request<unknown>({
          method: 'POST',
          path: '/orders/batch-cancel',
          body,
          auth: 'auto',
          onBehalfOfIn: 'body',
          retry: 'read',
          okStatuses: [207],
        })
        .catch((e: unknown) => (mayHaveActed(e) ? null : Promise.reject(e)));
      // No answer at all (the deadline, a reset after sending): the orders' status tells.
      if (res === null) {
        await settleUnclear(api, key === 'orderIds' ? 'ids' : 'clientIds', chunk, out, true);
        continue;
      }
      const r = cancelResult(res.data);
      const retried = (res.attempts ?? 1) > 1;
      // What this answer does not tell: all of the chunk, or (after a retry) the ones "not found".
      const unclear = r === null ? chunk : [];
      // Not found at the first try: gone before this cancel, or never there; the status tells which.
      const notFound: CancelOutcome['failed'] = [];
      for (const f of r?.failed ?? []) {
        if (retried && f.reason === 'ORDER_NOT_FOUND') unclear.push(f.orderId);
        else if (f.reason === 'ORDER_NOT_FOUND') notFound.push(f);
        else out.failed.push(f);
      }
      out.canceled.push(...(r?.canceled ?? []));
      if (unclear.length > 0) await settleUnclear(api, key === 'orderIds' ? 'ids' : 'clientIds', unclear, out);
      if (notFound.length > 0) await settleNotFound(api, key === 'orderIds' ? 'ids' : 'clientIds', notFound, out);
    }
  }
  return out;
}

/** A write's failure after which it may have acted: no answer (the deadline, a reset after sending), not a refusal. */
const mayHaveActed = (e: unknown): boolean => e instanceof NetworkError && e.ambiguous && e.status === undefined;

/**
 * Looks up orders whose cancel answer was lost, and adds each to `out` as it stands now.
 * `noAnswer`: the cancel got none at all (its request may still be on its way): an order still
 * open then is not known to stay open, so it is unknown, not STILL_OPEN.
 */
async function settleUnclear(
  api: ApiClient,
  key: 'ids' | 'clientIds',
  unclear: string[],
  out: CancelOutcome,
  noAnswer = false,
): Promise<void> {
  let found: StatusResult[];
  try {
    found = await orderStatus(api, { [key]: unclear });
  } catch (e) {
    throw cancelUnknown(unclear, key, out, e);
  }
  if (
    noAnswer &&
    found.some((s) => s.status === 'found' && textField(isObj(s.data?.['order']) ? s.data['order'] : {}, 'status') === 'LIVE')
  )
    throw cancelUnknown(unclear, key, out, new NetworkError('no answer, and the order is still open: the cancel may still reach it'));
  for (const s of found) {
    const asked = (key === 'ids' ? s.orderId : s.clientOrderId) ?? '';
    const order = s.data && isObj(s.data['order']) ? s.data['order'] : {};
    const status = textField(order, 'status');
    if (s.status === 'found' && isCancelled(status)) out.canceled.push(s.orderId ?? asked);
    else if (s.status === 'found' && status === 'LIVE')
      out.failed.push({ orderId: asked, reason: 'STILL_OPEN', message: 'the answer to the cancel was lost, and the order is still open' });
    else if (s.status === 'found' || s.status === 'not_found')
      out.failed.push({
        orderId: asked,
        reason: 'ORDER_NOT_FOUND',
        message: s.status === 'found' ? `not open: its status is ${status || 'not given'}` : 'not found',
      });
    else throw cancelUnknown([asked], key, out, new ExchangeError(s.error ?? `status ${s.status}`));
  }
}

/**
 * Orders a cancel did not find at its first try: one CANCELED is an earlier cancel's (a re-run of
 * a cancel whose outcome was unknown ends there, not "not found"); the others stay not found, with
 * their status when they have one (FILLED…). The status unreadable: they stay not found, as the
 * exchange said.
 */
async function settleNotFound(
  api: ApiClient,
  key: 'ids' | 'clientIds',
  notFound: CancelOutcome['failed'],
  out: CancelOutcome,
): Promise<void> {
  const found = await orderStatus(api, { [key]: notFound.map((f) => f.orderId) }).catch(() => [] as StatusResult[]);
  for (const f of notFound) {
    const s = found.find((x) => (key === 'ids' ? x.orderId : x.clientOrderId) === f.orderId);
    const order = s?.data && isObj(s.data['order']) ? s.data['order'] : {};
    const status = s?.status === 'found' ? textField(order, 'status') : '';
    if (isCancelled(status)) (out.alreadyCanceled ??= []).push(textField(order, 'id') || (s?.orderId ?? f.orderId));
    else out.failed.push(status ? { ...f, message: `not open: its status is ${status}` } : f);
  }
}

/** The orders whose cancel's outcome pm could not learn: exit 7, with what is known in `details`. */
function cancelUnknown(unclear: string[], key: 'ids' | 'clientIds', known: CancelOutcome, cause: unknown): UnknownStateError {
  const why = cause instanceof PmError ? cause.shortMessage : String(cause);
  const n = unclear.length;
  return new UnknownStateError(
    `the outcome of the cancel of ${n === 1 ? `order ${unclear[0]}` : `${n} orders`} is unknown: its answer was lost and the exchange could not be asked (${why})`,
    {
      cause,
      details: JSON.stringify(known),
      hint: `Check it: orders.status with these ${key === 'ids' ? 'ids' : 'clientIds'} (CANCELED: done; LIVE: cancel again, which is harmless).`,
    },
  );
}

/** A whole market's cancel whose answer was lost: what is still open there now is what failed. */
async function marketAfterLostAnswer(api: ApiClient, slug: string, read: CancelOutcome | null): Promise<CancelOutcome> {
  let open: OpenOrder[];
  try {
    open = await listOpenOrders(api, slug, ['LIVE']);
  } catch (e) {
    const why = e instanceof PmError ? e.shortMessage : String(e);
    throw new UnknownStateError(
      `the outcome of the cancel of every order of ${slug} is unknown: its answer was lost and the open orders could not be read (${why})`,
      {
        cause: e,
        hint: `Cancel them again (harmless), or list what is open: ${api.words === 'flags' ? `pm order list --market ${slug}` : `pm.orders.list({ market: '${slug}' })`}.`,
      },
    );
  }
  return {
    canceled: read?.canceled ?? [],
    failed: open.map((o) => ({ orderId: o.id, reason: 'STILL_OPEN', message: 'still open after a cancel whose answer was lost' })),
    answerLost: true,
  };
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
  const d = (
    await api.request<unknown>({
      method: 'GET',
      path: `/markets/${encodeURIComponent(slug)}/user-orders`,
      query: statuses ? { statuses } : undefined,
      auth: 'auto',
    })
  ).data;
  const list = Array.isArray(d) ? d : isObj(d) && Array.isArray(d['orders']) ? d['orders'] : null;
  if (!list) throw new ExchangeError('unexpected answer from user-orders');
  return list.filter(isObj).map((o) => ({
    id: textField(o, 'id'),
    clientOrderId: textField(o, 'clientOrderId') || null,
    side: textField(o, 'side') || (o['side'] === 0 ? 'BUY' : 'SELL'),
    outcome: textField(o, 'token') || textField(o, 'outcome'),
    price: textField(o, 'price'),
    originalSize: big(o['originalSize']),
    remainingSize: big(o['remainingSize']),
    status: textField(o, 'status'),
    type: textField(o, 'type') || textField(o, 'orderType'),
    createdAt: textField(o, 'createdAt'),
    raw: o,
  }));
}
