// The live stream client (wire-facts §6): socket.io-client on the /markets namespace, auth in
// the handshake headers (HMAC over the fixed handshake string, or X-API-Key), rebuilt with a
// fresh timestamp before every reconnect attempt (the exchange checks a ±30 s window, and
// socket.io would otherwise resend the first handshake's headers). Reconnects use backoff with
// jitter; every subscription is sent again after each (re)connect, since the exchange keeps
// none across disconnects. The `subscribed` / `resubscribed` record waits for the exchange's
// confirmation (a `system` message per subscription), since events before it are not sent to
// this socket; without one within `confirmTimeoutMs` it is written with `confirmed: false`.
// An `exception` (auth refused) ends the stream with an AuthError; no connection for
// `giveUpAfterMs` ends it with a NetworkError.
import type { Socket } from 'socket.io-client';
import { authHeaders, authHeadersAsync } from './auth.js';
import type { AuthProvider } from './auth.js';
import { AuthError, NetworkError } from './errors.js';
import { proxyAuthError, proxyFor, proxyHint } from './proxy.js';
import type { ProxyRoute, ProxySettings } from './proxy.js';
import type { InputWords } from './trade/terms.js';

/** What SDKs sign for the upgrade request, whatever query socket.io actually sends. */
const HANDSHAKE_TARGET = '/socket.io/?EIO=4&transport=websocket';

export type Channel =
  | 'subscribe_market_prices'
  | 'subscribe_order_events'
  | 'subscribe_positions'
  | 'subscribe_transactions'
  | 'subscribe_market_lifecycle';

export interface Subscription {
  channel: Channel;
  options: Record<string, unknown>;
}

/** How each channel's confirmation reads (`system`: "Successfully subscribed to position updates"). */
const CONFIRMS: Record<Channel, RegExp> = {
  subscribe_market_prices: /price/i,
  subscribe_order_events: /order/i,
  subscribe_positions: /position/i,
  subscribe_transactions: /transaction/i,
  subscribe_market_lifecycle: /lifecycle|market.*(creat|resol)/i,
};

export type Lifecycle =
  | { type: 'connected'; url: string; at: string }
  | { type: 'subscribed'; channels: string[]; confirmed: boolean; at: string }
  | { type: 'disconnected'; reason: string; at: string }
  | { type: 'reconnected'; afterMs: number; attempts: number; at: string }
  | { type: 'resubscribed'; channels: string[]; confirmed: boolean; at: string }
  | { type: 'retrying'; attempt: number; error: string; at: string }
  // Written by the order stream's gap fill (core/gapfill.ts), not by StreamClient.
  | { type: 'caught-up'; replayed: number; at: string }
  | { type: 'catch-up-failed'; error: string; retryInMs: number; at: string };

/** The channel a `system` payload confirms among those still waiting, or null. */
function confirmedChannel(payload: unknown, waiting: readonly Channel[]): Channel | null {
  const msg =
    typeof payload === 'string'
      ? payload
      : typeof (payload as { message?: unknown })?.message === 'string'
        ? String((payload as { message: string }).message)
        : '';
  if (!/\bsubscribed\b/i.test(msg) || /unsubscribed/i.test(msg)) return null;
  // A confirmation in words pm does not know still confirms the only subscription waiting.
  return waiting.find((c) => CONFIRMS[c].test(msg)) ?? (waiting.length === 1 ? (waiting[0] ?? null) : null);
}

export interface StreamOptions {
  /** The exchange's socket.io base URL (wss://…); the namespace /markets is appended. */
  wsUrl: string;
  auth?: AuthProvider | undefined;
  subscriptions: Subscription[];
  /** Every server event except system/exception, in arrival order. */
  onEvent: (name: string, payload: unknown) => void;
  onLifecycle?: ((l: Lifecycle) => void) | undefined;
  /** Give up (NetworkError) after this long without a connection. */
  giveUpAfterMs: number;
  /** Write the (re)subscribed record unconfirmed after this long without confirmation (default 5 s). */
  confirmTimeoutMs?: number | undefined;
  reconnectDelayMs?: number | undefined;
  reconnectDelayMaxMs?: number | undefined;
  /** Jitter as socket.io's randomizationFactor (0..1). */
  jitter?: number | undefined;
  userAgent?: string | undefined;
  signal?: AbortSignal | undefined;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as the caller resolved them. */
  proxy?: ProxySettings | undefined;
  /** Whose words hints use: the CLI's flags and commands ('flags', the default) or the library's options. */
  words?: InputWords | undefined;
}

/**
 * What carries a websocket to `url` through the proxy that applies to it (a CONNECT tunnel), for
 * socket.io's `agent` option; none when the connection is direct. `onConnect` hears each CONNECT's status.
 */
