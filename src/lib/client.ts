// pm as a library: createClient(options) returns namespaces of the same core functions the CLI's
// commands call, on the same client core (src/core/clientcore.ts) as the CLI's Context: the same
// settings rule, JSON shapes, exactly-once journal and per-token limiter shared with every pm
// process on this PM_HOME. This module never reads the environment: src/lib/index.ts (the
// package entry) fills in the defaults a CLI user would get.
import { join } from 'node:path';
import type { ClientCore, TradingDeps } from '../core/clientcore.js';
import { editConfig, loadConfig } from '../core/config.js';
import type { ProfileConfig } from '../core/config.js';
import type { BalanceCore, BalanceJson } from '../core/balance.js';
import type { ProxySettings } from '../core/proxy.js';
import { Settings, profileNotFound } from '../core/settings.js';
import { AuthError, InterruptedError, NotFoundError, PmError, UsageError, ValidationError, withHint } from '../core/errors.js';
import { unknownKeys } from '../core/suggest.js';
import { sleep } from '../core/retry.js';
import type { AllowlistEntry, AllowlistRemoval } from '../core/funds.js';
import type { RedeemJson, WithdrawJson } from '../core/funds-json.js';
import type { ApiClient } from '../core/http.js';
import type { MarketJson, OrderBookJson } from '../core/market-wire.js';
import type { PricePointJson } from '../core/markets.js';
import type { Allowances, MessageSigner, PartnerAccount, PartnerPage } from '../core/partner.js';
import type { HistoryEntryJson, PnlJson, PositionJson, PositionTotalsJson, TradeJson } from '../core/portfolio.js';
import type { placeParsed } from '../core/trade/index.js';
import type { LineResult } from '../core/trade/batch.js';
import type { CancelAllResult, ReplaceInput, ReplaceResult } from '../core/trade/replace.js';
import type { BatchResult, CancelResult, OpenOrderJson, PlaceResult, StatusJson } from '../core/trade/views.js';
import type {
  LifecycleRecord,
  MarketCreatedRecord,
  MarketResolvedRecord,
  NewPriceDataRecord,
  OrderbookUpdateRecord,
  OrderEventRecord,
  OtherRecord,
  PositionsRecord,
  WatchRecord,
} from '../core/watch-records.js';
import type { MarketPageJson } from '../core/markets.js';
import type { EoaCreate, EoaSubAccount, OrderRequest, Outcome, OutcomeInput, ServerWalletCreate, ServerWalletSubAccount } from './types.js';
import type { WatchKind } from '../core/watch.js';
import { WithdrawalJournal, settleWithdrawal } from '../core/withdrawal-journal.js';
import type { WithdrawalEntry } from '../core/withdrawal-journal.js';
import type { WithdrawOutcome } from '../core/withdrawals.js';
import type * as Engine from './engine.js';

export interface ClientOptions {
  /** REST base URL (default: the profile's, else the real exchange). */
  baseUrl?: string | undefined;
  /** socket.io URL; follows baseUrl when left out (the CLI's rule). */
  wsUrl?: string | undefined;
  /** Signing key (hex). With `token`, no PM_HOME secret is read. */
  privateKey?: string | undefined;
  /** Scoped HMAC API token. */
  token?: { tokenId: string; secret: string } | undefined;
  /** Legacy API key. */
  apiKey?: string | undefined;
  /** Identity token (token management routes only). */
  identityToken?: string | undefined;
  /** A profile of PM_HOME's config: its URLs, wallet and stored token (the session agent signs when it runs). */
  profile?: string | undefined;
  /** The keystore passphrase, for a profile's stored secrets when no session agent holds them. */
  passphrase?: string | undefined;
  /** PM_HOME: config, keystore, order journal, the limiter's shared state. */
  home: string;
  /** A partner acting for one of its sub-accounts (profile id). */
  onBehalfOf?: number | undefined;
  /**
   * Private keys (hex) of EOA sub-accounts whose keys the caller keeps (partner.create returned
   * them): each signs the orders of the sub-account with its address.
   */
  subAccountKeys?: string[] | undefined;
  /** Each call's deadline: its requests and retries end within it (default 30 s). */
  timeoutMs?: number | undefined;
  /**
   * Proxies for REST, the stream and the chain's RPC: { httpsProxy, httpProxy, noProxy }, read as HTTPS_PROXY,
   * HTTP_PROXY and NO_PROXY are (`{}`: connect directly).
   */
  proxy?: ProxySettings | undefined;
  /** Ends every wait and stream of this client. */
  signal?: AbortSignal | undefined;
}

/** Every call takes `{ signal }` (Ctrl-C for a bot). */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** Prices and quantities are decimal strings ('0.42'): a JavaScript number may already be off (0.1 + 0.2). */
function decimalStrings(input: Partial<Record<'price' | 'size' | 'amount', unknown>>): void {
  for (const k of ['price', 'size', 'amount'] as const) {
    const v = input[k];
    if (v !== undefined && typeof v !== 'string')
      throw new ValidationError(`${k} must be a string holding a decimal (e.g. '0.42'), got the ${typeof v} ${String(v)}`, {
        hint: 'Pass it as a string: numbers lose exactness (0.1 + 0.2 is 0.30000000000000004).',
      });
  }
}

/**
 * A call's options, checked before anything is sent (as orders.replace's always were): an object,
 * or left out, whose keys are all `known` (the keys of its type, written with `satisfies` so that
 * the compiler keeps the two the same). A misspelt key or a string in its place is refused, never
 * dropped: orders.cancelAll({ slug }) or orders.cancelAll('slug') would cancel every market.
 * @example checkOptions('orders.cancelAll', { slug: 'x' }, { market: 1 }) // ValidationError: orders.cancelAll takes no slug
 */
