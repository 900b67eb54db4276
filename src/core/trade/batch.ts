// Batches of orders from NDJSON: every line is validated exactly like the flags (a wrongly
// typed field refuses the line, it is never dropped to a default), lines without a clientId
// get a deterministic one, and a re-run skips the lines the journal says were placed, so an
// interrupted batch can simply be run again.
import { exchangeId, sameAccount } from '../journal-account.js';
import type { AccountKey } from '../journal-account.js';
import { createHash } from 'node:crypto';
import {
  InterruptedError,
  NetworkError,
  PartialFailureError,
  PmError,
  UnknownStateError,
  UsageError,
  ValidationError,
  errorMessage,
} from '../errors.js';
import type { Journal, JournalEntry } from './journal.js';
import { buildSignedOrder, parseOrderInput, placeParsed } from './flow.js';
import type { OrderSummary, ParsedOrder, SignDeps } from './flow.js';
import type { OrderInput } from './terms.js';
import type { OrderBody } from './build.js';
import { orderStatus, orderView, parsePlaced, requestBefore } from './place.js';
import type { Placed } from './place.js';
import { isObj } from '../wire.js';
import { unknownKeys } from '../suggest.js';

/** The fields a batch line may have, with the flag each one mirrors. */
export const LINE_FIELDS = [
  'market',
  'slug',
  'side',
  'outcome',
  'type',
  'price',
  'size',
  'amount',
  'postOnly',
  'stp',
  'clientId',
  'clientOrderId',
  'onBehalfOf',
  'delegated',
] as const;

/** A money field of a line: a decimal string, never a JSON number (the line is refused). */
export const decimal = (v: unknown, field: string): string | undefined => {
  if (v === undefined || v === null) return undefined;
  // A JSON number is refused too: money is never a float (0.1 + 0.2 is not 0.3), and the line says it.
  if (typeof v === 'string') return v;
  throw new ValidationError(`${field} must be a decimal string such as "0.42", got ${JSON.stringify(v)}`);
};
/** A text field of a line: a string (anything else refuses the line). */
export const text = (v: unknown, field: string): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  throw new ValidationError(`${field} must be a string, got ${JSON.stringify(v)}`);
};
const flag = (v: unknown, field: string): boolean | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  throw new ValidationError(`${field} must be true or false (a JSON boolean), got ${JSON.stringify(v)}`);
};
const profileId = (v: unknown, field: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw new ValidationError(`${field} must be a profile id (a positive whole number), got ${JSON.stringify(v)}`);
};

/** One NDJSON line, validated field by field exactly like the flags of `order place`. */
export function lineInput(o: unknown): OrderInput {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ValidationError('each line must be a JSON object');
  const r = o as Record<string, unknown>;
  if ('expires' in r || 'expiration' in r)
    throw new ValidationError(
      `orders do not expire on this exchange (it refuses a non-zero expiration): remove "${'expires' in r ? 'expires' : 'expiration'}" and cancel the order instead`,
    );
  const extra = unknownKeys(r, LINE_FIELDS, 'Fields');
  if (extra)
    throw new ValidationError(`unknown field${extra.unknown.length > 1 ? 's' : ''} ${extra.unknown.join(', ')}`, { hint: extra.hint });
  if (r['market'] !== undefined && r['slug'] !== undefined) throw new ValidationError('give market or slug, not both');
  if (r['clientId'] !== undefined && r['clientOrderId'] !== undefined)
    throw new ValidationError('give clientId or clientOrderId, not both');
  return {
    market: text(r['market'], 'market') ?? text(r['slug'], 'slug'),
    side: text(r['side'], 'side'),
    outcome: text(r['outcome'], 'outcome'),
    type: text(r['type'], 'type'),
    price: decimal(r['price'], 'price'),
    size: decimal(r['size'], 'size'),
    amount: decimal(r['amount'], 'amount'),
    postOnly: flag(r['postOnly'], 'postOnly'),
    stp: text(r['stp'], 'stp'),
    clientId: text(r['clientId'], 'clientId') ?? text(r['clientOrderId'], 'clientOrderId'),
    onBehalfOf: profileId(r['onBehalfOf'], 'onBehalfOf'),
    delegated: flag(r['delegated'], 'delegated'),
  };
}

