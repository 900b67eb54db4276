// The sandbox's live streams: socket.io namespace /markets on the HTTP port (wire-facts §6).
// Every event a socket receives is a projection of the event log: the streams subscribe to the
// log and turn each committed entry into orderEvent / positions / tx / lifecycle messages, so
// their order is the log's sequence. Book and price updates are coalesced per tick.
// Auth is read from the handshake headers only (HMAC over the fixed handshake string, or the
// legacy X-API-Key); anonymous sockets may use the public channels, and a private subscription
// without valid auth gets an `exception` event and no data. Subscriptions live and die with
// their socket, as on the real exchange.
import type { Namespace, Socket } from 'socket.io';
import { authenticate } from './auth.js';
import { midpoint, yesBook } from './book.js';
import { formatRaw, ONE, priceNumber } from './orders/amounts.js';
import { orderById } from './reducer.js';
import type { FaultConfig, LogEntry, MarketRecord, OrderRecord, Route, SandboxContext, SandboxState } from './types.js';

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

interface Shadow {
  remaining: Map<string, bigint>; // LIVE orders' remaining size as of the last projected entry
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

export function createStreams(deps: StreamsDeps): Streams {
  const { ctx, faults } = deps;
  const conns = new Map<string, Conn>();
  let nsp: Namespace | null = null;
  let unsubscribe: (() => void) | null = null;
  const shadow: Shadow = { remaining: new Map() };
  const lastPrice = new Map<string, bigint | null>();
  const dirty = new Set<string>();
  let flushArmed = false;
  // Emissions go through one FIFO so that the delay fault keeps their order.
  const queue: { due: number; fn: () => void }[] = [];
  let timer: NodeJS.Timeout | null = null;

  const rebuild = (state: SandboxState): void => {
    shadow.remaining = new Map();
    for (const o of state.orders) if (o.status === 'LIVE') shadow.remaining.set(o.id, o.remainingSize);
    lastPrice.clear();
    for (const m of state.markets) lastPrice.set(m.slug, m.lastTradePrice);
  };

  const pump = (): void => {
    timer = null;
    const now = Date.now();
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= now) queue.shift()?.fn();
    if (queue.length > 0) timer = setTimeout(pump, Math.max(0, (queue[0]?.due ?? now) - now));
  };
  const out = (fn: () => void): void => {
    const delay = faults.eventDelayMs ?? 0;
    if (delay <= 0 && queue.length === 0) return fn();
    queue.push({ due: Date.now() + delay, fn });
    timer ??= setTimeout(pump, delay);
  };

  const send = (c: Conn, event: string, payload: unknown, eventId?: string): void => {
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
  };

  // ---- recipients ----
  const parentOf = (state: SandboxState, profileId: number): number | undefined =>
    state.profiles.find((p) => p.id === profileId)?.parentProfileId;
  /** Sockets that get a profile's private events: its own and its partner's. */
  const privateConns = (state: SandboxState, profileId: number, want: (c: Conn) => boolean): Conn[] => {
    const parent = parentOf(state, profileId);
    const res: Conn[] = [];
    for (const c of conns.values())
      if (c.profileId !== null && (c.profileId === profileId || (parent !== undefined && c.profileId === parent)) && want(c)) res.push(c);
    return res;
  };

  const orderEvent = (state: SandboxState, profileId: number, payload: Record<string, unknown>): void => {
    const targets = privateConns(state, profileId, (c) => c.orders);
    if (targets.length === 0) return;
    out(() => {
      for (const c of targets) send(c, 'orderEvent', payload, String(payload['eventId']));
    });
  };

  // ---- payloads ----
  const addressOf = (state: SandboxState, profileId: number): string => state.profiles.find((p) => p.id === profileId)?.address ?? '';

