// Test helpers for the socket.io streams: a bare socket.io client that records every event,
// HMAC handshake headers for a seeded account, placing/cancelling orders in-process, and
// `pm watch` run in-process with its output read line by line.
import { io as connect } from 'socket.io-client';
import { main } from '../../src/app/main.js';
import type { IO } from '../../src/cli/output.js';
import type { Socket } from 'socket.io-client';
import { hmacHeaders } from '../../src/core/hmac.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { cancelOrder, placeOrder } from '../../src/sandbox/place.js';
import type { OrderRecord } from '../../src/sandbox/types.js';
import { onTestFinished } from 'vitest';
import { eventually } from './eventually.js';

export const HANDSHAKE = '/socket.io/?EIO=4&transport=websocket';

export interface Recorder {
  socket: Socket;
  events: [string, Record<string, unknown>][];
  of(name: string): Record<string, unknown>[];
  waitFor(pred: (events: [string, Record<string, unknown>][]) => boolean, ms?: number): Promise<void>;
  close(): void;
}

/** The handshake headers of a seeded account (HMAC), or wrong ones with `badSecret`. */
export function authHeaders(sb: SandboxHandle, name: string, o: { badSecret?: boolean; at?: Date } = {}): Record<string, string> {
  const a = sb.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no account ${name}`);
  const secret = o.badSecret ? Buffer.from('not the secret at all').toString('base64') : a.token.secret;
  return { ...hmacHeaders(a.token.tokenId, secret, 'GET', HANDSHAKE, '', o.at ?? new Date()) };
}

/** Connects a bare socket.io client to /markets and records every event. */
export async function record(
  sb: SandboxHandle,
  headers: Record<string, string> = {},
  opts: { reconnection?: boolean } = {},
): Promise<Recorder> {
  const socket = connect(`${sb.wsUrl}/markets`, {
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: opts.reconnection ?? false,
    forceNew: true,
  });
  const events: [string, Record<string, unknown>][] = [];
  socket.onAny((name: string, payload: Record<string, unknown>) => events.push([name, payload]));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return {
    socket,
    events,
    of: (name) => events.filter(([n]) => n === name).map(([, p]) => p),
    waitFor: async (pred, ms) => {
      await eventually(() => pred(events), { intervalMs: 5, ...(ms ? { timeoutMs: ms } : {}) }).catch((e: Error) => {
        throw new Error(`${e.message}; events: ${JSON.stringify(events).slice(0, 2000)}`);
      });
    },
    close: () => void socket.close(),
  };
}

export interface PlaceOpts {
  slug: string;
  outcome?: 0 | 1;
  side: 'BUY' | 'SELL';
  price: bigint;
  size: bigint;
  type?: 'GTC' | 'FAK';
  clientOrderId?: string;
}

/** Places one order the way the route does (place.ts: engine, ctx.apply, settlement). */
export function place(sb: SandboxHandle, ownerId: number, o: PlaceOpts): OrderRecord {
  const state = sb.ctx.state;
  const m = state.markets.find((x) => x.slug === o.slug);
  const tokenId = m?.positionIds?.[o.outcome ?? 0] ?? '';
  const fee = state.profiles.find((p) => p.id === ownerId)?.feeRateBps ?? 0;
  const r = placeOrder(sb.ctx, {
    ownerId,
    marketSlug: o.slug,
    tokenId,
    side: o.side,
    orderType: o.type ?? 'GTC',
    price: o.price,
    size: o.size,
    makerAmount: 0n,
    takerAmount: 0n,
    postOnly: false,
    clientOrderId: o.clientOrderId ?? null,
    feeRateBps: fee,
    signedOrder: {},
  });
  if (!r.ok) throw new Error(r.message);
  return r.order;
}

export function cancel(sb: SandboxHandle, ownerId: number, orderId: string): void {
  const r = cancelOrder(sb.ctx, orderId, ownerId);
  if (!r.ok) throw new Error(r.message);
}

/** Creates a fresh, empty CLOB market through the admin route. */
export async function newMarket(sb: SandboxHandle, slug: string): Promise<void> {
  const r = await fetch(`${sb.baseUrl}/__sandbox/markets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ slug, title: `Test market ${slug}` }),
  });
  if (r.status !== 201) throw new Error(`market create: ${r.status} ${await r.text()}`);
}

