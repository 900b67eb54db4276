// Admin routes under /__sandbox (no auth): fault injection, reset, and the seeded accounts
// (public dev keys) for `pm init --sandbox`. They exist only in the sandbox.
import type { FaultConfig, Route } from '../handlers.js';

/** Each fault's largest sensible value: absurd ones (a latency of days, 2^53 failures) are refused. */
const FAULT_LIMITS = {
  latencyMs: 60_000,
  fail5xx: 10_000,
  burst429: 10_000,
  commitThenDrop: 10_000,
  dropSockets: 1_000,
  eventDelayMs: 60_000,
} as const;
const FAULT_KEYS = Object.keys(FAULT_LIMITS) as (keyof typeof FAULT_LIMITS)[];
const MAX_SKEW_MS = 86_400_000;

/**
 * The `delay` fault of a faults body: `{route, ms}` with a route the sandbox serves ("METHOD
 * /pattern"), `ms` 0 clearing it; null clears it too. A refusal message, or the new value.
 */
function parseDelay(v: unknown, served: readonly Route[]): { value: FaultConfig['delay'] } | string {
  if (v === null) return { value: null };
  const o = typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const routes = served.map((r) => `${r.method} ${r.pattern}`);
  const route = o?.['route'];
  if (typeof route !== 'string' || !routes.includes(route))
    return `delay must be {"route": "METHOD /pattern", "ms": N} with a route the sandbox serves (e.g. "POST /orders", "DELETE /orders/:orderId"), or null`;
  const ms = o?.['ms'];
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > FAULT_LIMITS.latencyMs)
    return `delay.ms must be an integer from 0 to ${FAULT_LIMITS.latencyMs}`;
  return { value: ms === 0 ? null : { route, ms } };
}

export function adminRoutes(deps: {
  faults: FaultConfig;
  /** The exchange routes served (the delay fault names one). */
  routes: () => readonly Route[];
  reset: () => Promise<void>;
  accounts: () => unknown[];
  onFaults?: () => void;
}): Route[] {
  const pub: Route['auth'] = { kind: 'public' };
  return [
    { method: 'GET', pattern: '/__sandbox/faults', auth: pub, handler: () => ({ status: 200, body: deps.faults }) },
    {
      method: 'POST',
      pattern: '/__sandbox/faults',
      auth: pub,
      handler: (req) => {
        if (req.json !== undefined && (typeof req.json !== 'object' || req.json === null || Array.isArray(req.json)))
          return { status: 400, body: { message: 'the body must be a JSON object' } };
        const b = (req.json ?? {}) as Record<string, unknown>;
        for (const k of FAULT_KEYS) {
          const v = b[k];
          if (v === undefined) continue;
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > FAULT_LIMITS[k])
            return { status: 400, body: { message: `${k} must be an integer from 0 to ${FAULT_LIMITS[k]}` } };
        }
        const skew = b['clockSkewMs'];
        if (skew !== undefined && (typeof skew !== 'number' || !Number.isInteger(skew) || Math.abs(skew) > MAX_SKEW_MS))
          return { status: 400, body: { message: `clockSkewMs must be an integer from -${MAX_SKEW_MS} to ${MAX_SKEW_MS}` } };
        if (b['match'] !== undefined && (typeof b['match'] !== 'string' || b['match'].length > 200))
          return { status: 400, body: { message: 'match must be a string of at most 200 characters' } };
        if (b['rateLimit'] !== undefined && typeof b['rateLimit'] !== 'boolean')
          return { status: 400, body: { message: 'rateLimit must be true or false' } };
        const delay = b['delay'] === undefined ? undefined : parseDelay(b['delay'], deps.routes());
        if (typeof delay === 'string') return { status: 400, body: { message: delay } };
        if (delay) deps.faults.delay = delay.value;
        for (const k of FAULT_KEYS) if (typeof b[k] === 'number') deps.faults[k] = b[k];
        if (typeof skew === 'number') deps.faults.clockSkewMs = skew;
        if (typeof b['rateLimit'] === 'boolean') deps.faults.rateLimit = b['rateLimit'];
        if (typeof b['match'] === 'string') deps.faults.match = b['match'];
        deps.onFaults?.();
        return { status: 200, body: deps.faults };
      },
    },
    {
      method: 'POST',
      pattern: '/__sandbox/reset',
      auth: pub,
      handler: async () => {
        await deps.reset();
        return { status: 200, body: { message: 'Sandbox reset to its seed' } };
      },
    },
    { method: 'GET', pattern: '/__sandbox/accounts', auth: pub, handler: () => ({ status: 200, body: deps.accounts() }) },
  ];
}
