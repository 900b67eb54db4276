// Filling an order stream's gap from REST. The exchange keeps no subscription across a
// disconnect and has no "what changed since" query, so after a reconnect pm asks REST where the
// account's orders stand now, compares that with the last state the stream wrote, and writes
// the difference as orderEvents marked `replayed: true`. One ledger judges live and replayed
// events alike, so an event is never written twice whichever way it arrives first.
//
// What REST cannot show: an order placed during the gap that ended without a fill (cancelled, or
// a killed FOK/FAK) in a market where the account has neither an order pm knows nor a trade
// since the gap began; the settlement of a maker's trade when the exchange does not list an
// order's trades (the sandbox does); and the orders of a partner's sub-accounts.
import { AuthError } from './errors.js';
import { backoffMs, retrying, sleep } from './retry.js';
import type { ApiClient } from './http.js';
import type { Lifecycle } from './stream.js';
import { ONE, formatUnits, priceFromWire, rawFromWire } from './money.js';

/** One orderEvent payload, as the stream writes it (without the `event` name). */
export type OrderEvent = Record<string, unknown>;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** Settlement steps in order (a trade whose step is below MINED may still change). */
const SETTLE_RANK: Record<string, number> = { MATCHED: 1, MINED: 2, FAILED: 3 };
/** The settlement events an exchange has sent for a trade in this settlement status. */
const SETTLE_STEPS: Record<string, string[]> = {
  MATCHED: ['MATCHED'],
  RETRYING: ['MATCHED'],
  MINED: ['MATCHED', 'MINED'],
  CONFIRMED: ['MATCHED', 'MINED'],
  FAILED: ['MATCHED', 'FAILED'],
};
/** The last settlement step a trade in this status has had announced (0: none). */
const settledRank = (status: string): number => SETTLE_RANK[SETTLE_STEPS[status]?.at(-1) ?? ''] ?? 0;
const TERMINAL_OME = new Set(['EXECUTION', 'CANCELLATION']);
const ALL_STATUSES = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];

interface Tracked {
  market: string;
  /** Remaining size after the last OME event written, else as REST showed it (null: unknown). */
  remaining: bigint | null;
  /** Its PLACEMENT was written, or it was placed before the watch began. */
  placed: boolean;
  /** An OME event of it was written (`remaining` is the stream's). */
  wrote: boolean;
  /** A terminal OME event (EXECUTION, CANCELLATION) was written. */
  done: boolean;
  /** Settlement step written per trade. */
  trades: Map<string, number>;
  /** Settlement step each trade had reached before the watch began (not news). */
  before: Map<string, number>;
  keys: Set<string>;
}

const size = (v: unknown): string => rawFromWire(v).toString();

/**
 * The identity of an order event for the no-duplicate rule: order id, type, status (EXECUTION's
 * `status`, or the settlement step) and size (OME's remaining size; a settlement event's trade
 * and amount). Null for events that name no order.
 */
export function eventKey(ev: OrderEvent): string | null {
  const id = text(ev['orderId']);
  if (id === null) return null;
  if (ev['source'] === 'SETTLEMENT') return [id, 'SETTLEMENT', ev['type'], ev['tradeEventId'] ?? '', size(ev['amountContracts'])].join('|');
  return [id, ev['type'], ev['status'] ?? '', size(ev['remainingSize'])].join('|');
}

/**
 * The last state an order stream wrote, per order. `admit()` says whether an event (live or
 * replayed) is news: not equal to one written (eventKey), not a second PLACEMENT of an order,
 * and not behind the order's state as written (a larger remaining size, anything after a
 * terminal event: a gap's fills collapse into their latest state). A PLACEMENT or settlement
 * step that was missed stays news whenever it comes. Memory is bounded: past `maxOrders`, the
 * least recently active orders are forgotten first.
 *
 * @example
 * const ledger = new OrderLedger();
 * stream.on('orderEvent', (ev) => { if (ledger.admit(ev)) write(ev); });
 */
export class OrderLedger {
  /**
   * Orders created from this time on (ms, compared with the exchange's createdAt) began during the
   * watch: their placement is news. Default: now, by this machine's clock.
   */
  readonly since: number;
  private readonly orders = new Map<string, Tracked>();
  private readonly maxOrders: number;

  constructor(o: { since?: number; maxOrders?: number } = {}) {
    this.since = o.since ?? Date.now();
    this.maxOrders = o.maxOrders ?? 100_000;
  }

