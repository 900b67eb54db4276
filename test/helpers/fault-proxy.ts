// A fault proxy of our own on 127.0.0.1 in front of a sandbox: it forwards every request, and for
// the requests a rule picks (by method + path and by the n-th matching request, so a test can
// fault "the 2nd POST /orders") it injects one fault:
//   drop      the upstream acts, then the client's connection is destroyed without an answer
//   truncate  the upstream acts; the client gets its status with the first half of the body and
//             `Connection: close` (a 2xx whose body cannot be read)
//   garble    the upstream acts; the client gets its status with a body that is not JSON
//             (`text`) or JSON of the wrong shape (`shape`)
//   rewrite   the upstream acts; the client gets its status with the JSON `body` makes of the
//             upstream's answer (an answer of the exchange's own shape that says something else)
//   delay     the request is held `ms` before it is forwarded (forwarded even if the client gave up)
//   status    answered 5xx or 429 (with Retry-After) before forwarding: the upstream never sees it
//   hang      never forwarded, never answered
// It counts requests per route. WebSocket upgrades (socket.io) are piped through untouched.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { LogEntry, SandboxHandle } from '../../src/sandbox/index.js';

export type Fault =
  | { kind: 'drop' }
  | { kind: 'truncate' }
  | { kind: 'garble'; as?: 'text' | 'shape' }
  | { kind: 'rewrite'; body: (upstream: unknown) => unknown }
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  | { kind: 'hang' };

export interface FaultRule {
  /** 'POST'… ; absent: any method. */
  method?: string | undefined;
  /** The path without its query, exactly or by pattern; absent: any path. */
  path?: string | RegExp | undefined;
  /** The first matching request (1-based, counted from when the rule was set) that gets the fault (default 1). */
  nth?: number | undefined;
  /** How many matching requests from `nth` on get it (default 1; Infinity: all). */
  times?: number | undefined;
  fault: Fault;
}

export interface SeenRequest {
  method: string;
  path: string;
  /** The fault it got, if any. */
  fault: Fault['kind'] | null;
}

export interface FaultProxy {
  baseUrl: string;
  /** Replaces the rules (each one's request counter starts at 0). */
  set(...rules: FaultRule[]): void;
  /** Removes every rule and forgets the requests seen. */
  reset(): void;
  /** Requests seen (since the last reset) for `method` `path`, or for every route when absent. */
  count(method?: string, path?: string | RegExp): number;
  /** Every request seen since the last reset, in arrival order. */
  readonly seen: readonly SeenRequest[];
  /** How many requests got a fault since the last reset. */
  readonly faulted: number;
  /** Requests held or forwarded whose upstream answer has not come back yet (a delayed write may still act). */
  readonly inFlight: number;
  close(): Promise<void>;
}

interface ActiveRule {
  rule: FaultRule;
  matched: number;
}

const matches = (r: FaultRule, method: string, path: string): boolean =>
  (r.method === undefined || r.method === method) &&
  (r.path === undefined || (typeof r.path === 'string' ? r.path === path : r.path.test(path)));

/**
 * Starts a fault proxy in front of `upstream`. `decide` (optional) picks a fault for a request
 * beside the rules (it wins when it answers); `n` is the request's 1-based position overall.
 * @example const p = await faultProxy(sb.baseUrl); p.set({ method: 'POST', path: '/orders', nth: 2, fault: { kind: 'drop' } })
 */
