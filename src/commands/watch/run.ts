// `pm watch <channel>`: one live stream from the exchange's socket.io /markets namespace.
// Human mode prints one line per event (stdout) and lifecycle lines (stderr); --json prints
// NDJSON, one record per event written at once, `{"event": <socket.io event>, ...payload}`,
// plus `{"event":"lifecycle","type":…}` records so a bot can tell a gap happened. For orders,
// every gap is then filled from REST (core/gapfill.ts), and no event is written twice.
import type { Context } from '../../cli/context.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import { slugFrom } from '../../core/market-input.js';
import { getMarket } from '../../core/markets.js';
import { openWatch, PRIVATE_KINDS } from '../../core/watch.js';
import { streamJson } from '../../core/watch-records.js';
import { proxyFor } from '../../core/proxy.js';
import type { WatchKind } from '../../core/watch.js';
import type { AuthProvider } from '../../core/auth.js';
import { noTokenError } from '../../core/http.js';
import type { ApiClient } from '../../core/http.js';
import { bookScreen, eventLine, lifecycleLine } from './render.js';

/** Checks slugs against the exchange before connecting: an unknown one is not found (exit 4, with a did-you-mean). */
async function checkSlugs(ctx: Context, slugs: string[], kind: WatchKind): Promise<void> {
  if (slugs.length === 0) return;
  const api = await ctx.api();
  for (const slug of slugs) {
    const m = await getMarket(api, slug);
    // Only a CLOB market has a book, and its prices stream as that book (a group's are its markets').
    if (kind !== 'book' && kind !== 'prices') continue;
    if (m.children.length > 0)
      throw new UsageError(
        `${slug} is a group of ${m.children.length} markets: a ${kind === 'book' ? 'book' : 'price stream'} is one market's`,
        {
          hint: `Watch one of them: ${m.children.map((c) => `pm watch ${kind} ${c.slug}`).join(', ')}`,
        },
      );
    if (m.tradeType !== 'clob')
      throw new UsageError(
        `${slug} is ${m.tradeType === 'amm' ? 'an AMM' : `a ${m.tradeType}`} market: it has no order book${kind === 'prices' ? ', and pm streams the prices of order books' : ''}`,
        { hint: `Its prices now: pm markets show ${slug}` },
      );
  }
}

async function streamAuth(ctx: Context): Promise<AuthProvider> {
  const creds = await ctx.credentials();
  const auth = await creds.unlock('auto');
  if (!auth.hmac && !auth.apiKey) throw noTokenError('this stream is private and needs an API token, and none is set');
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

/** A book event with at most `depth` price levels a side (what --depth shows on the screen). */
function bookLevels(p: object, depth: number): object {
  const ob: unknown = (p as { orderbook?: unknown }).orderbook;
  if (typeof ob !== 'object' || ob === null) return p;
  const { bids, asks } = ob as { bids?: unknown; asks?: unknown };
  return {
    ...p,
    orderbook: {
      ...ob,
      ...(Array.isArray(bids) ? { bids: bids.slice(0, depth) } : {}),
      ...(Array.isArray(asks) ? { asks: asks.slice(0, depth) } : {}),
    },
  };
}

/** What the watch commands take besides the kind (each command passes its own flags). */
export interface WatchFlags {
  count?: number | undefined;
  until?: string | undefined;
  market?: string | undefined;
  clientId?: string | undefined;
  depth?: number | undefined;
}

/** Runs one watch; returns the exit code (0, or 130 after Ctrl-C). */
export async function watch(ctx: Context, kind: WatchKind, opts: WatchFlags, slugArgs: string[] = []): Promise<void> {
  const count = opts.count;
  let until: number | undefined;
  if (opts.until !== undefined) {
    until = Date.parse(opts.until);
    if (!/^\d{4}-\d\d-\d\d/.test(opts.until) || !Number.isFinite(until))
      throw new UsageError(`--until must be an ISO 8601 time such as 2026-12-31T18:00:00Z, got "${opts.until}"`, {
        hint: `A time with its zone: --until ${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}Z is an hour from now; --count N stops after N events.`,
      });
  }
  const market = opts.market === undefined ? undefined : slugFrom(opts.market);
  const slugs = slugArgs.map(slugFrom);
  if ((kind === 'prices' || kind === 'book') && slugs.length === 0) throw new UsageError(`pm watch ${kind} needs a market slug`);
  await checkSlugs(ctx, [...slugs, ...(market !== undefined ? [market] : [])], kind);
  const auth = PRIVATE_KINDS.includes(kind) ? await streamAuth(ctx) : undefined;

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
      w.pause();
      drainable.once('drain', () => {
        blocked = false;
        w.resume();
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
  let printed = 0;
  let finished = false;
  let untilTimer: NodeJS.Timeout | undefined;
  let rest: Promise<ApiClient> | undefined;

  const route = proxyFor(ctx.wsUrl, ctx.proxy);
  if (route) ctx.trace(`stream ${ctx.wsUrl} via proxy ${route.shown}`);
  const w = openWatch(
    {
      kind,
      wsUrl: ctx.wsUrl,
      auth,
      api: () => (rest ??= ctx.api(auth)),
      slugs,
      market,
      clientId: opts.clientId,
      giveUpAfterMs: ctx.timeoutMs,
      userAgent: 'pm-cli',
      signal: ctx.signal,
      proxy: ctx.proxy,
    },
    {
      event: (name, p) => {
        if (finished) return;
        if (screen) write(bookScreen(p, ctx.out.c, opts.depth ?? 10));
        else if (json || kind === 'book') write(ndjson(name, streamJson(kind === 'book' ? bookLevels(p, opts.depth ?? 10) : p) as object));
        else write(`${eventLine(name, p, ctx.out.c)}\n`);
        printed += 1;
        if (count !== undefined && printed >= count) {
          finished = true;
          w.stop();
        }
      },
      lifecycle: (l) => {
        if (finished) return;
        if (json) write(ndjson('lifecycle', l));
        if (!screen) ctx.out.info(ctx.out.c.dim(lifecycleLine(l)));
      },
    },
  );
  if (until !== undefined) untilTimer = setTimeout(() => w.stop(), Math.max(0, until - Date.now()));
  if (screen) out.write('\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J');
  try {
    await w.run();
  } finally {
    finished = true;
    if (untilTimer) clearTimeout(untilTimer);
    flush();
    if (screen) out.write('\x1b[?25h\x1b[?1049l');
  }
  if (ctx.signal?.aborted) throw new InterruptedError('interrupted: the stream was stopped', { quiet: true });
}
