// What every command receives: IO, global flags, environment, output, config and lazily built
// API clients. Precedence is resolved here once: flag > environment > profile > default.
import { join } from 'node:path';
import { checkUrl, defaultHome, loadConfig, saveConfig } from '../core/config.js';
import { usableEndpoints, resolveEndpoints } from '../core/endpoints.js';
import type { Endpoints, Given } from '../core/endpoints.js';
import type { ConfigFile, ProfileConfig } from '../core/config.js';
import type { ApiClient } from '../core/http.js';
import type { Journal, SignDeps } from '../core/trade/index.js';
import type { AuthProvider } from '../core/auth.js';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../core/duration.js';
import { readEnv } from './env.js';
import type { Env } from './env.js';
import type { GlobalFlags } from './global-flags.js';
import { Output, withIO } from './output.js';
import type { Format, IO } from './output.js';
import type { Credentials, Keystore, UnlockMode } from '../keystore/index.js';

/** What placing orders needs (see Context.tradingDeps). */
export interface TradingDeps extends SignDeps {
  journal: Journal;
}

/**
 * What the app (src/app) lends to the few commands that need the program itself: running a
 * nested pm command (demo) and the completion scripts. Injected so that commands never import
 * the app (which imports commands): the kernel stays free of cycles.
 */
export interface AppServices {
  /** Runs pm in-process with `argv` and returns its exit code (never exits). */
  run(argv: string[], io: IO): Promise<number>;
  /** The completion script for a shell. */
  completion(shell: 'bash' | 'zsh' | 'fish'): string;
  /** The command line as given (without node and script), for hints that write out a command to run. */
  argv?: readonly string[] | undefined;
}

const NO_APP: AppServices = {
  run: () => Promise.reject(new Error('no app services in this context')),
  completion: () => {
    throw new Error('no app services in this context');
  },
};

/** Output formats by precedence: flag (--json, -o) > PM_OUTPUT > the profile's `output` > table. */
function resolveFormat(
  flags: { json: boolean; output?: Format | undefined },
  env: Env,
  profileOutput: () => string | undefined,
): { format: Format; source: 'flag' | 'env' | 'profile' | 'default' } {
  const ok = (v: string | undefined): v is Format => v === 'table' || v === 'json' || v === 'ndjson';
  if (flags.output !== undefined) return { format: flags.output, source: 'flag' };
  if (flags.json) return { format: 'json', source: 'flag' };
  if (ok(env.PM_OUTPUT)) return { format: env.PM_OUTPUT, source: 'env' };
  if (env.PM_OUTPUT !== undefined) throw new UsageError(`PM_OUTPUT must be table, json or ndjson, got "${env.PM_OUTPUT}"`);
  let p: string | undefined;
  try {
    p = profileOutput();
  } catch {
    p = undefined; // a broken config is reported by the command that reads it
  }
  return ok(p) ? { format: p, source: 'profile' } : { format: 'table', source: 'default' };
}

export class Context {
  readonly env: Env;
  /** What the command may touch; under json/ndjson its stderr is a sink (the app writes the error object to the real one). */
  readonly io: IO;
  /** Where the output format came from (config list shows it). */
  readonly formatSource: 'flag' | 'env' | 'profile' | 'default';
  readonly out: Output;
  readonly home: string;
  readonly interactive: boolean;
  private cfg: ConfigFile | undefined;
  /** The profile pm init is about to write: named before it exists, it reads as empty (not an error). */
  private creating: string | undefined;
  private creds: Promise<Credentials> | undefined;
  private pass: Promise<string> | undefined;
  private readonly clients: ApiClient[] = [];
  private held = '';

