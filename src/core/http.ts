// The transport owns policy: auth headers, the per-token limiter, retries for reads, timeouts,
// the status → error mapping and the redacted trace all live here and nowhere else.
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { authHeadersAsync, limiterKeyOf } from './auth.js';
import type { AuthMode, AuthProvider } from './auth.js';
import {
  AuthError,
  ConflictError,
  ExchangeError,
  ExchangeValidationError,
  NetworkError,
  NotFoundError,
  PmError,
  RateLimitError,
  UsageError,
} from './errors.js';
import { TokenLimiter } from './limiter.js';
import type { Limiter } from './limiter.js';
import { proxyAuthError, proxyFor, proxyHint } from './proxy.js';
import type { ProxyRoute, ProxySettings } from './proxy.js';
import { interrupted, retryAfterMs, retrying } from './retry.js';
import type { InputWords } from './trade/terms.js';

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface RequestOptions {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /** Which credential to attach (default 'none'). */
  auth?: AuthMode | undefined;
  /**
   * 'read' retries 429/5xx/network with backoff; 'rate-limit' retries only a 429 (the exchange
   * did nothing), honouring Retry-After; 'never' sends once. Default: read for GET, else never.
   */
  retry?: 'read' | 'rate-limit' | 'never' | undefined;
  /** Extra headers for this one request (e.g. the EOA proof of partner create); never credentials. */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Statuses returned as data instead of thrown (e.g. 207). 2xx always are. */
  okStatuses?: number[] | undefined;
  /**
   * Where this route takes the sub-account the client acts for (a fact of the route, stated by
   * the core function that calls it): 'body' (an `onBehalfOf` field of the JSON body), 'query'
   * (`?onBehalfOf=` in the signed path), 'header' (only the `x-on-behalf-of` header, which the
   * first two carry too), or 'none' (the caller's own request even when the client acts for a
   * sub-account). Default 'header'; requests without credentials carry none.
   */
  onBehalfOfIn?: 'body' | 'query' | 'header' | 'none' | undefined;
}

export interface ApiResponse<T = unknown> {
  status: number;
  data: T;
  headers: Record<string, string>;
  /** How many times the request was sent (above 1: retried, and an earlier try may have acted). */
  attempts?: number | undefined;
}

export interface ApiClientOptions {
  baseUrl: string;
  auth?: AuthProvider | undefined;
  timeoutMs?: number | undefined;
  /** Receives one redacted line per request and response (the --verbose trace). */
  trace?: ((line: string) => void) | undefined;
  /** Per-token pacing; defaults are the exchange's limits. */
  limits?: { concurrency: number; minIntervalMs: number } | undefined;
  maxRetries?: number | undefined;
  userAgent?: string | undefined;
  /** Shares the last request start per token between processes (e.g. a file under PM_HOME). */
  paceStore?:
    | {
        load(key: string): number;
        save(key: string, t: number): void;
        shared?(key: string, limits: { concurrency: number; minIntervalMs: number; maxHoldMs: number }): Limiter;
      }
    | undefined;
  /** Clock for the HMAC timestamp (tests). */
  now?: (() => Date) | undefined;
  /**
   * Who every authenticated call acts for: a partner's sub-account profile id, or undefined
   * for the caller's own profile. Carried by the client (as viem carries the account), so no
   * call can forget it: see `withOnBehalfOf`.
   */
  onBehalfOf?: number | undefined;
  /** Ctrl-C: stops waits and retries at once; a write already on the wire is waited for. */
  signal?: AbortSignal | undefined;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as the caller resolved them (core reads no environment). */
  proxy?: ProxySettings | undefined;
  /**
   * Epoch ms by which every request of this client ends, retries included (see withDeadline).
   * Absent: each request (with its retries) gets `timeoutMs` of its own.
   */
  deadline?: number | undefined;
  /** Told what pm is waiting for when a wait lasts over a second (a terminal's stderr). */
  onWait?: ((note: string) => void) | undefined;
  /**
   * Whose words the hints of its errors use: the CLI's flags, commands and environment ('flags',
   * the default), or the library's options and calls ('keys'). Core code that hints from a
   * client (a market not found) reads it as `api.words`.
   */
  words?: InputWords | undefined;
}