function checkOptions(call: string, p: unknown, known: Record<string, 1>, lead?: string): void {
  if (p === undefined) return;
  const keys = Object.keys(known);
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    throw new ValidationError(`${call} takes its options as an object ({ ${keys.join(', ')} }), got ${JSON.stringify(p) ?? String(p)}`, {
      hint:
        typeof p === 'string' && keys.includes('market')
          ? `Did you mean pm.${call}({ market: ${jsString(p)} })?`
          : `Keys: ${keys.join(', ')}.`,
    });
  const extra = unknownKeys(p, keys, 'Keys');
  if (extra)
    throw new ValidationError(`${call} takes no ${extra.unknown.join(', ')}`, {
      // (`lead`: the argument before the options, when the call has one.)
      hint: extra.unknown.includes('signal')
        ? `The signal goes in the next argument: pm.${call}(${lead ? `${lead}, ` : ''}{ ${keys[0]} }, { signal }).`
        : extra.hint,
    });
}

/**
 * A call's `signal`: an AbortSignal, or left out (a look-alike object would abort nothing).
 * @example checkSignal('x') // ValidationError: signal must be an AbortSignal, got "x"
 */
function checkSignal(s: unknown, error = ValidationError): void {
  if (s !== undefined && !(s instanceof AbortSignal))
    throw new error(
      `signal must be an AbortSignal, got ${typeof s === 'object' && s !== null ? 'an object that is not one' : (JSON.stringify(s) ?? String(s))}`,
      { hint: "Pass an AbortController's signal: { signal: controller.signal }." },
    );
}

/**
 * A call's text argument (a market, an id, an address), checked at the boundary: a string, else a
 * ValidationError naming the call (not a TypeError from deep inside).
 * @example checkText('markets.get', 'market', 42) // ValidationError: markets.get takes market as a string, got 42
 */
function checkText(call: string, name: string, v: unknown): string {
  if (typeof v !== 'string') throw new ValidationError(`${call} takes ${name} as a string, got ${JSON.stringify(v) ?? String(v)}`);
  return v;
}

/**
 * The markets a library call to watch prices or a book names, checked at the boundary: a list of
 * slugs (at least one), else a UsageError naming the call (not a TypeError from deep inside).
 * @example watchedMarkets(['btc-100k-2026'], 'watch.prices(markets)') // ['btc-100k-2026']
 */
function watchedMarkets(v: unknown, call: string, one = false): string[] {
  const ok = one
    ? typeof v === 'string' && v !== ''
    : Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s !== '');
  if (!ok)
    throw new UsageError(
      `${call} takes ${one ? 'a market slug (a string)' : 'a non-empty list of market slugs'}, got ${JSON.stringify(v) ?? String(v)}`,
      {
        hint: one ? "e.g. pm.watch.book('btc-100k-2026')" : "e.g. pm.watch.prices(['btc-100k-2026'])",
      },
    );
  return one ? [v as string] : (v as string[]);
}

/** createClient's options (every key of ClientOptions: the compiler keeps the two the same). */
const CLIENT_OPTIONS = Object.keys({
  baseUrl: 1,
  wsUrl: 1,
  privateKey: 1,
  token: 1,
  apiKey: 1,
  identityToken: 1,
  profile: 1,
  passphrase: 1,
  home: 1,
  onBehalfOf: 1,
  subAccountKeys: 1,
  timeoutMs: 1,
  proxy: 1,
  signal: 1,
} satisfies Record<keyof ClientOptions, 1>);
/** The keys orders.replace takes beside the order's id (every key of its parameter). */
const REPLACE_KEYS = {
  price: 1,
  size: 1,
  clientId: 1,
  delegated: 1,
  mode: 1,
  onBehalfOf: 1,
} satisfies Record<keyof ReplaceParams, 1>;
type ReplaceParams = Omit<ReplaceInput, 'orderId' | 'oldClientId'> & { onBehalfOf?: number | undefined };

/** A library call written out to be made as it is: `pm.orders.place({"market":…,"clientId":"…"})`. */
function call(name: string, ...args: unknown[]): string {
  return `pm.${name}(${args.map((a) => (typeof a === 'string' ? jsString(a) : JSON.stringify(a))).join(', ')})`;
}
const jsString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * An order whose outcome is unknown gets the exact call to make again as its hint (the library's
 * `run exactly this`: the core's hint names the CLI's command), and the status check beside it.
 * Other errors pass as they are.
 */
function withCallHint(err: unknown, again: (clientId: string) => string, check?: string): unknown {
  if (!(err instanceof PmError) || err.unknownClientId === undefined) return err;
  const cid = err.unknownClientId;
  const hint = `Make exactly this call again (it never places a second order):\n  ${again(cid)}\nOr check first: ${check ?? `pm.orders.status({ clientIds: [${jsString(cid)}] })`}`;
  return err instanceof InterruptedError
    ? new InterruptedError(err.shortMessage, {
        cause: err,
        sent: err.sent,
        clientId: err.clientId,
        orderId: err.orderId,
        unknownClientId: cid,
        hint,
      })
    : withHint(err, hint, 'replace');
}

/**
 * A client of the exchange for Node bots.
 * @example
 * const pm = createClient({ home, baseUrl: 'http://127.0.0.1:8787', privateKey, token: { tokenId, secret } });
 * const r = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'bot-1' });
 * await pm.close();
 */