  /** Whether `ev` should be written; when it should, the ledger now counts it as written. */
  admit(ev: OrderEvent): boolean {
    const key = eventKey(ev);
    const id = text(ev['orderId']);
    if (key === null || id === null) return true;
    const t = this.touch(id, text(ev['marketSlug']));
    if (t.keys.has(key)) return false;
    const rem = ev['remainingSize'] === undefined ? null : rawFromWire(ev['remainingSize']);
    if (ev['source'] === 'SETTLEMENT') {
      const trade = text(ev['tradeEventId']);
      if (trade !== null) t.trades.set(trade, Math.max(t.trades.get(trade) ?? 0, SETTLE_RANK[String(ev['type'])] ?? 0));
    } else if (ev['type'] === 'PLACEMENT') {
      if (t.placed) return false;
      t.placed = true;
      // A PLACEMENT that comes after later events (missed live, then replayed) changes no state.
      if (!t.wrote) {
        t.wrote = true;
        t.remaining = rem;
      }
    } else {
      if (t.done) return false;
      if (t.wrote && rem !== null && t.remaining !== null && rem > t.remaining) return false;
      t.wrote = true;
      if (rem !== null) t.remaining = rem;
      if (TERMINAL_OME.has(String(ev['type']))) t.done = true;
    }
    t.keys.add(key);
    return true;
  }

  /**
   * Records an open order the stream wrote nothing about, writing nothing: its later changes are
   * then news, and so is its PLACEMENT should one still come.
   */
  remember(s: OrderSnapshot): void {
    if (this.orders.has(s.id)) return;
    const t = this.touch(s.id, s.market);
    // One placed since the watch began may still have its PLACEMENT written (live or replayed).
    t.placed = s.createdAt !== null && Date.parse(s.createdAt) < this.since;
    t.remaining = s.remaining;
    t.done = s.status !== '' && s.status !== 'LIVE';
    for (const tr of s.trades) {
      t.trades.set(tr.tradeEventId, settledRank(tr.status));
      t.before.set(tr.tradeEventId, settledRank(tr.status));
    }
  }

