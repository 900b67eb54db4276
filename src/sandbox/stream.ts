// The sandbox's live streams: socket.io namespace /markets on the HTTP port (wire-facts §6).
// Every event a socket receives comes from the event log: the streams subscribe to the log,
// the projection (projection.ts, pure) turns each committed entry into messages, and this side
// delivers them: to the sockets subscribed (a sub-account's private events to its partner's
// sockets too), each event id once per minute, through one FIFO so the delay fault keeps their
// order; book and price updates are coalesced per tick.
// Auth is read from the handshake headers only (HMAC over the fixed handshake string, or the
// legacy X-API-Key); anonymous sockets may use the public channels, and a private subscription
// without valid auth gets an `exception` event and no data. Subscriptions live and die with
// their socket, as on the real exchange.
import type { Namespace, Socket } from 'socket.io';
import { authenticate } from './auth.js';
import { midpoint, yesBook } from './book.js';
import { ONE, priceNumber } from './orders/amounts.js';
import { Projection, type StreamMessage } from './projection.js';
import type { MarketRecord } from './types.js';
import type { LogEntry } from './events.js';
import type { AuthRequirement, FaultConfig, Route, SandboxContext } from './handlers.js';

/** The string an SDK signs for the socket.io upgrade, whatever the actual query (wire-facts §2.1). */
const HANDSHAKE_TARGET = '/socket.io/?EIO=4&transport=websocket';
/** Repeated emissions of one event id within this window are dropped (docs). */
const DEDUP_WINDOW_MS = 60_000;

interface Conn {
  socket: Socket;
  profileId: number | null;
  authError: string | null;
  handshakeTimestamp: string | null;
  connectedAt: string;
  prices: Set<string>;
  orders: boolean;
  positions: Set<string> | null; // null = not subscribed; empty = every market
  tx: boolean;
  lifecycle: boolean;
  seen: Map<string, number>;
  /** The book version last sent per market: an update never repeats the one a snapshot sent. */
  books: Map<string, number>;
}

export interface StreamsDeps {
  ctx: SandboxContext;
  faults: FaultConfig;
  subscribe(fromSeq: number, cb: (e: LogEntry) => void): () => void;
  seq(): number;
}

export interface Streams {
  /** Serves the namespace (call once socket.io is attached). */
  attach(nsp: Namespace): void;
  /** Applies one-shot fault switches (dropSockets). */
  applyFaults(): void;
  /** Admin routes: GET /__sandbox/sockets (who is connected, with what auth and subscriptions). */
  routes: Route[];
  close(): void;
}

const header = (h: Record<string, string | string[] | undefined>, k: string): string | undefined => {
  const v = h[k];
  return Array.isArray(v) ? v[0] : v;
};

