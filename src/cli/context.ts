// What every command receives: IO, global flags, environment, output, prompts and the client
// core (src/core/clientcore.ts), which resolves every setting once (flag > environment > profile
// > default) and builds what talks to the exchange. This file adds only what a terminal needs.
import { join } from 'node:path';
import { ClientCore } from '../core/clientcore.js';
import type { TradingDeps } from '../core/clientcore.js';
import { defaultHome, editConfig, loadConfig } from '../core/config.js';
import type { ConfigFile, ProfileConfig } from '../core/config.js';
import type { Endpoints } from '../core/endpoints.js';
import type { ApiClient } from '../core/http.js';
import type { ProxySettings } from '../core/proxy.js';
import { proxyFromEnvironment } from '../core/proxy.js';
import type { AuthProvider } from '../core/auth.js';
import type { Credentials, UnlockMode } from '../core/credentials.js';
import { type NotFoundError, UsageError } from '../core/errors.js';
import { Settings, profileNotFound } from '../core/settings.js';
import { isCi, readEnv } from './env.js';
import type { Env } from './env.js';
import type { GlobalFlags } from './global-flags.js';
import { Output, withIO } from './output.js';
import type { IO, OutStream } from './output.js';
import type { Keystore } from '../keystore/index.js';

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

export class Context {
  readonly env: Env;
  /** What the command may touch; under json/ndjson its stderr is a sink (the app writes the error object to the real one). */
  readonly io: IO;
  /**
   * The process's stderr itself, even under json/ndjson where io.stderr is a sink: for a command
   * that reports the errors of its steps one by one, as they happen (pm shell's lines).
   */
  readonly errorStream: OutStream;
  /** Where the output format came from (config list shows it). */
  readonly formatSource: 'flag' | 'env' | 'profile' | 'default';
  readonly out: Output;
  readonly home: string;
  readonly interactive: boolean;
  private cfg: ConfigFile | undefined;
  /** The profile pm init is about to write: named before it exists, it reads as empty (not an error). */
  private creating: string | undefined;
  private pass: Promise<string> | undefined;
  private ks: Keystore | undefined;
  private clientCore: ClientCore | undefined;
  private onBehalfOfFlag: { flag: number | undefined } | undefined;
  private held = '';
  private oneDeadline = false;

  constructor(
    io: IO,
    readonly flags: GlobalFlags,
    readonly app: AppServices = NO_APP,
  ) {
    this.env = readEnv(io.env);
    this.home = this.env.PM_HOME ?? defaultHome(io.env);
    const stdoutTty = io.stdout.isTTY === true;
    const { value: format, source } = this.settingsWith((p) => (p.output === undefined ? {} : { output: p.output }), true).output();
    this.formatSource = source === 'sandbox chain' || source === 'unset' ? 'default' : source;
    // With json/ndjson, stderr carries exactly one JSON error object or nothing: whatever a
    // command would write there goes nowhere (--verbose lets traces through).
    // What a command writes there anyway is held back and, if the command fails, handed to the
    // error object as its `details` (heldStderr).
    const hold = { write: (s: string): boolean => ((this.held = (this.held + s).slice(0, 16_384)), true), isTTY: false };
    this.io = format !== 'table' && !flags.verbose ? withIO(io, { stderr: hold }) : io;
    this.errorStream = io.stderr;
    const color = flags.color && stdoutTty && this.env.NO_COLOR === undefined && io.env['TERM'] !== 'dumb';
    this.out = new Output(this.io, { format, color, quiet: flags.quiet, explicitTable: flags.output === 'table', wide: flags.wide });
    // stdin last: process.stdin is created on first access (~5 ms), which a script need not pay.
    this.interactive = !flags.nonInteractive && io.stderr.isTTY === true && !isCi(this.env) && io.stdin.isTTY === true;
  }

  /**
   * From now on every request of this command, retries included, ends within one deadline
   * (--timeout from the first request made after this call): the kernel calls it after the guard,
   * so a confirmation prompt does not eat the deadline, for commands that are not long-running.
   */
  useOneDeadline(): void {
    this.oneDeadline = true;
    if (this.clientCore) this.clientCore.oneDeadline = true;
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
    return editConfig(
      this.home,
      (cfg) => {
        const r = change(cfg);
        this.cfg = cfg;
        return r;
      },
      this.signal,
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
      // A missing active profile must not quietly fall back to the real exchange's URL.
      if (this.flags.profile === undefined && this.env.PM_PROFILE === undefined)
        throw new UsageError(`the active profile "${name}" named in ${join(this.home, 'config.json')} does not exist`, {
          hint: this.profileNotFound(name).hint,
        });
      throw this.profileNotFound(name, this.flags.profile === undefined ? ' (from PM_PROFILE)' : '');
    }
    return name;
  }

