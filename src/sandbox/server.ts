// The HTTP side of the sandbox: a small router over node:http with the exchange's auth, the
// per-token rate limit, JSON error bodies `{message}`, and fault injection for tests.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { authenticate } from './auth.js';
import { PacingLimiter, requestStart } from './pacing.js';
import type { FaultConfig, Route, SandboxContext, SandboxRequest, SandboxResponse } from './handlers.js';
import { setTimeout as sleep } from 'node:timers/promises';

interface Compiled {
  route: Route;
  parts: string[];
  literals: number;
}

function compile(routes: Route[]): Compiled[] {
  return routes.map((route) => {
    const parts = route.pattern.split('/').filter(Boolean);
    return { route, parts, literals: parts.filter((p) => !p.startsWith(':')).length };
  });
}

function match(c: Compiled, segs: string[]): Record<string, string> | null {
  if (c.parts.length !== segs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segs.length; i++) {
    const p = c.parts[i] ?? '';
    const s = segs[i] ?? '';
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(s);
      } catch {
        return null;
      }
    } else if (p !== s) return null;
  }
  return params;
}

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  delay: null,
  fail5xx: 0,
  burst429: 0,
  commitThenDrop: 0,
  match: '',
  dropSockets: 0,
  eventDelayMs: 0,
  clockSkewMs: 0,
};

export interface HttpServerOptions {
  routes: Route[];
  ctx: SandboxContext;
  faults: FaultConfig;
  /** Admin routes under /__sandbox: no auth, no faults, no rate limit. */
  admin: Route[];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        // Answer 413 (the caller sends it with connection: close) instead of resetting the socket.
        reject(new Error('body too large'));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const NOT_JSON = Symbol('not JSON');
const BAD_JSON: SandboxResponse = { status: 400, body: { message: 'Body is not valid JSON' } };

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return NOT_JSON;
  }
}

/**
 * Keys a body may not use at any depth: Object.prototype's members and "prototype". Handlers and
 * their lookup tables are plain objects, where `table[key]` with such a key finds an inherited
 * member instead of nothing (a 500, or a prototype changed by a merge); no exchange body uses them.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * The path of a reserved key in a parsed body (`order.constructor`), or null. Iterative, with
 * the path built only for a hit: a body may be nested thousands deep.
 */
function reservedKeyPath(body: unknown): string | null {
  interface Node {
    v: unknown;
    key: string;
    up: Node | null;
  }
  const stack: Node[] = [{ v: body, key: '', up: null }];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    const { v } = n;
    if (v === null || typeof v !== 'object') continue;
    const list = Array.isArray(v);
    for (const [k, x] of Object.entries(v)) {
      const child: Node = { v: x, key: list ? `[${k}]` : k, up: n };
      if (!list && RESERVED_KEYS.has(k)) {
        const parts: string[] = [];
        for (let at: Node | null = child; at?.up; at = at.up) parts.unshift(at.key);
        return parts.join('.').replaceAll('.[', '[');
      }
      stack.push(child);
    }
  }
  return null;
}

/** The 400 for a body holding a reserved key, naming where it is; null for any other body. */
function reservedKeyRefusal(json: unknown): SandboxResponse | null {
  const path = reservedKeyPath(json);
  if (path === null) return null;
  const shown = path.length > 120 ? `…${path.slice(-120)}` : path;
  return { status: 400, body: { message: `Body key ${shown} is not accepted: no request field has that name` } };
}