export function createClient(options: ClientOptions) {
  // A misspelt option is refused, not dropped (onBehalfof would trade for the partner itself).
  const extra = unknownKeys(options, CLIENT_OPTIONS, 'Options');
  if (extra) {
    const token = extra.unknown.some((k) => /^token(id|secret)$|^secret$/i.test(k));
    throw new UsageError(`createClient has no option${extra.unknown.length > 1 ? 's' : ''} ${extra.unknown.join(', ')}`, {
      hint: token ? 'Pass the API token as token: { tokenId, secret }.' : extra.hint,
    });
  }
  const home = options.home;
  let profile: ProfileConfig = {};
  if (options.profile !== undefined) {
    const cfg = loadConfig(home);
    const p = cfg.profiles[options.profile];
    if (!p) throw profileNotFound(options.profile, Object.keys(cfg.profiles), ` in ${join(home, 'config.json')}`);
    profile = p;
  }
  // Checked as the CLI checks its flags: a bad option is a UsageError (exit 2), never a TypeError.
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0 && options.timeoutMs <= 3_600_000))
    throw new UsageError(`timeoutMs must be a whole number of milliseconds from 1 to 3600000, got ${String(options.timeoutMs)}`);
  checkSignal(options.signal, UsageError);
  for (const [i, k] of (options.subAccountKeys ?? []).entries())
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(k.trim()))
      throw new UsageError(`subAccountKeys[${i}] is not a private key (32 bytes of hex, 64 hex digits)`, {
        hint: 'Pass the keys partner.create returned (privateKey), as they are.',
      });
  const settings = new Settings({
    flag: { baseUrl: options.baseUrl, wsUrl: options.wsUrl, timeoutMs: options.timeoutMs, onBehalfOf: options.onBehalfOf },
    env: {},
    profile,
    names: { baseUrl: 'baseUrl', wsUrl: 'wsUrl', rpcUrl: 'rpcUrl' },
  });
  // Checked here, synchronously, as before the first call: a local/remote mix of URLs is exit 2.
  const urls = settings.endpoints();
  const timeoutMs = settings.timeout().value;
  const onBehalfOf = settings.onBehalfOf().value;
  // EOA sub-accounts' keys the caller keeps, by address: given, or made by partner.create.
  const heldKeys = new Map<string, `0x${string}`>();
  let given: Promise<void> | undefined;
  const holdKey = async (e: typeof Engine, key: string, what: string): Promise<{ key: `0x${string}`; address: `0x${string}` }> => {
    const [{ parsePrivateKey }, { addressOfKey }] = await Promise.all([e.keyModule(), e.secp256k1Module()]);
    const k = parsePrivateKey(key, what);
    const address = addressOfKey(k);
    heldKeys.set(address.toLowerCase(), k);
    return { key: k, address };
  };
  /**
   * The client core and the core functions (src/lib/engine.ts), loaded and made on the first
   * call that needs them: the package's entry stays small (issue 32).
   */
  interface Loaded {
    e: typeof Engine;
    core: ClientCore;
    publicApi: ApiClient;
    journal: ReturnType<ClientCore['orderJournal']>;
  }
  let loaded: Promise<Loaded> | undefined;
  const engine = (): Promise<Loaded> =>
    (loaded ??= import('./engine.js').then((e) => {
      const core = new e.ClientCore({
        home,
        settings,
        profile,
        profileName: options.profile,
        // Credentials: explicit values win; a profile's stored ones are opened on first use.
        credentials: async () =>
          (await e.credentialsModule()).resolveCredentials({
            env: {
              privateKey: options.privateKey,
              tokenId: options.token?.tokenId,
              tokenSecret: options.token?.secret,
              apiKey: options.apiKey,
              identityToken: options.identityToken,
            },
            names: { privateKey: 'privateKey', tokenId: 'token.tokenId', tokenSecret: 'token.secret' },
            profile: options.profile !== undefined ? { wallet: profile.wallet, secrets: profile.secrets } : undefined,
            home,
            passphrase: async () => {
              if (options.passphrase === undefined)
                throw new AuthError('the keystore is locked', { hint: 'Pass { passphrase } to createClient, or run pm unlock first.' });
              return options.passphrase;
            },
          }),
        userAgent: 'pm-lib',
        words: 'keys',
        // (Not the client's signal: it is applied per call, so the kill switch, cancelAll, works after it fired.)
        proxy: options.proxy,
      });
      core.onBehalfOf = onBehalfOf;
      core.heldKeys = async (address) => {
        given ??= Promise.all((options.subAccountKeys ?? []).map((k, i) => holdKey(e, k, `subAccountKeys[${i}]`))).then(() => undefined);
        await given;
        const k = heldKeys.get(address.toLowerCase());
        return k === undefined ? undefined : (await e.keyAccountModule()).keyAccount(k);
      };
      return { e, core, publicApi: core.api(), journal: core.orderJournal() };
    }));
  // The credentials are resolved (a key's address derived) while the caller's first call is on its way.
  engine()
    .then(({ core }) => core.credentials())
    .catch(() => undefined);
  let authed: Promise<ApiClient> | undefined;
  const api = (): Promise<ApiClient> => (authed ??= engine().then(({ core }) => core.tradingApi()));
  const signalOf = (o?: CallOptions): AbortSignal | undefined => {
    checkSignal(o?.signal);
    return o?.signal && options.signal ? AbortSignal.any([o.signal, options.signal]) : (o?.signal ?? options.signal);
  };
  /** A call's last argument: `{ signal }` (an AbortSignal), or left out. */
  const checkCall = (o?: CallOptions): void => {
    checkOptions("a call's last argument ({ signal })", o, { signal: 1 } satisfies Record<keyof CallOptions, 1>);
    checkSignal(o?.signal);
  };
  /**
   * The API client of one call: one deadline (timeoutMs) for all its requests and retries, and
   * its signal with the client's (`own`: the call's signal only, for the kill switch).
   */
  const withSignal = (a: ApiClient, o?: CallOptions, how: { own?: boolean; deadline?: boolean } = {}): ApiClient => {
    checkCall(o);
    const s = how.own ? o?.signal : signalOf(o);
    const d = how.deadline === false ? a : a.withDeadline();
    return s ? d.withSignal(s) : d;
  };
  // Writes of this client still on their way (an aborted call's included): cancelAll waits for them.
  const writes = new Set<Promise<void>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    writes.add(settled);
    void settled.finally(() => writes.delete(settled));
    return p;
  };
  /** Waits (at most timeoutMs, and until `signal`) for the writes of this client on the wire to end. */
  const settleWrites = async (signal?: AbortSignal): Promise<void> => {
    if (writes.size === 0) return;
    const done = new AbortController();
    const limit = sleep(timeoutMs, signal ? AbortSignal.any([signal, done.signal]) : done.signal).catch((e: unknown) => {
      if (signal?.aborted) throw e; // the caller's abort: interrupted
    });
    try {
      await Promise.race([Promise.allSettled([...writes]), limit]);
    } finally {
      done.abort(); // (no timer left behind)
    }
  };
  /** The trading deps of one call (its deadline and signal). */
  const depsFor = async (o?: CallOptions, actingFor?: number): Promise<TradingDeps> => {
    const { core } = await engine();
    const d = await core.tradingDeps(actingFor === undefined ? {} : { onBehalfOf: actingFor });
    return { ...d, api: withSignal(d.api, o) };
  };
  /**
   * The interruption of an order call, saying what is known: a write that may have reached the
   * exchange is `sent: true` (with the order's id when its answer came); the client id always.
   */
  const interruptedOrder = (e: InterruptedError, clientId: string): InterruptedError =>
    e.clientId !== undefined
      ? e
      : new InterruptedError(e.shortMessage, { cause: e, sent: e.sent, clientId, hint: e.hint, unknownClientId: e.unknownClientId });
  const placedDespiteAbort = (what: string, clientId: string, orderId: string | undefined): InterruptedError =>
    new InterruptedError(
      orderId === undefined
        ? `interrupted: ${what} ${clientId} was sent before the abort took effect`
        : `interrupted: ${what} ${clientId} was placed (order ${orderId}) before the abort took effect`,
      {
        sent: true,
        clientId,
        orderId,
        hint:
          orderId === undefined
            ? `Its request reached the exchange: see pm.orders.status({ clientIds: ['${clientId}'] }).`
            : `It exists: cancel it (pm.orders.cancel('${orderId}'), or pm.orders.cancelAll()) or keep it.`,
      },
    );

  const markets = {
    /** One page of active markets (the exchange's objects, as `pm --json markets list`). */
    async list(p: { page?: number; limit?: number; sortBy?: string; all?: boolean } = {}, o?: CallOptions): Promise<MarketJson[]> {
      checkOptions('markets.list', p, { page: 1, limit: 1, sortBy: 1, all: 1 } satisfies Record<keyof typeof p, 1>);
      const { e, publicApi } = await engine();
      const a = withSignal(publicApi, o);
      if (p.all) return (await e.listAllMarkets(a, p)).map(e.marketJson);
      return (await e.listMarkets(a, p)).markets.map(e.marketJson);
    },
    async search(query: string, p: { page?: number; limit?: number } = {}, o?: CallOptions): Promise<MarketJson[]> {
      checkText('markets.search', 'query', query);
      checkOptions('markets.search', p, { page: 1, limit: 1 } satisfies Record<keyof typeof p, 1>, 'query');
      const { e, publicApi } = await engine();
      return (await e.searchMarkets(withSignal(publicApi, o), query, p)).markets.map(e.marketJson);
    },
    /** One market (slug or limitless.exchange URL): pm's checked fields, and the exchange's object in `raw`. */
    async get(slug: string, o?: CallOptions): Promise<MarketJson> {
      const { e, publicApi } = await engine();
      return e.marketJson(await e.getMarket(withSignal(publicApi, o), e.slugFrom(checkText('markets.get', 'market', slug))));
    },
    /** The order book of the YES (default) or NO outcome, prices and sizes as decimals plus raw. */
    async book(slug: string, p: { outcome?: OutcomeInput } = {}, o?: CallOptions): Promise<OrderBookJson & { outcome: Outcome }> {
      checkOptions('markets.book', p, { outcome: 1 } satisfies Record<keyof typeof p, 1>, 'market');
      const { e, publicApi } = await engine();
      // Checked as orders.place checks it ('no ' or 'maybe' is refused, never the YES book).
      const outcome: Outcome =
        p.outcome === undefined
          ? 'YES'
          : e.oneOf(String(p.outcome), ['YES', 'NO'] as const, 'outcome', "e.g. { outcome: 'no' } for the NO book");
      return {
        ...e.bookJson(await e.outcomeBook(withSignal(publicApi, o), e.slugFrom(checkText('markets.book', 'market', slug)), outcome)),
        outcome,
      };
    },
    /**
     * The markets of a market page ('/crypto', 'home'): one page of them (`page`, or `cursor` from
     * an earlier answer's nextCursor), or with `all` every one. `sort`: createdAt, updatedAt,
     * deadline or id, '-' first for descending.
     */
    async page(
      path: string,
      q: { limit?: number; page?: number; cursor?: string; sort?: string; all?: boolean } = {},
      o?: CallOptions,
    ): Promise<MarketPageJson> {
      checkText('markets.page', 'path', path);
      checkOptions('markets.page', q, { limit: 1, page: 1, cursor: 1, sort: 1, all: 1 } satisfies Record<keyof typeof q, 1>, 'path');
      const { e, publicApi } = await engine();
      return e.marketPageJson(await e.marketPage(withSignal(publicApi, o, { deadline: q.all !== true }), path, q));
    },
    /** The YES price history, oldest first. */
    async history(slug: string, q: { interval?: string; from?: string; to?: string } = {}, o?: CallOptions): Promise<PricePointJson[]> {
      checkOptions('markets.history', q, { interval: 1, from: 1, to: 1 } satisfies Record<keyof typeof q, 1>, 'market');
      const { e, publicApi } = await engine();
      return (await e.priceHistory(withSignal(publicApi, o), e.slugFrom(checkText('markets.history', 'market', slug)), q)).points.map(
        e.pricePointJson,
      );
    },
  };

  const orders = {
    /**
     * Places one order exactly once by its `clientId` (generated when absent): a re-send of the
     * same clientId returns the same order with `alreadyPlaced: true`; another order under it is a
     * ConflictError (exit 5). Journaled under PM_HOME before it is sent.
     */
    async place(input: OrderRequest, o?: CallOptions): Promise<PlaceResult> {
      if (typeof input !== 'object' || input === null || Array.isArray(input))
        throw new ValidationError(`orders.place takes an order (an object), got ${JSON.stringify(input) ?? String(input)}`, {
          hint: "e.g. pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10' })",
        });
      decimalStrings(input);
      const { e, journal } = await engine();
      // A request is checked as a batch file's line is (a key it does not know is refused: a typo
      // such as postonly would otherwise send another order), its errors in the request's words.
      const line = e.lineInput(input);
      const parsed = e.parseOrderInput({ ...line, onBehalfOf: line.onBehalfOf ?? onBehalfOf }, 'keys');
      const signal = signalOf(o);
      let placed: Awaited<ReturnType<typeof placeParsed>>['placed'];
      try {
        ({ placed } = await track(depsFor(o).then((d) => e.placeParsed(d, parsed, { journal, signal }))));
      } catch (e) {
        throw withCallHint(e instanceof InterruptedError ? interruptedOrder(e, parsed.clientOrderId) : e, (cid) =>
          call('orders.place', { ...input, clientId: cid }),
        );
      }
      // The answer came after the abort (a write on the wire is waited for): the order exists; say so.
      if (signal?.aborted) throw placedDespiteAbort('order', placed.clientOrderId, placed.orderId);
      return e.placeResult(e.placedJson(placed));
    },
    /**
     * Places orders (each as `place` takes it): one result per line, in line order. Each call is a
     * new batch: the same lines again place again (a bot re-quoting). A line's clientId is its own,
     * or one made from the line and `batchId`; the same `batchId` resumes a batch (its placed lines
     * skipped, unknown ones looked up first), as a line sent again under the clientId its result gives.
     */
    async placeBatch(lines: OrderRequest[], p: { batchId?: string } = {}, o?: CallOptions): Promise<BatchResult[]> {
      if (!Array.isArray(lines))
        throw new ValidationError(`orders.placeBatch takes a list of orders, got ${JSON.stringify(lines) ?? String(lines)}`);
      checkOptions('orders.placeBatch', p, { batchId: 1 } satisfies Record<keyof typeof p, 1>, 'lines');
      const text = lines.map((l) => JSON.stringify(l)).join('\n');
      const { e } = await engine();
      // (Without a batchId, one of its own: the same terms in a later call are a new order, not this one.)
      const parsed = e.parseBatch(text, { batchId: p.batchId ?? e.randomUUID() });
      const invalid = parsed.filter((l) => l.error);
      const results: LineResult[] = parsed.some((l) => l.parsed)
        ? await track(depsFor(o).then((d) => e.runBatch(d, parsed, { signal: signalOf(o) })))
        : [];
      const refused = invalid.map((l) => ({ line: l.line, ok: false as const, sent: 'no' as const, error: l.error as PmError }));
      return [...refused, ...results].sort((a, b) => a.line - b.line).map(e.batchResult);
    },
    /** Cancels orders by id (one id or several): one entry each, an order that is gone is NOT_FOUND (never an exception). */
    async cancel(ids: string | string[], o?: CallOptions): Promise<CancelResult> {
      const list = Array.isArray(ids) ? ids : [ids];
      const { e } = await engine();
      return { results: e.cancelEntries(await e.cancelOrders(withSignal(await api(), o, { own: true }), { ids: list }), null, list) };
    },
    /** Cancels every open order of one market, or (no market) of every market: the kill switch. */
    async cancelAll(p: { market?: string } = {}, o?: CallOptions): Promise<CancelAllResult> {
      // Checked first: dropped, { slug } or a string would cancel every order of every market.
      checkOptions('orders.cancelAll', p, { market: 1 } satisfies Record<keyof typeof p, 1>);
      if (p.market !== undefined) checkText('orders.cancelAll', 'market', p.market);
      checkCall(o);
      // An order whose request is still on its way (an aborted place) is cancelled too: wait for it.
      await settleWrites(o?.signal);
      const { e } = await engine();
      const a = withSignal(await api(), o, { own: true });
      if (p.market !== undefined) {
        const market = e.slugFrom(p.market);
        return e.cancelAllResult({ markets: [{ market, ...(await e.cancelOrders(a, { slug: market })) }] });
      }
      return e.cancelAllResult(await e.cancelEverywhere(a));
    },
    /**
     * Cancel-replace in one request: the old order cancelled and the new one placed (exactly-once
     * by its clientId), or neither. `replacement` is what `place` returns; an old order that is
     * gone is `cancelled.status: 'NOT_FOUND'` with `replacement: null`, as in every cancel.
     */
    async replace(orderId: string, p: ReplaceParams = {}, o?: CallOptions): Promise<ReplaceResult> {
      const signal = signalOf(o);
      checkText('orders.replace', 'orderId', orderId);
      checkOptions('orders.replace', p, REPLACE_KEYS, 'orderId');
      const { onBehalfOf: actingFor, ...input } = p;
      const { e, journal } = await engine();
      const replacing = track(
        depsFor(o, actingFor).then((d) =>
          e.replaceOrder(d, { ...input, orderId }, { journal, signal, notFound: 'outcome', words: 'keys' }),
        ),
      );
      const again = (cid: string) => call('orders.replace', orderId, { ...p, clientId: cid });
      let outcome: Awaited<typeof replacing>;
      try {
        outcome = await replacing;
      } catch (err) {
        throw withCallHint(err, again);
      }
      // The replacement stands (or may) and what became of the old order is unknown: said so.
      const unsure = e.replaceUnknown(outcome, 'keys');
      if (unsure) throw withCallHint(unsure, again, e.oldOrderCheck(outcome.cancel.orderId, 'keys'));
      const r = e.replaceResult(outcome);
      if (signal?.aborted && r.cancelled.status !== 'NOT_FOUND')
        throw placedDespiteAbort('replacement', r.replacement?.clientId ?? p.clientId ?? '', r.replacement?.order.id);
      return r;
    },
    /**
     * Open orders of every market (no `market`) or of one; `all: true` adds its matched, cancelled
     * and unmatched ones (one market only, as `pm order list --market m --all`).
     */
    async list(p: { market?: string | undefined; all?: boolean | undefined } = {}, o?: CallOptions): Promise<OpenOrderJson[]> {
      checkOptions('orders.list', p, { market: 1, all: 1 } satisfies Record<keyof typeof p, 1>);
      if (p.market !== undefined) checkText('orders.list', 'market', p.market);
      const { e } = await engine();
      return e.listOrders(withSignal(await api(), o), p);
    },
    /**
     * Orders by id or client id. An order found under a client id whose outcome the journal has
     * open (a lost answer) is recorded there as placed, as `pm order status` does.
     */
    async status(q: { ids?: string[]; clientIds?: string[] }, o?: CallOptions): Promise<StatusJson[]> {
      checkOptions('orders.status', q, { ids: 1, clientIds: 1 } satisfies Record<keyof typeof q, 1>);
      for (const k of ['ids', 'clientIds'] as const)
        if (q[k] !== undefined && !Array.isArray(q[k]))
          throw new ValidationError(`orders.status takes ${k} as a list, got ${JSON.stringify(q[k])}`, { hint: `e.g. { ${k}: ['…'] }` });
      const { e, journal } = await engine();
      const a = withSignal(await api(), o);
      const results = await e.orderStatus(a, q);
      if (q.clientIds?.length) e.settleFromStatus(journal, a.baseUrl, results);
      return results.map(e.statusJson);
    },
  };

  const portfolio = {
    /** One row per market and outcome held (or with open orders), and their totals. */
    async positions(o?: CallOptions): Promise<{ positions: PositionJson[]; totals: PositionTotalsJson }> {
      const { e } = await engine();
      return e.positionsJson((await e.fetchPositions(withSignal(await api(), o))).rows);
    },
    /** Realised PnL over a timeframe (1d, 7d, 30d, all). */
    async pnl(timeframe = '7d', o?: CallOptions): Promise<PnlJson> {
      checkText('portfolio.pnl', 'timeframe', timeframe);
      const { e } = await engine();
      return e.pnlJson(await e.fetchPnl(withSignal(await api(), o), timeframe));
    },
    /** Your fills, newest first. */
    async trades(o?: CallOptions): Promise<TradeJson[]> {
      const { e } = await engine();
      return (await e.fetchTrades(withSignal(await api(), o))).map(e.tradeJson);
    },
    /** Every history entry, newest first, page by page. */
    async *history(p: { limit?: number; max?: number; since?: number } = {}, o?: CallOptions): AsyncGenerator<HistoryEntryJson> {
      checkOptions('portfolio.history', p, { limit: 1, max: 1, since: 1 } satisfies Record<keyof typeof p, 1>);
      const { e } = await engine();
      const a = withSignal(await api(), o, { deadline: false });
      for await (const h of e.historyEntries(a, { limit: p.limit ?? 100, max: p.max, since: p.since })) yield e.historyEntryJson(h);
    },
  };

  /** The partner's own client (never acting for a sub-account). */
  const partnerApi = async (o?: CallOptions): Promise<ApiClient> => withSignal((await api()).withOnBehalfOf(undefined), o);
  /** Records a new sub-account where the signer rule looks: the profile's records, else PM_HOME's for this exchange. */
  const record = (e: typeof Engine, made: PartnerAccount, rec: { wallet?: string | undefined; serverWallet: boolean }): Promise<void> =>
    editConfig(home, (cfg) =>
      e.recordSubAccountIn(cfg, { profileName: options.profile, baseUrl: urls.baseUrl }, made.profileId, { address: made.account, ...rec }),
    );
  /**
   * The EOA child's key, given or new: with a profile in use, stored in its keystore as the CLI
   * does (wallet child-<address>, encrypted with `passphrase`); else returned to the caller.
   */
  const eoaChild = async (
    given: string | undefined,
  ): Promise<{
    signer: MessageSigner;
    address: `0x${string}`;
    key: `0x${string}`;
    wallet?: string | undefined;
    drop?: (() => Promise<void>) | undefined;
  }> => {
    const { e } = await engine();
    const { randomPrivateKey } = await e.secp256k1Module();
    const { key, address } = await holdKey(e, given ?? randomPrivateKey(), 'privateKey');
    const signer = (await e.keyAccountModule()).keyAccount(key);
    if (options.profile === undefined) return { signer, address, key };
    if (options.passphrase === undefined)
      throw new AuthError("the keystore passphrase is needed to store the sub-account's key", {
        hint: "Pass { passphrase } to createClient (a profile's EOA sub-account keys go into its keystore).",
      });
    const { Keystore } = await e.keystoreModule();
    const ks = new Keystore(home);
    const wallet = `child-${address.slice(2, 10).toLowerCase()}`;
    if (!ks.hasWallet(wallet)) await ks.importWalletKey(wallet, key, options.passphrase);
    return { signer, address, key, wallet, drop: given === undefined ? async () => ks.removeWallet(wallet) : undefined };
  };
  async function create(p: ServerWalletCreate, o?: CallOptions): Promise<ServerWalletSubAccount>;
  async function create(p: EoaCreate, o?: CallOptions): Promise<EoaSubAccount>;
  async function create(p: ServerWalletCreate | EoaCreate, o?: CallOptions): Promise<ServerWalletSubAccount | EoaSubAccount> {
    checkOptions('partner.create', p, { serverWallet: 1, displayName: 1, privateKey: 1 } satisfies Record<
      keyof ServerWalletCreate | keyof EoaCreate,
      1
    >);
    // (Left out, it would make an EOA: which kind is always said.)
    if (typeof p?.serverWallet !== 'boolean')
      throw new ValidationError('partner.create needs serverWallet: true (the exchange signs) or false (an EOA, its own key signs)');
    const { e } = await engine();
    e.checkDisplayName(p.displayName);
    const a = await partnerApi(o);
    if (p.serverWallet) {
      const made = await e.createSubAccount(a, {
        serverWallet: true,
        displayName: p.displayName,
        record: (m) => record(e, m, { serverWallet: true }),
        signal: signalOf(o),
      });
      return { ...made, mode: 'server-wallet' };
    }
    const child = await eoaChild(p.privateKey);
    const made = await e.createSubAccount(a, {
      serverWallet: false,
      displayName: p.displayName,
      child: { signer: child.signer, drop: child.drop },
      record: (m) => record(e, m, { serverWallet: false, wallet: child.wallet }),
      signal: signalOf(o),
    });
    return child.wallet !== undefined ? { ...made, mode: 'eoa', wallet: child.wallet } : { ...made, mode: 'eoa', privateKey: child.key };
  }

  const partner = {
    /**
     * Creates a sub-account: a server wallet (`serverWallet: true`: the exchange signs its orders,
     * placed with `onBehalfOf`), or an EOA (`serverWallet: false`) whose key, given as `privateKey`
     * or made here, signs the exchange's one-time message, then its orders. With a profile in use
     * the key goes into the keystore (`wallet`); else it is returned (`privateKey`): keep it, and
     * hand it to a later client as `subAccountKeys`. This client signs the child's orders with it.
     */
    create,
    async list(p: { page?: number; limit?: number } = {}, o?: CallOptions): Promise<PartnerPage> {
      checkOptions('partner.list', p, { page: 1, limit: 1 } satisfies Record<keyof typeof p, 1>);
      const { e } = await engine();
      return e.listPartnerAccounts(await partnerApi(o), p);
    },
    /** Allowance readiness of a server-wallet sub-account; `wait` polls (and `retry` retries) until confirmed. */
    async allowances(
      profileId: number,
      p: { wait?: boolean; retry?: boolean; timeoutMs?: number } = {},
      o?: CallOptions,
    ): Promise<Allowances> {
      checkOptions('partner.allowances', p, { wait: 1, retry: 1, timeoutMs: 1 } satisfies Record<keyof typeof p, 1>, 'profileId');
      const { e } = await engine();
      const a = await partnerApi(o);
      if (p.wait)
        return e.waitForAllowances(a, profileId, { retry: p.retry === true, timeoutMs: p.timeoutMs ?? 60_000, signal: signalOf(o) });
      return p.retry ? e.retryAllowances(a, profileId) : e.getAllowances(a, profileId);
    },
  };

  /** The withdrawal allowlist's client: the identity token (createClient's identityToken, or the profile's). */
  const identityApi = async (o?: CallOptions): Promise<ApiClient> => withSignal(await (await engine()).core.authedApi('identity'), o);
  const allowlist = {
    /** The addresses withdrawals may go to besides your own (`all`: removed ones too). */
    async list(p: { all?: boolean } = {}, o?: CallOptions): Promise<AllowlistEntry[]> {
      checkOptions('funds.allowlist.list', p, { all: 1 } satisfies Record<keyof typeof p, 1>);
      const { e } = await engine();
      return e.listWithdrawalAddresses(await identityApi(o), p.all === true);
    },
    /** Allows withdrawals to `address`; one already allowed is a ConflictError (exit 5). */
    async add(address: string, p: { label?: string } = {}, o?: CallOptions): Promise<AllowlistEntry> {
      checkOptions('funds.allowlist.add', p, { label: 1 } satisfies Record<keyof typeof p, 1>, 'address');
      const { e } = await engine();
      return e.addWithdrawalAddress(await identityApi(o), e.parseAddress(checkText('funds.allowlist.add', 'address', address)), p.label);
    },
    /**
     * Removes `address` from the allowlist. One removed already (an earlier remove, perhaps one whose
     * answer was lost: UnknownStateError) is `{alreadyRemoved: true, removedAt}`; one never on it is
     * a NotFoundError (exit 4).
     */
    async remove(address: string, o?: CallOptions): Promise<AllowlistRemoval> {
      const { e } = await engine();
      const a = e.parseAddress(checkText('funds.allowlist.remove', 'address', address));
      return e.removeWithdrawalAddress(await identityApi(o), a);
    },
  };

  const funds = {
    /** The withdrawal allowlist (as pm withdrawal-address list/add/remove). */
    allowlist,
    /**
     * USDC held, locked by open orders and free; shares held and locked by open SELLs (the JSON of
     * `pm balance`: decimal strings beside `…Raw`). From the chain against the real exchange (or
     * with `chain: true`), from the exchange's own figures against a sandbox.
     */
    async balance(
      p: { onBehalfOf?: number; chain?: boolean; rpcUrl?: string; markets?: string[]; byMarket?: boolean } = {},
      o?: CallOptions,
    ): Promise<BalanceJson> {
      checkOptions('funds.balance', p, { onBehalfOf: 1, chain: 1, rpcUrl: 1, markets: 1, byMarket: 1 } satisfies Record<keyof typeof p, 1>);
      const { e, core } = await engine();
      const { accountBalance, balanceJson } = await e.balanceModule();
      // The exchange's requests of this call end on its signal too.
      const on: BalanceCore = {
        onBehalfOf: core.onBehalfOf,
        sandbox: core.sandbox,
        timeoutMs: core.timeoutMs,
        tradingApi: async (id) => withSignal(await core.tradingApi(id), o),
        subAccount: (a, id) => core.subAccount(a, id),
        rpcUrl: (flag) => core.rpcUrl(flag),
      };
      const b = await accountBalance(on, { onBehalfOf: p.onBehalfOf, chain: p.chain, rpcUrl: p.rpcUrl, markets: p.markets });
      return balanceJson(b, { byMarket: p.byMarket });
    },
    /**
     * Withdraws once (journaled; an unknown outcome is never re-sent blindly: an identical one is
     * refused until settleWithdrawal says what became of it). Amount in USDC, e.g. '12.5'.
     */
    async withdraw(p: { amount: string; to?: string }, o?: CallOptions): Promise<WithdrawJson<WithdrawOutcome>> {
      checkOptions('funds.withdraw', p, { amount: 1, to: 1 } satisfies Record<keyof typeof p, 1>);
      decimalStrings(p ?? {});
      if (p?.amount === undefined) throw new ValidationError("funds.withdraw needs amount (USDC, e.g. '12.5')");
      if (p.to !== undefined) checkText('funds.withdraw', 'to', p.to);
      const { e } = await engine();
      const body = e.withdrawBody(e.parseAmount(p.amount), { destination: p.to === undefined ? undefined : e.parseAddress(p.to, 'to') });
      const a = withSignal(await api(), o);
      const me = await e.profileMe(a).catch(() => null);
      e.notOwnAccount(onBehalfOf, me?.id, 'keys');
      const r = await e
        .withdrawOnce(a, body, {
          journal: new e.WithdrawalJournal(home),
          profileId: me?.id,
          wallet: onBehalfOf !== undefined ? profile.subAccounts?.[String(onBehalfOf)]?.address : (me?.embeddedAccount ?? undefined),
          defaultDestination: me?.account,
        })
        .catch((err: unknown) => e.allowlistHint(err, p.to));
      return e.withdrawJson(r);
    },
    /** Records what became of a withdrawal whose outcome was unknown (its id is in the error's message). */
    settleWithdrawal(id: string, as: 'sent' | 'not-sent'): WithdrawalEntry {
      return settleWithdrawal(new WithdrawalJournal(home), id, as);
    },
    /**
     * Redeems the winning shares of a resolved market once (an unknown outcome: call it again, a
     * market is never paid twice). `via: 'already'`: an earlier call whose answer was lost was paid.
     */
    async redeem(market: string, o?: CallOptions): Promise<RedeemJson> {
      const { e } = await engine();
      const a = withSignal(await api(), o);
      const slug = e.slugFrom(checkText('funds.redeem', 'market', market));
      const cid = (await e.getMarket(a, slug)).raw['conditionId'];
      if (typeof cid !== 'string') throw new NotFoundError(`market ${market} has no condition id (a group? redeem its child markets)`);
      const me = await e.profileMe(a).catch(() => null);
      const r = await e.redeemOnce(
        a,
        { conditionId: cid, market: slug },
        { journal: new e.RedemptionJournal(home), profileId: me?.id, rerun: `pm.funds.redeem('${slug}')` },
      );
      return e.redeemJson(slug, cid, r.via === 'already' ? {} : r, r.via);
    },
  };

  /** The streams running now: close() stops them. */
  const running = new Set<{ stop(): void }>();
  /** A live stream as an AsyncIterable of typed records (WatchRecord); reconnects, fills order gaps, ends on the signal or close(). */
  function stream<E extends WatchRecord['event']>(
    kind: WatchKind,
    events: readonly E[],
    p: { markets?: string[]; market?: string; clientId?: string; signal?: AbortSignal } = {},
  ): AsyncIterable<Extract<WatchRecord, { event: E }> | LifecycleRecord | OtherRecord> {
    type R = Extract<WatchRecord, { event: E }> | LifecycleRecord | OtherRecord;
    const expected = (r: WatchRecord): r is R => r.event === 'lifecycle' || r.event === 'other' || events.some((e) => e === r.event);
    const signal = signalOf(p);
    return {
      async *[Symbol.asyncIterator](): AsyncGenerator<R> {
        const { e } = await engine();
        const privateKind = kind === 'orders' || kind === 'positions' || kind === 'tx';
        const auth = privateKind ? (await api()).auth : undefined;
        const queue: R[] = [];
        let wake: (() => void) | null = null;
        let ended = false;
        let failure: unknown;
        const push = (r: R): void => {
          queue.push(r);
          if (queue.length > 10_000) w.pause(); // a slow consumer: stop reading until it catches up
          wake?.();
        };
        const w = e.openWatch(
          {
            kind,
            wsUrl: urls.wsUrl,
            auth,
            api,
            slugs: p.markets?.map(e.slugFrom),
            market: p.market === undefined ? undefined : e.slugFrom(p.market),
            clientId: p.clientId,
            giveUpAfterMs: timeoutMs,
            userAgent: 'pm-lib',
            words: 'keys',
            signal,
            proxy: options.proxy,
          },
          {
            event: (name, ev) => {
              const r = e.watchRecord(name, ev);
              push(expected(r) ? r : { event: 'other', name, raw: ev });
            },
            lifecycle: (l) => push({ event: 'lifecycle', ...l }),
          },
        );
        running.add(w);
        const done = w.run().then(
          () => undefined,
          (e: unknown) => {
            failure = e;
          },
        );
        void done.finally(() => {
          ended = true;
          wake?.();
        });
        try {
          for (;;) {
            const next = queue.shift();
            if (next) {
              if (queue.length < 1_000) w.resume();
              yield next;
              continue;
            }
            if (ended) break;
            await new Promise<void>((r) => {
              wake = r;
            });
            wake = null;
          }
          if (failure !== undefined && !signal?.aborted) throw failure;
        } finally {
          running.delete(w);
          w.stop();
          await done;
        }
      },
    };
  }
  const watch = {
    /** Your order events (OME steps and settlement), the gaps after a reconnect filled from REST (`replayed: true`). */
    orders: (
      p: { market?: string; clientId?: string; signal?: AbortSignal } = {},
    ): AsyncIterable<OrderEventRecord | LifecycleRecord | OtherRecord> => {
      checkOptions('watch.orders', p, { market: 1, clientId: 1, signal: 1 } satisfies Record<keyof typeof p, 1>);
      return stream('orders', ['orderEvent'], p);
    },
    positions: (p: { market?: string; signal?: AbortSignal } = {}): AsyncIterable<PositionsRecord | LifecycleRecord | OtherRecord> => {
      checkOptions('watch.positions', p, { market: 1, signal: 1 } satisfies Record<keyof typeof p, 1>);
      return stream('positions', ['positions'], p);
    },
    prices: (
      markets: string[],
      p: { signal?: AbortSignal } = {},
    ): AsyncIterable<OrderbookUpdateRecord | NewPriceDataRecord | LifecycleRecord | OtherRecord> => {
      checkOptions('watch.prices', p, { signal: 1 } satisfies Record<keyof typeof p, 1>);
      return stream('prices', ['orderbookUpdate', 'newPriceData'], { ...p, markets: watchedMarkets(markets, 'watch.prices(markets)') });
    },
    book: (market: string, p: { signal?: AbortSignal } = {}): AsyncIterable<OrderbookUpdateRecord | LifecycleRecord | OtherRecord> => {
      checkOptions('watch.book', p, { signal: 1 } satisfies Record<keyof typeof p, 1>);
      return stream('book', ['orderbookUpdate'], { ...p, markets: watchedMarkets(market, 'watch.book(market)', true) });
    },
    markets: (
      p: { signal?: AbortSignal } = {},
    ): AsyncIterable<MarketCreatedRecord | MarketResolvedRecord | LifecycleRecord | OtherRecord> => {
      checkOptions('watch.markets', p, { signal: 1 } satisfies Record<keyof typeof p, 1>);
      return stream('markets', ['marketCreated', 'marketResolved'], p);
    },
  };

  return {
    /** The URLs in use (the stream URL follows the base URL unless given). */
    baseUrl: urls.baseUrl,
    wsUrl: urls.wsUrl,
    markets,
    orders,
    portfolio,
    partner,
    funds,
    watch,
    /** Ends the client's running streams (their loops return) and releases pooled connections. */
    async close(): Promise<void> {
      for (const w of running) w.stop();
      await settleWrites();
      await (await engine()).core.close();
    },
  };
}

export type PmClient = ReturnType<typeof createClient>;
