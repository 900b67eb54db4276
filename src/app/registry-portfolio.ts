// Portfolio and money commands: positions, PnL, trades, history, withdraw, the withdrawal
// allowlist, redeem, and the sandbox's fund/resolve.
import type { CommandDef, OptionDef } from '../cli/command.js';

export const PORTFOLIO_GROUPS: Record<string, string> = {
  portfolio: 'Positions with PnL, the PnL chart, trades and history',
  'withdrawal-address': 'The withdrawal-address allowlist (identity token only)',
};

const ON_BEHALF: OptionDef = { flags: '--on-behalf-of <profileId>', description: 'a partner sub-account instead of your own profile', parse: 'positiveInt' };

const POSITIONS: Omit<CommandDef, 'path'> = {
  summary: 'Positions: shares, average price, cost, value, unrealised and realised PnL, open orders, locked collateral',
  description:
    'One row per market and outcome, with a totals line. Numbers come from the exchange\'s positions (average cost basis): cost is what the shares still held cost (fees included), value is shares × the last price (1 or 0 once resolved), unrealised = value − cost, realised is booked by sales and redemptions. --json prints {positions: [...], totals}, every amount also as a *Raw integer string.',
  options: [
    { flags: '--market <slug>', description: 'only this market (or NegRisk group)' },
    { flags: '--resolved', description: 'only resolved markets' },
    { flags: '--redeemable', description: 'only positions that can be redeemed now' },
    ON_BEHALF,
  ],
  examples: ['pm portfolio positions', 'pm positions --market btc-100k-2026', "pm --json portfolio positions | jq '.totals'", 'pm portfolio positions --redeemable'],
  load: () => import('../commands/portfolio/positions.js'),
};

export const PORTFOLIO_COMMANDS: CommandDef[] = [
  { path: ['portfolio', 'positions'], ...POSITIONS },
  { path: ['positions'], ...POSITIONS, summary: 'Same as pm portfolio positions' },
  {
    path: ['portfolio', 'pnl'],
    summary: 'Realised PnL over time: a line chart on a terminal, the series with --json',
    options: [{ flags: '--timeframe <tf>', description: 'window', choices: ['1d', '7d', '30d', 'all'], default: '7d' }, ON_BEHALF],
    examples: ['pm portfolio pnl', 'pm portfolio pnl --timeframe 30d', "pm --json portfolio pnl --timeframe all | jq '.points[-1]'"],
    load: () => import('../commands/portfolio/pnl.js'),
  },
  {
    path: ['portfolio', 'trades'],
    summary: 'Your fills, newest first',
    options: [ON_BEHALF],
    examples: ['pm portfolio trades', 'pm --json portfolio trades | jq length'],
    load: () => import('../commands/portfolio/trades.js'),
  },
  {
    path: ['portfolio', 'history'],
    summary: 'Account history (trades, deposits, withdrawals, claims), newest first, with cursor paging',
    options: [
      { flags: '--limit <n>', description: 'entries to show (one page up to 100)', parse: 'positiveInt', default: '20' },
      { flags: '--all', description: 'follow every cursor to the end (NDJSON with --json, streamed)' },
      { flags: '--since <date>', description: 'stop at entries older than this (ISO 8601)' },
      ON_BEHALF,
    ],
    examples: ['pm portfolio history', 'pm portfolio history --since 2026-01-01', 'pm --json portfolio history --all > history.ndjson'],
    load: () => import('../commands/portfolio/history.js'),
  },
  {
    path: ['withdraw'],
    summary: 'Withdraw USDC from a server wallet to your account, smart wallet or an allowlisted address',
    description:
      'The amount is a decimal of whole tokens (12.5 USDC), sent as the exact raw integer string ("12500000"); more than 6 decimals, zero, negatives, 1e3 and commas are refused before anything is sent (exit 2). A confirmation shows amount, token, source wallet and destination; --yes skips it, and without a TTY --yes is required (exit 2, nothing sent). --dry-run prints the exact body.\n\nExit codes: 0 sent, 2 bad input or declined, 3 destination not allowed or wrong credential, 9 refused by the exchange (e.g. insufficient balance).',
    args: [{ name: 'amount', description: 'USDC amount, e.g. 12.5', required: true }],
    options: [
      { flags: '--to <address>', description: 'destination (default: your account address; with --on-behalf-of the partner\'s)' },
      { flags: '--token <address>', description: 'ERC-20 token (default USDC)' },
      ON_BEHALF,
      { flags: '--dry-run', description: 'print the exact request body and send nothing' },
    ],
    examples: ['pm withdraw 12.5 --to 0x…', 'pm --yes withdraw 100 --on-behalf-of 2001', 'pm withdraw 0.000001 --dry-run'],
    load: () => import('../commands/withdraw.js'),
  },
  {
    path: ['withdrawal-address', 'add'],
    summary: 'Allow withdrawals to an address (identity token: keystore or PM_IDENTITY_TOKEN)',
    args: [{ name: 'address', description: 'destination address (EIP-55 or lowercase)', required: true }],
    options: [{ flags: '--label <text>', description: 'a name for it' }],
    examples: ['pm withdrawal-address add 0x… --label cold'],
    load: () => import('../commands/withdrawal-address/add.js'),
  },
  {
    path: ['withdrawal-address', 'list'],
    summary: 'The withdrawal allowlist',
    options: [{ flags: '--all', description: 'include removed entries' }],
    examples: ['pm withdrawal-address list', 'pm --json withdrawal-address list'],
    load: () => import('../commands/withdrawal-address/list.js'),
  },
  {
    path: ['withdrawal-address', 'remove'],
    summary: 'Remove an address from the withdrawal allowlist',
    args: [{ name: 'address', description: 'the address', required: true }],
    examples: ['pm withdrawal-address remove 0x…'],
    load: () => import('../commands/withdrawal-address/remove.js'),
  },
  {
    path: ['redeem'],
    summary: 'Claim winning shares of resolved markets: 1 USDC per share',
    args: [{ name: 'slug', description: 'market slug' }],
    options: [
      { flags: '--condition-id <id>', description: 'the market\'s condition id (0x + 64 hex)' },
      { flags: '--all', description: 'every redeemable position' },
      ON_BEHALF,
    ],
    examples: ['pm redeem eth-5k-2025', 'pm redeem --all', 'pm --json redeem --condition-id 0x…'],
    load: () => import('../commands/redeem.js'),
  },
  {
    path: ['sandbox', 'fund'],
    summary: 'Credit USDC to a sandbox profile (its server wallet when it has one)',
    args: [{ name: 'amount', description: 'USDC amount, e.g. 250', required: true }],
    options: [{ flags: '--to <profileId>', description: 'profile id (default: the active profile\'s)', parse: 'positiveInt' }],
    examples: ['pm sandbox fund 250 --to 1001'],
    load: () => import('../commands/sandbox/fund.js'),
  },
  {
    path: ['sandbox', 'resolve'],
    summary: 'Resolve a sandbox market and post its payout',
    args: [
      { name: 'slug', description: 'market slug', required: true },
      { name: 'outcome', description: 'the winner', required: true, choices: ['yes', 'no', 'YES', 'NO'] },
    ],
    options: [{ flags: '--payout-pending', description: 'resolve without posting the payout yet (redeem says "not redeemable yet")' }],
    examples: ['pm sandbox resolve btc-100k-2026 yes', 'pm sandbox resolve fed-cut-december no --payout-pending'],
    load: () => import('../commands/sandbox/resolve.js'),
  },
];
