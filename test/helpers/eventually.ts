// Tests wait for conditions, never for fixed times: on a loaded machine a timer fires late and a
// settlement or an event arrives late, so a test that sleeps "long enough" and then asserts
// fails there, while one that polls for the condition only takes longer.

export interface EventuallyOptions {
  /** Give up after this long. Generous on purpose: only a test that is failing waits it out. */
  timeoutMs?: number;
  /** Pause between two tries. */
  intervalMs?: number;
  /** What is awaited, for the error on timeout. */
  what?: string;
}

/** The deadline `eventually` uses unless told otherwise. */
export const EVENTUALLY_MS = 15_000;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `fn` (sync or async) until it returns a truthy value, and returns that value. A throw
 * from `fn` fails at once: the condition is "not yet" only when `fn` says so.
 *
 *   const order = await eventually(() => state.orders.find((o) => o.status === 'CONFIRMED'));
 */
export async function eventually<T>(
  fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  o: EventuallyOptions = {},
): Promise<T> {
  const timeoutMs = o.timeoutMs ?? EVENTUALLY_MS;
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${o.what ?? 'a condition'}`);
    await sleep(o.intervalMs ?? 10);
  }
}
