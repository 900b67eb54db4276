// Profiles and settings under PM_HOME/config.json (0600). No secrets live here: wallets and
// token secrets are in the encrypted keystore; a profile only names them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PmError, UsageError } from './errors.js';
import { writePrivateFileAtomic } from './fsutil.js';

export const DEFAULT_BASE_URL = 'https://api.limitless.exchange';
export const DEFAULT_WS_URL = 'wss://ws.limitless.exchange';

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
  sandbox?: boolean;
}

export interface ConfigFile {
  version: 1;
  activeProfile?: string;
  profiles: Record<string, ProfileConfig>;
}

/** Settable keys of `pm config set`, with how to parse and check each one. */
export const CONFIG_KEYS: Record<string, { field: keyof ProfileConfig; doc: string; parse: (v: string) => string | number }> = {
  'base-url': { field: 'baseUrl', doc: 'REST base URL of the exchange', parse: parseUrl },
  'ws-url': { field: 'wsUrl', doc: 'socket.io base URL', parse: parseUrl },
  'rpc-url': { field: 'rpcUrl', doc: 'Base chain JSON-RPC URL', parse: parseUrl },
  timeout: { field: 'timeout', doc: 'request timeout in ms', parse: (v) => parsePositiveInt(v, 'timeout') },
  output: { field: 'output', doc: 'default output: table, json or ndjson', parse: (v) => oneOf(v, ['table', 'json', 'ndjson'], 'output') },
  wallet: { field: 'wallet', doc: 'keystore wallet name used for signing', parse: (v) => v },
  'on-behalf-of': { field: 'onBehalfOf', doc: 'default sub-account profile id', parse: (v) => parsePositiveInt(v, 'on-behalf-of') },
};

function parseUrl(v: string): string {
  try {
    const u = new URL(v);
    if (!/^(https?|wss?):$/.test(u.protocol)) throw new Error('protocol');
    return v.replace(/\/+$/, '');
  } catch {
    throw new UsageError(`"${v}" is not an http(s) or ws(s) URL`);
  }
}

function parsePositiveInt(v: string, name: string): number {
  if (!/^\d+$/.test(v) || Number(v) <= 0) throw new UsageError(`${name} must be a positive whole number, got "${v}"`);
  return Number(v);
}

function oneOf(v: string, allowed: string[], name: string): string {
  if (!allowed.includes(v)) throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
  return v;
}

export class ConfigError extends PmError {
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
    throw new ConfigError(`the config file ${file} is not a JSON object`, { hint: `Move it away (mv ${file} ${file}.bak) and run pm init again.` });
  }
  const o = parsed as Record<string, unknown>;
  const profiles = o['profiles'];
  if (profiles !== undefined && (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))) {
    throw new ConfigError(`the config file ${file} has an invalid "profiles" entry`, { hint: `Move it away (mv ${file} ${file}.bak) and run pm init again.` });
  }
  const cfg: ConfigFile = { version: 1, profiles: (profiles ?? {}) as Record<string, ProfileConfig> };
  if (typeof o['activeProfile'] === 'string') cfg.activeProfile = o['activeProfile'];
  return cfg;
}

/** Writes the config atomically with mode 0600. */
export function saveConfig(home: string, cfg: ConfigFile): void {
  writePrivateFileAtomic(join(home, 'config.json'), `${JSON.stringify(cfg, null, 2)}\n`);
}

export const PROFILE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/** Checks a profile name. */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) throw new UsageError(`invalid profile name "${name}"`, { hint: 'Use letters, digits, dot, dash or underscore (up to 64).' });
  return name;
}