  knows(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /** Orders whose state may still change: open, or with a trade not yet mined or failed. */
  unfinished(): string[] {
    const out: string[] = [];
    for (const [id, t] of this.orders) if (!t.done || [...t.trades.values()].some((r) => r < 2)) out.push(id);
    return out;
  }

  /** The markets of the most recently active orders, newest first. */
  markets(limit: number): string[] {
    const out = new Set<string>();
    for (const t of [...this.orders.values()].reverse()) {
      if (out.size >= limit) break;
      if (t.market !== '') out.add(t.market);
    }
    return [...out];
  }

  /** @internal The tracked state of an order (for replay). */
  state(orderId: string): Readonly<Tracked> | undefined {
    return this.orders.get(orderId);
  }

  private touch(id: string, market: string | null): Tracked {
    let t = this.orders.get(id);
    if (t) this.orders.delete(id);
    else
      t = {
        market: market ?? '',
        remaining: null,
        placed: false,
        wrote: false,
        done: false,
        trades: new Map(),
        before: new Map(),
        keys: new Set(),
      };
    if (t.market === '' && market !== null) t.market = market;
    this.orders.set(id, t); // most recently active last
    if (this.orders.size > this.maxOrders) {
      const oldest = this.orders.keys().next().value;
      if (oldest !== undefined) this.orders.delete(oldest);
    }
    return t;
  }
}

/** One trade of an order as REST shows it. */
export interface TradeSnapshot {
  tradeEventId: string;
  takerOrderId: string | null;
  size: bigint;
  price: string;
  status: string;
  txHash: string | null;
  createdAt: string | null;
}

/** An order as REST shows it now (user-orders, portfolio live orders and the status batch merged). */
export interface OrderSnapshot {
  id: string;
  market: string;
  marketId: string | null;
  createdAt: string | null;
  status: string;
  type: string;
  original: bigint | null;
  remaining: bigint | null;
  price: number | null;
  side: string | null;
  token: string | null;
  tokenId: string | null;
  clientOrderId: string | null;
  userId: number | null;
  /** Shares and USDC it matched as a taker when placed (execution totals), if known. */
  immediate: bigint;
  immediateUsd: bigint;
  stpRejected: boolean;
  trades: TradeSnapshot[];
}

function blank(id: string): OrderSnapshot {
  return {
    id,
    market: '',
    marketId: null,
    createdAt: null,
    status: '',
    type: '',
    original: null,
    remaining: null,
    price: null,
    side: null,
    token: null,
    tokenId: null,
    clientOrderId: null,
    userId: null,
    immediate: 0n,
    immediateUsd: 0n,
    stpRejected: false,
    trades: [],
  };
}

/** Merges what one REST answer says about an order into its snapshot (later answers win). */
function absorb(snaps: Map<string, OrderSnapshot>, o: Obj, more: { market?: string; execution?: Obj; trades?: unknown } = {}): void {
  const id = text(o['id']);
  if (id === null) return;
  const s = snaps.get(id) ?? blank(id);
  snaps.set(id, s);
  const m = obj(o['market']);
  s.market = text(m['slug']) ?? more.market ?? s.market;
  s.marketId = text(o['marketId']) ?? text(m['id']) ?? s.marketId;
  s.createdAt = text(o['createdAt']) ?? s.createdAt;
  s.status = text(o['status']) ?? s.status;
  s.type = text(o['type']) ?? text(o['orderType']) ?? s.type;
  if (o['originalSize'] !== undefined) s.original = rawFromWire(o['originalSize']);
  if (o['remainingSize'] !== undefined) s.remaining = rawFromWire(o['remainingSize']);
  const price = Number(o['price']);
  if (o['price'] !== null && o['price'] !== undefined && Number.isFinite(price)) s.price = price;
  const side = o['side'];
  s.side = side === 0 || side === 'BUY' ? 'BUY' : side === 1 || side === 'SELL' ? 'SELL' : s.side;
  s.tokenId = text(o['tokenId']) ?? s.tokenId;
  s.token =
    text(o['token']) ??
    (s.tokenId !== null && s.tokenId === text(m['yesPositionId'])
      ? 'YES'
      : s.tokenId !== null && s.tokenId === text(m['noPositionId'])
        ? 'NO'
        : s.token);
  s.clientOrderId = text(o['clientOrderId']) ?? s.clientOrderId;
  const owner = Number(o['ownerId']);
  if (o['ownerId'] !== undefined && Number.isInteger(owner)) s.userId = owner;
  const ex = more.execution;
  if (ex) {
    const totals = obj(ex['totalsRaw']);
    s.immediate = rawFromWire(totals['contractsGross']);
    s.immediateUsd = rawFromWire(totals['usdGross']);
    s.stpRejected = ex['reason'] === 'STP_TAKER_REJECTED';
  }
  const listed = more.trades ?? o['trades'];
  if (Array.isArray(listed)) {
    s.trades = listed.map(obj).flatMap((t) => {
      const trade = text(t['tradeEventId']);
      if (trade === null) return [];
      return [
        {
          tradeEventId: trade,
          takerOrderId: text(t['takerOrderId']),
          size: rawFromWire(t['matchedSize']),
          price: text(t['price']) ?? '0',
          status: text(t['settlementStatus']) ?? 'MATCHED',
          txHash: text(t['txHash']),
          createdAt: text(t['createdAt']),
        },
      ];
    });
  } else if (ex && s.trades.length === 0 && text(ex['tradeEventId']) !== null && s.immediate > 0n) {
    // Without a list of trades, the taker's own trade is all REST tells.
    s.trades = [
      {
        tradeEventId: text(ex['tradeEventId']) ?? '',
        takerOrderId: id,
        size: s.immediate,
        price: formatUnits((s.immediateUsd * ONE) / s.immediate, 6),
        status: text(o['settlementStatus']) ?? text(ex['settlementStatus']) ?? 'MATCHED',
        txHash: text(ex['txHash']),
        createdAt: s.createdAt,
      },
    ];
  }
}

/**
 * The events that bring the stream from `t` (what it wrote about the order; undefined if
 * nothing) to the snapshot `s`. `isNew`: the order began during the watch and nothing is known
 * of its state, so its placement is news too. Intermediate fills collapse into the latest state.
 */
function eventsBetween(s: OrderSnapshot, t: Readonly<Tracked> | undefined, isNew: boolean, now: string): OrderEvent[] {
  const out: OrderEvent[] = [];
  const who = {
    marketId: s.marketId,
    marketSlug: s.market,
    orderId: s.id,
    ...(s.clientOrderId !== null ? { clientOrderId: s.clientOrderId } : {}),
    side: s.side,
    token: s.token,
  };
  const ome = (type: string, remaining: bigint, at: string | null, extra: Obj = {}): OrderEvent => ({
    source: 'OME',
    type,
    ...who,
    price: s.price ?? 0,
    remainingSize: Number(remaining),
    timestamp: at ?? now,
    userId: s.userId,
    ...extra,
    replayed: true,
  });
  let rem = t?.remaining ?? null;
  let done = t?.done ?? false;
  if (isNew) {
    const atPlacement = (s.original ?? s.remaining ?? 0n) - s.immediate;
    const rested = s.type !== 'FOK' && s.type !== 'FAK' && !s.stpRejected && atPlacement > 0n;
    if (rested) {
      out.push(ome('PLACEMENT', atPlacement, s.createdAt));
      rem = atPlacement;
    } else {
      const status = s.immediate === 0n ? 'KILLED' : s.remaining === 0n ? 'FILLED' : 'PARTIALLY_FILLED';
      const avg = s.immediate > 0n ? Number(formatUnits((s.immediateUsd * ONE) / s.immediate, 6)) : (s.price ?? 0);
      out.push(ome('EXECUTION', s.remaining ?? 0n, s.createdAt, { status, price: avg }));
      done = true;
    }
  }
  if (!done && rem !== null && s.remaining !== null) {
    if (s.remaining < rem && s.remaining === 0n) {
      out.push(ome('EXECUTION', 0n, null, { status: 'FILLED' }));
      done = true;
    } else if (s.remaining < rem) out.push(ome('UPDATE', s.remaining, null));
    if (!done && s.status === 'CANCELED') out.push(ome('CANCELLATION', s.remaining, null));
  }
  for (const tr of s.trades) {
    for (const type of SETTLE_STEPS[tr.status] ?? []) {
      // A step the trade had taken before the watch began is not news.
      if ((SETTLE_RANK[type] ?? 0) <= (t?.before.get(tr.tradeEventId) ?? 0)) continue;
      // The taker's trade is its whole immediate match; a maker's is its size at its price.
      const usd = tr.takerOrderId === s.id && s.immediateUsd > 0n ? s.immediateUsd : (tr.size * (priceFromWire(tr.price) ?? 0n)) / ONE;
      out.push({
        source: 'SETTLEMENT',
        type,
        marketSlug: s.market,
        tradeEventId: tr.tradeEventId,
        ...(tr.takerOrderId !== null ? { takerOrderId: tr.takerOrderId } : {}),
        orderId: s.id,
        ...(s.clientOrderId !== null ? { clientOrderId: s.clientOrderId } : {}),
        side: s.side,
        token: s.token,
        tokenId: s.tokenId,
        price: tr.price,
        amountContracts: tr.size.toString(),
        amountCollateral: usd.toString(),
        timestamp: type === 'MATCHED' ? (tr.createdAt ?? now) : now,
        ...(type !== 'MATCHED' && tr.txHash !== null ? { txHash: tr.txHash } : {}),
        ...(type === 'MATCHED' ? { isEstimate: true } : {}),
        replayed: true,
      });
    }
  }
  return out;
}

interface GapOptions {
  /** When the gap began (ms, this machine's clock): history from then on names markets that traded. */
  since: number;
  signal?: AbortSignal | undefined;
  /** Markets of known orders listed per gap (one request each); default 25. */
  maxMarkets?: number | undefined;
  now?: (() => number) | undefined;
}

type Get = (path: string, query?: Record<string, string | number | string[]>) => Promise<unknown>;

function getter(api: ApiClient, signal: AbortSignal | undefined): Get {
  return async (path, query) => (await api.request<unknown>({ method: 'GET', path, query, auth: 'auto', signal })).data;
}

/** The open orders of every market of the account (GET /portfolio/positions, live orders). */
async function openOrders(get: Get, snaps: Map<string, OrderSnapshot>): Promise<void> {
  const raw = obj(await get('/portfolio/positions'));
  const items = [...arr(raw['clob']).map(obj), ...arr(raw['group']).flatMap((g) => arr(obj(g)['clob']).map(obj))];
  for (const it of items) {
    const market = text(obj(it['market'])['slug']) ?? '';
    for (const o of arr(obj(it['orders'])['liveOrders'])) absorb(snaps, obj(o), { market });
  }
}

/**
 * The account's open orders in every market. Given to `ledger.remember()` when the stream is
 * first subscribed, they make a fill or cancel of an older order during a later gap news too.
 */
async function fetchOpenOrders(api: ApiClient, o: { signal?: AbortSignal | undefined } = {}): Promise<OrderSnapshot[]> {
  const snaps = new Map<string, OrderSnapshot>();
  await openOrders(getter(api, o.signal), snaps);
  // Their trades so far too: a fill before the watch began is not news in a later gap.
  await statusBatch(api, [...snaps.keys()], snaps, o.signal);
  return [...snaps.values()];
}

/** Orders by id as POST /orders/status/batch shows them (with their trades, where the exchange lists them), 50 a request. */
async function statusBatch(
  api: ApiClient,
  ids: string[],
  snaps: Map<string, OrderSnapshot>,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 50) {
    const items = ids.slice(i, i + 50).map((orderId) => ({ orderId }));
    const d = obj(
      (await api.request<unknown>({ method: 'POST', path: '/orders/status/batch', body: { items }, auth: 'auto', retry: 'read', signal }))
        .data,
    );
    for (const r of arr(d['results']).map(obj)) {
      const data = obj(r['data']);
      if (r['status'] !== 'found' || !data['order']) continue;
      absorb(snaps, obj(data['order']), { execution: obj(data['execution']), trades: data['trades'] });
    }
  }
}