  const ome = (
    type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION',
    o: OrderRecord,
    market: MarketRecord,
    remaining: bigint,
    at: number,
    seq: number,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> => {
    const p: Record<string, unknown> = {
      source: 'OME',
      type,
      eventId: type === 'EXECUTION' ? `terminal:${o.id}` : `${o.id}:${seq}`,
      marketId: String(market.id),
      marketSlug: market.slug,
      orderId: o.id,
      price: o.price === null ? 0 : priceNumber(o.price),
      remainingSize: Number(remaining),
      side: o.side,
      timestamp: new Date(at).toISOString(),
      token: o.outcome,
      userId: o.ownerId,
      ...extra,
    };
    if (o.clientOrderId !== null) p['clientOrderId'] = o.clientOrderId;
    return p;
  };

  /** SETTLEMENT orderEvents of one trade: one for the taker, one per maker order (fee 0). */
  const settlement = (
    state: SandboxState,
    type: 'MATCHED' | 'MINED' | 'FAILED',
    taker: OrderRecord,
    market: MarketRecord,
    at: number,
    txHash: string | null,
  ): void => {
    const totals = (taker.execution['totalsRaw'] ?? {}) as Record<string, string>;
    const tradeEventId = String(taker.execution['tradeEventId'] ?? taker.tradeEventId ?? '');
    const base: Record<string, unknown> = {
      source: 'SETTLEMENT',
      type,
      marketSlug: market.slug,
      tradeEventId,
      takerOrderId: taker.id,
      takerAccount: addressOf(state, taker.ownerId),
      timestamp: new Date(at).toISOString(),
      ...(txHash ? { txHash } : {}),
      ...(type === 'MATCHED' ? { isEstimate: true } : {}),
    };
    const contracts = BigInt(totals['contractsGross'] ?? '0');
    const usd = BigInt(totals['usdGross'] ?? '0');
    orderEvent(state, taker.ownerId, {
      ...base,
      eventId: `${tradeEventId}:${type}:${taker.id}`,
      orderId: taker.id,
      ...(taker.clientOrderId !== null ? { clientOrderId: taker.clientOrderId } : {}),
      side: taker.side,
      token: taker.outcome,
      tokenId: taker.tokenId,
      price: contracts > 0n ? formatRaw((usd * ONE) / contracts) : taker.price !== null ? formatRaw(taker.price) : '0',
      amountContracts: contracts.toString(),
      amountCollateral: usd.toString(),
      feeAmountCollateral: totals['usdFee'] ?? '0',
      feeAmountContracts: '0',
      configuredFeeRateBps: taker.execution['feeRateBps'],
      effectiveFeeBps: taker.execution['effectiveFeeBps'],
      makerMatches: taker.makerMatches.map((mm) => ({
        account: addressOf(state, mm.ownerId),
        matchedSize: mm.matchedSize,
        orderId: mm.orderId,
        price: mm.price,
      })),
    });
    for (const mm of taker.makerMatches) {
      const m = orderById(state, mm.orderId);
      const size = BigInt(mm.matchedSize);
      const price = m?.price ?? 0n;
      orderEvent(state, mm.ownerId, {
        ...base,
        eventId: `${tradeEventId}:${type}:${mm.orderId}`,
        orderId: mm.orderId,
        ...(m && m.clientOrderId !== null ? { clientOrderId: m.clientOrderId } : {}),
        ...(m ? { side: m.side, token: m.outcome, tokenId: m.tokenId } : {}),
        price: mm.price,
        amountContracts: mm.matchedSize,
        amountCollateral: ((size * price) / ONE).toString(),
        feeAmountCollateral: '0',
        feeAmountContracts: '0',
      });
    }
  };

  const positionsPayload = (state: SandboxState, profileId: number, market: MarketRecord, at: number): Record<string, unknown> => {
    const acct = state.accounts[String(profileId)];
    const ids = market.positionIds ?? ['', ''];
    return {
      account: addressOf(state, profileId),
      userId: profileId,
      marketSlug: market.slug,
      marketAddress: market.address,
      type: market.tradeType === 'amm' ? 'AMM' : 'CLOB',
      positions: ids.map((tokenId, i) => {
        const p = acct?.positions[tokenId];
        return {
          tokenId,
          outcome: i === 0 ? 'YES' : 'NO',
          outcomeIndex: i,
          balance: (p?.shares ?? 0n).toString(),
          locked: (p?.locked ?? 0n).toString(),
        };
      }),
      timestamp: new Date(at).toISOString(),
    };
  };

  const positionChanged = (state: SandboxState, profileId: number, market: MarketRecord, at: number): void => {
    const targets = privateConns(
      state,
      profileId,
      (c) =>
        c.positions !== null &&
        (c.positions.size === 0 || c.positions.has(market.slug) || (market.address !== null && c.positions.has(market.address))),
    );
    if (targets.length === 0) return;
    const payload = positionsPayload(state, profileId, market, at);
    out(() => {
      for (const c of targets) send(c, 'positions', payload);
    });
  };

  const txConfirmed = (state: SandboxState, taker: OrderRecord, market: MarketRecord, at: number, txHash: string): void => {
    const totals = (taker.execution['totalsRaw'] ?? {}) as Record<string, string>;
    const legs: { o: OrderRecord; contracts: string; usd: string; price: string }[] = [];
    const contracts = BigInt(totals['contractsGross'] ?? '0');
    const usd = BigInt(totals['usdGross'] ?? '0');
    legs.push({
      o: taker,
      contracts: contracts.toString(),
      usd: usd.toString(),
      price: contracts > 0n ? formatRaw((usd * ONE) / contracts) : '0',
    });
    for (const mm of taker.makerMatches) {
      const m = orderById(state, mm.orderId);
      if (m)
        legs.push({ o: m, contracts: mm.matchedSize, usd: ((BigInt(mm.matchedSize) * (m.price ?? 0n)) / ONE).toString(), price: mm.price });
    }
    for (const leg of legs) {
      const targets = privateConns(state, leg.o.ownerId, (c) => c.tx);
      if (targets.length === 0) continue;
      const payload = {
        userId: leg.o.ownerId,
        txHash,
        status: 'CONFIRMED',
        source: 'CLOB',
        timestamp: new Date(at).toISOString(),
        marketAddress: market.address,
        marketSlug: market.slug,
        tokenId: leg.o.tokenId,
        conditionId: market.conditionId,
        amountContracts: leg.contracts,
        amountCollateral: leg.usd,
        price: leg.price,
        side: leg.o.side,
        orderId: leg.o.id,
      };
      out(() => {
        for (const c of targets) send(c, 'tx', payload, `${txHash}:${leg.o.id}`);
      });
    }
  };

  const lifecycle = (names: string[], payload: Record<string, unknown>): void => {
    const targets = [...conns.values()].filter((c) => c.lifecycle);
    if (targets.length === 0) return;
    out(() => {
      for (const c of targets) for (const n of names) c.socket.emit(n, payload);
    });
  };

  // ---- books and prices, coalesced per tick ----
  const bookPayload = (state: SandboxState, slug: string): Record<string, unknown> | null => {
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
      timestamp: new Date(ctx.now()).toISOString(),
      version: deps.seq(),
    };
  };

