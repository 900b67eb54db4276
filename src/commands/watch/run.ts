// `pm watch <channel>`: one live stream from the exchange's socket.io /markets namespace.
// Human mode prints one line per event (stdout) and lifecycle lines (stderr); --json prints
// NDJSON, one record per event written at once, `{"event": <socket.io event>, ...payload}`,
// plus `{"event":"lifecycle","type":…}` records so a bot can tell a gap happened. For orders,
// every gap is then filled from REST (core/gapfill.ts), and no event is written twice.
import type { Opts } from '../../cli/command.js';
import { optNum, optStr } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { AuthError, NotFoundError, UsageError } from '../../core/errors.js';
import { OrderCatchUp, OrderLedger } from '../../core/gapfill.js';
import { getMarket, slugFrom } from '../../core/markets.js';
import { StreamClient } from '../../core/stream.js';
import type { Lifecycle, Subscription } from '../../core/stream.js';
import type { AuthProvider } from '../../core/auth.js';
import type { ApiClient } from '../../core/http.js';
import { bookScreen, eventLine, lifecycleLine } from './render.js';

export type WatchKind = 'orders' | 'positions' | 'prices' | 'book' | 'markets' | 'tx';

const EVENTS: Record<WatchKind, readonly string[]> = {
  orders: ['orderEvent'],
  positions: ['positions'],
  tx: ['tx'],
  prices: ['orderbookUpdate', 'newPriceData'],
  book: ['orderbookUpdate'],
  markets: ['marketCreated', 'market.created', 'marketResolved', 'market.resolved'],
};

const PRIVATE: readonly WatchKind[] = ['orders', 'positions', 'tx'];

/** Checks slugs against the exchange before connecting: an unknown one is a usage error (exit 2). */
async function checkSlugs(ctx: Context, slugs: string[]): Promise<void> {
  if (slugs.length === 0) return;
  const api = await ctx.api();
  for (const slug of slugs) {
    try {
      await getMarket(api, slug);
    } catch (e) {
      if (e instanceof NotFoundError)
        throw new UsageError(`unknown market "${slug}"`, { hint: 'See pm markets list or pm markets search <words>.' });
      throw e;
    }
  }
}

async function streamAuth(ctx: Context): Promise<AuthProvider> {
  const creds = await ctx.credentials();
  const auth = await creds.unlock('auto');
  if (!auth.hmac && !auth.apiKey)
    throw new AuthError('this stream is private and needs an API token', {
      hint: 'Run pm init (pm init --sandbox for the sandbox), or set PM_TOKEN_ID and PM_TOKEN_SECRET.',
    });
  return auth;
}

/** The reconnect paragraph of every watch command's help. */
export const RECONNECT_HELP =
  '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. "subscribed" and "resubscribed" are written once the exchange confirms the subscription (from then on its events reach the stream), with "confirmed":false when no confirmation came within 5 s (or --timeout, if shorter). Ctrl-C exits 130.';

/** Bytes of output that may wait for a slow reader before the stream pauses. */
const OUTPUT_BUFFER = 1 << 18;

/**
 * One NDJSON record `{"event": name, ...payload}` without copying the payload: its own JSON with
 * the event name put in front (a payload key "event" still wins, as with the spread).
 */
export function ndjson(name: string, payload: object): string {
  const body = JSON.stringify(payload) as string | undefined;
  if (body === undefined || !body.startsWith('{') || body === '{}') return `${JSON.stringify({ event: name, ...payload })}\n`;
  return `{"event":${JSON.stringify(name)},${body.slice(1)}\n`;
}

