// Every setting's precedence, written once: flag (the CLI's flags, the library's options) >
// environment > profile > default. The CLI's Context, the library's client, `pm config list` and
// `pm doctor` read settings from here and nowhere else.
import { checkUrl } from './config.js';
import type { ProfileConfig } from './config.js';
import { parseDuration } from './duration.js';
import { resolveEndpoints } from './endpoints.js';
import type { Endpoints, Given, Level } from './endpoints.js';
import { NotFoundError, UsageError } from './errors.js';
import { didYouMean, suggest } from './suggest.js';

const DEFAULT_TIMEOUT_MS = 30_000;
/** Base mainnet's public JSON-RPC endpoint: the RPC against the real exchange when none is given. */
export const PUBLIC_BASE_RPC = 'https://mainnet.base.org';

export type OutputFormat = 'table' | 'json' | 'ndjson';

/** What each level gives. `flag` is the CLI's flags or the library's options; the library has no environment. */
export interface SettingsInput {
  flag: {
    baseUrl?: string | undefined;
    wsUrl?: string | undefined;
    timeoutMs?: number | undefined;
    onBehalfOf?: number | undefined;
    output?: OutputFormat | undefined;
  };
  env: {
    baseUrl?: string | undefined;
    wsUrl?: string | undefined;
    rpcUrl?: string | undefined;
    timeout?: string | undefined;
    output?: string | undefined;
  };
  profile: ProfileConfig;
  /** How the caller names each flag in messages: '--base-url' for the CLI, 'baseUrl' for the library. */
  names: { baseUrl: string; wsUrl: string; rpcUrl: string };
}

/** A setting's value and the level it came from. */
export interface Picked<T> {
  value: T | undefined;
  source: Level | 'unset' | 'sandbox chain';
}

/** The first level that gives a value. */
function pick<T>(levels: [Level | 'sandbox chain', T | undefined][]): Picked<T> {
  for (const [source, value] of levels) if (value !== undefined) return { value, source };
  return { value: undefined, source: 'unset' };
}

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson'];

/**
 * The settings of one command or one library client. URLs given are checked as they are read (a
 * bad one is exit 2); nothing is read from disk or the network here.
 * @example new Settings({ flag: { baseUrl }, env: {}, profile: {}, names: { baseUrl: 'baseUrl', wsUrl: 'wsUrl', rpcUrl: 'rpcUrl' } }).endpoints()
 */
export class Settings {
  constructor(private readonly input: SettingsInput) {}

  private givenUrls(): { bases: Given[]; streams: Given[] } {
    const { flag: f, env: e, profile: p, names } = this.input;
    const bases: Given[] = [];
    const streams: Given[] = [];
    if (f.baseUrl !== undefined) bases.push({ level: 'flag', url: checkUrl(f.baseUrl, names.baseUrl), name: names.baseUrl });
    if (e.baseUrl !== undefined) bases.push({ level: 'env', url: checkUrl(e.baseUrl, 'PM_BASE_URL'), name: 'PM_BASE_URL' });
    if (p.baseUrl !== undefined) bases.push({ level: 'profile', url: p.baseUrl, name: "the profile's base-url" });
    if (f.wsUrl !== undefined) streams.push({ level: 'flag', url: checkUrl(f.wsUrl, names.wsUrl, 'ws'), name: names.wsUrl });
    if (e.wsUrl !== undefined) streams.push({ level: 'env', url: checkUrl(e.wsUrl, 'PM_WS_URL', 'ws'), name: 'PM_WS_URL' });
    if (p.wsUrl !== undefined) streams.push({ level: 'profile', url: p.wsUrl, name: "the profile's ws-url" });
    return { bases, streams };
  }

  /** The REST and stream URLs and their sources; a local/remote mix is only reported (`mismatch`). */
  endpointsUnchecked(): Endpoints {
    const { bases, streams } = this.givenUrls();
    return resolveEndpoints(bases, streams);
  }

  /** The URLs in use; a local/remote mix is exit 2. */
  endpoints(): Endpoints {
    const e = this.endpointsUnchecked();
    if (e.mismatch) throw e.mismatch;
    return e;
  }