/**
 * The client id of a batch line that has none: `pmb-` and 32 hex characters of
 * sha256("pm-batch-v1", --batch-id, the order's parsed fields, the how-many-th identical
 * line it is). The same line of the same batch always gets the same id, so a re-run finds
 * what an interrupted run placed; editing one line changes only that line's id.
 */
export function batchClientId(p: ParsedOrder, occurrence: number, batchId = ''): string {
  // (The policy only when given, so that the ids of lines without one stay what they were.)
  const fields = [
    p.slug,
    p.side,
    p.outcome,
    p.type,
    p.price ?? '',
    p.size ?? '',
    p.amount ?? '',
    p.postOnly,
    p.onBehalfOf ?? '',
    p.delegated,
    ...(p.stpPolicy ? [p.stpPolicy] : []),
  ].map(String);
  const h = createHash('sha256')
    .update(['pm-batch-v1', batchId, ...fields, String(occurrence)].join('\n'))
    .digest('hex');
  return `pmb-${h.slice(0, 32)}`;
}

export interface BatchLine {
  line: number;
  parsed?: ParsedOrder;
  /** The line gives its own clientId (else pm made one up from it and --batch-id). */
  ownId?: boolean;
  error?: PmError;
}

/**
 * Splits and validates a batch; nothing is sent. Blank lines and # comments are skipped.
 * `defaults` are the command line's --on-behalf-of and --delegated: a line's own field wins.
 */
export function parseBatch(
  input: string,
  o: { batchId?: string | undefined; defaults?: { onBehalfOf?: number | undefined; delegated?: boolean | undefined } } = {},
): BatchLine[] {
  const rows = input
    .split('\n')
    .map((l, i) => ({ n: i + 1, text: l.trim() }))
    .filter((l) => l.text && !l.text.startsWith('#'));
  const out: BatchLine[] = [];
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const l of rows) {
    try {
      let json: unknown;
      try {
        json = JSON.parse(l.text) as unknown;
      } catch (e) {
        throw new ValidationError(`not valid JSON: ${(e as Error).message}`);
      }
      const input = lineInput(json);
      let p = parseOrderInput(
        {
          ...input,
          onBehalfOf: input.onBehalfOf ?? o.defaults?.onBehalfOf,
          delegated: input.delegated ?? o.defaults?.delegated,
          clientId: input.clientId ?? 'pending-id',
        },
        'keys',
      );
      if (input.clientId === undefined) {
        // (The id comes from the line's own fields: the same file run with other flags keeps its ids.)
        const own = { ...p, onBehalfOf: input.onBehalfOf, delegated: input.delegated === true };
        const key = batchClientId(own, 0, o.batchId);
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        p = { ...p, clientOrderId: batchClientId(own, n, o.batchId) };
      }
      if (ids.has(p.clientOrderId)) throw new ValidationError(`client id ${p.clientOrderId} appears twice in the batch`);
      ids.add(p.clientOrderId);
      out.push({ line: l.n, parsed: p, ownId: input.clientId !== undefined });
    } catch (e) {
      out.push({ line: l.n, error: e instanceof PmError ? e : new ValidationError(errorMessage(e), { cause: e }) });
    }
  }
  return out;
}

/**
 * One line's outcome. A skipped line (placed by an earlier run) is reported as the exchange
 * holds it now (`known: 'exchange'`), or, when the exchange could not be asked, as the journal's
 * request (`known: 'journal'`: side, price and size as sent; settlement and fill unknown).
 */
export type LineResult =
  | { line: number; ok: true; placed: Placed; summary: OrderSummary | null; skipped: false }
  | { line: number; ok: true; placed: Placed; summary: null; skipped: true; known: 'exchange' | 'journal' }
  | { line: number; ok: false; error: PmError; clientOrderId?: string | undefined; sent: 'no' | 'yes' | 'unknown' }
  | { line: number; ok: true; dryRun: true; body: OrderBody; summary: OrderSummary };

export interface BatchDeps extends SignDeps {
  journal: Journal;
}

/**
 * Lines in progress at once: enough to keep the per-token limiter busy (2 in flight, and the
 * next one signed and waiting), few enough that waiting lines do not pile up. Every waiting
 * request listens for Ctrl-C; a batch of 100+ lines all waiting at once made Node warn
 * (MaxListenersExceededWarning) on stderr, which --json keeps for the error object alone.
 */
