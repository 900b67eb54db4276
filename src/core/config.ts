// Profiles and settings under PM_HOME/config.json (0600). No secrets live here: wallets and
// token secrets are in the encrypted keystore; a profile only names them.
import { looksLikeSecret } from './secret-shape.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PmError, UsageError } from './errors.js';
import { writePrivateFileAtomic } from './fsutil.js';
import { MAX_TIMEOUT_MS, parseDuration } from './duration.js';

/** A partner's sub-account as `partner create` made it: whose key signs its orders. */
export interface SubAccountRecord {
  /** The child's address. */
  address: string;
  /** The keystore wallet holding the child's key (EOA mode). */
  wallet?: string;
  /** A server wallet: the exchange signs (orders need --delegated). */
  serverWallet?: boolean;
}

export interface ProfileConfig {
  baseUrl?: string;
  wsUrl?: string;
  rpcUrl?: string;
  /** Keystore wallet name (PM_HOME/keystores/<wallet>.json). */
  wallet?: string;
  /** Encrypted secrets name (PM_HOME/secrets/<secrets>.json). */
  secrets?: string;
  address?: string;
  profileId?: number;
  tokenId?: string;
  feeRateBps?: number;
  onBehalfOf?: number;
  timeout?: number;
  output?: 'table' | 'json' | 'ndjson';
  /** Sub-accounts this partner profile created, by profile id. */
  subAccounts?: Record<string, SubAccountRecord>;
  /** A sub-account's profile whose `partner onboard` stopped before its end: what is left. */
  onboarding?: OnboardingState;
  /** Written by older versions; ignored: whether a target is a sandbox follows its URL alone. */
  sandbox?: boolean;
}

export interface ConfigFile {
  version: 1;
  activeProfile?: string;
  profiles: Record<string, ProfileConfig>;
  /**
   * Sub-accounts made with no profile in use (script mode: credentials in the environment), by
   * the exchange's base URL, then by profile id.
   */
  subAccounts?: Record<string, Record<string, SubAccountRecord>>;
}

/** Settable keys of `pm config set`, with how to parse and check each one. */
export const CONFIG_KEYS: Record<string, { field: keyof ProfileConfig; doc: string; parse: (v: string) => string | number }> = {
  'base-url': { field: 'baseUrl', doc: 'REST base URL of the exchange', parse: (v) => checkUrl(v, 'base-url', 'http') },
  'ws-url': { field: 'wsUrl', doc: 'socket.io base URL', parse: (v) => checkUrl(v, 'ws-url', 'ws') },
  'rpc-url': { field: 'rpcUrl', doc: 'Base chain JSON-RPC URL', parse: (v) => checkUrl(v, 'rpc-url', 'rpc') },
  timeout: {
    field: 'timeout',
    doc: `the command's deadline, retries included: ms, or 500ms, 20s, 5m (at most ${MAX_TIMEOUT_MS / 60_000}m)`,
    parse: (v) => parseDuration(v, 'timeout'),
  },
  output: {
    field: 'output',
    doc: 'default output: table, json or ndjson',
    parse: (v) => oneOf(v, ['table', 'json', 'ndjson'], 'output', 'json'),
  },
  wallet: { field: 'wallet', doc: 'keystore wallet name used for signing', parse: (v) => checkProfileName(v, 'wallet name') },
  'on-behalf-of': { field: 'onBehalfOf', doc: 'default sub-account profile id', parse: (v) => parsePositiveInt(v, 'on-behalf-of') },
};

/** A setting's spec by its name; an unknown name is a usage error listing the settings. */
export function configKey(key: string): (typeof CONFIG_KEYS)[string] {
  const spec = Object.hasOwn(CONFIG_KEYS, key) ? CONFIG_KEYS[key] : undefined;
  if (!spec) throw new UsageError(`unknown setting "${key}"`, { hint: `Settings: ${Object.keys(CONFIG_KEYS).join(', ')}` });
  return spec;
}

/**
 * The one place URLs are checked (init, config set, --base-url, --rpc-url, the config file): an
 * absolute http(s) URL (or, for `ws`, also ws(s)), with a host, no credentials; returned without
 * trailing slashes. `http` (the exchange's REST URL) has no path; `rpc` (a JSON-RPC endpoint, over
 * HTTP only: the chain's transport has no websocket) may have one, as a provider's key often is.
 */
export function checkUrl(v: string, what: string, kind: 'http' | 'ws' | 'rpc' = 'http'): string {
  const allowed = kind === 'ws' ? /^(https?|wss?):$/ : /^https?:$/;
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || !allowed.test(u.protocol) || !u.hostname || u.username || u.password || /\s/.test(v)) {
    throw new UsageError(`${what} "${v}" is not ${kind === 'ws' ? 'an http(s) or ws(s)' : 'an http(s)'} URL`, {
      hint:
        kind === 'rpc'
          ? 'e.g. https://mainnet.base.org or http://127.0.0.1:8545'
          : 'e.g. https://api.limitless.exchange or http://127.0.0.1:8787',
    });
  }
  if (kind === 'http' && u.pathname !== '/' && u.pathname !== '') {
    // Requests are signed over the path from the root: a base URL with a path can never work.
    throw new UsageError(`${what} "${v}" has a path (${u.pathname}); the exchange's API is served at the root of its host`, {
      hint: `Use ${u.origin}`,
    });
  }
  return v.replace(/\/+$/, '');
}