  const pricePayload = (m: MarketRecord, yes: bigint): Record<string, unknown> => ({
    marketAddress: m.address,
    marketSlug: m.slug,
    updatedPrices: [{ marketId: m.id, marketAddress: m.address, yesPrice: priceNumber(yes), noPrice: priceNumber(ONE - yes) }],
    blockNumber: deps.seq(),
    timestamp: new Date(ctx.now()).toISOString(),
  });

  const flush = (): void => {
    flushArmed = false;
    const state = ctx.state;
    const slugs = [...dirty];
    dirty.clear();
    for (const slug of slugs) {
      const targets = [...conns.values()].filter((c) => c.prices.has(slug));
      const m = state.markets.find((x) => x.slug === slug);
      const before = lastPrice.get(slug) ?? null;
      const now = m?.lastTradePrice ?? null;
      lastPrice.set(slug, now);
      if (targets.length === 0) continue;
      const book = bookPayload(state, slug);
      const price = m && now !== null && now !== before ? pricePayload(m, now) : null;
      out(() => {
        for (const c of targets) {
          if (book && Number(book['version']) > (c.books.get(slug) ?? -1)) {
            c.books.set(slug, Number(book['version']));
            c.socket.emit('orderbookUpdate', book);
          }
          if (price) c.socket.emit('newPriceData', price);
        }
      });
    }
  };
  const touchBook = (slug: string): void => {
    dirty.add(slug);
    if (!flushArmed) {
      flushArmed = true;
      setImmediate(flush);
    }
  };