/**
 * Yields the order events a stream missed during a gap, each marked `replayed: true`, and only
 * those `ledger.admit()` accepts (so each is written once, whether replayed or live). Run it
 * after the subscription is confirmed again, so that what happens next arrives live.
 *
 * Sources, in one pass: the open orders of every market (portfolio), the markets with trades
 * since the gap began (history), the orders of those markets and of the markets pm knows orders
 * in (user-orders, all statuses), and the status of every known unfinished order and of each new
 * one (status batch). The events of each order are derived from the difference between what
 * REST says and what was written.
 *
 * @example
 * for await (const ev of replayOrderGap(api, ledger, { since: disconnectedAt })) write(ev);
 */
async function* replayOrderGap(api: ApiClient, ledger: OrderLedger, o: GapOptions): AsyncGenerator<OrderEvent> {
  const get = getter(api, o.signal);
  const snaps = new Map<string, OrderSnapshot>();
  await openOrders(get, snaps);

  const markets = new Set(ledger.markets(o.maxMarkets ?? 25));
  // History entries carry whole seconds; look a little further back than the gap.
  const from = o.since - 2_000;
  let cursor = '';
  for (let page = 0; page < 10; page++) {
    const d = obj(await get('/portfolio/history', { cursor, limit: 100 }));
    let older = false;
    for (const e of arr(d['data']).map(obj)) {
      const ts = e['blockTimestamp'];
      if (typeof ts === 'number' && ts * 1000 < from) {
        older = true;
        break;
      }
      const slug = text(obj(e['market'])['slug']);
      if (slug !== null) markets.add(slug);
    }
    const next = d['nextCursor'];
    if (older || typeof next !== 'string' || next === '') break;
    cursor = next;
  }
  for (const slug of markets) {
    const d = await get(`/markets/${encodeURIComponent(slug)}/user-orders`, { statuses: ALL_STATUSES, limit: 50 });
    for (const x of arr(Array.isArray(d) ? d : obj(d)['orders'])) absorb(snaps, obj(x), { market: slug });
  }

  const isNew = (s: OrderSnapshot): boolean => s.createdAt === null || Date.parse(s.createdAt) >= ledger.since;
  const ids = new Set(ledger.unfinished());
  for (const s of snaps.values()) if (!ledger.knows(s.id) && isNew(s)) ids.add(s.id);
  await statusBatch(api, [...ids], snaps, o.signal);

  const now = new Date((o.now ?? Date.now)()).toISOString();
  const order = [...snaps.values()].sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));
  for (const s of order) {
    // Read the ledger now, not before the requests: live events may have moved it since.
    const t = ledger.state(s.id);
    // Begun during the watch and its PLACEMENT not written: its whole life is compared.
    const fresh = !t?.placed && isNew(s);
    if (!t && !fresh) {
      if (s.status === 'LIVE') ledger.remember(s); // older than the watch: known from now on
      continue;
    }
    for (const ev of eventsBetween(s, t, fresh, now)) if (ledger.admit(ev)) yield ev;
  }
}