export async function streamAgent(
  url: string,
  proxy: ProxySettings | undefined,
  onConnect?: (status: number) => void,
): Promise<{ route: ProxyRoute; agent: import('node:http').Agent } | undefined> {
  const route = proxyFor(url, proxy);
  if (!route) return undefined;
  const { proxyAgent } = await import('./proxy-agent.js');
  return { route, agent: proxyAgent(route.url, true, onConnect) };
}

/** The handshake headers: HMAC (fresh timestamp) when a token is set, else X-API-Key, else none. */
function handshakeHeaders(auth: AuthProvider | undefined, now: Date = new Date()): Record<string, string> {
  if (!auth) return {};
  return authHeaders(auth, 'auto', 'GET', HANDSHAKE_TARGET, '', now).headers;
}

/** The namespace URL for a base URL (ws://host:port → ws://host:port/markets). */
function namespaceUrl(wsUrl: string): string {
  return `${wsUrl.replace(/\/+$/, '')}/markets`;
}

export class StreamClient {
  private socket: Socket | null = null;
  private stopped = false;
  private settle: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  private giveUp: NodeJS.Timeout | null = null;
  private disconnectedAt: number | null = null;
  private connects = 0;
  private lastError = '';
  private attempts = 0;
  private waiting: Channel[] = [];
  private confirmTimer: NodeJS.Timeout | null = null;
  private onConfirmed: (() => void) | null = null;

  constructor(private readonly o: StreamOptions) {}

  /** Runs until stop() (resolves) or a refusal / give-up (rejects). */
  async run(): Promise<void> {
    // A stop() before the socket exists (--until already past, Ctrl-C while loading) ends the run
    // here: stop() cannot resolve a run it came before.
    if (this.stopped) return;
    const { io } = await import('socket.io-client');
    if (this.stopped) return;
    const o = this.o;
    const done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    const url = namespaceUrl(o.wsUrl);
    // A signer in another process (the session agent) answers asynchronously: its headers are
    // made ahead, and made again after every failed or lost connection, for the next attempt.
    let ahead = o.auth ? (await authHeadersAsync(o.auth, 'auto', 'GET', HANDSHAKE_TARGET, '')).headers : {};
    if (this.stopped) return;
    const remake = (): void => {
      if (o.auth)
        void authHeadersAsync(o.auth, 'auto', 'GET', HANDSHAKE_TARGET, '').then(
          (h) => (ahead = h.headers),
          () => undefined,
        );
    };
    const handshake = (): Record<string, string> => {
      try {
        return handshakeHeaders(o.auth);
      } catch {
        remake();
        return ahead;
      }
    };
    // Through a proxy: a 407 to the tunnel is the proxy asking for credentials (exit 3).
    let proxyStatus = 200;
    const viaProxy = await streamAgent(url, o.proxy, (status) => {
      proxyStatus = status;
      if (status === 407 && viaProxy) this.fail(proxyAuthError(viaProxy.route));
    });
    if (this.stopped) return;
    // (socket.io's types say a string; engine.io hands the object to ws, which uses it as its agent.)
    const agentOption: Record<string, unknown> = viaProxy ? { agent: viaProxy.agent } : {};
    const socket = io(url, {
      ...agentOption,
      transports: ['websocket'],
      forceNew: true,
      reconnection: true,
      reconnectionDelay: o.reconnectDelayMs ?? 500,
      reconnectionDelayMax: o.reconnectDelayMaxMs ?? 5_000,
      randomizationFactor: o.jitter ?? 0.5,
      timeout: Math.min(10_000, Math.max(1_000, o.giveUpAfterMs)),
      extraHeaders: { ...ahead, 'user-agent': o.userAgent ?? 'pm-cli' },
    });
    this.socket = socket;
    const now = (): string => new Date().toISOString();
    const armGiveUp = (): void => {
      if (this.giveUp) return;
      this.giveUp = setTimeout(() => {
        const err = this.lastError ? ` (last error: ${this.lastError})` : '';
        this.fail(
          new NetworkError(`no connection to the exchange stream at ${url} for ${Math.round(o.giveUpAfterMs / 100) / 10} s${err}`, {
            hint: viaProxy
              ? proxyHint(viaProxy.route, url)
              : o.words === 'keys'
                ? "Check createClient's wsUrl (or baseUrl, from which it is made) and that it is reachable; timeoutMs sets how long pm waits."
                : 'Check the exchange URL (--ws-url, PM_WS_URL, the profile) and that it is reachable; --timeout sets how long pm waits.',
          }),
        );
      }, o.giveUpAfterMs);
    };
    armGiveUp();
    // A new timestamp (and signature) for every attempt.
    socket.io.on('reconnect_attempt', () => {
      socket.io.opts.extraHeaders = { ...handshake(), 'user-agent': o.userAgent ?? 'pm-cli' };
    });
    socket.io.on('reconnect', (attempts: number) => {
      const afterMs = this.disconnectedAt === null ? 0 : Date.now() - this.disconnectedAt;
      o.onLifecycle?.({ type: 'reconnected', afterMs, attempts, at: now() });
    });
    socket.on('connect', () => {
      if (this.giveUp) clearTimeout(this.giveUp);
      this.giveUp = null;
      this.attempts = 0;
      this.connects += 1;
      if (this.connects === 1) o.onLifecycle?.({ type: 'connected', url, at: now() });
      const first = this.connects === 1;
      const channels = o.subscriptions.map((s) => s.channel);
      const record = (confirmed: boolean): void => {
        this.clearConfirm();
        o.onLifecycle?.(
          first ? { type: 'subscribed', channels, confirmed, at: now() } : { type: 'resubscribed', channels, confirmed, at: now() },
        );
      };
      this.clearConfirm();
      this.waiting = [...channels];
      this.onConfirmed = () => record(true);
      this.confirmTimer = setTimeout(() => record(false), o.confirmTimeoutMs ?? 5_000);
      for (const s of o.subscriptions) socket.emit(s.channel, s.options);
    });
    socket.on('system', (p: unknown) => {
      const c = confirmedChannel(p, this.waiting);
      if (c === null) return;
      this.waiting = this.waiting.filter((w) => w !== c);
      if (this.waiting.length === 0) this.onConfirmed?.();
    });
    socket.on('connect_error', (e: Error) => {
      remake();
      this.lastError = viaProxy && proxyStatus !== 200 ? `the proxy ${viaProxy.route.shown} answered ${proxyStatus}` : e.message;
      this.attempts += 1;
      o.onLifecycle?.({ type: 'retrying', attempt: this.attempts, error: this.lastError, at: now() });
      armGiveUp();
    });
    socket.on('disconnect', (reason: string) => {
      remake();
      this.clearConfirm();
      if (this.stopped) return;
      this.disconnectedAt = Date.now();
      o.onLifecycle?.({ type: 'disconnected', reason, at: now() });
      // A server-side disconnect is not retried by socket.io itself.
      if (reason === 'io server disconnect') socket.connect();
      armGiveUp();
    });
    socket.on('exception', (p: unknown) => {
      const msg =
        typeof p === 'string'
          ? p
          : typeof (p as { message?: unknown })?.message === 'string'
            ? String((p as { message: string }).message)
            : JSON.stringify(p);
      this.fail(
        new AuthError(`the exchange refused the stream: ${msg}`, {
          hint:
            o.words === 'keys'
              ? "Check createClient's token: a private channel needs a valid token with the trading scope."
              : 'Check the API token (pm whoami); a private channel needs a valid token with the trading scope.',
        }),
      );
    });
    socket.onAny((name: string, payload: unknown) => {
      if (name === 'exception' || name === 'system') return;
      o.onEvent(name, payload);
    });
    const sig = o.signal;
    const onAbort = (): void => this.stop();
    if (sig) {
      if (sig.aborted) this.stop();
      else sig.addEventListener('abort', onAbort, { once: true });
    }
    try {
      await done;
    } finally {
      sig?.removeEventListener('abort', onAbort);
    }
  }

