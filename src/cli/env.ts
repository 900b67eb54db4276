// Every environment variable pm reads, typed, with one line of doc each. The table in
// docs/configuration.md is checked against this list by a test. Only this module reads process.env (via io.env).

export interface EnvVar {
  name: string;
  doc: string;
  secret?: boolean;
  /** The lower-case spelling is read too, and wins when both are set (as curl, npm and Node read the proxy variables). */
  lower?: boolean;
}

export const ENV_VARS = [
  {
    name: 'PM_HOME',
    doc: 'Directory for config, profiles, keystores, the order journal and sandbox state (default: ~/.config/pm, or $XDG_CONFIG_HOME/pm).',
  },
  { name: 'PM_PROFILE', doc: 'Profile to use when --profile is not given.' },
  { name: 'PM_BASE_URL', doc: 'REST base URL of the exchange (default https://api.limitless.exchange).' },
  {
    name: 'PM_WS_URL',
    doc: 'WebSocket (socket.io) base URL of the exchange (default: follows the base URL; wss://ws.limitless.exchange for the exchange).',
  },
  { name: 'PM_RPC_URL', doc: 'Base chain JSON-RPC URL for on-chain approvals.' },
  {
    name: 'PM_PASSPHRASE',
    doc: 'Passphrase that unlocks the keystore (--passphrase-file wins over it; less safe than a prompt or a 0600 file).',
    secret: true,
  },
  { name: 'PM_PRIVATE_KEY', doc: 'Script mode: EOA private key (hex) instead of a keystore wallet (less safe).', secret: true },
  { name: 'PM_TOKEN_ID', doc: 'Script mode: scoped API token id (used with PM_TOKEN_SECRET).' },
  { name: 'PM_TOKEN_SECRET', doc: 'Script mode: scoped API token secret, base64 (less safe).', secret: true },
  { name: 'PM_API_KEY', doc: 'Script mode: legacy X-API-Key (used only when no scoped token is set).', secret: true },
  {
    name: 'PM_IDENTITY_TOKEN',
    doc: 'Script mode: identity-provider token for identity-only routes (token derive, capabilities).',
    secret: true,
  },
  { name: 'PM_OUTPUT', doc: 'Output format when no --json or -o is given: table, json or ndjson (overrides the profile setting).' },
  { name: 'PM_TIMEOUT', doc: "The command's deadline, retries included: milliseconds, or 500ms, 20s, 5m (default 30000, at most 1h)." },
  {
    name: 'PM_PACE',
    doc: 'Per-token request pacing: "off" or "<in flight>/<ms>" (default 2/300, the exchange\'s limit); "off" only for a sandbox whose rate limit is off (POST /__sandbox/faults {"rateLimit":false}): it paces nothing and keeps no record under PM_HOME/run.',
  },
  { name: 'PM_SCRYPT_N', doc: 'scrypt cost for new keystores (default 131072); lower it only for tests and CI.' },
  {
    name: 'PM_CODE_CACHE',
    doc: '"off" disables the compile cache that makes start-up faster (in $XDG_CACHE_HOME/pm/code-cache, else ~/.cache/pm/code-cache). Read by bin/pm.js.',
  },
  {
    name: 'HTTPS_PROXY',
    doc: 'Proxy for https:// and wss:// (the exchange, its stream): http://host:port or http://user:password@host:port; also https_proxy.',
    secret: true,
    lower: true,
  },
  {
    name: 'HTTP_PROXY',
    doc: 'Proxy for http:// and ws:// (a sandbox elsewhere; loopback too unless NO_PROXY names it); also http_proxy.',
    secret: true,
    lower: true,
  },
  {
    name: 'NO_PROXY',
    doc: 'Hosts reached without a proxy, comma-separated: * (all), example.com (and names below it), host:port, 10.0.0.0/8; also no_proxy.',
    lower: true,
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    doc: "Node's extra CA certificates (a TLS-inspecting proxy's CA). pm doctor notes its start-up cost on Node 20 (~90 ms a command; Node 24 loads it when needed).",
  },
  { name: 'NO_COLOR', doc: 'Disable colour when set to any value.' },
  { name: 'CI', doc: 'When set (to anything but 0 or false), pm never prompts (as with --non-interactive).' },
] as const satisfies readonly EnvVar[];

export type EnvName = (typeof ENV_VARS)[number]['name'];
export type Env = Partial<Record<EnvName, string>>;

/** Picks the known variables out of an environment; empty strings count as unset. */
export function readEnv(source: Record<string, string | undefined>): Env {
  const env: Env = {};
  for (const v of ENV_VARS) {
    const value = ('lower' in v && v.lower ? source[v.name.toLowerCase()] : undefined) || source[v.name];
    if (value !== undefined && value !== '') env[v.name] = value;
  }
  return env;
}

/** Whether CI says pm runs in CI: set, and not "0" or "false" (any case), as CI tools read it. */
export function isCi(env: Env): boolean {
  const v = env.CI?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}