/** Runs one watch; returns the exit code (0, or 130 after Ctrl-C). */
export async function watch(ctx: Context, kind: WatchKind, opts: Opts, slugArgs: string[] = []): Promise<number> {
  const count = optNum(opts, 'count');
  const untilRaw = optStr(opts, 'until');
  let until: number | undefined;
  if (untilRaw !== undefined) {
    until = Date.parse(untilRaw);
    if (!/^\d{4}-\d\d-\d\d/.test(untilRaw) || !Number.isFinite(until))
      throw new UsageError(`--until must be an ISO 8601 time such as 2026-12-31T18:00:00Z, got "${untilRaw}"`);
  }
  const marketRaw = optStr(opts, 'market');
  const market = marketRaw === undefined ? undefined : slugFrom(marketRaw);
  const clientId = optStr(opts, 'clientId');
  const slugs = slugArgs.map(slugFrom);
  if ((kind === 'prices' || kind === 'book') && slugs.length === 0) throw new UsageError(`pm watch ${kind} needs a market slug`);
  await checkSlugs(ctx, [...slugs, ...(market !== undefined ? [market] : [])]);
  const auth = PRIVATE.includes(kind) ? await streamAuth(ctx) : undefined;

  const subs: Subscription[] = [];
  if (kind === 'orders') subs.push({ channel: 'subscribe_order_events', options: {} });
  if (kind === 'positions') subs.push({ channel: 'subscribe_positions', options: market !== undefined ? { marketSlugs: [market] } : {} });
  if (kind === 'tx') subs.push({ channel: 'subscribe_transactions', options: {} });
  if (kind === 'prices' || kind === 'book') subs.push({ channel: 'subscribe_market_prices', options: { marketSlugs: slugs } });
  if (kind === 'markets') subs.push({ channel: 'subscribe_market_lifecycle', options: {} });

  const out = ctx.io.stdout;
  const json = ctx.out.isJson;
  // Output: the lines of one burst of events (what one read from the socket delivers) go out in
  // one write, at the end of that burst (a microtask: no delay, each line still leaves at once).
  // When the reader falls behind (write returns false with more than OUTPUT_BUFFER waiting),
  // reading from the exchange pauses until 'drain', so this process never holds the stream.
  const pending: string[] = [];
  let flushQueued = false;
  let blocked = false;
  const drainable = out as { once?: (ev: 'drain', fn: () => void) => unknown; writableLength?: number };
  const flush = (): void => {
    flushQueued = false;
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? (pending[0] as string) : pending.join('');
    pending.length = 0;
    // Up to OUTPUT_BUFFER bytes may wait for the reader (it keeps the pipe full); past that, pause.
    if (
      out.write(chunk) === false &&
      !blocked &&
      typeof drainable.once === 'function' &&
      (drainable.writableLength ?? Infinity) > OUTPUT_BUFFER
    ) {
      blocked = true;
      client?.pause();
      drainable.once('drain', () => {
        blocked = false;
        client?.resume();
      });
    }
  };
  const write = (s: string): void => {
    pending.push(s);
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  };
  const screen = kind === 'book' && !json && out.isTTY === true;
  const wanted = new Set(EVENTS[kind]);
  const seenLifecycle = new Set<string>();
  let printed = 0;
  let finished = false;
  let client: StreamClient | null = null;
  let untilTimer: NodeJS.Timeout | undefined;

  const keep = (name: string, p: Record<string, unknown>): boolean => {
    if (!wanted.has(name)) return false;
    const slug = p['marketSlug'] ?? p['slug'];
    if (market !== undefined && slug !== market) return false;
    if ((kind === 'prices' || kind === 'book') && typeof slug === 'string' && !slugs.includes(slug)) return false;
    if (clientId !== undefined && p['clientOrderId'] !== clientId) return false;
    if (kind === 'markets') {
      // The exchange may send both namings of one event; show it once.
      const key = `${name.toLowerCase().includes('created') ? 'created' : 'resolved'}:${String(slug)}`;
      if (seenLifecycle.has(key)) return false;
      seenLifecycle.add(key);
    }
    return true;
  };

  /** Writes one event unless filtered out or the watch is over; says whether it was written. */
  const deliver = (name: string, p: Record<string, unknown>): boolean => {
    if (finished || !keep(name, p)) return false;
    if (screen) write(bookScreen(p, ctx.out.c, optNum(opts, 'depth') ?? 10));
    else if (json || kind === 'book') write(ndjson(name, p));
    else write(`${eventLine(name, p, ctx.out.c)}\n`);
    printed += 1;
    if (count !== undefined && printed >= count) {
      finished = true;
      client?.stop();
    }
    return true;
  };

  // Orders: one ledger of what was written judges live and replayed events alike.
  const ledger = kind === 'orders' ? new OrderLedger() : null;
  const onEvent = (name: string, payload: unknown): void => {
    const p = (payload ?? {}) as Record<string, unknown>;
    if (ledger && name === 'orderEvent' && !ledger.admit(p)) return;
    deliver(name, p);
  };

  const record = (l: Lifecycle): void => {
    if (finished) return;
    if (json) write(ndjson('lifecycle', l));
    if (!screen) ctx.out.info(ctx.out.c.dim(lifecycleLine(l)));
  };
  let rest: Promise<ApiClient> | undefined;
  const catchUp = ledger
    ? new OrderCatchUp({
        api: () => (rest ??= ctx.api(auth)),
        ledger,
        write: (ev) => deliver('orderEvent', ev),
        lifecycle: record,
      })
    : null;
  const onLifecycle = (l: Lifecycle): void => {
    record(l);
    catchUp?.on(l);
  };

  client = new StreamClient({
    wsUrl: ctx.wsUrl,
    auth,
    subscriptions: subs,
    onEvent,
    onLifecycle,
    giveUpAfterMs: ctx.timeoutMs,
    confirmTimeoutMs: Math.min(5_000, ctx.timeoutMs),
    userAgent: 'pm-cli',
    signal: ctx.signal,
  });
  if (until !== undefined) {
    const c = client;
    untilTimer = setTimeout(() => c.stop(), Math.max(0, until - Date.now()));
  }
  if (screen) out.write('\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J');
  try {
    await catchUp?.start();
    await client.run();
  } finally {
    finished = true;
    catchUp?.stop();
    if (untilTimer) clearTimeout(untilTimer);
    flush();
    if (screen) out.write('\x1b[?25h\x1b[?1049l');
  }
  return ctx.signal?.aborted ? 130 : 0;
}