/** Calls `note` once if `ms` pass before the returned stop is called. */
function noteIfSlow(note: ((n: string) => void) | undefined, ms: number, text: () => string): () => void {
  if (!note) return () => undefined;
  const t = setTimeout(() => note(text()), ms);
  t.unref?.();
  return () => clearTimeout(t);
}

// The limiter lives in limiter.ts; re-exported here for existing imports.
export { TokenLimiter } from './limiter.js';

const SENSITIVE_HEADERS = new Set(['lmts-signature', 'x-api-key', 'identity', 'authorization', 'cookie']);
const SENSITIVE_FIELDS = /"(secret|privateKey|private_key|apiKey|tokenSecret|identityToken|password|passphrase)"\s*:\s*"[^"]*"/g;

/** Redacts credential headers and secret-looking JSON fields for the trace. */
export function redactHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const key = k.toLowerCase();
    if (SENSITIVE_HEADERS.has(key)) out[k] = '[redacted]';
    else if (key === 'lmts-api-key') out[k] = v.length > 6 ? `${v.slice(0, 4)}…` : '[redacted]';
    else out[k] = v;
  }
  return out;
}

/** Redacts secret-looking fields in a JSON text. */
export function redactBody(text: string): string {
  return text.replace(SENSITIVE_FIELDS, (_m, k: string) => `"${k}":"[redacted]"`);
}