export interface CatchUpOptions {
  /** The REST client (made on first use). */
  api: () => Promise<ApiClient>;
  ledger: OrderLedger;
  /** Writes one replayed event; returns whether it was written (a filter may drop it). */
  write: (ev: OrderEvent) => boolean;
  /** Receives `caught-up` and `catch-up-failed` records. */
  lifecycle: (l: Lifecycle) => void;
  /** The first retry after a failed fill (ms, doubling up to 30 s); default 1 s. */
  retryMs?: number | undefined;
}

/**
 * Drives the gap fill. `start()`, before the stream connects, records the open orders
 * (fetchOpenOrders), so that a fill or cancel of an older order during a gap is news too; then
 * `on()` follows the stream's lifecycle records: on `disconnected`, it notes when the gap began;
 * on `resubscribed` (after the exchange's confirmation), it replays the gap, then reports
 * `caught-up`. A failed fill is retried with backoff until it succeeds or the next disconnect
 * starts over (the gap then runs from its first disconnect).
 */
export class OrderCatchUp {
  private gen = 0;
  private gapSince: number | null = null;
  private readonly ended = new AbortController();

  constructor(private readonly o: CatchUpOptions) {}

  /**
   * Records the open orders, waiting at most `maxWaitMs` for them: a slow answer does not hold
   * the stream back, nor does a failed one (the wait ends with it). A failure is retried in the
   * background until it succeeds or the first disconnect (the fill then records what is open);
   * a refusal of the token (AuthError) is not asked again: the stream says it too.
   */
  async start(maxWaitMs = 3_000): Promise<void> {
    const my = ++this.gen;
    const first = this.baseline().catch((e: unknown) => {
      if (!(e instanceof AuthError)) void this.retrying(my, true, () => this.baseline(), true);
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise((r) => (timer = setTimeout(r, maxWaitMs)))]);
    clearTimeout(timer);
  }

