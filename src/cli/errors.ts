// The exit-code table (docs/architecture.md §2) and the one place errors are turned into text.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PmError, UsageError } from '../core/errors.js';

export * from '../core/errors.js';

/**
 * The exit-code table (docs/architecture.md §2), the one source of `pm --help`, `pm help` and the
 * "Exit codes" section of docs/output.md (a test compares it with exitCodesMarkdown()). `short` is the help line,
 * `meaning` the docs' row.
 */
export const EXIT_CODES = [
  { code: 0, name: 'OK', short: 'ok', meaning: 'success' },
  {
    code: 1,
    name: 'UNEXPECTED',
    short: 'unexpected error (a bug)',
    meaning: 'unexpected error (a bug, or an exchange answer pm does not know)',
  },
  {
    code: 2,
    name: 'USAGE',
    short: 'usage or validation error: nothing was sent',
    meaning:
      'usage or validation error: nothing was sent (also what pm finds locally before sending, e.g. a bad base URL, nothing to redeem on chain)',
  },
  { code: 3, name: 'AUTH', short: 'authentication, passphrase or scope', meaning: 'authentication, passphrase or scope problem' },
  { code: 4, name: 'NOT_FOUND', short: 'not found', meaning: 'market, order or profile not found' },
  {
    code: 5,
    name: 'CONFLICT',
    short: 'conflict (client id used by another order, already exists)',
    meaning: 'conflict: a client id already used by a different order, already exists',
  },
  { code: 6, name: 'RATE_LIMITED', short: 'rate limited after retries', meaning: 'rate limited after retries' },
  {
    code: 7,
    name: 'NETWORK',
    short: 'network or exchange unavailable, or the outcome is unknown',
    meaning:
      'network error or exchange unavailable (e.g. the sandbox is not running), or the outcome is unknown: for orders, cancels and redeem re-run the same command (it is exactly-once); for a withdrawal check first (pm says how)',
  },
  {
    code: 8,
    name: 'PARTIAL',
    short: 'partial failure (some lines of a batch; doctor: some checks; approve check: some missing)',
    meaning:
      'partial failure: some items of a batch failed, some checks of pm doctor, or approvals pm approve check finds missing (a batch where no line failed but the outcome of some is unknown exits 7: re-run the same command)',
  },
  {
    code: 9,
    name: 'REFUSED',
    short: 'refused by the exchange after it was sent',
    meaning:
      'refused by the exchange after it was sent (insufficient balance or shares, post-only would cross, market closed, nothing to redeem)',
  },
  { code: 130, name: 'INTERRUPTED', short: 'interrupted (Ctrl-C)', meaning: 'interrupted (Ctrl-C)' },
  {
    code: 143,
    name: 'TERMINATED',
    short: 'terminated (SIGTERM)',
    meaning: 'terminated (SIGTERM): stopped as Ctrl-C stops it (but pm sandbox start, a server, whose ordinary end it is: 0)',
  },
] as const;

/** The table as help text: one indented line per code. */
export function exitCodesHelp(): string {
  return EXIT_CODES.map((c) => `  ${String(c.code).padStart(3)}  ${c.short}`).join('\n');
}

/** The table as markdown (docs/output.md). */
export function exitCodesMarkdown(): string {
  return ['| code | meaning |', '|---|---|', ...EXIT_CODES.map((c) => `| ${c.code} | ${c.meaning} |`)].join('\n');
}

export interface ErrorJson {
  /** `line`: the input line of `pm shell` that failed (docs/shell.md). */
  error: { code: string; message: string; status?: number; hint?: string; details?: string; line?: number };
}

/** Normalises anything thrown into a PmError. */
export function toPmError(e: unknown): PmError {
  if (e instanceof PmError) return e;
  if (e instanceof Error) {
    // A file pm could not use (its errno code and path, never the message's words): say which.
    const { code, path, syscall } = e as NodeJS.ErrnoException;
    // A file where a directory of the path goes (a PM_HOME that is a file): named, with the fix.
    const mkdir = code === 'EEXIST' && syscall === 'mkdir';
    const file = (code === 'ENOTDIR' || mkdir) && typeof path === 'string' ? fileInPath(path, mkdir) : undefined;
    if (file !== undefined)
      return new UsageError(`cannot use ${path}: ${file} is a file, not a directory`, {
        hint: `Move the file aside (mv ${file} ${file}.bak), or point PM_HOME at a directory.`,
        cause: e,
      });
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof path === 'string')
      return new PmError(e.message || e.name, {
        cause: e,
        hint: `pm could not use ${path} (${code}): check that path, its permissions and the disk; if they are right, run again with --verbose and report it.`,
      });
    return new PmError(e.message || e.name, { cause: e, hint: 'This looks like a bug in pm; run again with --verbose and report it.' });
  }
  return new PmError(String(e));
}

/** The first part of `path` (itself too when `self`) that exists and is not a directory. */
function fileInPath(path: string, self: boolean): string | undefined {
  for (let p = path; ; p = dirname(p)) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p, { throwIfNoEntry: false });
    } catch {
      st = undefined; // (below a file: ENOTDIR; the file is further up)
    }
    if (st && !st.isDirectory() && (self || p !== path)) return p;
    if (dirname(p) === p) return undefined;
  }
}

/** The JSON error object printed on stderr in --json mode; `line`: the pm shell input line it came from. */
export function errorJson(e: PmError, line?: number): ErrorJson {
  const out: ErrorJson['error'] = { code: e.code, message: e.shortMessage };
  if (e.status !== undefined) out.status = e.status;
  if (e.hint) out.hint = e.hint;
  if (e.details) out.details = e.details;
  if (line !== undefined) out.line = line;
  return { error: out };
}

/**
 * The hint of a usage error that has none more precise: the help page of `page` ('pm' for the root).
 * @example helpPageHint('pm order place') // 'Run pm order place --help for usage.'
 */
export const helpPageHint = (page: string): string => `Run ${page} --help for usage.`;

/** `line N: ` before a pm shell line's error, as a batch names its failed lines; else nothing. */
export const linePrefix = (line: number | undefined): string => (line === undefined ? '' : `line ${line}: `);

/** Human text for an error: headline, details, hint; the stack only with --verbose. */
export function errorText(e: PmError, verbose: boolean, line?: number): string {
  const lines = [`error: ${linePrefix(line)}${e.shortMessage}`];
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