  constructor(
    io: IO,
    readonly flags: GlobalFlags,
    readonly app: AppServices = NO_APP,
  ) {
    this.env = readEnv(io.env);
    this.home = this.env.PM_HOME ?? defaultHome(io.env);
    const stdoutTty = io.stdout.isTTY === true;
    const { format, source } = resolveFormat(flags, this.env, () => this.profile().output);
    this.formatSource = source;
    // With json/ndjson, stderr carries exactly one JSON error object or nothing: whatever a
    // command would write there goes nowhere (--verbose lets traces through).
    // What a command writes there anyway is held back and, if the command fails, handed to the
    // error object as its `details` (heldStderr).
    const hold = { write: (s: string): boolean => ((this.held = (this.held + s).slice(0, 16_384)), true), isTTY: false };
    this.io = format !== 'table' && !flags.verbose ? withIO(io, { stderr: hold }) : io;
    const color = flags.color && stdoutTty && this.env.NO_COLOR === undefined && io.env['TERM'] !== 'dumb';
    this.out = new Output(this.io, { format, color, quiet: flags.quiet, explicitTable: flags.output === 'table' });
    // stdin last: process.stdin is created on first access (~5 ms), which a script need not pay.
    this.interactive = !flags.nonInteractive && io.stderr.isTTY === true && this.env.CI === undefined && io.stdin.isTTY === true;
  }

  /** Text a command wrote to stderr under json/ndjson (held back; see the constructor). */
  get heldStderr(): string {
    return this.held;
  }

  get signal(): AbortSignal | undefined {
    return this.io.signal;
  }

  config(): ConfigFile {
    this.cfg ??= loadConfig(this.home);
    return this.cfg;
  }

  /**
   * Changes the config file under PM_HOME's config lock: the file is read again under the lock,
   * `change` edits that fresh copy, and it is written atomically, so parallel pm processes never
   * lose each other's writes. A writer that cannot get the lock within 10 s exits 5.
   */
  async editConfig<T>(change: (cfg: ConfigFile) => T): Promise<T> {
    const { withLock } = await import('../core/filelock.js');
    return withLock(
      join(this.home, 'run', 'config.lock'),
      () => {
        const cfg = loadConfig(this.home);
        const r = change(cfg);
        saveConfig(this.home, cfg);
        this.cfg = cfg;
        return r;
      },
      { what: `the config (${join(this.home, 'config.json')})`, signal: this.signal },
    );
  }

  /** pm init: `name` is the profile being made, so naming it (--profile, PM_PROFILE) before it exists is no error. */
  createsProfile(name: string): void {
    this.creating = name;
  }

  /** The profile in use: --profile > PM_PROFILE > the active profile > none. */
  profileName(): string | undefined {
    const name = this.flags.profile ?? this.env.PM_PROFILE ?? this.config().activeProfile;
    if (name !== undefined && !this.config().profiles[name] && name !== this.creating) {
      const known = Object.keys(this.config().profiles);
      const hint = known.length
        ? `Known profiles: ${known.join(', ')} (pm profile use <name>), or create it with pm init --profile-name ${name}.`
        : 'Create one with pm init.';
      // A missing active profile must not quietly fall back to the real exchange's URL.
      if (this.flags.profile === undefined && this.env.PM_PROFILE === undefined)
        throw new UsageError(`the active profile "${name}" named in ${join(this.home, 'config.json')} does not exist`, { hint });
      throw new UsageError(`no profile named "${name}"${this.flags.profile === undefined ? ' (from PM_PROFILE)' : ''}`, { hint });
    }
    return name;
  }

  profile(): ProfileConfig {
    const name = this.profileName();
    return (name ? this.config().profiles[name] : undefined) ?? {};
  }

  /** What was given for the base URL and the stream URL at each level (checked: a bad URL is exit 2). */
  private givenUrls(): { bases: Given[]; streams: Given[] } {
    const f = this.flags;
    const e = this.env;
    const p = this.profile();
    const bases: Given[] = [];
    const streams: Given[] = [];
    if (f.baseUrl !== undefined) bases.push({ level: 'flag', url: checkUrl(f.baseUrl, '--base-url'), name: '--base-url' });
    if (e.PM_BASE_URL !== undefined) bases.push({ level: 'env', url: checkUrl(e.PM_BASE_URL, 'PM_BASE_URL'), name: 'PM_BASE_URL' });
    if (p.baseUrl !== undefined) bases.push({ level: 'profile', url: p.baseUrl, name: "the profile's base-url" });
    if (f.wsUrl !== undefined) streams.push({ level: 'flag', url: checkUrl(f.wsUrl, '--ws-url', 'ws'), name: '--ws-url' });
    if (e.PM_WS_URL !== undefined) streams.push({ level: 'env', url: checkUrl(e.PM_WS_URL, 'PM_WS_URL', 'ws'), name: 'PM_WS_URL' });
    if (p.wsUrl !== undefined) streams.push({ level: 'profile', url: p.wsUrl, name: "the profile's ws-url" });
    return { bases, streams };
  }