export async function faultProxy(
  upstream: string,
  decide?: (req: { method: string; path: string; n: number }) => Fault | undefined,
): Promise<FaultProxy> {
  const target = new URL(upstream);
  let rules: ActiveRule[] = [];
  let seen: SeenRequest[] = [];
  let faulted = 0;
  let inFlight = 0;
  const agent = new http.Agent({ keepAlive: true });

  const pick = (method: string, path: string): Fault | undefined => {
    const chosen = decide?.({ method, path, n: seen.length + 1 });
    let fault: Fault | undefined;
    for (const a of rules) {
      if (!matches(a.rule, method, path)) continue;
      a.matched++;
      const first = a.rule.nth ?? 1;
      if (fault === undefined && a.matched >= first && a.matched < first + (a.rule.times ?? 1)) fault = a.rule.fault;
    }
    return chosen ?? fault;
  };

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const fault = pick(method, path);
    seen.push({ method, path, fault: fault?.kind ?? null });
    if (fault) faulted++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'status') {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
        res.writeHead(fault.status, headers);
        res.end(JSON.stringify({ message: `fault proxy: HTTP ${fault.status}`, statusCode: fault.status }));
        return;
      }
      inFlight++;
      let settled = false;
      const done = (): void => {
        if (!settled) inFlight--;
        settled = true;
      };
      const forward = (): void => {
        const up = http.request(
          { host: target.hostname, port: target.port, method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
          (ur) => {
            const body: Buffer[] = [];
            ur.on('data', (c: Buffer) => body.push(c));
            ur.on('end', () => {
              done();
              answer(ur, Buffer.concat(body));
            });
          },
        );
        up.on('error', () => {
          done();
          req.socket.destroy();
        });
        up.end(Buffer.concat(chunks));
      };
      const answer = (ur: http.IncomingMessage, body: Buffer): void => {
        if (fault?.kind === 'drop') {
          req.socket.destroy();
          return;
        }
        if (res.destroyed || req.socket.destroyed) return; // the client gave up (a delayed request)
        const headers = { ...ur.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        let out = body;
        if (fault?.kind === 'truncate') {
          out = body.subarray(0, Math.floor(body.length / 2));
          headers['connection'] = 'close';
        } else if (fault?.kind === 'garble') {
          out = Buffer.from(fault.as === 'shape' ? '{"ok":true,"data":[1,2,3]}' : '<html><body>502 Bad Gateway</body></html>');
          headers['content-type'] = fault.as === 'shape' ? 'application/json' : 'text/html';
        } else if (fault?.kind === 'rewrite') {
          out = Buffer.from(JSON.stringify(fault.body(JSON.parse(body.toString('utf8')))));
          headers['content-type'] = 'application/json';
        }
        headers['content-length'] = String(out.length);
        res.writeHead(ur.statusCode ?? 502, headers);
        res.end(out);
        if (fault?.kind === 'truncate') res.once('finish', () => req.socket.end());
      };
      if (fault?.kind === 'delay') setTimeout(forward, fault.ms);
      else forward();
    });
  });
  // socket.io's WebSocket upgrade: piped through as is (no faults on the stream).
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const up = net.connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    set(...r: FaultRule[]) {
      rules = r.map((rule) => ({ rule, matched: 0 }));
    },
    reset() {
      rules = [];
      seen = [];
      faulted = 0;
    },
    count(method?: string, path?: string | RegExp) {
      return seen.filter((s) => matches({ method, path, fault: { kind: 'hang' } }, s.method, s.path)).length;
    },
    get seen() {
      return seen;
    },
    get faulted() {
      return faulted;
    },
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fault proxy in front of the file's sandbox (useSandbox), started before the file's tests and closed after. */
export function useFaultProxy(sb: { current: SandboxHandle }): { current: FaultProxy } {
  const ref = {} as { current: FaultProxy };
  beforeAll(async () => {
    ref.current = await faultProxy(sb.current.baseUrl);
  });
  afterAll(async () => {
    await ref.current?.close();
  });
  return ref;
}

/** The sandbox's committed log entries of `type` (e.g. 'order.placed') from `fromSeq` on, optionally filtered. */
export function eventsOf<T extends LogEntry['type']>(
  sb: SandboxHandle,
  type: T,
  pred: (e: Extract<LogEntry, { type: T }>) => boolean = () => true,
  fromSeq = 1,
): Extract<LogEntry, { type: T }>[] {
  const out: Extract<LogEntry, { type: T }>[] = [];
  // History is delivered synchronously by subscribe, so the list is complete when it returns.
  const off = sb.subscribe(fromSeq, (e) => {
    if (e.type === type && pred(e as Extract<LogEntry, { type: T }>)) out.push(e as Extract<LogEntry, { type: T }>);
  });
  off();
  return out;
}

/** How many events of `type` the sandbox's log holds (from `fromSeq` on) that satisfy `pred`. */
export function countEvents<T extends LogEntry['type']>(
  sb: SandboxHandle,
  type: T,
  pred?: (e: Extract<LogEntry, { type: T }>) => boolean,
  fromSeq?: number,
): number {
  return eventsOf(sb, type, pred, fromSeq).length;
}

/** The sandbox's position in its log now, to count only what happens after it: `countEvents(sb, t, p, mark)`. */
export function logMark(sb: SandboxHandle): number {
  return sb.seq() + 1;
}

/**
 * Every fault the proxy makes, once each, for a property test of a command whose deadline is
 * `timeoutMs`: the delay holds a request past it, then forwards it (the exchange acts after pm gave up).
 */
export function everyFault(timeoutMs: number): Fault[] {
  return [
    { kind: 'drop' },
    { kind: 'truncate' },
    { kind: 'garble', as: 'text' },
    { kind: 'garble', as: 'shape' },
    { kind: 'status', status: 502 },
    { kind: 'status', status: 429, retryAfterSeconds: 0 },
    { kind: 'delay', ms: timeoutMs + 300 },
    { kind: 'hang' },
  ];
}

/** A fault's name in a test report: drop, garble-text, 502, delay… */
export const faultName = (f: Fault): string =>
  f.kind === 'garble' ? `garble-${f.as ?? 'text'}` : f.kind === 'status' ? String(f.status) : f.kind;

/**
 * The error of a --json run whose outcome is unknown, checked to be said as such: exit 7,
 * UNKNOWN_STATE, nothing on stdout, never "failed" and never a bare "retry".
 */
export function unknownOutcome(r: { code: number; stdout: string; stderr: string }): { code: string; message: string; hint: string } {
  expect(r.code, r.stderr).toBe(7);
  expect(r.stdout).toBe('');
  const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
  expect(err.code).toBe('UNKNOWN_STATE');
  expect(err.message).not.toMatch(/failed/);
  expect(err.hint).not.toMatch(/retry/i);
  return err;
}