const WORKERS = 4;

/** Runs `fn` over `items` with at most `n` at a time, in order of start. */
async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/**
 * The skipped lines as the exchange holds their orders now: one status call per 50 client ids
 * (per acting profile). A group whose lookup fails is rebuilt from the journal's request.
 */
async function skippedResults(
  deps: BatchDeps,
  skipped: { line: number; parsed: ParsedOrder; entry: JournalEntry }[],
  onNote?: (n: string) => void,
): Promise<{ results: LineResult[]; notHeld: { line: number; parsed: ParsedOrder; entry: JournalEntry }[] }> {
  const out: LineResult[] = [];
  // Lines the journal says were placed, but the exchange, asked, holds no order of for this
  // account: placed by another account of this PM_HOME (the journal is the home's, client ids
  // are per account). They are sent.
  const notHeld: { line: number; parsed: ParsedOrder; entry: JournalEntry }[] = [];
  const groups = new Map<number | undefined, typeof skipped>();
  for (const s of skipped) {
    const who = s.parsed.onBehalfOf ?? deps.api.onBehalfOf;
    const group = groups.get(who);
    if (group) group.push(s);
    else groups.set(who, [s]);
  }
  let unasked = 0;
  for (const [who, group] of groups) {
    let found: Map<string, Record<string, unknown>> | null = null;
    try {
      const rows = await orderStatus(deps.api.withOnBehalfOf(who), { clientIds: group.map((g) => g.parsed.clientOrderId) });
      found = new Map();
      for (const r of rows) {
        const cid = r.clientOrderId ?? group[r.index]?.parsed.clientOrderId;
        if (r.status === 'found' && r.data && cid) found.set(cid, r.data);
      }
    } catch {
      // (Ctrl-C included: these lines still get their result, the rest are then not sent.)
      unasked += group.length;
    }
    for (const { line, parsed: p, entry } of group) {
      const positionIds = await deps.cache
        .market(deps.api, p.slug)
        .then((m) => m.positionIds)
        .catch(() => null);
      const data = found?.get(p.clientOrderId);
      if (found !== null && data === undefined) {
        notHeld.push({ line, parsed: p, entry });
        continue;
      }
      if (data) {
        try {
          const placed = parsePlaced(data, p.clientOrderId, p.slug, true, 0, positionIds);
          out.push({ line, ok: true, placed, summary: null, skipped: true, known: 'exchange' });
          continue;
        } catch {
          // an answer without an order: fall back to the journal
        }
      }
      const request = requestBefore(deps.journal.entries({ clientId: p.clientOrderId }));
      out.push({ line, ok: true, placed: fromJournal(entry, p, request, positionIds), summary: null, skipped: true, known: 'journal' });
    }
  }
  if (unasked > 0)
    onNote?.(
      `could not ask the exchange about ${unasked} skipped line${unasked > 1 ? 's' : ''}: shown as sent (journal), settlement and fill unknown (pm order status --client-id ID)`,
    );
  return { results: out, notHeld };
}

/** A Placed rebuilt from the journal for a line an earlier run placed: the request as sent, the rest unknown. */
function fromJournal(e: JournalEntry, p: ParsedOrder, request: unknown, positionIds: readonly [string, string] | null): Placed {
  const body = isObj(request) && isObj(request['order']) ? request : undefined;
  const order = body
    ? orderView({ ...(body['order'] as Record<string, unknown>), orderType: body['orderType'] }, positionIds)
    : { side: null, outcome: null, type: null, price: null, size: null, amount: null, tokenId: null, makerAmount: null, takerAmount: null };
  return {
    orderId: e.orderId ?? '',
    clientOrderId: p.clientOrderId,
    marketSlug: p.slug,
    matched: false,
    settlementStatus: 'UNKNOWN',
    reason: null,
    totals: { contractsGross: 0n, contractsFee: 0n, contractsNet: 0n, usdGross: 0n, usdFee: 0n, usdNet: 0n },
    makerMatches: 0,
    feeRateBps: null,
    alreadyPlaced: true,
    attempts: 0,
    order,
    status: null,
    raw: {},
  };
}