function slugList(opts: unknown): string[] {
  const o = (opts ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ['marketSlugs', 'marketAddresses']) {
    const v = o[k];
    if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  for (const k of ['marketSlug', 'marketAddress']) {
    const v = o[k];
    if (typeof v === 'string') out.push(v);
  }
  return out;
}

/** Emissions in one FIFO: the delay fault (eventDelayMs) delays them without reordering. */
class Outbox {
  private readonly queue: { due: number; fn: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly faults: FaultConfig) {}

  push(fn: () => void): void {
    const delay = this.faults.eventDelayMs ?? 0;
    if (delay <= 0 && this.queue.length === 0) return fn();
    this.queue.push({ due: Date.now() + delay, fn });
    this.timer ??= setTimeout(() => this.pump(), delay);
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.queue.length = 0;
  }

  private pump(): void {
    this.timer = null;
    const now = Date.now();
    while (this.queue.length > 0 && (this.queue[0]?.due ?? 0) <= now) this.queue.shift()?.fn();
    if (this.queue.length > 0) this.timer = setTimeout(() => this.pump(), Math.max(0, (this.queue[0]?.due ?? now) - now));
  }
}

/** Sends `payload` as `event`; with an event id, at most once per socket per DEDUP_WINDOW_MS. */
function send(c: Conn, event: string, payload: unknown, eventId?: string): void {
  if (eventId !== undefined) {
    const now = Date.now();
    const at = c.seen.get(eventId);
    if (at !== undefined && now - at < DEDUP_WINDOW_MS) return;
    c.seen.set(eventId, now);
    if (c.seen.size > 20_000)
      for (const [k, t] of c.seen) {
        if (now - t < DEDUP_WINDOW_MS) break;
        c.seen.delete(k);
      }
  }
  c.socket.emit(event, payload);
}

/** The sockets of one sandbox and what they subscribed to. */
class Hub implements Streams {
  private readonly conns = new Map<string, Conn>();
  private readonly projection = new Projection();
  private readonly outbox: Outbox;
  private readonly lastPrice = new Map<string, bigint | null>();
  private readonly dirty = new Set<string>();
  private flushArmed = false;
  private unsubscribe: (() => void) | null = null;
  readonly routes: Route[];

  constructor(private readonly deps: StreamsDeps) {
    this.outbox = new Outbox(deps.faults);
    this.routes = [
      { method: 'GET', pattern: '/__sandbox/sockets', auth: { kind: 'public' }, handler: () => ({ status: 200, body: this.describe() }) },
    ];
  }

  attach(nsp: Namespace): void {
    this.rebuild();
    this.unsubscribe = this.deps.subscribe(this.deps.seq() + 1, (e) => {
      for (const m of this.projection.project(e, this.deps.ctx.state)) this.deliver(m);
    });
    nsp.on('connection', (socket: Socket) => this.connect(socket));
  }

  applyFaults(): void {
    const f = this.deps.faults;
    if ((f.dropSockets ?? 0) > 0) {
      f.dropSockets = 0;
      for (const c of this.conns.values()) c.socket.conn.close();
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.outbox.clear();
  }

  private rebuild(): void {
    const state = this.deps.ctx.state;
    this.projection.rebuild(state);
    this.lastPrice.clear();
    for (const m of state.markets) this.lastPrice.set(m.slug, m.lastTradePrice);
  }

  /** Sockets that get a profile's private events (its own and its partner's) and want them. */
  private privateConns(profileId: number, want: (c: Conn) => boolean): Conn[] {
    const parent = this.deps.ctx.state.profiles.find((p) => p.id === profileId)?.parentProfileId;
    const res: Conn[] = [];
    for (const c of this.conns.values())
      if (c.profileId !== null && (c.profileId === profileId || (parent !== undefined && c.profileId === parent)) && want(c)) res.push(c);
    return res;
  }

  /** One projected message to whoever subscribed to it. */
  private deliver(m: StreamMessage): void {
    switch (m.channel) {
      case 'reset':
        this.rebuild();
        for (const c of this.conns.values()) for (const s of c.prices) this.touchBook(s);
        return;
      case 'book':
        return this.touchBook(m.slug);
      case 'lifecycle': {
        const targets = [...this.conns.values()].filter((c) => c.lifecycle);
        if (targets.length > 0) this.outbox.push(() => targets.forEach((c) => m.names.forEach((n) => c.socket.emit(n, m.payload))));
        return;
      }
      case 'orders': {
        const targets = this.privateConns(m.profileId, (c) => c.orders);
        const id = String(m.payload['eventId']);
        if (targets.length > 0) this.outbox.push(() => targets.forEach((c) => send(c, 'orderEvent', m.payload, id)));
        return;
      }
      case 'positions': {
        const { slug, address } = m.market;
        const want = (c: Conn): boolean =>
          c.positions !== null && (c.positions.size === 0 || c.positions.has(slug) || (address !== null && c.positions.has(address)));
        const targets = this.privateConns(m.profileId, want);
        if (targets.length > 0) this.outbox.push(() => targets.forEach((c) => send(c, 'positions', m.payload)));
        return;
      }
      case 'tx': {
        const targets = this.privateConns(m.profileId, (c) => c.tx);
        if (targets.length > 0) this.outbox.push(() => targets.forEach((c) => send(c, 'tx', m.payload, m.eventId)));
        return;
      }
    }
  }

  // ---- books and prices, coalesced per tick ----

  private bookPayload(slug: string): Record<string, unknown> | null {
    const state = this.deps.ctx.state;
    const m = state.markets.find((x) => x.slug === slug || (x.address !== null && x.address === slug));
    if (!m) return null;
    const b = yesBook(state, m.slug);
    const minSize = String((m.extra['settings'] as Record<string, unknown> | undefined)?.['minSize'] ?? '1000000');
    return {
      marketSlug: m.slug,
      orderbook: {
        bids: (b?.bids ?? []).map((l) => ({ price: priceNumber(l.price), size: Number(l.size) })),
        asks: (b?.asks ?? []).map((l) => ({ price: priceNumber(l.price), size: Number(l.size) })),
        tokenId: b?.tokenId ?? m.positionIds?.[0] ?? '',
        adjustedMidpoint: b ? priceNumber(midpoint(b)) : 0.5,
        maxSpread: '0.05',
        minSize,
      },
      timestamp: new Date(this.deps.ctx.now()).toISOString(),
      version: this.deps.seq(),
    };
  }

  private pricePayload(m: MarketRecord, yes: bigint): Record<string, unknown> {
    return {
      marketAddress: m.address,
      marketSlug: m.slug,
      updatedPrices: [{ marketId: m.id, marketAddress: m.address, yesPrice: priceNumber(yes), noPrice: priceNumber(ONE - yes) }],
      blockNumber: this.deps.seq(),
      timestamp: new Date(this.deps.ctx.now()).toISOString(),
    };
  }

  private touchBook(slug: string): void {
    this.dirty.add(slug);
    if (!this.flushArmed) {
      this.flushArmed = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushArmed = false;
    const slugs = [...this.dirty];
    this.dirty.clear();
    for (const slug of slugs) {
      const targets = [...this.conns.values()].filter((c) => c.prices.has(slug));
      const m = this.deps.ctx.state.markets.find((x) => x.slug === slug);
      const before = this.lastPrice.get(slug) ?? null;
      const now = m?.lastTradePrice ?? null;
      this.lastPrice.set(slug, now);
      if (targets.length === 0) continue;
      const book = this.bookPayload(slug);
      const price = m && now !== null && now !== before ? this.pricePayload(m, now) : null;
      this.outbox.push(() => {
        for (const c of targets) {
          if (book && Number(book['version']) > (c.books.get(slug) ?? -1)) {
            c.books.set(slug, Number(book['version']));
            c.socket.emit('orderbookUpdate', book);
          }
          if (price) c.socket.emit('newPriceData', price);
        }
      });
    }
  }

  // ---- connections ----

  /** A new socket: its handshake auth, then its subscription handlers. */
  private connect(socket: Socket): void {
    const { ctx, faults } = this.deps;
    const h = socket.handshake.headers as Record<string, string | string[] | undefined>;
    const c: Conn = {
      socket,
      profileId: null,
      authError: null,
      handshakeTimestamp: header(h, 'lmts-timestamp') ?? null,
      connectedAt: new Date().toISOString(),
      prices: new Set(),
      orders: false,
      positions: null,
      tx: false,
      lifecycle: false,
      seen: new Map(),
      books: new Map(),
    };
    if (header(h, 'lmts-api-key') !== undefined || header(h, 'x-api-key') !== undefined) {
      // The clock-skew fault moves the server's clock for the handshake too, as for HTTP requests.
      const auth: AuthRequirement = { kind: 'token', scopes: ['trading'], legacy: true, identity: false };
      const a = authenticate(ctx.state, auth, h, 'GET', HANDSHAKE_TARGET, '', ctx.now() + (faults.clockSkewMs ?? 0));
      if (a.ok && a.auth) c.profileId = a.auth.profileId;
      else if (!a.ok) c.authError = a.message;
    }
    this.conns.set(socket.id, c);
    socket.on('disconnect', () => this.conns.delete(socket.id));
    socket.on('subscribe_market_prices', (opts: unknown) => this.subscribePrices(c, opts));
    const priv = (channel: string, fn: () => void): void => {
      if (c.profileId === null) {
        socket.emit('exception', { status: 'error', message: c.authError ?? 'Authentication required', channel });
        return;
      }
      fn();
    };
    const ack = (message: string, extra: Record<string, unknown> = {}): void =>
      this.outbox.push(() => socket.emit('system', { message, ...extra }));
    socket.on('subscribe_order_events', () =>
      priv('subscribe_order_events', () => {
        c.orders = true;
        ack('Successfully subscribed to order events');
      }),
    );
    socket.on('subscribe_positions', (opts: unknown) =>
      priv('subscribe_positions', () => {
        const wanted = slugList(opts);
        c.positions = new Set(wanted);
        const markets = { addresses: wanted.filter((w) => w.startsWith('0x')), slugs: wanted.filter((w) => !w.startsWith('0x')) };
        ack('Successfully subscribed to position updates', { markets });
      }),
    );
    socket.on('subscribe_transactions', () =>
      priv('subscribe_transactions', () => {
        c.tx = true;
        ack('Successfully subscribed to transactions');
      }),
    );
    socket.on('subscribe_market_lifecycle', () => {
      c.lifecycle = true;
      ack('Successfully subscribed to market lifecycle events');
    });
    socket.on('unsubscribe_market_lifecycle', () => {
      c.lifecycle = false;
    });
  }

  /** subscribe_market_prices: replaces the socket's set, answers with each market's book. */
  private subscribePrices(c: Conn, opts: unknown): void {
    const state = this.deps.ctx.state;
    const known = slugList(opts)
      .map((k) => state.markets.find((m) => m.slug === k || (m.address !== null && m.address === k)))
      .filter((m): m is MarketRecord => m !== undefined);
    c.prices = new Set(known.map((m) => m.slug));
    const snaps = known.map((m) => this.bookPayload(m.slug));
    const ack = {
      message: 'Successfully subscribed to market price updates',
      markets: {
        slugs: known.filter((m) => m.address === null).map((m) => m.slug),
        addresses: known.filter((m) => m.address !== null).map((m) => m.address),
      },
    };
    this.outbox.push(() => {
      c.socket.emit('system', ack);
      for (const s of snaps) {
        if (!s) continue;
        c.books.set(String(s['marketSlug']), Number(s['version']));
        c.socket.emit('orderbookUpdate', s);
      }
    });
  }

  /** GET /__sandbox/sockets. */
  private describe(): unknown[] {
    return [...this.conns.values()].map((c) => ({
      id: c.socket.id,
      profileId: c.profileId,
      authError: c.authError,
      handshakeTimestamp: c.handshakeTimestamp,
      connectedAt: c.connectedAt,
      subscriptions: {
        prices: [...c.prices],
        orders: c.orders,
        positions: c.positions ? [...c.positions] : null,
        tx: c.tx,
        lifecycle: c.lifecycle,
      },
    }));
  }
}

/** The streams of one sandbox (see the module comment). */
export function createStreams(deps: StreamsDeps): Streams {
  return new Hub(deps);
}