  private fail(e: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.cleanup();
    this.settle?.reject(e);
  }

  /** Forgets the subscriptions still waiting for confirmation (none is recorded twice). */
  private clearConfirm(): void {
    if (this.confirmTimer) clearTimeout(this.confirmTimer);
    this.confirmTimer = null;
    this.waiting = [];
    this.onConfirmed = null;
  }

  private cleanup(): void {
    this.clearConfirm();
    if (this.giveUp) clearTimeout(this.giveUp);
    this.giveUp = null;
    this.socket?.removeAllListeners();
    this.socket?.io.removeAllListeners();
    this.socket?.close();
  }

  /**
   * Stops reading from the exchange until resume(): the socket's reads pause, so a consumer that
   * cannot keep up (a full stdout pipe) holds events back in the kernel and at the exchange
   * instead of in this process's memory. A reconnect starts reading again.
   */
  pause(): void {
    this.transportSocket()?.pause?.();
  }

  /** Reads again after pause(). */
  resume(): void {
    this.transportSocket()?.resume?.();
  }

  /** The `ws` WebSocket under socket.io's websocket transport, when that is the transport. */
  private transportSocket(): { pause?: () => void; resume?: () => void } | undefined {
    const io = this.socket?.io as unknown as { engine?: { transport?: { ws?: { pause?: () => void; resume?: () => void } } } } | undefined;
    return io?.engine?.transport?.ws ?? undefined;
  }

  /** Ends the stream (resolves run()). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.cleanup();
    this.settle?.resolve();
  }
}