/** Who this batch places for: its exchange and the caller's profile id (null: the exchange could not say). */
async function accountOf(deps: BatchDeps): Promise<{ exchange: string; profileId: number | null }> {
  const owner = deps.owner ?? (await deps.cache.owner(deps.api, deps.credentialId).catch(() => null));
  return { exchange: exchangeId(deps.api.baseUrl), profileId: owner?.profileId ?? null };
}

/** Whether a journal entry was written for this account: its exchange, and its request's owner and sub-account. */
function ours(journal: Journal, e: JournalEntry, me: AccountKey): boolean {
  const request = requestBefore(journal.entries({ clientId: e.clientOrderId }));
  const body = isObj(request) ? request : {};
  const owner = typeof body['ownerId'] === 'number' ? body['ownerId'] : null;
  const onBehalfOf = typeof body['onBehalfOf'] === 'number' ? body['onBehalfOf'] : null;
  // (Entries written before pm recorded the exchange count for any: the guard errs on skipping.)
  return sameAccount({ exchange: e.exchange ?? me.exchange, profileId: owner, onBehalfOf }, me);
}

/**
 * Whether the request of a line that ended in `err` reached the exchange. `sending`: the line got
 * as far as its write (signed, every local check and lookup passed); an error before it sent
 * nothing. An outcome pm could not read is unknown, never "yes" or "no", wherever it arose.
 */
export function sentOf(err: PmError, sending: boolean): 'no' | 'yes' | 'unknown' {
  // (Before its own write too: a lookup of what an earlier run may have sent could not settle it.)
  if (err.code === 'UNKNOWN_STATE' || err.unknownClientId !== undefined) return 'unknown';
  if (!sending) return 'no';
  // A connection refused (ECONNREFUSED…) delivered nothing: only a lost or cut answer may have.
  const undelivered = err instanceof NetworkError && !err.ambiguous && err.status === undefined;
  return undelivered || err instanceof InterruptedError || err.exitCode === 2 || err.exitCode === 4 ? 'no' : 'yes';
}

/**
 * How a batch that did not finish every line ends (null: every line is done). A line whose
 * outcome is unknown is never counted as failed: it may have been placed, and `command` (the same
 * command: its ids come from the lines) looks it up before sending it. Some lines failed: exit 8,
 * the unknown ones counted apart; none failed but some are unknown: exit 7 (the outcome is
 * unknown, run the same command), as for one order.
 */
export function unfinishedBatch(o: {
  total: number;
  failed: number;
  unknown: number;
  /** 'order' or 'replacement'. */
  noun: string;
  /** The exact command to run again, written out. */
  command: string;
  /** Why running it again is safe, e.g. "placed lines are skipped, unknown ones looked up first". */
  safe: string;
  /** What to do first about failed lines (e.g. "Fix the failed lines"). */
  fix: string;
  details?: string | undefined;
  /** The command that asks after the unknown lines' orders alone (written out; only with some unknown). */
  check?: string | undefined;
}): PmError | null {
  const { total, failed, unknown, noun } = o;
  if (failed === 0 && unknown === 0) return null;
  const of = `of ${total} ${noun}s`;
  const check = unknown > 0 && o.check !== undefined ? `\nOr check first: ${o.check}` : '';
  const run = `exactly this (${o.safe}, so nothing is done twice):\n  ${o.command}${check}`;
  if (failed === 0) return new UnknownStateError(`the outcome of ${unknown} ${of} is unknown`, { details: o.details, hint: `Run ${run}` });
  return new PartialFailureError(`${failed} ${of} failed${unknown > 0 ? `; the outcome of ${unknown} is unknown` : ''}`, {
    details: o.details,
    hint: `${o.fix}, then run ${run}`,
  });
}

/** A line an earlier run left pending or unknown is looked up before it is sent (it may have been). */
const lookupFirstOf = (prior: JournalEntry | undefined): boolean =>
  prior !== undefined && (prior.state === 'pending' || prior.state === 'unknown');

/**
 * Places the valid lines of a batch as fast as the per-token limit allows. Lines the journal
 * says were placed are skipped and reported as the exchange holds them; lines left pending or
 * unknown are looked up before sending. On Ctrl-C nothing new is sent, requests on the wire are
 * waited for, and every line gets a result (`sent: 'no'` for the ones not sent). A dry run signs
 * every line and sends nothing; a line it cannot sign (an unknown market…) fails as it would.
 */
