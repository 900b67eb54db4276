// Admin routes under /__sandbox (no auth): fault injection, reset, and the seeded accounts
// (public dev keys) for `pm init --sandbox`. They exist only in the sandbox.
import type { FaultConfig, Route } from '../types.js';

const FAULT_KEYS = ['latencyMs', 'fail5xx', 'burst429', 'commitThenDrop', 'dropSockets', 'eventDelayMs'] as const;

export function adminRoutes(deps: { faults: FaultConfig; reset: () => void; accounts: () => unknown[]; onFaults?: () => void }): Route[] {
  const pub: Route['auth'] = { kind: 'public' };
  return [
    { method: 'GET', pattern: '/__sandbox/faults', auth: pub, handler: () => ({ status: 200, body: deps.faults }) },
    {
      method: 'POST',
      pattern: '/__sandbox/faults',
      auth: pub,
      handler: (req) => {
        const b = (req.json ?? {}) as Record<string, unknown>;
        for (const k of FAULT_KEYS) {
          const v = b[k];
          if (v === undefined) continue;
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return { status: 400, body: { message: `${k} must be a non-negative integer` } };
          deps.faults[k] = v;
        }
        if (b['rateLimit'] !== undefined) {
          if (typeof b['rateLimit'] !== 'boolean') return { status: 400, body: { message: 'rateLimit must be true or false' } };
          deps.faults.rateLimit = b['rateLimit'];
        }
        if (b['match'] !== undefined) {
          if (typeof b['match'] !== 'string') return { status: 400, body: { message: 'match must be a string' } };
          deps.faults.match = b['match'];
        }
        deps.onFaults?.();
        return { status: 200, body: deps.faults };
      },
    },
    {
      method: 'POST',
      pattern: '/__sandbox/reset',
      auth: pub,
      handler: () => {
        deps.reset();
        return { status: 200, body: { message: 'Sandbox reset to its seed' } };
      },
    },
    { method: 'GET', pattern: '/__sandbox/accounts', auth: pub, handler: () => ({ status: 200, body: deps.accounts() }) },
  ];
}
