// The one pacer for tests that send authenticated requests to the sandbox faster than a person
// would: the SDK conformance tests (test/sdk/helpers.ts wraps the SDK's transport with it) and
// raw signed requests beside pm (`pacedFetch`).
//
// The exchange allows 2 requests in flight and 300 ms between starts per API token (wire-facts
// §5), and the sandbox measures a start as the exchange would: the signed `lmts-timestamp` of an
// HMAC request, the arrival of any other (src/sandbox/pacing.ts). So a lane spaces each start
// GAP_MS after the moment the previous request really left (the wait's end, right before it is
// signed and sent), not after a planned time a late timer may have overrun; for a credential
// measured on arrival, after the previous answer, as that request may have arrived as late as
// that. Load can still bunch what the server sees, so a 429 is retried after the wait it names
// (Retry-After, or retryAfterSeconds in the body). That is safe because the sandbox answers 429
// before it acts: the per-token limiter and injected 429s before the route runs
// (src/sandbox/server.ts), the per-wallet allowance limit before it submits anything
// (src/sandbox/partner/allowances.ts). A 429 naming a long wait (more than MAX_RETRY_AFTER_MS)
// is a limit a test is about, not pacing, and is returned as it is. Load slows a test; it
// does not fail it.
import { sleep } from './eventually.js';

/** Between two starts on one token: the exchange's 300 ms plus a margin. */
export const GAP_MS = 330;
const CONCURRENCY = 2;
/** The longest wait a 429 may name and still be retried (the per-token limit names 1 s). */
export const MAX_RETRY_AFTER_MS = 2_000;
/** One request is retried for at most this long; then its last 429 is returned. */
const RETRY_FOR_MS = 15_000;

interface Lane {
  inFlight: number;
  lastStart: number;
  queue: Promise<void>;
}
const lanes = new Map<string, Lane>();

/** The lane of one credential on one sandbox (lanes of different sandboxes never meet). */
export function laneOf(baseUrl: string, credential: string): string {
  return `${baseUrl} ${credential}`;
}

/** Waits for a turn on `key`; returns the release, to call when the answer is in. */
async function turn(key: string, o: PacedOptions): Promise<() => void> {
  let lane = lanes.get(key);
  if (!lane) {
    lane = { inFlight: 0, lastStart: 0, queue: Promise.resolve() };
    lanes.set(key, lane);
  }
  const l = lane;
  // Waiters take turns in order, one at a time.
  const mine = l.queue.then(async () => {
    for (;;) {
      const wait = l.inFlight >= CONCURRENCY ? 5 : l.lastStart + GAP_MS - Date.now();
      if (wait <= 0) break;
      await sleep(wait);
    }
    l.inFlight++;
    l.lastStart = Date.now();
    o.onStart?.(l.lastStart);
  });
  l.queue = mine;
  await mine;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    l.inFlight--;
    if (o.arrival) l.lastStart = Math.max(l.lastStart, Date.now());
  };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** How long a 429 asks to wait (ms); undefined when the outcome is not a 429. */
export type RetryAfter<T> = (outcome: Outcome<T>) => number | undefined | Promise<number | undefined>;

export interface PacedOptions {
  /** The server measures this credential's starts on arrival (a legacy key), not by a signed timestamp. */
  arrival?: boolean;
  /** Told each start as the lane records it (tests of the pacer). */
  onStart?: (t: number) => void;
}

/**
 * Sends through the lane `key`: waits for a turn, calls `send` (which must sign afresh, as a
 * retry needs a new timestamp), and retries a 429 after the wait it names.
 */
export async function paced<T>(key: string, send: () => Promise<T>, retryAfter: RetryAfter<T>, o: PacedOptions = {}): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const release = await turn(key, o);
    let outcome: Outcome<T>;
    try {
      outcome = { ok: true, value: await send() };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      release();
    }
    const wait = await retryAfter(outcome);
    if (wait === undefined || wait > MAX_RETRY_AFTER_MS || Date.now() + wait - t0 > RETRY_FOR_MS) {
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    }
    await sleep(wait);
  }
}

/** A Retry-After header (seconds or an HTTP date) in ms, or undefined. */
export function retryAfterHeader(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** The wait a 429 body names (`retryAfterSeconds`), in ms, or undefined. */
export function retryAfterBody(data: unknown): number | undefined {
  const s = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)['retryAfterSeconds'] : undefined;
  return typeof s === 'number' && Number.isFinite(s) ? Math.max(0, s * 1000) : undefined;
}

/** A 429 that names no wait: the per-token limit's own answer (Retry-After: 1). */
const DEFAULT_RETRY_MS = 1_000;

/** For `fetch`: the wait a 429 response names. */
async function fetchRetryAfter(o: Outcome<Response>): Promise<number | undefined> {
  if (!o.ok || o.value.status !== 429) return undefined;
  const h = retryAfterHeader(o.value.headers.get('retry-after'));
  if (h !== undefined) return h;
  const body: unknown = await o.value
    .clone()
    .json()
    .catch(() => null);
  return retryAfterBody(body) ?? DEFAULT_RETRY_MS;
}

/**
 * A raw request through the lane `key` (see `laneOf`); `send` builds, signs and sends it, afresh
 * on each try. Resolves with the first answer that is not a retried 429.
 *
 *   const res = await pacedFetch(laneOf(baseUrl, tokenId), () => fetch(url, { headers: sign(body) }));
 */
export function pacedFetch(key: string, send: () => Promise<Response>, o: PacedOptions = {}): Promise<Response> {
  return paced(key, send, fetchRetryAfter, o);
}
