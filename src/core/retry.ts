// One way to wait and one way to try again: `sleep` (abortable), one backoff schedule (full
// jitter, capped), the exchange's own wait (Retry-After, retryAfterSeconds), and `retrying()`,
// which runs a step until it succeeds, a failure is final, the tries run out, the signal aborts
// or the deadline would pass. Every retry loop of the client is this one.
import { InterruptedError, RateLimitError } from './errors.js';

/** The error for an interrupted wait: nothing more was sent. */
export function interrupted(signal: AbortSignal): InterruptedError {
  const r = signal.reason as unknown;
  if (r instanceof InterruptedError) return r;
  return new InterruptedError(r instanceof Error && r.message ? r.message : 'interrupted', { cause: r });
}

/** Sleeps, or rejects with InterruptedError as soon as `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(interrupted(signal));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(interrupted(signal as AbortSignal));
    };
    const t = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The schedule's shape: the first wait is about `baseMs`, each one doubles, none exceeds `capMs`. */
export interface Backoff {
  baseMs?: number | undefined;
  capMs?: number | undefined;
}

/** Backoff for attempt n (0-based): full jitter over the upper half of base · 2^n, capped (default 250 ms, 8 s). */
export function backoffMs(attempt: number, random: () => number = Math.random, b: Backoff = {}): number {
  const cap = Math.min(b.capMs ?? 8000, (b.baseMs ?? 250) * 2 ** attempt);
  return Math.round(cap / 2 + random() * (cap / 2));
}

/** The wait an answer asks for: Retry-After (seconds or a date), else a body's retryAfterSeconds. */
export function retryAfterMs(headers: Record<string, string>, data: unknown): number | undefined {
  const h = headers['retry-after'];
  if (h) {
    const secs = Number(h);
    if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
    const at = Date.parse(h);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  if (data && typeof data === 'object') {
    const s = (data as Record<string, unknown>)['retryAfterSeconds'];
    if (typeof s === 'number' && Number.isFinite(s)) return Math.max(0, s * 1000);
  }
  return undefined;
}

export interface RetryPolicy extends Backoff {
  /** Tries in all, the first included (Infinity: until the deadline, the signal or a final failure). */
  tries: number;
  /** Whether this failure may be tried again (it is thrown as is when not). */
  retriable: (e: unknown, attempt: number) => boolean;
  /** Ends waits at once (InterruptedError). */
  signal?: AbortSignal | undefined;
  /** Epoch ms: no wait runs past it; the last failure is thrown instead. */
  deadline?: number | undefined;
  /** Told before each wait: the failure, the 0-based attempt that failed, and the wait. */
  onRetry?: ((e: unknown, attempt: number, waitMs: number) => void) | undefined;
}

/**
 * Runs `step` until it returns, with one backoff schedule between tries; a rate-limit answer's
 * own wait (Retry-After, at most 30 s) is the least wait.
 * @example await retrying((n) => api.once(req), { tries: 4, retriable: (e) => e instanceof NetworkError, deadline })
 */
export async function retrying<T>(step: (attempt: number) => Promise<T>, p: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step(attempt);
    } catch (e) {
      if (attempt + 1 >= p.tries || !p.retriable(e, attempt)) throw e;
      const hinted = e instanceof RateLimitError && e.retryAfterMs !== undefined ? Math.min(e.retryAfterMs, 30_000) : 0;
      const wait = Math.max(backoffMs(attempt, Math.random, p), hinted);
      if (p.deadline !== undefined && Date.now() + wait >= p.deadline) throw e;
      p.onRetry?.(e, attempt, wait);
      await sleep(wait, p.signal);
    }
  }
}
