// What the tests of the unknown rule share: one sandbox per file with its rate limit off, our fault
// proxy in front of it, temporary homes, and alice's environment (and library client) through the
// proxy with pm's own pacing off; the lookups that keep failing; and reading what pm said: the JSON error of a --json
// run, and the command a hint writes out on a line of its own.
import { beforeAll, expect } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { accountEnv, seeded } from './account-env.js';
import { useFaultProxy } from './fault-proxy.js';
import { useTempHomes } from './run.js';
import { postAdmin, useSandbox } from './sandbox.js';

/** The set-up of a fault test file (call at its top level). */
export function useAliceBehindFaults() {
  const sb = useSandbox();
  const proxy = useFaultProxy(sb);
  const newHome = useTempHomes();
  beforeAll(async () => {
    expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
  });
  const env = (home: string) => ({ ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl, PM_PACE: 'off' });
  /**
   * A library client of alice's through the fault proxy, with a home of its own; each call's
   * deadline is 4 s (lookups that keep failing end there, unknown, rather than after ~6 s of backoff).
   */
  const libraryClient = () => {
    const alice = seeded(sb.current, 'alice');
    return createClient({
      home: newHome(),
      baseUrl: proxy.current.baseUrl,
      privateKey: alice.privateKey,
      token: alice.token,
      timeoutMs: 4000,
    });
  };
  return { sb, proxy, newHome, env, libraryClient };
}

/** Status lookups answer `status` (the exchange cannot be asked), from the `nth` on. */
export const lookupsFailFrom = (nth: number, status = 502) =>
  ({ method: 'POST', path: '/orders/status/batch', nth, times: Number.POSITIVE_INFINITY, fault: { kind: 'status', status } }) as const;

export interface JsonError {
  error: { code: string; message: string; hint?: string };
}
/** The one JSON error object a --json run wrote on stderr. */
export const errorOf = (stderr: string): JsonError['error'] => (JSON.parse(stderr) as JsonError).error;

/** The argv of the command a hint (or a text-mode stderr) writes out on a line of its own (`  pm …`), words as a POSIX shell splits them. */
export function hintedArgv(hint: string): string[] {
  const line = /^\s*pm (.+)$/m.exec(hint)?.[1] ?? '';
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}
