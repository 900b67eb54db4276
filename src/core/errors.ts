// One error base for the whole client. Each subclass maps to one exit code (docs/architecture.md §2);
// src/cli/errors.ts owns the table and the rendering. Core code throws these and never exits.

export type ErrorCode =
  | 'UNEXPECTED'
  | 'USAGE'
  | 'VALIDATION'
  | 'AUTH'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'NETWORK'
  | 'UNAVAILABLE'
  | 'PARTIAL'
  | 'REFUSED'
  | 'UNKNOWN_STATE'
  | 'INTERRUPTED';

export interface PmErrorOptions {
  details?: string | undefined;
  hint?: string | undefined;
  cause?: unknown;
  status?: number | undefined;
  /** The client id of an order whose outcome is unknown: sending it again under this id is safe. */
  unknownClientId?: string | undefined;
}

/** Base error: a one-line headline, optional details, a hint saying what to do next. */
export class PmError extends Error {
  override name = 'PmError';
  readonly code: ErrorCode = 'UNEXPECTED';
  readonly exitCode: number = 1;
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly hint: string | undefined;
  readonly status: number | undefined;
  /** The client id of an order whose outcome is unknown: sending it again under this id is safe. */
  readonly unknownClientId: string | undefined;

  constructor(shortMessage: string, opts: PmErrorOptions = {}) {
    super(opts.details ? `${shortMessage}\n${opts.details}` : shortMessage, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.shortMessage = shortMessage;
    this.details = opts.details;
    this.hint = opts.hint;
    this.status = opts.status;
    this.unknownClientId = opts.unknownClientId;
  }
}

/** The same error (same class, so the same exit code) with `more` added to its hint (or in its place). */
export function withHint(err: PmError, more: string, how: 'add' | 'replace' = 'add'): PmError {
  const Cls = err.constructor as new (message: string, o: PmErrorOptions) => PmError;
  return new Cls(err.shortMessage, {
    details: err.details,
    status: err.status,
    cause: err,
    unknownClientId: err.unknownClientId,
    hint: err.hint && how === 'add' ? `${err.hint}\n${more}` : more,
  });
}

/**
 * The message of anything thrown, for a line of text: a pm error's headline, an Error's message
 * (never `String(e)`, which would put "TypeError: " inside pm's own "error: …").
 * @example errorMessage(new TypeError('x is not a function')) // 'x is not a function'
 */
export function errorMessage(e: unknown): string {
  if (e instanceof PmError) return e.shortMessage;
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/** Bad flags or arguments; nothing was sent. Exit 2. */
export class UsageError extends PmError {
  override name = 'UsageError';
  override readonly code: ErrorCode = 'USAGE';
  override readonly exitCode = 2;
}

/** Input that fails validation (price off tick, bad address…); nothing was sent. Exit 2. */
export class ValidationError extends PmError {
  override name = 'ValidationError';
  override readonly code: ErrorCode = 'VALIDATION';
  override readonly exitCode = 2;
}

/** Missing or bad credentials, wrong passphrase, missing scope (401/403). Exit 3. */
export class AuthError extends PmError {
  override name = 'AuthError';
  override readonly code: ErrorCode = 'AUTH';
  override readonly exitCode = 3;
  /** No API token was set at all (not one refused): the CLI may say which profile would give one. */
  noToken = false;
}

/** Unknown market, order, profile… (404). Exit 4. */
export class NotFoundError extends PmError {
  override name = 'NotFoundError';
  override readonly code: ErrorCode = 'NOT_FOUND';
  override readonly exitCode = 4;
}

/** Duplicate client id, already exists (409). Exit 5. */
export class ConflictError extends PmError {
  override name = 'ConflictError';
  override readonly code: ErrorCode = 'CONFLICT';
  override readonly exitCode = 5;
}

/** Still rate limited after retries (429). Exit 6. */
export class RateLimitError extends PmError {
  override name = 'RateLimitError';
  override readonly code: ErrorCode = 'RATE_LIMITED';
  override readonly exitCode = 6;
  retryAfterMs: number | undefined;
}

/** Could not reach the exchange, timed out, or it answered 5xx. Exit 7. */
export class NetworkError extends PmError {
  override name = 'NetworkError';
  override readonly code: ErrorCode = 'NETWORK';
  override readonly exitCode = 7;
  /** True when the request may have reached the exchange (timeout, reset, 5xx after sending). */
  ambiguous = false;
}

/** The exchange refused the request for a reason of its own (other 4xx). Exit 1 unless mapped. */
export class ExchangeError extends PmError {
  override name = 'ExchangeError';
  override readonly code: ErrorCode = 'UNEXPECTED';
  override readonly exitCode: number = 1;
}

/**
 * The exchange refused the request after it was sent (400/422: insufficient balance, post-only
 * would cross, market closed…). Exit 9: unlike exit 2, the request did reach the exchange.
 */
export class ExchangeValidationError extends ExchangeError {
  override name = 'ExchangeValidationError';
  override readonly code: ErrorCode = 'REFUSED';
  override readonly exitCode = 9;
}

/**
 * The outcome of a write is not known (the answer was lost and the exchange could not be
 * asked). Exit 7, and the only safe advice is to re-run the same command.
 */
export class UnknownStateError extends NetworkError {
  override name = 'UnknownStateError';
  override readonly code: ErrorCode = 'UNKNOWN_STATE';
  /** Always: the write may have reached the exchange (that is what unknown means). */
  override ambiguous = true;
}

/** Some items of a batch failed. Exit 8. */
export class PartialFailureError extends PmError {
  override name = 'PartialFailureError';
  override readonly code: ErrorCode = 'PARTIAL';
  override readonly exitCode = 8;
}

/** Ctrl-C (exit 130) or SIGTERM (exit 143); in the library, a call's AbortSignal. */
export class InterruptedError extends PmError {
  override name = 'InterruptedError';
  override readonly code: ErrorCode = 'INTERRUPTED';
  override readonly exitCode = 130;
  /** The ordinary end of something that runs until stopped (a stream): no "error:" line in text mode. */
  readonly quiet: boolean;
  /**
   * Whether a write of the interrupted call may have reached the exchange (its effect may exist:
   * look at `orderId`, or ask by `clientId`). False: nothing was sent.
   */
  readonly sent: boolean;
  /** The client id of the order the call was placing, when it had one. */
  readonly clientId: string | undefined;
  /** The order's id, when the exchange's answer came before the call ended (the order exists). */
  readonly orderId: string | undefined;
  constructor(
    shortMessage: string,
    opts: PmErrorOptions & { quiet?: boolean; sent?: boolean; clientId?: string | undefined; orderId?: string | undefined } = {},
  ) {
    super(shortMessage, opts);
    this.quiet = opts.quiet === true;
    this.sent = opts.sent === true;
    this.clientId = opts.clientId;
    this.orderId = opts.orderId;
  }
}

/**
 * An end whose error was already shown (pm shell's last piped line printed its own): the kernel
 * exits with its code and prints nothing more.
 */
export class ReportedExit extends PmError {
  override name = 'ReportedExit';
  override readonly exitCode: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.exitCode = code;
  }
}

// The classes keep their names in the minified bundles, so a library user's console shows
// `ConflictError: …` rather than a mangled letter. (An object literal's keys survive minifying;
// no error is constructed here: each would capture a stack trace on every start.)
const NAMED = {
  PmError,
  UsageError,
  ValidationError,
  AuthError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  NetworkError,
  ExchangeError,
  ExchangeValidationError,
  UnknownStateError,
  PartialFailureError,
  InterruptedError,
  ReportedExit,
};
for (const [name, C] of Object.entries(NAMED)) Object.defineProperty(C, 'name', { value: name });
