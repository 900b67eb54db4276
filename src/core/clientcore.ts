// The one client core under the CLI and the library. It resolves every setting once (through
// Settings: flag > environment > profile > default) and builds, lazily, what talks to the
// exchange: API clients (the shared per-token limiter, the deadline, Ctrl-C, the trace), the
// trade cache, the journals and the signer rule. Credentials come from the layer that owns
// secrets (environment > session agent > keystore), handed in as a function: nothing here opens
// a secret. The CLI's Context adds IO, output and prompts on top; the library adds namespaces.
import { join } from 'node:path';
import type { AuthProvider } from './auth.js';
import { filePaceStore } from './cache.js';
import type { ProfileConfig } from './config.js';
import type { Credentials, UnlockMode } from './credentials.js';
import type { Endpoints } from './endpoints.js';
import { ApiClient, noTokenError } from './http.js';
import type { ProxySettings } from './proxy.js';
import type { Settings } from './settings.js';
import { Journal } from './trade/journal.js';
import type { SignDeps, TradeCache } from './trade/index.js';
import type { SubAccount } from './trade/signer.js';
import type { OrderAccount } from './trade/eip712.js';
import type { InputWords } from './trade/terms.js';

/** What placing orders needs: the trading client, caches, the journal and the signer rule. */
export interface TradingDeps extends SignDeps {
  journal: Journal;
}

export interface CoreOptions {
  /** PM_HOME: config, keystore, journals, the limiter's shared state. */
  home: string;
  settings: Settings;
  /** The profile in use, and its name (undefined: none). */
  profile: ProfileConfig;
  profileName: string | undefined;
  /** The credentials, resolved by the secrets layer on first call. */
  credentials: () => Promise<Credentials>;
  userAgent: string;
  /** Ends every wait of every client this core makes (Ctrl-C, a library client's signal). */
  signal?: AbortSignal | undefined;
  /** One redacted line per request and response (--verbose). */
  trace?: ((line: string) => void) | undefined;
  /**
   * Per-token pacing other than the exchange's limits (PM_PACE, for sandboxes without limits);
   * `shared: false`: within this process only (no record under PM_HOME/run).
   */
  pace?: { concurrency: number; minIntervalMs: number; shared?: false } | undefined;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the caller read them (`{}` or none: connect directly). */
  proxy?: ProxySettings | undefined;
  /** Told what a wait of over a second is waiting for (the CLI says it on a terminal). */
  onWait?: ((note: string) => void) | undefined;
  /** A fee refusal refreshed the profile's owner id and fee rate: persist them (the CLI does). */
  onOwnerRefresh?: ((fresh: { profileId: number; feeRateBps: number }) => void) | undefined;
  /** Whose words hints use: the CLI's flags and commands ('flags', the default) or the library's options and calls. */
  words?: InputWords | undefined;
}

export class ClientCore {
  private readonly clients: ApiClient[] = [];
  private creds: Promise<Credentials> | undefined;
  private urls: Endpoints | undefined;
  private cache: TradeCache | undefined;
  private journal: Journal | undefined;
  /** The sub-account this core acts for (a command that declares actsFor, or the library's option). */
  onBehalfOf: number | undefined;
  /** Keys of EOA sub-accounts the caller holds, by address (the library's subAccountKeys): they sign those children's orders. */
  heldKeys: ((address: string) => Promise<OrderAccount | undefined>) | undefined;
  /**
   * One deadline for every client made from now on: the timeout from the first of them (a CLI
   * command that is not long-running). Off: each request gets the timeout of its own.
   */
  oneDeadline = false;
  private deadlineAt: number | undefined;

  constructor(readonly o: CoreOptions) {}

  get home(): string {
    return this.o.home;
  }

  get settings(): Settings {
    return this.o.settings;
  }

  /** The REST and stream URLs in use (a local/remote mix is exit 2). */
  endpoints(): Endpoints {
    this.urls ??= this.o.settings.endpoints();
    return this.urls;
  }

  get baseUrl(): string {
    return this.endpoints().baseUrl;
  }

  get wsUrl(): string {
    return this.endpoints().wsUrl;
  }

  /** A local sandbox (no confirmation for orders and money): decided by the URL alone. */
  get sandbox(): boolean {
    return this.endpoints().sandbox;
  }

  /** The whole command's (or call's) deadline. */
  get timeoutMs(): number {
    return this.o.settings.timeout().value;
  }

  /** The credentials (environment first); nothing is decrypted until a call needs it. */
  credentials(): Promise<Credentials> {
    this.creds ??= this.o.credentials();
    this.creds.catch(() => {
      this.creds = undefined;
    });
    return this.creds;
  }

  /**
   * An API client with `auth` (none = public). Every client comes from here: the shared
   * per-token limiter (across processes), the deadline, the signal and the trace apply to all.
   */
  api(auth?: AuthProvider, o: { onBehalfOf?: number | undefined; baseUrl?: string | undefined; timeoutMs?: number | undefined } = {}) {
    if (this.oneDeadline) this.deadlineAt ??= Date.now() + this.timeoutMs;
    const client = new ApiClient({
      deadline: this.oneDeadline ? this.deadlineAt : undefined,
      // `baseUrl`: another exchange than the settings' (an exchange being set up; a sandbox's admin routes).
      baseUrl: o.baseUrl ?? this.baseUrl,
      auth,
      timeoutMs: o.timeoutMs ?? this.timeoutMs,
      trace: this.o.trace,
      userAgent: this.o.userAgent,
      paceStore: this.o.pace?.shared === false ? undefined : filePaceStore(this.o.home),
      onBehalfOf: o.onBehalfOf,
      signal: this.o.signal,
      limits: this.o.pace,
      proxy: this.o.proxy,
      onWait: this.o.onWait,
      words: this.o.words,
    });
    this.clients.push(client);
    return client;
  }

