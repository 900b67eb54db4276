// Is this URL an exchange? Asked while a profile is set up (the init wizard), so that a wrong URL
// is caught when it is typed, not after every other answer.
import { ExchangeError, InterruptedError, NetworkError, PmError } from './errors.js';
import type { ApiClient } from './http.js';
import { isObj } from './wire.js';

/**
 * Checks that `api`'s base URL answers as the exchange does: a public route (GET /markets/active)
 * with its JSON shape `{data: Market[]}`. Sent once (no retries), so an unreachable URL fails fast.
 * Throws NetworkError (unreachable, timed out, 5xx) or ExchangeError (something else answered).
 * @example await probeExchange(api, { timeoutMs: 5000 })
 */
export async function probeExchange(
  api: ApiClient,
  o: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<void> {
  let data: unknown;
  try {
    data = (
      await api.request<unknown>({
        method: 'GET',
        path: '/markets/active',
        query: { limit: 1 },
        retry: 'never',
        timeoutMs: o.timeoutMs,
        signal: o.signal,
      })
    ).data;
  } catch (e) {
    if (e instanceof InterruptedError || e instanceof NetworkError) throw e;
    const status = e instanceof PmError && e.status !== undefined ? `HTTP ${e.status}` : e instanceof Error ? e.message : String(e);
    throw new ExchangeError(`${api.baseUrl} answers, but not as an exchange (GET /markets/active: ${status})`, { cause: e });
  }
  if (!isObj(data) || !Array.isArray(data['data']))
    throw new ExchangeError(`${api.baseUrl} answers, but not as an exchange (GET /markets/active is not {data: [markets]})`);
}