  /**
   * The REST and stream URLs and where each comes from, without refusing a local/remote mix
   * (config list and doctor report it; everything else uses `baseUrl`/`wsUrl`, which refuse it).
   */
  endpointsUnchecked(): Endpoints {
    const { bases, streams } = this.givenUrls();
    return resolveEndpoints(bases, streams);
  }

  /** The URLs in use: flag > environment > profile > the real exchange; a local/remote mix is exit 2. */
  endpoints(): Endpoints {
    const { bases, streams } = this.givenUrls();
    return usableEndpoints(bases, streams);
  }

  /** The REST URL (see endpoints()). */
  get baseUrl(): string {
    return this.endpoints().baseUrl;
  }

  /** The socket.io URL: follows the base URL unless given at the same or a higher level. */
  get wsUrl(): string {
    return this.endpoints().wsUrl;
  }

  /** A local sandbox (no confirmation for orders and money): decided by the URL alone. */
  get sandbox(): boolean {
    return this.endpoints().sandbox;
  }

  get timeoutMs(): number {
    const env = this.env.PM_TIMEOUT;
    if (this.flags.timeout !== undefined) return parseDuration(this.flags.timeout, '--timeout');
    if (env !== undefined) return parseDuration(env, 'PM_TIMEOUT');
    return this.profile().timeout ?? 30_000;
  }

  /** Writes a redacted trace line on stderr when --verbose is on. */
  trace = (line: string): void => {
    if (this.flags.verbose) this.io.stderr.write(`${this.out.c.dim(`[http] ${line}`)}\n`);
  };

  /**
   * An API client for the active profile, with the given credentials (none = public). Every
   * client pm makes comes from here: the shared per-token limiter (across processes), the
   * timeout, Ctrl-C and the --verbose trace apply to all of them.
   */
  async api(
    auth?: AuthProvider,
    o: { actingAs?: number | undefined; baseUrl?: string | undefined; timeoutMs?: number | undefined } = {},
  ): Promise<ApiClient> {
    const { ApiClient } = await import('../core/http.js');
    const { filePaceStore } = await import('../core/cache.js');
    const client = new ApiClient({
      // `baseUrl`: an exchange being set up (init) rather than the profile's.
      baseUrl: o.baseUrl ?? this.baseUrl,
      auth,
      timeoutMs: o.timeoutMs ?? this.timeoutMs,
      trace: this.flags.verbose ? this.trace : undefined,
      userAgent: 'pm-cli',
      paceStore: filePaceStore(this.home),
      actingAs: o.actingAs,
      signal: this.signal,
      limits: this.paceOverride(),
      // A wait over a second says what it waits for, on a terminal only.
      onWait: this.io.stderr.isTTY ? (note: string) => this.out.info(`${note}…`) : undefined,
    });
    this.clients.push(client);
    return client;
  }

  /** PM_PACE ("off", or "<in flight>/<ms>"): per-token pacing for sandboxes run with --no-rate-limit. */
  paceOverride(): { concurrency: number; minIntervalMs: number } | undefined {
    const v = this.env.PM_PACE;
    if (v === undefined || v === '') return undefined;
    if (v === 'off') return { concurrency: 64, minIntervalMs: 0 };
    const m = /^(\d{1,2})\/(\d{1,5})$/.exec(v);
    if (!m || Number(m[1]) < 1) throw new UsageError(`PM_PACE must be "off" or "<in flight>/<ms>" such as 2/300, got "${v}"`);
    return { concurrency: Number(m[1]), minIntervalMs: Number(m[2]) };
  }

