// A recording of markets as the exchange shows them (pm record): one self-describing NDJSON file,
// format "pm-recording" version 1 (docs/recording.md). The first line is the header (what was
// recorded, from where, each market's full detail); every later line is one thing that happened,
// with the time it was received: book snapshots and updates, price moves, the market's trades
// (polled from its public feed), connection lifecycle, gaps (written as gaps, never papered over:
// the book between a disconnect and the snapshot after the reconnect is not known) and
// resolutions. Every line is appended on its own and synced, so the file is valid after a kill -9
// at any moment: a reader ignores a last line cut short (no newline).
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { ApiClient } from './http.js';
import { getMarket, feedEvents } from './markets.js';
import type { ProxySettings } from './proxy.js';
import { sleep } from './retry.js';
import type { Lifecycle } from './stream.js';
import { openWatch } from './watch.js';

const RECORDING_FORMAT = 'pm-recording';
const RECORDING_VERSION = 1;

export type RecordType = 'book' | 'price' | 'trade' | 'lifecycle' | 'gap' | 'resolved' | 'end';

interface RecordLine {
  /** When pm received it (ISO 8601, ms). */
  t: string;
  type: RecordType;
  /** The market it belongs to (absent for the connection's lifecycle). */
  market?: string | undefined;
  data: Record<string, unknown>;
}

export interface RecordSummary {
  file: string;
  markets: string[];
  events: number;
  byType: Record<RecordType, number>;
  gaps: number;
  startedAt: string;
  endedAt: string;
  /** Recorded time, in ms. */
  spanMs: number;
}

export interface RecordOptions {
  /** The public client (market details, the trade feed). */
  api: ApiClient;
  wsUrl: string;
  slugs: string[];
  /** The file to write (created; an existing one is refused by the caller). */
  file: string;
  /** Epoch ms to stop at (else the signal). */
  until?: number | undefined;
  /** How often each market's trade feed is polled (default 2 s: the per-token limit stays far away). */
  pollMs?: number | undefined;
  signal?: AbortSignal | undefined;
  proxy?: ProxySettings | undefined;
  userAgent?: string | undefined;
  /** Called after each line with the running summary (a progress line on a terminal). */
  onProgress?: ((s: RecordSummary) => void) | undefined;
  pmVersion: string;
}