  /** A client with the credentials unlocked for `mode` (acting as the caller). */
  async authedApi(mode: UnlockMode = 'auto'): Promise<ApiClient> {
    return this.api(await (await this.credentials()).unlock(mode));
  }

  /** An authenticated trading client (HMAC token or legacy key) acting for `onBehalfOf` on every call. */
  async tradingApi(onBehalfOf: number | undefined = this.onBehalfOf): Promise<ApiClient> {
    const auth = await (await this.credentials()).unlock('auto');
    if (!auth.hmac && !auth.apiKey) throw noTokenError('this needs an API token, and none is set', this.o.words);
    return this.api(auth, { onBehalfOf });
  }

  /** What placing orders needs, acting for `onBehalfOf` (default: this core's). */
  async tradingDeps(o: { onBehalfOf?: number | undefined } = {}): Promise<TradingDeps> {
    const creds = await this.credentials();
    // An order is signed with the keystore's wallet: its scrypt runs on the thread pool beside the
    // token secret's, not after it (one scrypt's time instead of two). Its failure is reported by
    // the signer that needs it, not here.
    if (creds.sources.wallet === 'keystore') creds.account().catch(() => undefined);
    const api = await this.tradingApi(o.onBehalfOf ?? this.onBehalfOf);
    const auth = api.auth;
    const p = this.o.profile;
    // The profile's stored owner id and fee rate apply only to its own stored token.
    const own = creds.sources.token === 'keystore' || creds.sources.apiKey === 'keystore';
    // (Signing code loads only for a command that trades.)
    const [{ TradeCache }, { orderSigner }] = await Promise.all([import('./trade/session.js'), import('./trade/signer.js')]);
    this.cache ??= new TradeCache(this.o.home);
    return {
      api,
      cache: this.cache,
      signer: (onBehalfOf, delegated) =>
        orderSigner(creds, {
          onBehalfOf,
          delegated,
          subAccount: (id) => this.subAccount(api.withOnBehalfOf(undefined), id),
          held: this.heldKeys,
          words: this.o.words,
        }),
      credentialId: auth.hmac ? `hmac:${auth.hmac.tokenId}` : `key:${auth.apiKey?.id ?? ''}`,
      owner:
        own && p.profileId !== undefined && p.feeRateBps !== undefined ? { profileId: p.profileId, feeRateBps: p.feeRateBps } : undefined,
      // A fee refusal refreshed the rate: the profile must not pin the stale one.
      onOwnerRefresh: own ? this.o.onOwnerRefresh : undefined,
      freeUsdc: async (id) => (await (await import('./balance.js')).accountBalance(this, { onBehalfOf: id })).usdc.free,
      journal: this.orderJournal(),
    };
  }

  /**
   * A partner's sub-account: as the profile's records (or, for script mode, PM_HOME's records for
   * this exchange) say, else as the exchange lists it. Asked with the partner's own client.
   */
  async subAccount(partnerApi: ApiClient, id: number): Promise<SubAccount> {
    const { findSubAccount } = await import('./subaccounts.js');
    const { loadConfig } = await import('./config.js');
    return findSubAccount(partnerApi, id, [this.o.profile.subAccounts, loadConfig(this.o.home).subAccounts?.[this.baseUrl]]);
  }

  /** The order journal under PM_HOME. */
  orderJournal(): Journal {
    this.journal ??= new Journal(join(this.o.home, 'journal'));
    return this.journal;
  }

  /**
   * Where a sandbox admin command goes: a base URL given by flag or environment > the running
   * sandbox of PM_HOME > the settings' base URL.
   */
  async adminBaseUrl(): Promise<string> {
    const given = this.o.settings.endpointsUnchecked();
    if (given.baseSource === 'flag' || given.baseSource === 'env') return given.baseUrl;
    const { findSandbox } = await import('./sandboxctl.js');
    // (A sandbox still starting has no base URL yet: || skips the empty one.)
    return (await findSandbox(this.o.home))?.baseUrl || this.baseUrl;
  }

  /** The chain's RPC URL: --rpc-url > PM_RPC_URL > the sandbox's own chain > the profile's (see Settings.rpcUrl). */
  async rpcUrl(flag?: string | undefined): Promise<{
    url: string | undefined;
    sandboxChain: import('./sandboxctl.js').SandboxChainInfo | null;
    /** The proxy settings the RPC goes through, as REST does. */
    proxy: ProxySettings | undefined;
  }> {
    const { sandboxChain } = await import('./sandboxctl.js');
    const chain = this.sandbox ? await sandboxChain(this.api()) : null;
    return { url: this.o.settings.rpcUrl({ flag, sandboxChain: chain?.rpcUrl }).value, sandboxChain: chain, proxy: this.o.proxy };
  }

  /** Releases pooled connections so the process can exit promptly. */
  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}