  /** The whole command's (or call's) deadline in ms. */
  timeout(): Picked<number> & { value: number } {
    const { flag, env, profile } = this.input;
    const p = pick<number>([
      ['flag', flag.timeoutMs],
      ['env', env.timeout === undefined ? undefined : parseDuration(env.timeout, 'PM_TIMEOUT')],
      ['profile', profile.timeout],
    ]);
    return p.value === undefined ? { value: DEFAULT_TIMEOUT_MS, source: 'default' } : { value: p.value, source: p.source };
  }

  /**
   * The chain's JSON-RPC URL: a command's --rpc-url > PM_RPC_URL > the sandbox's own chain (when
   * the target is a sandbox started with --chain) > the profile's rpc-url > Base's public RPC
   * (only when the target is not a sandbox: a sandbox's chain is its own).
   */
  rpcUrl(o: { flag?: string | undefined; sandboxChain?: string | undefined } = {}): Picked<string> {
    const { env, profile, names } = this.input;
    // Checked as pm config set rpc-url checks it (a bad one is exit 2, named by where it came from).
    const p = pick<string>([
      ['flag', o.flag],
      ['env', env.rpcUrl],
      ['sandbox chain', o.sandboxChain],
      ['profile', profile.rpcUrl],
      ['default', this.endpointsUnchecked().sandbox ? undefined : PUBLIC_BASE_RPC],
    ]);
    const what = { flag: names.rpcUrl, env: 'PM_RPC_URL', profile: "the profile's rpc-url" } as Partial<
      Record<Picked<string>['source'], string>
    >;
    const name = what[p.source];
    if (name !== undefined && p.value !== undefined) checkUrl(p.value, name, 'rpc');
    return p;
  }

  /** Who trades: the sub-account named by --on-behalf-of, else the profile's, else the caller (unset). */
  onBehalfOf(): Picked<number> {
    return pick<number>([
      ['flag', this.input.flag.onBehalfOf],
      ['profile', this.input.profile.onBehalfOf],
    ]);
  }

  /** The output format: flag (--json, -o) > PM_OUTPUT > the profile's output > table. */
  output(): Picked<OutputFormat> & { value: OutputFormat } {
    const { flag, env, profile } = this.input;
    if (env.output !== undefined && !FORMATS.includes(env.output as OutputFormat))
      throw new UsageError(`PM_OUTPUT must be table, json or ndjson, got "${env.output}"`);
    const p = pick<OutputFormat>([
      ['flag', flag.output],
      ['env', env.output as OutputFormat | undefined],
      ['profile', profile.output],
    ]);
    return p.value === undefined ? { value: 'table', source: 'default' } : { value: p.value, source: p.source };
  }

  /** Every setting `pm config list` shows, with its value and source (URLs unchecked: a mix is reported). */
  rows(): Record<string, { value: string | number | null; source: string }> {
    const urls = this.endpointsUnchecked();
    const show = <T extends string | number>(p: Picked<T>): { value: T | null; source: string } => ({
      value: p.value ?? null,
      source: p.source,
    });
    return {
      'base-url': { value: urls.baseUrl, source: urls.baseSource },
      'ws-url': { value: urls.wsUrl, source: urls.wsSource },
      'rpc-url': show(this.rpcUrl()),
      timeout: show(this.timeout()),
      output: show(this.output()),
      wallet: show(pick<string>([['profile', this.input.profile.wallet]])),
      'on-behalf-of': show(this.onBehalfOf()),
    };
  }
}

/**
 * A profile named outright (--profile, PM_PROFILE, the library's `profile`) that the config does
 * not hold: not found (exit 4), the hint naming the one it probably meant and the known ones.
 * `from` follows the name in the message (e.g. " (from PM_PROFILE)").
 */
export function profileNotFound(name: string, known: readonly string[], from = ''): NotFoundError {
  const near = didYouMean(suggest(name, [...known]));
  const rest = known.length
    ? `Known profiles: ${known.join(', ')} (pm profile use <name>), or create it with pm init --profile-name ${name}.`
    : 'Create one with pm init.';
  return new NotFoundError(`no profile named "${name}"${from}`, { hint: near ? `${near} ${rest}` : rest });
}