/** A setting's value as `pm config set` takes it, for a hint. */
const setExample = (name: string, v: string): string => `for example pm config set ${name} ${v}`;

function parsePositiveInt(v: string, name: string): number {
  if (!/^\d{1,15}$/.test(v) || Number(v) <= 0)
    throw new UsageError(`${name} must be a positive whole number, got "${v}"`, { hint: setExample(name, '1234') });
  return Number(v);
}

function oneOf(v: string, allowed: string[], name: string, example: string): string {
  if (!allowed.includes(v))
    throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got "${v}"`, { hint: setExample(name, example) });
  return v;
}

class ConfigError extends PmError {
  override name = 'ConfigError';
  override readonly code = 'USAGE' as const;
  override readonly exitCode = 2;
}

/** Reads PM_HOME/config.json; a missing file is an empty config, a corrupt one an error. */
export function loadConfig(home: string): ConfigFile {
  const file = join(home, 'config.json');
  if (!existsSync(file)) return { version: 1, profiles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`the config file ${file} is not valid JSON`, {
      cause: e,
      hint: `Fix it by hand, or move it away (mv ${file} ${file}.bak) and run pm init again.`,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`the config file ${file} is not a JSON object`, {
      hint: `Move it away (mv ${file} ${file}.bak) and run pm init again.`,
    });
  }
  const o = parsed as Record<string, unknown>;
  // A newer pm's file is never read as this version's (nor rewritten as version 1, dropping what
  // this pm does not know): refused, untouched.
  const version = o['version'];
  if (version !== undefined && version !== 1) {
    if (typeof version === 'number' && Number.isSafeInteger(version) && version > 1)
      throw new ConfigError(`the config file ${file} is version ${version}, written by a newer pm; this pm reads version 1`, {
        hint: 'Upgrade pm (npm install -g pm-cli@latest), or point PM_HOME elsewhere. The file was left as it is.',
      });
    throw damaged(file, 'version', '1');
  }
  const profiles = o['profiles'];
  if (profiles !== undefined && (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))) {
    throw new ConfigError(`the config file ${file} has an invalid "profiles" entry`, {
      hint: `Move it away (mv ${file} ${file}.bak) and run pm init again.`,
    });
  }
  const cfg: ConfigFile = { version: 1, profiles: {} };
  for (const [name, raw] of Object.entries((profiles ?? {}) as Record<string, unknown>)) cfg.profiles[name] = parseProfile(file, name, raw);
  const active = o['activeProfile'];
  if (active !== undefined && active !== null) {
    if (typeof active !== 'string' || !PROFILE_NAME.test(active)) throw damaged(file, 'activeProfile', 'a profile name');
    cfg.activeProfile = active;
  }
  const partners = o['subAccounts'];
  if (partners !== undefined) {
    if (typeof partners !== 'object' || partners === null || Array.isArray(partners)) throw damaged(file, 'subAccounts', 'an object');
    for (const [base, subs] of Object.entries(partners as Record<string, unknown>)) parseSubAccounts(file, `subAccounts["${base}"]`, subs);
    cfg.subAccounts = partners as NonNullable<ConfigFile['subAccounts']>;
  }
  return cfg;
}

/** Where an interrupted `pm partner onboard` stopped (`--resume <profileId>` picks it up). */
export interface OnboardingState {
  /** The next step to run: allowances, then fund, then first-order. */
  step: 'allowances' | 'fund' | 'first-order';
  serverWallet: boolean;
  displayName?: string;
  /** The first order, its client id fixed before it is sent: a resumed run cannot place a second. */
  firstOrder?: { market: string; amount: string; clientOrderId: string };
  /** A deposit (raw USDC) sent and not yet answered: an earlier run's, whose outcome is unknown, is never sent again. */
  funding?: { amountRaw: string };
}

function damaged(file: string, where: string, expected: string): ConfigError {
  return new ConfigError(`the config file ${file} is damaged: ${where} must be ${expected}`, {
    hint: `Edit ${file} to fix or remove that entry (pm never rewrites a damaged config), then check with pm doctor.`,
  });
}

/** One profile of the file, checked field by field (unknown fields are kept as they are). */
function parseProfile(file: string, name: string, raw: unknown): ProfileConfig {
  const at = (k: string): string => `profiles.${name}.${k}`;
  if (!PROFILE_NAME.test(name)) throw damaged(file, `the profile name "${name}"`, 'letters, digits, dot, dash or underscore');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw damaged(file, `profiles.${name}`, 'an object');
  const p = { ...(raw as Record<string, unknown>) };
  const str = (k: string, check?: (v: string) => unknown): void => {
    const v = p[k];
    if (v === undefined) return;
    if (typeof v !== 'string') throw damaged(file, at(k), 'a string');
    if (check) {
      try {
        check(v);
      } catch {
        throw damaged(file, at(k), 'a valid value');
      }
    }
  };
  const int = (k: string): void => {
    const v = p[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)) throw damaged(file, at(k), 'a whole number');
  };
  str('baseUrl', (v) => checkUrl(v, 'baseUrl'));
  str('wsUrl', (v) => checkUrl(v, 'wsUrl', 'ws'));
  str('rpcUrl', (v) => checkUrl(v, 'rpcUrl', 'ws'));
  str('wallet', (v) => checkProfileName(v));
  str('secrets', (v) => checkProfileName(v));
  str('address');
  str('tokenId');
  int('profileId');
  int('feeRateBps');
  int('onBehalfOf');
  if (p['timeout'] !== undefined) {
    const t = p['timeout'];
    try {
      if (typeof t !== 'number' && typeof t !== 'string') throw new Error('type');
      p['timeout'] = parseDuration(t, at('timeout'));
    } catch {
      throw damaged(file, at('timeout'), `a duration in ms between 1 and ${MAX_TIMEOUT_MS} (e.g. 30000)`);
    }
  }
  if (p['output'] !== undefined && !['table', 'json', 'ndjson'].includes(p['output'] as string))
    throw damaged(file, at('output'), 'table, json or ndjson');
  if (p['sandbox'] !== undefined && typeof p['sandbox'] !== 'boolean') throw damaged(file, at('sandbox'), 'true or false');
  parseSubAccounts(file, at('subAccounts'), p['subAccounts']);
  return p as ProfileConfig;
}

/** Checks a record of sub-accounts (`{"<profileId>": {address, wallet?, serverWallet?}}`). */
function parseSubAccounts(file: string, where: string, subs: unknown): void {
  if (subs === undefined) return;
  if (typeof subs !== 'object' || subs === null || Array.isArray(subs)) throw damaged(file, where, 'an object');
  for (const [id, rec] of Object.entries(subs as Record<string, unknown>)) {
    const r = rec as Record<string, unknown> | null;
    const ok =
      /^\d{1,15}$/.test(id) &&
      typeof r === 'object' &&
      r !== null &&
      typeof r['address'] === 'string' &&
      (r['wallet'] === undefined || (typeof r['wallet'] === 'string' && PROFILE_NAME.test(r['wallet']))) &&
      (r['serverWallet'] === undefined || typeof r['serverWallet'] === 'boolean');
    if (!ok) throw damaged(file, `${where}.${id}`, '{address, wallet?, serverWallet?} under a profile id');
  }
}

/** Writes the config atomically with mode 0600. */
function saveConfig(home: string, cfg: ConfigFile): void {
  writePrivateFileAtomic(join(home, 'config.json'), `${JSON.stringify(cfg, null, 2)}\n`);
}

const PROFILE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/** Checks a profile name. */
export function checkProfileName(name: string, what = 'profile name'): string {
  // (A key or secret given as a name is not repeated.)
  if (!PROFILE_NAME.test(name) || looksLikeSecret(name))
    throw new UsageError(`invalid ${what} ${looksLikeSecret(name) ? '(it looks like a private key or token secret)' : `"${name}"`}`, {
      hint: 'Use letters, digits, dot, dash or underscore (up to 64).',
    });
  return name;
}

/**
 * The platform config directory for pm (what `conf` would pick), unless PM_HOME is set. A variable
 * set but empty counts as unset (the XDG rule): XDG_CONFIG_HOME='' is ~/.config, never ./pm.
 */
export function defaultHome(env: Record<string, string | undefined>): string {
  const set = (name: string): string | undefined => env[name] || undefined;
  // (node:os, loaded only without HOME: it costs every command ~0.4 ms.)
  const home = set('HOME') ?? process.getBuiltinModule('node:os').homedir();
  if (process.platform === 'win32') return join(set('APPDATA') ?? join(home, 'AppData', 'Roaming'), 'pm');
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'pm');
  return join(set('XDG_CONFIG_HOME') ?? join(home, '.config'), 'pm');
}

/**
 * Changes the config file under PM_HOME's config lock: the file is read again under the lock,
 * `change` edits that fresh copy, and it is written atomically, so parallel pm processes never
 * lose each other's writes. A writer that cannot get the lock within 10 s exits 5.
 * @example await editConfig(home, (cfg) => { cfg.activeProfile = 'sandbox'; })
 */
export async function editConfig<T>(home: string, change: (cfg: ConfigFile) => T, signal?: AbortSignal | undefined): Promise<T> {
  const { withLock } = await import('./filelock.js');
  return withLock(
    join(home, 'run', 'config.lock'),
    () => {
      const cfg = loadConfig(home);
      const r = change(cfg);
      saveConfig(home, cfg);
      return r;
    },
    { what: `the config (${join(home, 'config.json')})`, signal },
  );
}