function send(res: ServerResponse, r: SandboxResponse): void {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let payload = '';
  if (r.text !== undefined) {
    payload = r.text;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (r.body !== undefined) {
    payload = JSON.stringify(r.body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(r.status, headers).end(payload);
}

function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The answer to a request that reads no further (after its body is drained, when it has one). */
async function drained(req: IncomingMessage, r: SandboxResponse): Promise<SandboxResponse> {
  await readBody(req).catch(() => '');
  return r;
}

const TOO_LARGE: SandboxResponse = { status: 413, body: { message: 'Body too large' }, headers: { connection: 'close' } };

/** The request's body read and parsed (JSON where it is JSON), or the answer refusing it. */
async function readJson(req: IncomingMessage, method: string): Promise<{ rawBody: string; json: unknown } | SandboxResponse> {
  let rawBody: string;
  try {
    rawBody = await readBody(req);
  } catch {
    return TOO_LARGE;
  }
  let json = rawBody ? parseJson(rawBody) : undefined;
  const ctype = String(req.headers['content-type'] ?? '');
  if (ctype.includes('application/json') && method !== 'GET') {
    if (rawBody === '') return { status: 400, body: { message: 'Body cannot be empty when content-type is set to application/json' } };
    if (json === NOT_JSON) return BAD_JSON;
  } else if (json === NOT_JSON) json = undefined;
  return reservedKeyRefusal(json) ?? { rawBody, json };
}

const isAnswer = (v: { rawBody: string; json: unknown } | SandboxResponse): v is SandboxResponse => 'status' in v;

/** The router: admin routes (no auth, no faults, no rate limit), then the exchange's. */
class Router {
  private readonly compiled: Compiled[];
  private readonly admin: Compiled[];
  private readonly limiter = new PacingLimiter();

  constructor(private readonly opts: HttpServerOptions) {
    this.compiled = compile(opts.routes).sort((a, b) => b.literals - a.literals);
    this.admin = compile(opts.admin);
  }

  async handle(req: IncomingMessage, res: ServerResponse, arrived: number): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    const skew = this.opts.faults.clockSkewMs;
    if (skew) res.setHeader('date', new Date(Date.now() + skew).toUTCString());
    const url = new URL(target, 'http://sandbox.invalid');
    const segs = url.pathname.split('/').filter(Boolean);
    if (segs[0] === '__sandbox') return void send(res, await this.adminRoute(req, method, target, url, segs));
    const r = await this.apiRoute(req, method, target, url, segs, arrived);
    if (r === DROP) {
      req.socket.destroy();
      return;
    }
    send(res, r);
  }

  /** A /__sandbox route: a loopback Host and, for writes, a JSON content type (no DNS rebinding, no simple cross-origin POST). */
  private async adminRoute(req: IncomingMessage, method: string, target: string, url: URL, segs: string[]): Promise<SandboxResponse> {
    if (!isLoopbackHost(req.headers.host))
      return { status: 403, body: { message: 'Admin routes answer only requests to a loopback Host (127.0.0.1, localhost, [::1])' } };
    const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
    if (method !== 'GET' && !ctype.startsWith('application/json')) {
      req.resume();
      return { status: 415, body: { message: 'Admin routes take Content-Type: application/json' } };
    }
    let rawBody: string;
    try {
      rawBody = await readBody(req);
    } catch {
      return TOO_LARGE;
    }
    for (const c of this.admin) {
      const params = match(c, segs);
      if (!params || c.route.method !== method) continue;
      const json = rawBody ? parseJson(rawBody) : undefined;
      if (json === NOT_JSON) return BAD_JSON;
      const reserved = reservedKeyRefusal(json);
      if (reserved) return reserved;
      const sreq: SandboxRequest = {
        method,
        target,
        path: url.pathname,
        query: url.searchParams,
        params,
        headers: req.headers,
        rawBody,
        json,
        auth: null,
      };
      return c.route.handler({ ...sreq, remoteAddress: req.socket.remoteAddress }, this.opts.ctx);
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  /** An exchange route: match, injected faults, body, auth, rate limit, the delay fault, the handler. */
  private async apiRoute(
    req: IncomingMessage,
    method: string,
    target: string,
    url: URL,
    segs: string[],
    arrived: number,
  ): Promise<SandboxResponse | typeof DROP> {
    const { ctx, faults } = this.opts;
    const matching = this.compiled.map((c) => ({ c, params: match(c, segs) })).filter((x) => x.params !== null);
    const hit = matching.find((x) => x.c.route.method === method);
    if (!hit?.params)
      return drained(
        req,
        matching.length
          ? { status: 405, body: { message: `Method ${method} not allowed on ${url.pathname}` } }
          : { status: 404, body: { message: 'Not Found' } },
      );
    // Faults apply to matching "METHOD /path" requests.
    const faulted = `${method} ${url.pathname}`.startsWith(faults.match);
    const injected = await this.injected(req, faulted);
    if (injected) return injected;
    const body = await readJson(req, method);
    if (isAnswer(body)) return body;
    const a = authenticate(ctx.state, hit.c.route.auth, req.headers, method, target, body.rawBody, ctx.now() + (faults.clockSkewMs ?? 0));
    if (!a.ok) return { status: a.status, body: { message: a.message } };
    let release: (() => void) | undefined;
    if (a.limiterKey && faults.rateLimit !== false) {
      const signedTs = a.limiterKey.startsWith('hmac:') ? req.headers['lmts-timestamp'] : undefined;
      const adm = this.limiter.admit(a.limiterKey, requestStart(arrived, typeof signedTs === 'string' ? signedTs : undefined));
      if (!adm.ok)
        return {
          status: 429,
          headers: { 'retry-after': String(Math.ceil(adm.retryAfterMs / 1000)) },
          body: {
            message: `Rate limit exceeded: at most 2 concurrent requests and one every 300 ms per API token (this one ${adm.reason})`,
          },
        };
      release = adm.release;
    }
    try {
      const route = hit.c.route;
      const delay = faults.delay;
      if (delay && delay.route === `${route.method} ${route.pattern}`) await sleep(delay.ms);
      const sreq: SandboxRequest = {
        method,
        target,
        path: url.pathname,
        query: url.searchParams,
        params: hit.params,
        headers: req.headers,
        ...body,
        auth: a.auth,
      };
      const r = await route.handler(sreq, ctx);
      const drop =
        r.drop === true ||
        (faulted && faults.commitThenDrop > 0 && method === 'POST' && url.pathname === '/orders' && r.status >= 200 && r.status < 300);
      if (!drop) return r;
      if (faults.commitThenDrop > 0) faults.commitThenDrop--;
      return DROP;
    } finally {
      release?.();
    }
  }

  /** The latency, 429 and 5xx faults of a matching request (before its body is read). */
  private async injected(req: IncomingMessage, faulted: boolean): Promise<SandboxResponse | null> {
    const faults = this.opts.faults;
    if (!faulted) return null;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (faults.burst429 > 0) {
      faults.burst429--;
      return drained(req, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Rate limit exceeded (injected)' } });
    }
    if (faults.fail5xx > 0) {
      faults.fail5xx--;
      return drained(req, { status: 503, body: { message: 'Service unavailable (injected)' } });
    }
    return null;
  }
}

/** A handler's answer under commit-then-drop: destroy the socket, send nothing. */
const DROP = Symbol('drop');

/** Creates the HTTP server; sockets are tracked so close() never hangs on keep-alive. */
export function createHttpServer(opts: HttpServerOptions): { server: Server; sockets: Set<Socket> } {
  const router = new Router(opts);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    // Stamped on the 'request' event, before the body is read or anything waits: pacing is
    // about real time when the request came in, whatever the (test) clock says.
    const arrived = Date.now();
    void router.handle(req, res, arrived).catch((e: unknown) => {
      if (!res.headersSent)
        send(res, { status: 500, body: { message: `Internal sandbox error: ${e instanceof Error ? e.message : String(e)}` } });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return { server, sockets };
}
