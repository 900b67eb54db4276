// The command registry: one list, from which main.ts builds the parser and the completion
// scripts are generated. Handlers are imported only when their command runs.
import type { CommandDef } from './command.js';
import { ACCOUNT_COMMANDS, ACCOUNT_GROUPS } from './registry-accounts.js';
import { ORDER_COMMANDS } from './registry-orders.js';
import { CHAIN_COMMANDS, CHAIN_GROUPS } from './registry-chain.js';

const SORTS = ['lp_rewards', 'ending_soon', 'newest', 'high_value', 'liquidity'] as const;
const TRADE_TYPES = ['clob', 'amm', 'group'] as const;

export const GROUPS: Record<string, string> = {
  markets: 'Browse markets: list, search, show, price history, trade feed, market pages',
  config: 'Read and change settings of the active profile',
  profile: 'Named profiles (exchange, wallet, token)',
  sandbox: 'The embedded local exchange for demos, tests and your own bots',
  completion: 'Shell completion scripts',
  ...ACCOUNT_GROUPS,
  order: 'Place, cancel, list and check orders',
  ...CHAIN_GROUPS,
};

export const COMMANDS: CommandDef[] = [
  {
    path: ['markets', 'list'],
    summary: 'List active markets',
    options: [
      { flags: '--limit <n>', description: 'markets per page (1-25)', parse: 'positiveInt', default: '10' },
      { flags: '--page <n>', description: 'page number, from 1', parse: 'positiveInt', default: '1' },
      { flags: '--all', description: 'follow every page' },
      { flags: '--sort <by>', description: 'sort order', choices: SORTS },
      { flags: '--type <type>', description: 'trade type', choices: TRADE_TYPES },
      { flags: '--category <id>', description: 'category id', parse: 'positiveInt' },
    ],
    examples: ['pm markets list', 'pm markets list --sort ending_soon --limit 5', "pm --json markets list --all | jq -r '.[].slug'"],
    load: () => import('../commands/markets/list.js'),
  },
  {
    path: ['markets', 'search'],
    summary: 'Search markets by text',
    args: [{ name: 'query', description: 'words to look for', required: true, variadic: true }],
    options: [
      { flags: '--limit <n>', description: 'results per page', parse: 'positiveInt', default: '10' },
      { flags: '--page <n>', description: 'page number, from 1', parse: 'positiveInt', default: '1' },
    ],
    examples: ['pm markets search bitcoin', 'pm --json markets search "fed rate" | jq length'],
    load: () => import('../commands/markets/search.js'),
  },
  {
    path: ['markets', 'show'],
    summary: 'Show one market: outcomes, position ids, prices, volume, deadline, venue',
    args: [{ name: 'slug', description: 'market slug (or a limitless.exchange market URL)', required: true }],
    examples: ['pm markets show btc-100k-2026', 'pm --json markets show btc-100k-2026 | jq .venue'],
    load: () => import('../commands/markets/show.js'),
  },
  {
    path: ['markets', 'history'],
    summary: 'YES price history of a market',
    args: [{ name: 'slug', description: 'market slug', required: true }],
    options: [
      { flags: '--interval <i>', description: 'bucket size', choices: ['1h', '6h', '1d', '1w', '1m', 'all'], default: '1h' },
      { flags: '--from <iso>', description: 'start time (ISO 8601)' },
      { flags: '--to <iso>', description: 'end time (ISO 8601)' },
    ],
    examples: ['pm markets history btc-100k-2026', 'pm --json markets history btc-100k-2026 --interval 1d'],
    load: () => import('../commands/markets/history.js'),
  },
  {
    path: ['markets', 'feed'],
    summary: 'Recent trades and events of a market',
    args: [{ name: 'slug', description: 'market slug', required: true }],
    options: [
      { flags: '--limit <n>', description: 'events per page', parse: 'positiveInt', default: '10' },
      { flags: '--page <n>', description: 'page number, from 1', parse: 'positiveInt', default: '1' },
    ],
    examples: ['pm markets feed btc-100k-2026', 'pm --json markets feed btc-100k-2026 --limit 50'],
    load: () => import('../commands/markets/feed.js'),
  },
  {
    path: ['markets', 'page'],
    summary: 'Markets of a market page (e.g. /crypto), with paging and sorting',
    args: [{ name: 'path', description: 'page path such as /crypto, or "home"', required: true }],
    options: [
      { flags: '--limit <n>', description: 'markets per page', parse: 'positiveInt', default: '10' },
      { flags: '--page <n>', description: 'page number (offset paging)', parse: 'positiveInt' },
      { flags: '--cursor <c>', description: 'cursor from a previous call (cursor paging)' },
      { flags: '--sort <field>', description: 'createdAt, updatedAt, deadline or id; prefix - for descending' },
      { flags: '--all', description: 'follow every page' },
    ],
    examples: ['pm markets page /crypto', 'pm markets page home --sort -deadline --limit 5', 'pm --json markets page /crypto --all'],
    load: () => import('../commands/markets/page.js'),
  },
  {
    path: ['book'],
    summary: 'Order book of a market: both sides, spread, midpoint, depth',
    args: [{ name: 'slug', description: 'market slug', required: true }],
    options: [{ flags: '--depth <n>', description: 'price levels per side to show', parse: 'positiveInt', default: '10' }],
    examples: ['pm book btc-100k-2026', 'pm --json book btc-100k-2026 | jq .spread'],
    load: () => import('../commands/book.js'),
  },
  {
    path: ['config', 'get'],
    summary: 'Print one setting of the active profile',
    args: [{ name: 'key', description: 'setting name (see pm config list)', required: true }],
    examples: ['pm config get base-url'],
    load: () => import('../commands/config/get.js'),
  },
  {
    path: ['config', 'set'],
    summary: 'Change one setting of the active profile',
    args: [
      { name: 'key', description: 'setting name (see pm config list)', required: true },
      { name: 'value', description: 'new value', required: true },
    ],
    examples: ['pm config set base-url http://127.0.0.1:8787', 'pm --profile bot config set timeout 10000'],
    load: () => import('../commands/config/set.js'),
  },
  {
    path: ['config', 'list'],
    summary: 'List the settings of the active profile and where each value comes from',
    examples: ['pm config list', 'pm --json config list'],
    load: () => import('../commands/config/list.js'),
  },
  {
    path: ['profile', 'list'],
    summary: 'List profiles',
    examples: ['pm profile list'],
    load: () => import('../commands/profile/list.js'),
  },
  {
    path: ['profile', 'use'],
    summary: 'Make a profile the active one',
    args: [{ name: 'name', description: 'profile name', required: true }],
    examples: ['pm profile use sandbox'],
    load: () => import('../commands/profile/use.js'),
  },
  {
    path: ['profile', 'remove'],
    summary: 'Remove a profile (its wallet and secrets stay in the keystore)',
    args: [{ name: 'name', description: 'profile name', required: true }],
    examples: ['pm profile remove old-bot --yes'],
    load: () => import('../commands/profile/remove.js'),
  },
  {
    path: ['sandbox', 'start'],
    summary: 'Start the embedded exchange on 127.0.0.1',
    options: [
      { flags: '--port <port>', description: 'TCP port (0 picks a free one)', parse: 'port', default: '8787' },
      { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
      { flags: '--ephemeral', description: 'keep state in memory only' },
      { flags: '--detach', description: 'run in the background (see sandbox status/stop)' },
      { flags: '--chain', description: 'run a local chain beside it (anvil from npm): contracts, funded accounts, on-chain approvals' },
      { flags: '--chain-rpc <url>', description: 'like --chain, on a running node (anvil, hardhat) at this JSON-RPC URL' },
    ],
    examples: ['pm sandbox start', 'pm sandbox start --chain --port 0 --ephemeral', 'pm sandbox start --port 0 --ephemeral --json', 'pm sandbox start --detach && pm sandbox status'],
    load: () => import('../commands/sandbox/start.js'),
  },
  {
    path: ['sandbox', 'stop'],
    summary: 'Stop a detached sandbox',
    examples: ['pm sandbox stop'],
    load: () => import('../commands/sandbox/stop.js'),
  },
  {
    path: ['sandbox', 'status'],
    summary: 'Show whether a detached sandbox is running, and its URLs',
    examples: ['pm sandbox status', 'pm --json sandbox status'],
    load: () => import('../commands/sandbox/status.js'),
  },
  {
    path: ['sandbox', 'reset'],
    summary: 'Restore the sandbox to its seed (running or stored state)',
    examples: ['pm sandbox reset --yes'],
    load: () => import('../commands/sandbox/reset.js'),
  },
  ...ACCOUNT_COMMANDS,
  ...ORDER_COMMANDS,
  ...CHAIN_COMMANDS,
  {
    path: ['whoami'],
    summary: 'Show the active identity, verified with the exchange (profile, fee rate, scopes, credential source)',
    description:
      'Show the active identity and verify it with an authenticated call (GET /profiles/me): a bad or revoked secret fails here with exit 3.\n\nCredentials, first match wins: PM_TOKEN_ID + PM_TOKEN_SECRET, or PM_API_KEY (the environment replaces the stored token and key together); else the profile\'s encrypted token, else its legacy key. The signing wallet: PM_PRIVATE_KEY, else the profile\'s keystore wallet. Identity-only routes use PM_IDENTITY_TOKEN or the stored identity token.',
    examples: ['pm whoami', 'pm --json whoami | jq .profileId', 'PM_TOKEN_ID=… PM_TOKEN_SECRET=… pm whoami'],
    load: () => import('../commands/whoami.js'),
  },
  {
    path: ['completion'],
    summary: 'Print a shell completion script',
    args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, choices: ['bash', 'zsh', 'fish'] }],
    examples: ['pm completion bash > /etc/bash_completion.d/pm', 'pm completion zsh > "${fpath[1]}/_pm"', 'pm completion fish > ~/.config/fish/completions/pm.fish'],
    load: () => import('../commands/completion.js'),
  },
  {
    path: ['demo'],
    summary: 'A guided tour of pm against a fresh in-process sandbox',
    examples: ['pm demo'],
    load: () => import('../commands/demo.js'),
  },
];