  /** scrypt cost for keystores written by this command (PM_SCRYPT_N, for tests and CI). */
  get scryptN(): number | undefined {
    const v = this.env.PM_SCRYPT_N;
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 2 || (n & (n - 1)) !== 0) throw new UsageError(`PM_SCRYPT_N must be a power of two, got "${v}"`);
    return n;
  }

  /** The keystore under PM_HOME. */
  async keystore(): Promise<Keystore> {
    const { Keystore } = await import('../keystore/index.js');
    const n = this.scryptN;
    return new Keystore(this.home, n === undefined ? {} : { scrypt: { n, r: 8, p: 1 } });
  }

  /**
   * The keystore passphrase: --passphrase-file > PM_PASSPHRASE > a prompt (asked once). On a
   * TTY a wrong answer is asked again, three tries in all, checked against the keystore.
   */
  passphrase(message = 'Keystore passphrase'): Promise<string> {
    this.pass ??= (async () => {
      const { resolvePassphrase } = await import('../keystore/index.js');
      const ks = await this.keystore();
      return resolvePassphrase({
        env: this.env.PM_PASSPHRASE,
        file: this.flags.passphraseFile,
        interactive: this.interactive,
        prompt: () => this.askExisting(ks, message),
      });
    })();
    // A wrong passphrase must be asked again, not reused.
    this.pass.catch(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  /** Three tries at the passphrase of an existing keystore. */
  private async askExisting(ks: Keystore, message: string): Promise<string> {
    const { password } = await import('./prompt.js');
    const { AuthError } = await import('../core/errors.js');
    for (let attempt = 1; ; attempt++) {
      const p = await password(
        this,
        message,
        'Pass --passphrase-file FILE or set PM_PASSPHRASE.',
        (v) => v !== '' || 'type the passphrase (Ctrl-C cancels)',
      );
      if ((await ks.checkPassphrase(p)) !== false) return p;
      if (attempt >= 3)
        throw new AuthError('wrong passphrase (3 tries)', {
          hint: 'Forgot it? Secrets cannot be recovered without it: re-import the wallet and re-add the token (pm init --force).',
        });
      this.io.stderr.write(`wrong passphrase, try again (${3 - attempt} left)\n`);
    }
  }

  /**
   * A passphrase for writing encrypted files. One keystore, one passphrase: when PM_HOME already
   * holds encrypted files this is their passphrase (checked; a different one is refused), and
   * only an empty keystore gets a new one (asked twice, at least 8 characters, re-asked in place).
   */
  newPassphrase(): Promise<string> {
    this.pass ??= (async () => {
      const { resolvePassphrase } = await import('../keystore/index.js');
      const { password } = await import('./prompt.js');
      const { AuthError } = await import('../core/errors.js');
      const ks = await this.keystore();
      const existing = ks.encryptedFiles().length > 0;
      const hint = 'Pass --passphrase-file FILE or set PM_PASSPHRASE.';
      const pass = await resolvePassphrase({
        env: this.env.PM_PASSPHRASE,
        file: this.flags.passphraseFile,
        interactive: this.interactive,
        prompt: async () => {
          if (existing) return this.askExisting(ks, 'Keystore passphrase');
          const a = await password(this, 'New keystore passphrase', hint, (v) => v.length >= 8 || 'too short: use at least 8 characters');
          await password(this, 'Repeat the passphrase', hint, (v) => v === a || 'the two passphrases differ: type the same one again');
          return a;
        },
      });
      // (The prompt and pm wallet passphrase ask as much; PM_PASSPHRASE and a file too, for a new keystore.)
      if (!existing && pass.length < 8)
        throw new UsageError('a new keystore passphrase needs at least 8 characters', {
          hint: 'Choose a longer one (PM_PASSPHRASE or --passphrase-file): it is all that protects the keys at rest.',
        });
      if (existing && (await ks.checkPassphrase(pass)) === false) {
        throw new AuthError(
          `the keystore in ${this.home} is encrypted with another passphrase; pm keeps one passphrase for every wallet and token secret`,
          {
            hint: "Use the keystore's passphrase, or change it for every secret with pm wallet passphrase.",
          },
        );
      }
      return pass;
    })();
    this.pass.catch(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  /** Updates the active profile (or `name`) in the config file. */
  async updateProfile(patch: Partial<ProfileConfig>, name = this.profileName() ?? 'default'): Promise<string> {
    await this.editConfig((cfg) => {
      cfg.profiles[name] = { ...(cfg.profiles[name] ?? {}), ...patch };
      cfg.activeProfile ??= name;
    });
    return name;
  }

  /** Forgets a passphrase that turned out to be wrong. */
  forgetPassphrase(): void {
    this.pass = undefined;
  }

  /** Credentials of the active profile, environment first; nothing is decrypted yet. */
  credentials(): Promise<Credentials> {
    this.creds ??= (async () => {
      const { resolveCredentials } = await import('../keystore/credentials.js');
      const p = this.profile();
      return resolveCredentials({
        env: {
          privateKey: this.env.PM_PRIVATE_KEY,
          tokenId: this.env.PM_TOKEN_ID,
          tokenSecret: this.env.PM_TOKEN_SECRET,
          apiKey: this.env.PM_API_KEY,
          identityToken: this.env.PM_IDENTITY_TOKEN,
        },
        profile: { wallet: p.wallet, secrets: p.secrets },
        home: this.home,
        passphrase: () => this.passphrase(),
      });
    })();
    return this.creds;
  }

  /**
   * Who a command acts for: its --on-behalf-of, else the profile's on-behalf-of, else the caller
   * itself (undefined). The one place acting-as is resolved (design §1).
   */
  actingAs(onBehalfOf?: number | undefined): number | undefined {
    return onBehalfOf ?? this.profile().onBehalfOf;
  }

  /**
   * An authenticated client for trading (HMAC token or legacy key) acting for `onBehalfOf` (see
   * actingAs) on every call: placement, lookups, cancels, reads.
   */
  async tradingApi(o: { onBehalfOf?: number | undefined } = {}): Promise<ApiClient> {
    const creds = await this.credentials();
    const auth = await creds.unlock('auto');
    if (!auth.hmac && !auth.apiKey) {
      const { AuthError } = await import('../core/errors.js');
      throw new AuthError('trading needs an API token', {
        hint: 'Run pm init (pm init --sandbox for the sandbox), or set PM_TOKEN_ID and PM_TOKEN_SECRET.',
      });
    }
    return this.api(auth, { actingAs: this.actingAs(o.onBehalfOf) });
  }

  /** What placing orders needs: the trading client, caches, the journal and the signer rule. */
  async tradingDeps(o: { onBehalfOf?: number | undefined } = {}): Promise<TradingDeps> {
    const creds = await this.credentials();
    const api = await this.tradingApi(o);
    const { Journal, TradeCache } = await import('../core/trade/index.js');
    const { signingAccount } = await import('../core/trade/signer.js');
    const auth = api.auth;
    const p = this.profile();
    // The profile's stored owner id and fee rate apply only to its own stored token.
    const own = creds.sources.token === 'keystore' || creds.sources.apiKey === 'keystore';
    const name = this.profileName();
    return {
      api,
      cache: new TradeCache(this.home),
      account: (actingAs) => signingAccount(creds, { actingAs, subAccounts: p.subAccounts, actingFor: p.onBehalfOf }),
      credentialId: auth.hmac ? `hmac:${auth.hmac.tokenId}` : `key:${auth.apiKey?.id ?? ''}`,
      owner:
        own && p.profileId !== undefined && p.feeRateBps !== undefined ? { profileId: p.profileId, feeRateBps: p.feeRateBps } : undefined,
      // A fee refusal refreshed the rate: the profile must not pin the stale one.
      onOwnerRefresh:
        own && name !== undefined
          ? (fresh) => void this.updateProfile({ feeRateBps: fresh.feeRateBps, profileId: fresh.profileId }, name).catch(() => undefined)
          : undefined,
      journal: new Journal(join(this.home, 'journal')),
    };
  }

  /** An API client with the profile's credentials unlocked for `mode`. */
  async authedApi(mode: UnlockMode = 'auto'): Promise<ApiClient> {
    const creds = await this.credentials();
    return this.api(await creds.unlock(mode));
  }

  /** Releases pooled connections so the process can exit promptly. */
  async dispose(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}
