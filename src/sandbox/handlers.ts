// What a route handler sees: the context it writes through (ctx.apply), the request with what
// authentication established, the response, the route itself; and the run-time faults.
import type { StateEvent } from './events.js';
import type { SandboxState, Scope } from './types.js';

export interface FaultConfig {
  /** Delay every request matching `match` by this many ms, before it is read. */
  latencyMs: number;
  /**
   * Delay the handling of one route only ("METHOD /pattern" as served, e.g. "POST /orders"):
   * authenticated and admitted, it waits this many ms, then runs (its write lands after the
   * delay); every other route answers at once. null: none.
   */
  delay: { route: string; ms: number } | null;
  /** Fail this many upcoming requests (matching `match`) with 5xx. */
  fail5xx: number;
  /** Answer this many upcoming requests with 429. */
  burst429: number;
  /** Commit the next N POST /orders, then destroy the socket without answering. */
  commitThenDrop: number;
  /** Only requests whose "METHOD path" starts with this are affected ('' = all). */
  match: string;
  /** Set to 1 to drop every socket.io connection now (clients see a transport close and reconnect). */
  dropSockets?: number;
  /** Delay every socket.io event by this many ms (order kept). */
  eventDelayMs?: number;
  /** false turns the per-token rate limit off (fast bot tests; clients then use PM_PACE=off). */
  rateLimit?: boolean;
  /** The exchange's clock runs this many ms ahead (negative: behind): its Date header and HMAC window. */
  clockSkewMs?: number;
}

/** What the authentication layer established for a request. */
export interface AuthContext {
  method: 'hmac' | 'apiKey' | 'identity';
  profileId: number;
  scopes: Scope[]; // all scopes for apiKey/identity
  tokenId?: string;
}

export interface SandboxRequest {
  method: string;
  /** Raw request target: path plus `?query`, exactly as received (what HMAC signs). */
  target: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>; // from the route pattern
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  json: unknown; // parsed body, or undefined when empty
  auth: AuthContext | null; // set by the router when the route requires auth
  /** The peer's address (admin routes check it is loopback). */
  remoteAddress?: string | undefined;
}

export interface SandboxResponse {
  status: number;
  body?: unknown; // JSON-serialised (bigints must already be strings)
  text?: string; // raw text body instead of JSON
  headers?: Record<string, string>;
  /** Set by POST /orders under the commit-then-drop fault: destroy the socket, send nothing. */
  drop?: boolean;
}

export type AuthRequirement =
  | { kind: 'public' }
  /** HMAC with all `scopes`, or a legacy key when `legacy` is true. */
  | { kind: 'token'; scopes: Scope[]; legacy: boolean; identity: boolean }
  | { kind: 'identity' };

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Path pattern such as `/markets/:slug/orderbook`. */
  pattern: string;
  auth: AuthRequirement;
  handler: (req: SandboxRequest, ctx: SandboxContext) => SandboxResponse | Promise<SandboxResponse>;
}

export interface SandboxContext {
  state: SandboxState;
  now(): number;
  /**
   * The one write path: applies the events in order to the state (reducer.ts), records them
   * in the event log and commits it (with a data dir: appended to disk and fdatasynced) before
   * it returns; the log's subscribers (the streams) then see them. Call before answering. A
   * failed append throws (the caller answers 5xx); its events go out with the next commit.
   */
  apply(...events: StateEvent[]): void;
  /**
   * Runs `fn` with the commits of its ctx.apply calls held back, then commits them all at once
   * (one append, one fdatasync): for an actor's step of many writes, which no request can see
   * half done (it runs synchronously).
   */
  batch(fn: () => void): void;
  /** Settlement delays for UNMATCHED/MATCHED → MINED → CONFIRMED, in ms. */
  settlement: { minedAfterMs: number; confirmedAfterMs: number };
  /** Schedule a callback (cleared on close). */
  later(ms: number, fn: () => void): void;
}