  /** A profile named outright that is not there: not found (exit 4), with the one it probably meant. */
  profileNotFound(name: string, from = ''): NotFoundError {
    return profileNotFound(name, Object.keys(this.config().profiles), from);
  }

  profile(): ProfileConfig {
    const name = this.profileName();
    return (name ? this.config().profiles[name] : undefined) ?? {};
  }

  /**
   * The settings of this command at every level (flag > environment > profile > default), the
   * profile's part given by `profilePart` (the whole profile by default).
   */
  private settingsWith(profilePart: (p: ProfileConfig) => ProfileConfig = (p) => p, tolerant = false): Settings {
    const f = this.flags;
    const e = this.env;
    let profile: ProfileConfig;
    try {
      profile = profilePart(this.profile());
    } catch (err) {
      // The output format is needed before any command runs: a broken config is reported by the
      // command that reads it, not by choosing how to print that report.
      if (!tolerant) throw err;
      profile = {};
    }
    return new Settings({
      flag: {
        baseUrl: f.baseUrl,
        wsUrl: f.wsUrl,
        timeoutMs: f.timeout,
        onBehalfOf: this.onBehalfOfFlag?.flag,
        output: f.output ?? (f.json ? 'json' : undefined),
      },
      env: { baseUrl: e.PM_BASE_URL, wsUrl: e.PM_WS_URL, rpcUrl: e.PM_RPC_URL, timeout: e.PM_TIMEOUT, output: e.PM_OUTPUT },
      profile,
      names: { baseUrl: '--base-url', wsUrl: '--ws-url', rpcUrl: '--rpc-url' },
    });
  }

  /** Every setting of the active profile with the level it comes from (pm config list): no URL mix refused. */
  configSettings(): Settings {
    return this.settingsWith();
  }

  /** The client core of this command: settings resolved once, API clients, journals, signer. */
  get core(): ClientCore {
    if (this.clientCore === undefined) {
      const name = this.profileName();
      const p = this.profile();
      this.clientCore = new ClientCore({
        home: this.home,
        settings: this.settingsWith(),
        profile: p,
        profileName: name,
        credentials: async () => {
          const { resolveCredentials } = await import('../keystore/credentials.js');
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
        },
        userAgent: 'pm-cli',
        signal: this.signal,
        trace: this.flags.verbose ? this.trace : undefined,
        pace: this.paceOverride(),
        proxy: this.proxy,
        // A wait over a second says what it waits for, on a terminal only.
        onWait: this.io.stderr.isTTY ? (note: string) => this.out.info(`${note}…`) : undefined,
        onOwnerRefresh:
          name === undefined
            ? undefined
            : (fresh) => void this.updateProfile({ feeRateBps: fresh.feeRateBps, profileId: fresh.profileId }, name).catch(() => undefined),
      });
      this.clientCore.onBehalfOf = this.onBehalfOf;
      this.clientCore.oneDeadline = this.oneDeadline;
    }
    return this.clientCore;
  }

  /** The REST and stream URLs and their sources, a local/remote mix only reported (config list, doctor). */
  endpointsUnchecked(): Endpoints {
    return this.settingsWith().endpointsUnchecked();
  }

  /** The URLs in use: flag > environment > profile > the real exchange; a local/remote mix is exit 2. */
  endpoints(): Endpoints {
    return this.core.endpoints();
  }

  get baseUrl(): string {
    return this.core.baseUrl;
  }

  get wsUrl(): string {
    return this.core.wsUrl;
  }

  /** A local sandbox (no confirmation for orders and money): decided by the URL alone. */
  get sandbox(): boolean {
    return this.core.sandbox;
  }

  get timeoutMs(): number {
    return this.core.timeoutMs;
  }

  /** Where a sandbox admin command goes (see ClientCore.adminBaseUrl). */
  adminBaseUrl(): Promise<string> {
    return this.core.adminBaseUrl();
  }

  /** An API client with `auth` (none = public); see ClientCore.api. */
  async api(
    auth?: AuthProvider,
    o: { onBehalfOf?: number | undefined; baseUrl?: string | undefined; timeoutMs?: number | undefined } = {},
  ): Promise<ApiClient> {
    return this.core.api(auth, o);
  }

