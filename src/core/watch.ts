// One live stream from the exchange's socket.io /markets namespace, as the CLI's `pm watch` and
// the library's `watch.*()` both use it: the subscriptions of a kind, the filter of its events,
// reconnection with a fresh signature (StreamClient), and for orders the gap filled from REST
// after every reconnect (core/gapfill.ts) with no event delivered twice.
import { OrderCatchUp, OrderLedger } from './gapfill.js';
import type { AuthProvider } from './auth.js';
import type { ApiClient } from './http.js';
import { StreamClient } from './stream.js';
import type { Lifecycle, Subscription } from './stream.js';
import type { ProxySettings } from './proxy.js';
import type { InputWords } from './trade/terms.js';

export type WatchKind = 'orders' | 'positions' | 'prices' | 'book' | 'markets' | 'tx';

/** The socket.io events each kind delivers. */
const EVENTS: Record<WatchKind, readonly string[]> = {
  orders: ['orderEvent'],
  positions: ['positions'],
  tx: ['tx'],
  prices: ['orderbookUpdate', 'newPriceData'],
  book: ['orderbookUpdate'],
  markets: ['marketCreated', 'market.created', 'marketResolved', 'market.resolved'],
};

/** Kinds that need an API token. */
export const PRIVATE_KINDS: readonly WatchKind[] = ['orders', 'positions', 'tx'];

export interface WatchParams {
  kind: WatchKind;
  wsUrl: string;
  /** Required for PRIVATE_KINDS. */
  auth?: AuthProvider | undefined;
  /** A REST client (with the same credentials), for the order gap fill; made on first use. */
  api: () => Promise<ApiClient>;
  /** prices/book: the markets to follow (at least one). */
  slugs?: string[] | undefined;
  /** Only events of this market. */
  market?: string | undefined;
  /** Only events of the order with this client id. */
  clientId?: string | undefined;
  /** How long to keep trying while there is no connection (then the run rejects). */
  giveUpAfterMs: number;
  userAgent?: string | undefined;
  signal?: AbortSignal | undefined;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as the caller resolved them. */
  proxy?: ProxySettings | undefined;
  /** Whose words the stream's hints use: the CLI's ('flags', the default) or the library's ('keys'). */
  words?: InputWords | undefined;
}

export interface WatchHandlers {
  /** An event that passed the filter (live, or replayed after a gap with `replayed: true`). */
  event(name: string, payload: Record<string, unknown>): void;
  lifecycle(l: Lifecycle): void;
}

export interface Watch {
  /** Runs until stop() or the signal (resolves), or a refusal / give-up (rejects). */
  run(): Promise<void>;
  stop(): void;
  /** Backpressure: stop reading from the exchange until resume(). */
  pause(): void;
  resume(): void;
}

function subscriptions(p: WatchParams): Subscription[] {
  switch (p.kind) {
    case 'orders':
      return [{ channel: 'subscribe_order_events', options: {} }];
    case 'positions':
      return [{ channel: 'subscribe_positions', options: p.market !== undefined ? { marketSlugs: [p.market] } : {} }];
    case 'tx':
      return [{ channel: 'subscribe_transactions', options: {} }];
    case 'prices':
    case 'book':
      return [{ channel: 'subscribe_market_prices', options: { marketSlugs: p.slugs ?? [] } }];
    case 'markets':
      return [{ channel: 'subscribe_market_lifecycle', options: {} }];
  }
}

/**
 * Opens a watch: nothing connects until run().
 * @example const w = openWatch({ kind: 'prices', wsUrl, slugs: ['btc-100k-2026'], api, giveUpAfterMs: 30_000 }, { event: console.log, lifecycle() {} }); await w.run();
 */
/** A market lifecycle event under the SDKs' name (marketCreated, marketResolved), whichever naming came. */
const lifecycleName = (name: string): string => (name.toLowerCase().includes('created') ? 'marketCreated' : 'marketResolved');

export function openWatch(p: WatchParams, h: WatchHandlers): Watch {
  const wanted = new Set(EVENTS[p.kind]);
  const slugs = p.slugs ?? [];
  const seenLifecycle = new Set<string>();
  let stopped = false;
  const keep = (name: string, ev: Record<string, unknown>): boolean => {
    if (!wanted.has(name)) return false;
    const slug = ev['marketSlug'] ?? ev['slug'];
    if (p.market !== undefined && slug !== p.market) return false;
    if ((p.kind === 'prices' || p.kind === 'book') && typeof slug === 'string' && !slugs.includes(slug)) return false;
    if (p.clientId !== undefined && ev['clientOrderId'] !== p.clientId) return false;
    if (p.kind === 'markets') {
      // The exchange may send one event under both namings (same body): deliver it once. A market
      // resolved again (the payout posted later) is a new body, so a new event.
      const key = `${lifecycleName(name)}:${JSON.stringify(ev)}`;
      if (seenLifecycle.has(key)) return false;
      if (seenLifecycle.size >= 1000) seenLifecycle.clear();
      seenLifecycle.add(key);
    }
    return true;
  };
  /** Hands one event on unless filtered out or stopped; says whether it was delivered. */
  const deliver = (name: string, ev: Record<string, unknown>): boolean => {
    if (stopped || !keep(name, ev)) return false;
    h.event(p.kind === 'markets' ? lifecycleName(name) : name, ev);
    return true;
  };
  // Orders: one ledger of what was delivered judges live and replayed events alike.
  const ledger = p.kind === 'orders' ? new OrderLedger() : null;
  const lifecycle = (l: Lifecycle): void => {
    if (!stopped) h.lifecycle(l);
  };
  const catchUp = ledger ? new OrderCatchUp({ api: p.api, ledger, write: (ev) => deliver('orderEvent', ev), lifecycle }) : null;
  const client = new StreamClient({
    wsUrl: p.wsUrl,
    auth: p.auth,
    subscriptions: subscriptions(p),
    onEvent: (name, payload) => {
      const ev = (payload ?? {}) as Record<string, unknown>;
      if (ledger && name === 'orderEvent' && !ledger.admit(ev)) return;
      deliver(name, ev);
    },
    onLifecycle: (l) => {
      lifecycle(l);
      catchUp?.on(l);
    },
    giveUpAfterMs: p.giveUpAfterMs,
    confirmTimeoutMs: Math.min(5_000, p.giveUpAfterMs),
    userAgent: p.userAgent ?? 'pm',
    signal: p.signal,
    proxy: p.proxy,
    words: p.words,
  });
  return {
    async run() {
      try {
        await catchUp?.start();
        await client.run();
      } finally {
        stopped = true;
        catchUp?.stop();
      }
    },
    stop() {
      stopped = true;
      client.stop();
    },
    pause: () => client.pause(),
    resume: () => client.resume(),
  };
}