export async function runBatch(
  deps: BatchDeps,
  lines: BatchLine[],
  o: { signal?: AbortSignal | undefined; dryRun?: boolean; onResult?: (r: LineResult) => void; onNote?: (n: string) => void },
): Promise<LineResult[]> {
  const valid = lines.filter((l): l is BatchLine & { parsed: ParsedOrder } => l.parsed !== undefined);
  if (valid.length === 0) throw new UsageError('no valid order lines in the batch');
  const results: LineResult[] = [];
  const done = (r: LineResult): void => {
    results.push(r);
    o.onResult?.(r);
  };
  /** `sending`: the line got as far as its POST (signed, every local check and lookup passed). */
  const failure = (line: number, e: unknown, cid: string, sending = false): LineResult => {
    const err = e instanceof PmError ? e : new PmError(errorMessage(e), { cause: e });
    return { line, ok: false, error: err, clientOrderId: cid, sent: sentOf(err, sending) };
  };
  if (o.dryRun) {
    await pool(valid, WORKERS, async ({ line, parsed: p }) => {
      try {
        const s = await buildSignedOrder(deps, p);
        done({ line, ok: true, dryRun: true, body: s.body, summary: s.summary });
      } catch (e) {
        done(failure(line, e, p.clientOrderId));
      }
    });
    return results.sort((a, b) => a.line - b.line);
  }
  const journal = deps.journal.latestAll();
  const skipped: { line: number; parsed: ParsedOrder; entry: JournalEntry }[] = [];
  const toSend: { line: number; parsed: ParsedOrder; prior: JournalEntry | undefined }[] = [];
  // The journal is the home's: an entry counts only for the account and exchange it was written
  // for. (Sending a line this account did place is safe: the exchange holds its client id.)
  const me = journal.size > 0 ? await accountOf(deps) : undefined;
  for (const { line, parsed } of valid) {
    const found = journal.get(parsed.clientOrderId);
    const prior =
      found && me && ours(deps.journal, found, { ...me, onBehalfOf: parsed.onBehalfOf ?? deps.api.onBehalfOf ?? null }) ? found : undefined;
    if (prior?.state === 'placed') skipped.push({ line, parsed, entry: prior });
    else toSend.push({ line, parsed, prior });
  }
  if (skipped.length > 0) {
    const { results: known, notHeld } = await skippedResults(deps, skipped, o.onNote);
    for (const r of known) done(r);
    for (const n of notHeld) toSend.push({ line: n.line, parsed: n.parsed, prior: n.entry });
    toSend.sort((a, b) => a.line - b.line);
  }
  // One listener on the caller's signal for the whole batch; the batch's own requests listen here.
  const batch = new AbortController();
  const forward = (): void => batch.abort(o.signal?.reason);
  if (o.signal?.aborted) forward();
  else o.signal?.addEventListener('abort', forward, { once: true });
  try {
    await pool(toSend, WORKERS, async ({ line, parsed: p, prior }) => {
      if (batch.signal.aborted)
        return done({ line, ok: false, error: new InterruptedError('interrupted: not sent'), clientOrderId: p.clientOrderId, sent: 'no' });
      // A line that failed before its POST (an unknown market, an exchange it could not reach) was
      // not sent by this run; one an earlier run left pending or unknown may have been, by that run.
      let sending = false;
      try {
        const { placed, summary } = await placeParsed(deps, p, {
          journal: deps.journal,
          signal: batch.signal,
          lookupFirst: lookupFirstOf(prior),
          onNote: (n) => o.onNote?.(`line ${line}: ${n}`),
          onSending: () => {
            sending = true;
          },
        });
        done({ line, ok: true, placed, summary, skipped: false });
      } catch (e) {
        const r = failure(line, e, p.clientOrderId, sending);
        done(!sending && lookupFirstOf(prior) && !r.ok && r.sent === 'no' ? { ...r, sent: 'unknown' } : r);
      }
    });
  } finally {
    o.signal?.removeEventListener('abort', forward);
  }
  return results.sort((a, b) => a.line - b.line);
}