  // ---- the projection ----
  const project = (e: LogEntry): void => {
    const state = ctx.state;
    switch (e.type) {
      case 'seed':
      case 'reset':
        rebuild(state);
        for (const c of conns.values()) for (const s of c.prices) touchBook(s);
        return;
      case 'order.placed': {
        const o = e.order;
        const market = state.markets.find((m) => m.slug === o.marketSlug);
        if (!market) return;
        for (const id of e.stpCanceled) {
          const x = orderById(state, id);
          const left = shadow.remaining.get(id) ?? x?.remainingSize ?? 0n;
          shadow.remaining.delete(id);
          if (x) orderEvent(state, x.ownerId, ome('CANCELLATION', x, market, left, e.at, e.seq, { reason: 'STP_MAKER_CANCELLED' }));
        }
        const touched = new Set<number>();
        for (const f of e.fills) {
          const m = orderById(state, f.makerOrderId);
          if (!m) continue;
          const left = (shadow.remaining.get(m.id) ?? m.remainingSize) - f.size;
          if (left > 0n) shadow.remaining.set(m.id, left);
          else shadow.remaining.delete(m.id);
          touched.add(m.ownerId);
          orderEvent(
            state,
            m.ownerId,
            left === 0n ? ome('EXECUTION', m, market, 0n, e.at, e.seq, { status: 'FILLED' }) : ome('UPDATE', m, market, left, e.at, e.seq),
          );
        }
        const matched = e.totals.contracts > 0n;
        if (o.status === 'LIVE') {
          shadow.remaining.set(o.id, o.remainingSize);
          orderEvent(state, o.ownerId, ome('PLACEMENT', o, market, o.remainingSize, e.at, e.seq));
        } else {
          const status = !matched ? 'KILLED' : o.remainingSize === 0n ? 'FILLED' : 'PARTIALLY_FILLED';
          const avg = matched ? priceNumber((e.totals.usdGross * ONE) / e.totals.contracts) : o.price === null ? 0 : priceNumber(o.price);
          // A taker stopped by self-trade prevention (engine.ts, STP_TAKER_REJECTED) says so.
          const stp = o.execution?.['reason'] === 'STP_TAKER_REJECTED' ? { reason: 'STP_TAKER_REJECTED' } : {};
          orderEvent(state, o.ownerId, ome('EXECUTION', o, market, o.remainingSize, e.at, e.seq, { status, price: avg, ...stp }));
        }
        if (matched) {
          const taker = orderById(state, o.id) ?? o;
          settlement(state, 'MATCHED', taker, market, e.at, null);
          touched.add(o.ownerId);
        }
        for (const pid of touched) positionChanged(state, pid, market, e.at);
        if (o.status === 'LIVE' || matched || e.stpCanceled.length > 0) touchBook(market.slug);
        return;
      }
      case 'order.cancelled': {
        const o = orderById(state, e.orderId);
        if (!o) return;
        const market = state.markets.find((m) => m.slug === o.marketSlug);
        const left = shadow.remaining.get(o.id) ?? o.remainingSize;
        shadow.remaining.delete(o.id);
        if (!market) return;
        orderEvent(state, o.ownerId, ome('CANCELLATION', o, market, left, e.at, e.seq));
        touchBook(market.slug);
        return;
      }
      case 'settlement': {
        const taker = orderById(state, e.takerOrderId);
        const market = taker ? state.markets.find((m) => m.slug === taker.marketSlug) : undefined;
        if (!taker || !market) return;
        if (e.to === 'MINED') settlement(state, 'MINED', taker, market, e.at, e.txHash);
        else txConfirmed(state, taker, market, e.at, e.txHash);
        return;
      }
      case 'market.created': {
        const m = e.market;
        lastPrice.set(m.slug, m.lastTradePrice);
        const categoryIds = (m.extra['categoryIds'] as number[] | undefined) ?? [];
        lifecycle(['market.created', 'marketCreated'], {
          slug: m.slug,
          title: m.title,
          type: m.tradeType === 'amm' ? 'AMM' : 'CLOB',
          ...(m.groupSlug ? { groupSlug: m.groupSlug } : {}),
          categoryIds,
          createdAt: m.createdAt,
        });
        return;
      }
      case 'market.resolved': {
        const m = state.markets.find((x) => x.slug === e.slug);
        for (const id of e.canceled) {
          const x = orderById(state, id);
          const left = shadow.remaining.get(id) ?? x?.remainingSize ?? 0n;
          shadow.remaining.delete(id);
          if (x && m) orderEvent(state, x.ownerId, ome('CANCELLATION', x, m, left, e.at, e.seq, { reason: 'MARKET_RESOLVED' }));
        }
        lifecycle(['market.resolved', 'marketResolved'], {
          slug: e.slug,
          type: m?.tradeType === 'amm' ? 'AMM' : 'CLOB',
          winningOutcome: e.winningOutcomeIndex === 0 ? 'YES' : 'NO',
          winningIndex: e.winningOutcomeIndex,
          resolutionDate: new Date(e.at).toISOString(),
        });
        if (e.canceled.length > 0) touchBook(e.slug);
        return;
      }
      default:
        return;
    }
  };