/** One line appended and synced: what a kill -9 can leave is a last line without its newline. */
class LineFile {
  private readonly fd: number;
  constructor(file: string) {
    this.fd = openSync(file, 'wx', 0o644);
  }
  append(v: unknown): void {
    writeSync(this.fd, `${JSON.stringify(v)}\n`);
    fsyncSync(this.fd);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** A feed event's identity (the feed has no ids): its whole text. */
const feedKey = (e: Record<string, unknown>): string => JSON.stringify(e);

/** Events a page of the feed holds, and how many pages one poll reads at most (1,000 trades). */
const FEED_PAGE = 25;
const MAX_FEED_PAGES = 40;

/**
 * The feed's events not in `known`, oldest first: pages read (newest first) until one holds a
 * known event or the feed ends, at most `maxPages` (`more`: the last page read held only new
 * ones and the feed goes on). Events that shifted to the next page while it was read come once.
 */
async function unseenFeed(
  api: ApiClient,
  slug: string,
  known: ReadonlySet<string>,
  maxPages: number,
): Promise<{ events: Record<string, unknown>[]; more: boolean }> {
  const found = new Map<string, Record<string, unknown>>();
  for (let page = 1; page <= maxPages; page++) {
    const { events, totalPages } = await feedEvents(api, slug, { page, limit: FEED_PAGE });
    const fresh = events.filter((e) => !known.has(feedKey(e)));
    for (const e of fresh) if (!found.has(feedKey(e))) found.set(feedKey(e), e);
    if (fresh.length < events.length || events.length < FEED_PAGE || page >= totalPages)
      return { events: [...found.values()].reverse(), more: false };
  }
  return { events: [...found.values()].reverse(), more: true };
}

/**
 * Records `slugs` until `until` or the signal; resolves with the summary (the file ends with an
 * `end` line). A market that does not exist fails before the file is written.
 * @example await recordMarkets({ api, wsUrl, slugs: ['btc-100k-2026'], file: 'btc.ndjson', until: Date.now() + 60_000, pmVersion })
 */
export async function recordMarkets(o: RecordOptions): Promise<RecordSummary> {
  const markets = await Promise.all(o.slugs.map((s) => getMarket(o.api, s)));
  const startedAt = new Date().toISOString();
  const out = new LineFile(o.file);
  const byType: Record<RecordType, number> = { book: 0, price: 0, trade: 0, lifecycle: 0, gap: 0, resolved: 0, end: 0 };
  const summary = (): RecordSummary => {
    const endedAt = new Date().toISOString();
    return {
      file: o.file,
      markets: markets.map((m) => m.slug),
      events: Object.values(byType).reduce((a, b) => a + b, 0) - byType.end,
      byType: { ...byType },
      gaps: byType.gap,
      startedAt,
      endedAt,
      spanMs: Date.parse(endedAt) - Date.parse(startedAt),
    };
  };
  const write = (type: RecordType, data: Record<string, unknown>, market?: string): void => {
    const line: RecordLine = { t: new Date().toISOString(), type, ...(market !== undefined ? { market } : {}), data };
    out.append(line);
    byType[type]++;
    o.onProgress?.(summary());
  };
  out.append({
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    pm: o.pmVersion,
    source: o.api.baseUrl,
    startedAt,
    markets: markets.map((m) => m.raw),
  });

  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  if (o.signal?.aborted) stop.abort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = o.until === undefined ? undefined : setTimeout(() => stop.abort(), Math.max(0, o.until - Date.now()));
  const wanted = new Set(markets.map((m) => m.slug));
  let lostAt: string | null = null;
  const lifecycle = (l: Lifecycle): void => {
    write('lifecycle', { ...l });
    // A disconnect starts a gap; the snapshot after the reconnect ends it.
    if (l.type === 'disconnected') lostAt = l.at;
    if (l.type === 'reconnected' && lostAt !== null) {
      for (const m of wanted) write('gap', { from: lostAt, to: l.at, reason: 'disconnected' }, m);
      lostAt = null;
    }
  };
  const common = {
    wsUrl: o.wsUrl,
    api: async () => o.api,
    giveUpAfterMs: 60_000,
    signal: stop.signal,
    proxy: o.proxy,
    userAgent: o.userAgent,
  };
  const prices = openWatch(
    { ...common, kind: 'prices', slugs: [...wanted] },
    {
      event: (name, ev) => {
        const market = typeof ev['marketSlug'] === 'string' ? ev['marketSlug'] : undefined;
        write(name === 'orderbookUpdate' ? 'book' : 'price', ev, market);
      },
      lifecycle,
    },
  );
  const resolutions = openWatch(
    { ...common, kind: 'markets' },
    {
      event: (name, ev) => {
        const slug = ev['slug'] ?? ev['marketSlug'];
        if (name === 'marketResolved' && typeof slug === 'string' && wanted.has(slug)) write('resolved', ev, slug);
      },
      lifecycle: () => undefined,
    },
  );
  // The trades: each market's public feed, polled; only what was not seen before is written.
  const seen = new Map<string, Set<string>>(markets.map((m) => [m.slug, new Set<string>()]));
  const poll = async (): Promise<void> => {
    let first = true;
    while (!stop.signal.aborted) {
      for (const m of markets) {
        const known = seen.get(m.slug) ?? new Set<string>();
        const from = new Date().toISOString();
        try {
          // (What the first poll finds happened before the recording started: only remembered.)
          const found = await unseenFeed(o.api.withSignal(stop.signal), m.slug, known, first ? 1 : MAX_FEED_PAGES);
          for (const e of found.events) {
            known.add(feedKey(e));
            if (!first && e['eventType'] === 'NEW_TRADE') write('trade', e, m.slug);
          }
          if (found.more && !first)
            write('gap', { from, reason: `more than ${MAX_FEED_PAGES * FEED_PAGE} trades between two polls` }, m.slug);
        } catch {
          if (stop.signal.aborted) return;
          // A failed poll is a gap in the trades, said as such.
          write('gap', { from, reason: 'trade feed unavailable' }, m.slug);
        }
      }
      first = false;
      await sleep(o.pollMs ?? 2000, stop.signal).catch(() => undefined);
    }
  };
  try {
    await Promise.all([prices.run(), resolutions.run(), poll()]);
  } finally {
    if (timer) clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    prices.stop();
    resolutions.stop();
    const s = summary();
    out.append({ t: s.endedAt, type: 'end', data: { events: s.events, gaps: s.gaps, spanMs: s.spanMs } });
    out.close();
  }
  return summary();
}