export async function faults(sb: SandboxHandle, body: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${sb.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`faults: ${r.status} ${await r.text()}`);
}

/** A `pm` run in progress (in-process), its stdout split into lines as they come. */
export interface Live {
  out: string[];
  err: () => string;
  records: () => Record<string, unknown>[];
  done: Promise<number>;
  abort: () => void;
  waitFor(pred: () => boolean, ms?: number): Promise<void>;
}

/** Starts pm in-process (main) with `env`; Ctrl-C through abort(). */
export function livePm(argv: string[], env: Record<string, string | undefined>, tty = false): Live {
  const out: string[] = [];
  let buf = '';
  let err = '';
  const ac = new AbortController();
  const io: IO = {
    stdout: {
      write: (s: string) => {
        buf += s;
        const parts = buf.split('\n');
        buf = parts.pop() ?? '';
        out.push(...parts);
        return true;
      },
      isTTY: tty,
    },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    stdin: Object.assign((async function* () {})(), { isTTY: false }),
    env,
    cwd: process.cwd(),
    signal: ac.signal,
  };
  const done = main(argv, io);
  // A run the test left going (it failed before the run ended) is stopped with the test: test
  // files share a worker, and a watch nobody stops would go on reconnecting there for the rest of
  // the suite. (Outside a test, in a hook, it is the hook's to stop.)
  try {
    onTestFinished(() => ac.abort(Object.assign(new Error('interrupted by SIGINT'), { signal: 'SIGINT' })));
  } catch {
    // not inside a test
  }
  return {
    out,
    err: () => err,
    records: () => out.map((l) => JSON.parse(l) as Record<string, unknown>),
    done,
    abort: () => ac.abort(Object.assign(new Error('interrupted by SIGINT'), { signal: 'SIGINT' })),
    waitFor: async (pred, ms) => {
      await eventually(pred, ms ? { timeoutMs: ms } : {}).catch((e: Error) => {
        throw new Error(`${e.message}; stdout:\n${out.join('\n')}\nstderr:\n${err}`);
      });
    },
  };
}

export interface SockInfo {
  id: string;
  profileId: number | null;
  handshakeTimestamp: string | null;
  subscriptions: { orders: boolean; prices: string[] };
}

/** The sandbox's sockets (GET /__sandbox/sockets). */
export async function sockets(sb: SandboxHandle): Promise<SockInfo[]> {
  return (await (await fetch(`${sb.baseUrl}/__sandbox/sockets`)).json()) as SockInfo[];
}

/** Polls until `pred` holds (async allowed), or throws after `ms` (default: eventually's, 15 s). */
export async function until(pred: () => Promise<boolean> | boolean, ms?: number): Promise<void> {
  await eventually(pred, ms ? { timeoutMs: ms } : {});
}

/** Whether `profileId` has a socket subscribed to its order events. */
export async function ordersSubscribed(sb: SandboxHandle, profileId: number): Promise<boolean> {
  return (await sockets(sb)).some((s) => s.profileId === profileId && s.subscriptions.orders);
}

/** The no-duplicate identity of an orderEvent record (order id, type, status, size). */
export function recordKey(r: Record<string, unknown>): string {
  return r['source'] === 'SETTLEMENT'
    ? [r['orderId'], 'SETTLEMENT', r['type'], r['tradeEventId'], r['amountContracts']].join('|')
    : [r['orderId'], r['type'], r['status'] ?? '', r['remainingSize']].join('|');
}

/** The keys that occur more than once among `records`' orderEvents. */
export function duplicateKeys(records: Record<string, unknown>[]): string[] {
  const seen = new Map<string, number>();
  for (const r of records) if (r['event'] === 'orderEvent') seen.set(recordKey(r), (seen.get(recordKey(r)) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}