  // ---- connections ----
  const exception = (c: Conn, channel: string): void => {
    c.socket.emit('exception', { status: 'error', message: c.authError ?? 'Authentication required', channel });
  };

  const onConnection = (socket: Socket): void => {
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
      const a = authenticate(
        ctx.state,
        { kind: 'token', scopes: ['trading'], legacy: true, identity: false },
        h,
        'GET',
        HANDSHAKE_TARGET,
        '',
        ctx.now() + (faults.clockSkewMs ?? 0),
      );
      if (a.ok && a.auth) c.profileId = a.auth.profileId;
      else if (!a.ok) c.authError = a.message;
    }
    conns.set(socket.id, c);
    socket.on('disconnect', () => conns.delete(socket.id));
    const priv = (channel: string, fn: () => void) => (): void => {
      if (c.profileId === null) return exception(c, channel);
      fn();
    };
    socket.on('subscribe_market_prices', (opts: unknown) => {
      const wanted = slugList(opts);
      const state = ctx.state;
      const known = wanted
        .map((k) => state.markets.find((m) => m.slug === k || (m.address !== null && m.address === k)))
        .filter((m): m is MarketRecord => m !== undefined);
      c.prices = new Set(known.map((m) => m.slug)); // replaces the previous set
      const snaps = known.map((m) => bookPayload(state, m.slug));
      const ack = {
        message: 'Successfully subscribed to market price updates',
        markets: {
          slugs: known.filter((m) => m.address === null).map((m) => m.slug),
          addresses: known.filter((m) => m.address !== null).map((m) => m.address),
        },
      };
      out(() => {
        socket.emit('system', ack);
        for (const s of snaps) {
          if (!s) continue;
          c.books.set(String(s['marketSlug']), Number(s['version']));
          socket.emit('orderbookUpdate', s);
        }
      });
    });
    socket.on(
      'subscribe_order_events',
      priv('subscribe_order_events', () => {
        c.orders = true;
        out(() => socket.emit('system', { message: 'Successfully subscribed to order events' }));
      }),
    );
    socket.on('subscribe_positions', (opts: unknown) =>
      priv('subscribe_positions', () => {
        const wanted = slugList(opts);
        c.positions = new Set(wanted);
        out(() =>
          socket.emit('system', {
            message: 'Successfully subscribed to position updates',
            markets: { addresses: wanted.filter((w) => w.startsWith('0x')), slugs: wanted.filter((w) => !w.startsWith('0x')) },
          }),
        );
      })(),
    );
    socket.on(
      'subscribe_transactions',
      priv('subscribe_transactions', () => {
        c.tx = true;
        out(() => socket.emit('system', { message: 'Successfully subscribed to transactions' }));
      }),
    );
    socket.on('subscribe_market_lifecycle', () => {
      c.lifecycle = true;
      out(() => socket.emit('system', { message: 'Successfully subscribed to market lifecycle events' }));
    });
    socket.on('unsubscribe_market_lifecycle', () => {
      c.lifecycle = false;
    });
  };

  return {
    attach(n) {
      nsp = n;
      rebuild(ctx.state);
      unsubscribe = deps.subscribe(deps.seq() + 1, project);
      n.on('connection', onConnection);
    },
    applyFaults() {
      if ((faults.dropSockets ?? 0) > 0) {
        faults.dropSockets = 0;
        for (const c of conns.values()) c.socket.conn.close();
      }
    },
    routes: [
      {
        method: 'GET',
        pattern: '/__sandbox/sockets',
        auth: { kind: 'public' },
        handler: () => ({
          status: 200,
          body: [...conns.values()].map((c) => ({
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
          })),
        }),
      },
    ],
    close() {
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      queue.length = 0;
      void nsp;
    },
  };
}