  /** Credentials of the active profile, environment first; nothing is decrypted yet. */
  credentials(): Promise<Credentials> {
    return this.core.credentials();
  }

  /** An API client with the profile's credentials unlocked for `mode`. */
  authedApi(mode: UnlockMode = 'auto'): Promise<ApiClient> {
    return this.core.authedApi(mode);
  }

  /** An authenticated trading client acting for `onBehalfOf` on every call. */
  tradingApi(): Promise<ApiClient> {
    return this.core.tradingApi();
  }

  /** What placing orders needs, acting for `onBehalfOf` (default: this command's). */
  tradingDeps(o: { onBehalfOf?: number | undefined } = {}): Promise<TradingDeps> {
    return this.core.tradingDeps(o);
  }

  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) for every connection pm makes to an exchange. */
  get proxy(): ProxySettings {
    return proxyFromEnvironment(this.io.env);
  }

  /** Writes a redacted trace line on stderr when --verbose is on. */
  trace = (line: string): void => {
    if (this.flags.verbose) this.io.stderr.write(`${this.out.c.dim(`[http] ${line}`)}\n`);
  };

  /**
   * PM_PACE ("off", or "<in flight>/<ms>"): per-token pacing for sandboxes run with --no-rate-limit.
   * "off" paces nothing, so it keeps no record shared with other processes either.
   */
  paceOverride(): { concurrency: number; minIntervalMs: number; shared?: false } | undefined {
    const v = this.env.PM_PACE;
    if (v === undefined || v === '') return undefined;
    if (v === 'off') return { concurrency: 64, minIntervalMs: 0, shared: false };
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

  /** The keystore under PM_HOME (one per command: the passphrase it verified stays verified). */
  async keystore(): Promise<Keystore> {
    const { Keystore } = await import('../keystore/index.js');
    const n = this.scryptN;
    this.ks ??= new Keystore(this.home, n === undefined ? {} : { scrypt: { n, r: 8, p: 1 } });
    return this.ks;
  }

  /**
   * The keystore passphrase: --passphrase-file > PM_PASSPHRASE > a prompt (asked once). On a
   * TTY a wrong answer is asked again, three tries in all, checked against the keystore.
   */
  passphrase(message = 'Keystore passphrase'): Promise<string> {
    return this.remembered(async () => (await import('../keystore/dialogue.js')).existingPassphrase(await this.dialogue(), message));
  }

  /**
   * A passphrase for writing encrypted files: the keystore's own when it holds some (checked), a
   * new one (asked twice, at least 8 characters) for an empty keystore.
   */
  newPassphrase(): Promise<string> {
    return this.remembered(async () => (await import('../keystore/dialogue.js')).writingPassphrase(await this.dialogue()));
  }

  /** A passphrase asked once per command; a wrong one is asked again, not reused. */
  private remembered(get: () => Promise<string>): Promise<string> {
    const p = (this.pass ??= get());
    p.catch(() => {
      if (this.pass === p) this.pass = undefined;
    });
    return p;
  }

  /** Where the passphrase dialogue reads and asks. */
  private async dialogue(): Promise<import('../keystore/dialogue.js').DialogueInput> {
    const { password } = await import('./prompt.js');
    return {
      keystore: await this.keystore(),
      env: this.env.PM_PASSPHRASE,
      file: this.flags.passphraseFile,
      interactive: this.interactive,
      ask: (message, hint, validate) => password(this, message, hint, validate),
      say: (line) => void this.io.stderr.write(`${line}\n`),
    };
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

  /**
   * The kernel, for a command that declares `actsFor`: its --on-behalf-of (undefined when not
   * given). Called once, before the command runs.
   */
  actFor(flag: number | undefined): void {
    this.onBehalfOfFlag = { flag };
    if (this.clientCore) this.clientCore.onBehalfOf = this.onBehalfOf;
  }

  /**
   * The sub-account this command acts for: its --on-behalf-of, else the profile's on-behalf-of;
   * undefined for the caller itself, and always for a command that does not declare `actsFor`.
   * The one place onBehalfOf is resolved.
   */
  get onBehalfOf(): number | undefined {
    return this.onBehalfOfFlag === undefined ? undefined : this.settingsWith().onBehalfOf().value;
  }

  /** Whether the command may ask questions: on a terminal, and not told --yes (answer by flags). */
  get asks(): boolean {
    return this.interactive && !this.flags.yes;
  }

  /** Releases pooled connections so the process can exit promptly. */
  async dispose(): Promise<void> {
    await this.clientCore?.close();
  }
}