function buildTarget(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else params.append(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** Pulls the human message out of an error body, the way the official SDKs do. */
export function errorMessage(data: unknown, fallback: string): string {
  if (typeof data === 'string' && data.trim()) return data.trim().slice(0, 500);
  if (data && typeof data === 'object') {
    const o = data as Record<string, unknown>;
    const m = o['message'];
    if (typeof m === 'string' && m) return m;
    if (Array.isArray(m)) {
      return m
        .map((x) =>
          typeof x === 'string'
            ? x
            : x && typeof x === 'object'
              ? Object.entries(x)
                  .map(([k, v]) => `${k}: ${String(v)}`)
                  .join(', ')
              : String(x),
        )
        .join(' | ');
    }
    for (const k of ['error', 'msg', 'errors']) {
      const v = o[k];
      if (typeof v === 'string' && v) return v;
    }
  }
  return fallback;
}

/**
 * No API token where one is needed (an order, a private read or stream, whoami): exit 3, with the
 * one hint of every such path, in the caller's words.
 */
export function noTokenError(message: string, words: InputWords = 'flags'): AuthError {
  const e = new AuthError(message, {
    hint:
      words === 'flags'
        ? 'Run pm init (pm init --sandbox for the sandbox), or set PM_TOKEN_ID and PM_TOKEN_SECRET.'
        : 'Pass token: { tokenId, secret } to createClient (or a profile that holds one).',
  });
  e.noToken = true;
  return e;
}

/**
 * No identity token where one is needed (token derive and capabilities, the withdrawal allowlist):
 * exit 3, in the caller's words. A command that asks for a passphrase first checks this before.
 */
export function noIdentityError(words: InputWords = 'flags'): AuthError {
  return new AuthError('this command needs an identity token', {
    hint: words === 'flags' ? 'Set PM_IDENTITY_TOKEN or store one with pm init.' : 'Pass identityToken to createClient.',
  });
}

/** Maps a non-2xx answer to the error class of its exit code. The only such mapping. */
export function errorForStatus(
  status: number,
  data: unknown,
  headers: Record<string, string>,
  what: string,
  words: InputWords = 'flags',
  /** What the request carried: the sub-account it acted for, and whether it was signed with the identity token. */
  sent: { onBehalfOf?: number | undefined; identity?: boolean } = {},
): PmError {
  const { onBehalfOf } = sent;
  const message = errorMessage(data, `${what} failed with HTTP ${status}`);
  const o = { status, details: undefined };
  if (status === 400 || status === 422) return new ExchangeValidationError(message, o);
  if (status === 401) {
    const stale = /timestamp|window|clock/i.test(message);
    return new AuthError(message, {
      status,
      hint: stale
        ? "The exchange accepts request timestamps within 30 s of its clock: check this machine's clock (e.g. timedatectl)."
        : sent.identity
          ? words === 'flags'
            ? 'The exchange did not accept the identity token: check PM_IDENTITY_TOKEN (the API token is not used for this route).'
            : "The exchange did not accept the identity token: check createClient's identityToken."
          : words === 'flags'
            ? "The exchange did not accept the API token (PM_TOKEN_ID and PM_TOKEN_SECRET when set, else the profile's): revoked, or its secret is wrong. pm token derive (with PM_IDENTITY_TOKEN) makes a new one; pm token add stores one you have."
            : 'Check the token given to createClient (token: { tokenId, secret }), or the one its profile holds.',
    });
  }
  if (status === 403) {
    // Acting for a sub-account, the likelier cause is an id that is not one of the partner's.
    const acting =
      onBehalfOf === undefined
        ? ''
        : words === 'flags'
          ? `Is ${onBehalfOf} one of your sub-accounts? pm partner list shows them; --on-behalf-of takes one of their profile ids. Else `
          : `Is ${onBehalfOf} one of your sub-accounts? pm.partner.list() shows them; onBehalfOf takes one of their profile ids. Else `;
    return new AuthError(message, {
      status,
      hint: `${acting}${acting ? 'the' : 'The'} credential lacks a scope or is the wrong kind for this route: see pm token list.`,
    });
  }
  if (status === 404) return new NotFoundError(message, { status });
  if (status === 409) return new ConflictError(message, { status });
  if (status === 429) {
    const e = new RateLimitError(message, {
      status,
      hint: 'The exchange allows 2 requests in flight and one start per 300 ms per token; try again shortly.',
    });
    e.retryAfterMs = retryAfterMs(headers, data);
    return e;
  }
  if (status >= 500) {
    const e = new NetworkError(`the exchange answered HTTP ${status}: ${message}`, {
      status,
      hint: 'The exchange is unavailable; try again later.',
    });
    e.ambiguous = true;
    return e;
  }
  return new ExchangeError(message, { status });
}

/** "2 s", "1.5 s", "800 ms" */
function deadlineText(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}

/**
 * The API client: one per base URL and credential set.
 * @example const api = new ApiClient({ baseUrl: 'http://127.0.0.1:8080' }); await api.request({ method: 'GET', path: '/markets/active' })
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  /** The connection pool: a proxy's agent is loaded on first use, only when a proxy applies. */
  private readonly agent: http.Agent | Promise<http.Agent>;
  /** The proxy every request of this client goes through, if any. */
  readonly proxy: ProxyRoute | undefined;
  private readonly transport: typeof http | typeof import('node:https');
  private readonly limiters: Map<string, TokenLimiter>;
  private readonly opts: ApiClientOptions;
  private readonly counter: { seq: number };

  constructor(
    opts: ApiClientOptions,
    shared?: { agent: http.Agent | Promise<http.Agent>; limiters: Map<string, TokenLimiter>; counter: { seq: number } },
  ) {
    // A bad base URL is a local mistake (exit 2): nothing was sent, so never exit 9.
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new UsageError(`invalid base URL "${opts.baseUrl}"`, {
        hint: 'Use a URL such as https://api.limitless.exchange or http://127.0.0.1:8787',
      });
    }
    if (!/^https?:$/.test(url.protocol)) throw new UsageError(`base URL "${opts.baseUrl}" is not http(s)`);
    if (url.pathname !== '/' && url.pathname !== '') {
      // HMAC signs the path from the root; a prefix would make every signature wrong.
      throw new UsageError(`base URL "${opts.baseUrl}" has a path (${url.pathname}); the API is served at the root of its host`, {
        hint: `Use ${url.origin} (pm config set base-url ${url.origin}).`,
      });
    }
    this.opts = opts;
    this.origin = url.origin;
    this.baseUrl = url.origin;
    // node:http with a keep-alive agent: the same pooling as undici's Agent, without its
    // ~75 ms import on every command (measured; see the issue notes).
    // node:https (and TLS under it) loads only for an https URL: ~9 ms of start-up that a command
    // against the local sandbox does not need.
    this.transport = transportFor(url);
    this.proxy = proxyFor(url, opts.proxy);
    this.agent =
      shared?.agent ??
      (this.proxy
        ? loadProxyAgent(this.proxy, url.protocol === 'https:')
        : new this.transport.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16 }));
    this.limiters = shared?.limiters ?? new Map();
    this.counter = shared?.counter ?? { seq: 0 };
  }

  get auth(): AuthProvider {
    return this.opts.auth ?? {};
  }

  /** The sub-account profile id every call of this client acts for (undefined: the caller). */
  get onBehalfOf(): number | undefined {
    return this.opts.onBehalfOf;
  }

  get signal(): AbortSignal | undefined {
    return this.opts.signal;
  }

  /** Whose words hints use: the CLI's ('flags') or the library's ('keys'). */
  get words(): InputWords {
    return this.opts.words ?? 'flags';
  }

  /**
   * The same client (connections, limiters, credentials) acting for `profileId`, or for the
   * caller's own profile when undefined. Every authenticated call of the returned client carries
   * it where its route takes it (RequestOptions.onBehalfOfIn).
   */
  withOnBehalfOf(profileId: number | undefined): ApiClient {
    if (profileId === this.opts.onBehalfOf) return this;
    return new ApiClient({ ...this.opts, onBehalfOf: profileId }, { agent: this.agent, limiters: this.limiters, counter: this.counter });
  }

  /** The timeout of one operation (ms): a request with its retries, or a call given withDeadline. */
  get timeoutMs(): number {
    return this.opts.timeoutMs ?? 30_000;
  }

  /** The epoch ms this client's requests must end by, when it has a deadline. */
  get deadline(): number | undefined {
    return this.opts.deadline;
  }

  /**
   * The same client with one deadline for everything done through it: `ms` (default: the
   * timeout) from now. A client that already has a deadline keeps it, so an operation made of
   * other operations (an order: its market, its owner, its attempts and lookups) ends on time
   * as a whole. @example const op = api.withDeadline(); await placeOrder(op, body, journal)
   */
  withDeadline(ms?: number): ApiClient {
    if (this.opts.deadline !== undefined) return this;
    return new ApiClient(
      { ...this.opts, deadline: Date.now() + (ms ?? this.timeoutMs) },
      { agent: this.agent, limiters: this.limiters, counter: this.counter },
    );
  }

  /** The same client (connections, limiters, credentials, onBehalfOf) whose waits end on `signal`. */
  withSignal(signal: AbortSignal): ApiClient {
    const both = this.opts.signal ? AbortSignal.any([this.opts.signal, signal]) : signal;
    return new ApiClient({ ...this.opts, signal: both }, { agent: this.agent, limiters: this.limiters, counter: this.counter });
  }

  private limiter(key: string): TokenLimiter {
    let l = this.limiters.get(key);
    if (!l) {
      const lim = this.opts.limits ?? { concurrency: 2, minIntervalMs: 300 };
      const store = this.opts.paceStore;
      const shared = store?.shared?.(key, { ...lim, maxHoldMs: (this.opts.timeoutMs ?? 30_000) + 5_000 });
      l = shared
        ? new TokenLimiter(lim.concurrency, lim.minIntervalMs, 0, undefined, shared)
        : new TokenLimiter(lim.concurrency, lim.minIntervalMs, store?.load(key) ?? 0, store ? (t) => store.save(key, t) : undefined);
      this.limiters.set(key, l);
    }
    return l;
  }

  /**
   * Sends one request (with retries for reads, inside the client's deadline or, without one, its
   * own timeout) and returns the parsed answer or throws.
   */
  async request<T = unknown>(o: RequestOptions): Promise<ApiResponse<T>> {
    const retry = o.retry ?? (o.method === 'GET' ? 'read' : 'never');
    const deadline = this.opts.deadline ?? Date.now() + (o.timeoutMs ?? this.timeoutMs);
    // A refused connection to this machine (a stopped sandbox) is not going to heal in a second.
    // Nor is a proxy that refuses.
    const local = /^(127\.|localhost|\[::1\])/.test(new URL(this.origin).host);
    const tries = retry === 'never' ? 1 : (this.opts.maxRetries ?? 3) + 1;
    let attempts = 0;
    const res = await retrying(() => (attempts++, this.once<T>(o, deadline)), {
      tries,
      deadline,
      signal: o.signal ?? this.opts.signal,
      retriable: (e) =>
        !((local || this.proxy !== undefined) && e instanceof NetworkError && !e.ambiguous) &&
        (e instanceof RateLimitError || (retry === 'read' && e instanceof NetworkError && (e.status === undefined || e.status >= 500))),
      onRetry: (e, attempt, wait) => {
        const why = e instanceof PmError ? e.shortMessage : String(e);
        this.opts.trace?.(`retry ${attempt + 1}/${tries - 1} in ${wait} ms after: ${why}`);
        if (wait >= 1000) this.opts.onWait?.(`${o.method} ${o.path}: ${why}; trying again in ${(wait / 1000).toFixed(1)} s`);
      },
    });
    return attempts > 1 ? { ...res, attempts } : res;
  }

  private async once<T>(o: RequestOptions, deadline: number): Promise<ApiResponse<T>> {
    const mode = o.auth ?? 'none';
    const where = mode === 'auto' ? (o.onBehalfOfIn ?? 'header') : 'none';
    const onBehalfOf = where === 'none' ? undefined : this.opts.onBehalfOf;
    let query = o.query;
    let bodyValue = o.body;
    if (onBehalfOf !== undefined && where === 'query') query = { ...(query ?? {}), onBehalfOf };
    if (onBehalfOf !== undefined && where === 'body' && bodyValue !== null && typeof bodyValue === 'object' && !Array.isArray(bodyValue))
      bodyValue = { ...(bodyValue as Record<string, unknown>), onBehalfOf };
    const target = buildTarget(o.path, query);
    const body = bodyValue === undefined ? '' : typeof bodyValue === 'string' ? bodyValue : JSON.stringify(bodyValue);
    const signal = o.signal ?? this.opts.signal;
    const auth = this.opts.auth ?? {};
    const now = this.opts.now ?? (() => new Date());
    if (mode === 'identity' && !auth.identity) throw noIdentityError(this.words);
    if (mode === 'auto' && !auth.hmac && !auth.apiKey) {
      throw noTokenError('this needs an API token, and none is set', this.words);
    }
    // The limiter slot is taken before the timestamp is made, so a queued request is never stale.
    // Ctrl-C (or the deadline) while waiting for a slot: nothing was sent.
    if (signal?.aborted) throw interrupted(signal);
    const notSent = (): NetworkError =>
      new NetworkError(`${o.method} ${o.path}: the ${deadlineText(this.timeoutMs)} deadline passed before it could be sent`, {
        hint: `Nothing was sent. Raise ${this.timeoutWords}, or try again.`,
      });
    if (Date.now() >= deadline) throw notSent();
    const key = limiterKeyOf(auth, mode);
    let release: Awaited<ReturnType<TokenLimiter['acquire']>> | null = null;
    if (key) {
      const due = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
      const stopNote = noteIfSlow(this.opts.onWait, 1000, () => `waiting for a request slot of this API token (${o.method} ${o.path})`);
      try {
        release = await this.limiter(key).acquire(signal ? AbortSignal.any([signal, due]) : due);
      } catch (e) {
        if (signal?.aborted) throw interrupted(signal);
        throw due.aborted ? notSent() : e;
      } finally {
        stopNote();
      }
    }
    const id = ++this.counter.seq;
    try {
      const { headers: authH } = await authHeadersAsync(auth, mode, o.method, target, body, now());
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': this.opts.userAgent ?? 'pm',
        ...authH,
      };
      if (o.headers) for (const [k, v] of Object.entries(o.headers)) if (!(k.toLowerCase() in headers)) headers[k.toLowerCase()] = v;
      if (body !== '') headers['content-type'] = 'application/json';
      if (onBehalfOf !== undefined) headers['x-on-behalf-of'] = String(onBehalfOf);
      const trace = this.opts.trace;
      if (trace) {
        trace(
          `→ #${id} ${o.method} ${this.origin}${target}${this.proxy ? ` via proxy ${this.proxy.shown}` : ''} ${JSON.stringify(redactHeaders(headers))}${body ? ` ${redactBody(body)}` : ''}`,
        );
      }
      const started = Date.now();
      // This attempt ends with the operation's deadline (or its own timeout, if shorter).
      const timeout = Math.max(1, Math.min(o.timeoutMs ?? this.timeoutMs, deadline - started));
      // A timer signal bounds the whole exchange (connect, send, answer). Ctrl-C abandons a
      // read at once, but a write already on the wire is waited for, so its outcome is known.
      const timer = AbortSignal.timeout(timeout);
      const wire = signal && o.method === 'GET' ? AbortSignal.any([signal, timer]) : timer;
      let res: { status: number; headers: http.IncomingHttpHeaders; text: string };
      const stopNote = noteIfSlow(
        this.opts.onWait,
        1000,
        () => `waiting for the exchange to answer ${o.method} ${o.path} (up to ${deadlineText(deadline - started)})`,
      );
      // Ctrl-C while a write is on its way: it is waited for (to say what was done), and said so.
      const onInterrupt = (): void =>
        this.opts.onWait?.(
          `interrupted: waiting for the answer to ${o.method} ${o.path}, already on its way, to say what was done (up to ${deadlineText(Math.max(0, deadline - Date.now()))}); Ctrl-C again stops at once`,
        );
      const waits = signal !== undefined && o.method !== 'GET' && !signal.aborted && this.opts.onWait !== undefined;
      if (waits) signal.addEventListener('abort', onInterrupt, { once: true });
      try {
        // The start is stamped once the whole request is written to the connection (a time no
        // earlier than its departure, so the next start is spaced from it): the file write
        // happens while the exchange works on it, not before the request leaves.
        res = await this.send(`${this.origin}${target}`, o.method, headers, body, wire, release?.started);
      } catch (e) {
        if (signal?.aborted && !timer.aborted && o.method === 'GET') throw interrupted(signal);
        throw this.networkError(
          timer.aborted ? Object.assign(new Error(`no answer within ${deadlineText(Date.now() - started)}`), { code: 'ETIMEDOUT' }) : e,
          o,
          target,
        );
      } finally {
        stopNote();
        if (waits) signal?.removeEventListener('abort', onInterrupt);
      }
      const text = res.text;
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (typeof v === 'string') resHeaders[k.toLowerCase()] = v;
        else if (Array.isArray(v)) resHeaders[k.toLowerCase()] = v.join(', ');
      }
      let data: unknown = text;
      const ctype = resHeaders['content-type'] ?? '';
      if (text && (ctype.includes('json') || /^[[{"]/.test(text.trimStart()))) {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      } else if (!text) data = null;
      if (trace)
        trace(`← #${id} ${res.status} in ${Date.now() - started} ms ${redactBody(text.length > 2000 ? `${text.slice(0, 2000)}…` : text)}`);
      if ((res.status >= 200 && res.status < 300) || o.okStatuses?.includes(res.status)) {
        return { status: res.status, data: data as T, headers: resHeaders };
      }
      if (res.status === 407 && this.proxy) throw proxyAuthError(this.proxy);
      throw errorForStatus(res.status, data, resHeaders, `${o.method} ${o.path}`, this.words, {
        onBehalfOf,
        identity: mode === 'identity',
      });
    } finally {
      release?.();
    }
  }

  /** One HTTP exchange over the keep-alive pool. */
  private async send(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    sent?: () => void,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
    const r = await roundTrip(this.transport, url, { method, headers, agent: await this.agent, signal, sent }, body);
    return { status: r.status, headers: r.headers, text: r.body.toString('utf8') };
  }

  /** What sets the deadline, in the caller's words. */
  private get timeoutWords(): string {
    return this.words === 'flags' ? '--timeout (or PM_TIMEOUT)' : "createClient's timeoutMs";
  }

  private networkError(e: unknown, o: RequestOptions, target: string): PmError {
    if (e instanceof PmError) return e;
    const err = e as { code?: string; name?: string; message?: string };
    const code = err.code ?? err.name ?? 'ERROR';
    if (err.name === 'AbortError' || code === 'ABORT_ERR') {
      const ne = new NetworkError('request aborted', { cause: e });
      ne.ambiguous = o.method !== 'GET';
      return ne;
    }
    if (code === 'ETIMEDOUT') {
      const ne = new NetworkError(`${o.method} ${target}: ${err.message ?? 'timed out'}`, {
        cause: e,
        hint:
          o.method === 'GET'
            ? `Raise ${this.timeoutWords}, or try again.`
            : 'The request may have reached the exchange: check before retrying.',
      });
      ne.ambiguous = true;
      return ne;
    }
    const refused = REFUSED.has(code);
    if (refused && this.proxy) return proxyUnreachable(this.proxy, this.origin, code, e);
    const local = /^(127\.|localhost|\[::1\])/.test(new URL(this.origin).host);
    const ne = new NetworkError(
      refused ? `cannot reach the exchange at ${this.origin} (${code})` : `${o.method} ${target} failed: ${err.message ?? code} (${code})`,
      {
        cause: e,
        hint: refused
          ? local
            ? 'Is the sandbox running? Start it with: pm sandbox start --detach'
            : this.words === 'flags'
              ? 'Check your network connection and --base-url / PM_BASE_URL.'
              : "Check your network connection and createClient's baseUrl."
          : 'The request may or may not have reached the exchange; retry, or check its status.',
      },
    );
    // A refused connection never delivered the request; anything else might have.
    ne.ambiguous = !refused;
    return ne;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    (await this.agent).destroy();
  }
}

/** node:http, or node:https for an https URL (it loads TLS: ~9 ms a command against the local sandbox does not pay). */
function transportFor(url: URL): typeof http | typeof import('node:https') {
  return url.protocol === 'https:' ? (createRequire(import.meta.url)('node:https') as typeof import('node:https')) : http;
}

/** Codes of a connection that was never made: nothing was delivered. */
const REFUSED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The proxy could not be reached: every connection goes to it (its failures to reach the target are answers: 502…), so nothing was sent. */
function proxyUnreachable(route: ProxyRoute, origin: string, code: string, cause: unknown): NetworkError {
  const ne = new NetworkError(`cannot reach the proxy ${route.shown} (${code}) for ${origin}`, { cause, hint: proxyHint(route, origin) });
  ne.ambiguous = false;
  return ne;
}

/** One request and its whole answer over node:http(s): what the exchange's client and nodeFetch send with. */
function roundTrip(
  transport: Pick<typeof http, 'request'>,
  url: string | URL,
  o: {
    method: string;
    headers: Record<string, string>;
    agent: http.Agent | undefined;
    signal: AbortSignal | undefined;
    /** Called once the whole request is handed to the connection. */
    sent?: (() => void) | undefined;
  },
  body: string | Uint8Array,
): Promise<{ status: number; statusMessage: string; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = body.length === 0 ? o.headers : { ...o.headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = transport.request(url, { method: o.method, headers, agent: o.agent, ...(o.signal ? { signal: o.signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
      res.on('aborted', () => reject(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })));
    });
    req.on('error', reject);
    if (o.sent) req.once('finish', o.sent);
    req.end(body.length === 0 ? undefined : body);
  });
}

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for a service other than the exchange (the chain's JSON-RPC: viem's transport and pm
 * doctor's check) on this transport: node:http(s), through the proxy that HTTPS_PROXY / HTTP_PROXY /
 * NO_PROXY give for `url` (the same agents and errors as REST: a refused proxy is exit 7, a 407
 * exit 3), the answer handed back as a fetch Response. Global fetch would read no proxy variable on
 * Node 20 (on 22 and 24 only with NODE_USE_ENV_PROXY) and load undici. No token, limiter or retry:
 * those are the exchange's.
 * @example createPublicClient({ transport: viemHttp(rpcUrl, { fetchFn: nodeFetch(rpcUrl, proxy) }) })
 */
export function nodeFetch(url: string, proxy: ProxySettings | undefined): FetchFn {
  const target = new URL(url);
  const tunnel = target.protocol === 'https:';
  const route = proxyFor(target, proxy);
  const transport = transportFor(target);
  let agent: Promise<http.Agent> | undefined;
  return async (input, init) => {
    const at = new URL(input instanceof Request ? input.url : input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const body = init?.body ?? '';
    if (typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('nodeFetch sends a string or bytes body only');
    if (route) agent ??= loadProxyAgent(route, tunnel);
    let r: Awaited<ReturnType<typeof roundTrip>>;
    try {
      r = await roundTrip(
        transport,
        at,
        { method: init?.method ?? 'GET', headers, agent: await agent, signal: init?.signal ?? undefined },
        body,
      );
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw route && code !== undefined && REFUSED.has(code) ? proxyUnreachable(route, at.origin, code, e) : e;
    }
    if (r.status === 407 && route) throw proxyAuthError(route);
    const answer = new Headers();
    for (const [k, v] of Object.entries(r.headers)) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) answer.append(k, x);
    const empty = r.status === 204 || r.status === 304;
    return new Response(empty ? null : r.body, { status: r.status, statusText: r.statusMessage, headers: answer });
  };
}

/** The proxy's agent, imported on first use (a failed import rejects the first request, not the process). */
function loadProxyAgent(route: ProxyRoute, tunnel: boolean): Promise<http.Agent> {
  const agent = import('./proxy-agent.js').then((m) => m.proxyAgent(route.url, tunnel));
  agent.catch(() => undefined);
  return agent;
}
