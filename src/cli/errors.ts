// The exit-code table (design §2) and the one place errors are turned into text.
import { PmError, UsageError } from '../core/errors.js';

export * from '../core/errors.js';

/** Exit codes, documented in the README (a test keeps the two in step). */
export const EXIT_CODES = [
  { code: 0, name: 'OK', meaning: 'success' },
  { code: 1, name: 'UNEXPECTED', meaning: 'unexpected error (a bug, or an exchange answer pm does not know)' },
  { code: 2, name: 'USAGE', meaning: 'usage or validation error: nothing was sent' },
  { code: 3, name: 'AUTH', meaning: 'authentication, passphrase or scope problem' },
  { code: 4, name: 'NOT_FOUND', meaning: 'market, order or profile not found' },
  { code: 5, name: 'CONFLICT', meaning: 'conflict: duplicate client order id, already exists' },
  { code: 6, name: 'RATE_LIMITED', meaning: 'rate limited after retries' },
  { code: 7, name: 'NETWORK', meaning: 'network error or exchange unavailable, or the outcome is unknown (re-run the same command)' },
  { code: 8, name: 'PARTIAL', meaning: 'partial failure: some items of a batch failed' },
  {
    code: 9,
    name: 'REFUSED',
    meaning: 'refused by the exchange after it was sent (insufficient balance, post-only would cross, market closed)',
  },
  { code: 130, name: 'INTERRUPTED', meaning: 'interrupted (Ctrl-C)' },
] as const;

export interface ErrorJson {
  error: { code: string; message: string; status?: number; hint?: string; details?: string };
}

/** Normalises anything thrown into a PmError. */
export function toPmError(e: unknown): PmError {
  if (e instanceof PmError) return e;
  if (e instanceof Error)
    return new PmError(e.message || e.name, { cause: e, hint: 'This looks like a bug in pm; run again with --verbose and report it.' });
  return new PmError(String(e));
}

/** The JSON error object printed on stderr in --json mode. */
export function errorJson(e: PmError): ErrorJson {
  const out: ErrorJson['error'] = { code: e.code, message: e.shortMessage };
  if (e.status !== undefined) out.status = e.status;
  if (e.hint) out.hint = e.hint;
  if (e.details) out.details = e.details;
  return { error: out };
}

/** Human text for an error: headline, details, hint; the stack only with --verbose. */
export function errorText(e: PmError, verbose: boolean): string {
  const lines = [`error: ${e.shortMessage}`];
  if (e.details) lines.push(...e.details.split('\n').map((l) => `  ${l}`));
  if (e.hint) lines.push(`hint: ${e.hint}`);
  if (verbose) {
    let c: unknown = e;
    while (c instanceof Error) {
      if (c.stack) lines.push(c.stack);
      c = c.cause;
    }
  }
  return `${lines.join('\n')}\n`;
}

export { UsageError };