  on(l: Lifecycle): void {
    if (this.ended.signal.aborted) return;
    if (l.type === 'disconnected') {
      this.gen++;
      this.gapSince ??= Date.now();
    } else if (l.type === 'resubscribed') void this.retrying(++this.gen, false, (my) => this.fill(my));
  }

  /** Stops: nothing more is requested or written. */
  stop(): void {
    this.gen++;
    this.ended.abort();
  }

  private async baseline(): Promise<void> {
    for (const s of await fetchOpenOrders(await this.o.api(), { signal: this.ended.signal })) this.o.ledger.remember(s);
  }

  private async fill(my: number): Promise<void> {
    const since = this.gapSince ?? Date.now();
    const api = await this.o.api();
    let n = 0;
    for await (const ev of replayOrderGap(api, this.o.ledger, { since, signal: this.ended.signal })) {
      // An admitted event is written even when a newer run has begun: it is true, and the
      // ledger now counts it as written.
      if (this.o.write(ev)) n++;
      if (my !== this.gen) return;
    }
    if (my !== this.gen) return;
    this.gapSince = null;
    this.o.lifecycle({ type: 'caught-up', replayed: n, at: new Date().toISOString() });
  }

  /** Runs `job` until it succeeds or a newer run (or stop) takes over, with backoff. */
  private async retrying(my: number, quiet: boolean, job: (my: number) => Promise<void>, waitFirst = false): Promise<void> {
    const schedule = { baseMs: this.o.retryMs ?? 1_000, capMs: 30_000 };
    try {
      if (waitFirst) await sleep(backoffMs(0, Math.random, schedule), this.ended.signal);
      await retrying(() => (my === this.gen ? job(my) : Promise.resolve()), {
        ...schedule,
        tries: Number.POSITIVE_INFINITY,
        signal: this.ended.signal,
        // (A refused token stays refused: the stream ends with the same refusal.)
        retriable: (e) => my === this.gen && !(e instanceof AuthError),
        onRetry: (e, _attempt, waitMs) => {
          // The baseline is a convenience: its failures are retried without a record.
          if (quiet) return;
          const error = e instanceof Error ? e.message : String(e);
          this.o.lifecycle({ type: 'catch-up-failed', error, retryInMs: waitMs, at: new Date().toISOString() });
        },
      });
    } catch {
      // Stopped, superseded, or (never) out of tries: a newer run or the next disconnect takes over.
    }
  }
}
