// Test helpers for the socket.io streams: a bare socket.io client that records every event,
// HMAC handshake headers for a seeded account, and placing/cancelling orders in-process.
import { io as connect } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { hmacHeaders } from '../../src/core/hmac.js';
import { cancelOrder, submitOrder } from '../../src/sandbox/engine.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { scheduleSettlement } from '../../src/sandbox/settlement.js';
import type { OrderRecord } from '../../src/sandbox/types.js';
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

/** Places one order the way the route does (engine, persist, settlement). */
export function place(sb: SandboxHandle, ownerId: number, o: PlaceOpts): OrderRecord {
  const state = sb.ctx.state;
  const m = state.markets.find((x) => x.slug === o.slug);
  const tokenId = m?.positionIds?.[o.outcome ?? 0] ?? '';
  const fee = state.profiles.find((p) => p.id === ownerId)?.feeRateBps ?? 0;
  const r = submitOrder(
    state,
    {
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
    },
    sb.ctx.now(),
  );
  if (!r.ok) throw new Error(r.message);
  sb.ctx.persist();
  if (r.order.tradeEventId !== null) scheduleSettlement(sb.ctx, r.order.id);
  return r.order;
}

export function cancel(sb: SandboxHandle, ownerId: number, orderId: string): void {
  const r = cancelOrder(sb.ctx.state, orderId, ownerId, sb.ctx.now());
  if (!r.ok) throw new Error(r.message);
  sb.ctx.persist();
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
