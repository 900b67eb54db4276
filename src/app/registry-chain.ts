// On-chain commands: approvals, balances, EOA redemption (viem, loaded only when they run).
import type { CommandDef, OptionDef } from '../cli/command.js';

const RPC: OptionDef = { flags: '--rpc-url <url>', description: 'JSON-RPC URL (else PM_RPC_URL, a sandbox chain, or the profile rpc-url)' };

export const CHAIN_GROUPS: Record<string, string> = {
  approve: 'On-chain token approvals the exchange needs (check first, send only what is missing)',
};

export const CHAIN_COMMANDS: CommandDef[] = [
  {
    path: ['approve', 'check'],
    summary: "Show the USDC allowance and CTF approvals your wallet needs for a market's venue",
    description: 'Reads on chain: USDC allowance to venue.exchange (needed to BUY), CTF setApprovalForAll to venue.exchange (to SELL), and to venue.adapter on NegRisk markets.\n\nExit codes: 0 read, 2 no RPC configured or wrong chain, 7 RPC unreachable.',
    args: [{ name: 'slug', description: 'market slug' }],
    options: [{ flags: '--all', description: 'every venue of the active markets' }, RPC],
    examples: ['pm approve check btc-100k-2026', 'pm approve check --all', 'pm --json approve check us-election-2028-democrat | jq .missing'],
    load: () => import('../commands/chain/approve-check.js'),
  },
  {
    path: ['approve', 'set'],
    summary: 'Send the missing approvals only (gas estimate, confirmation, receipts)',
    description: 'Sends only what approve check reports missing: a second run sends nothing. Shows the gas estimate and asks first (--yes in scripts); progress on stderr, transaction hashes on stdout.\n\nExit codes: 0 done (or nothing to do), 1 reverted or not enough ETH for gas, 2 bad input / no RPC / wrong chain, 7 RPC lost (run approve check to see the truth).',
    args: [{ name: 'slug', description: 'market slug' }],
    options: [
      { flags: '--all', description: 'every venue of the active markets' },
      { flags: '--side <side>', description: 'which approvals', choices: ['buy', 'sell', 'both'], default: 'both' },
      { flags: '--amount <usdc>', description: 'USDC allowance to set (default unlimited)' },
      { flags: '--unlimited', description: 'unlimited USDC allowance (the default)' },
      { flags: '--dry-run', description: 'print the transactions and send nothing' },
      RPC,
    ],
    examples: ['pm approve set btc-100k-2026', 'pm approve set --all --side buy --amount 500 --yes', 'pm approve set us-election-2028-democrat --dry-run'],
    load: () => import('../commands/chain/approve-set.js'),
  },
  {
    path: ['balance'],
    summary: 'On-chain balances of your wallet: ETH for gas, USDC, and position tokens of markets',
    args: [{ name: 'slugs', description: 'markets whose YES/NO tokens to show', variadic: true }],
    options: [RPC],
    examples: ['pm balance', 'pm balance btc-100k-2026 eth-5k-2025', 'pm --json balance | jq .usdc'],
    load: () => import('../commands/chain/balance.js'),
  },
  {
    path: ['redeem-onchain'],
    summary: "Redeem a resolved market's positions on chain from your EOA (after checking the payout is posted)",
    description: 'Calls the conditional-token contract (redeemPositions) for a resolved market once its payout is posted on chain; the winning tokens become USDC in your wallet. Server-wallet accounts use the exchange route instead.\n\nExit codes: 0 redeemed (or nothing to redeem), 1 reverted or not enough ETH, 2 payout not posted / no RPC / wrong chain, 7 RPC lost.',
    args: [{ name: 'slug', description: 'market slug', required: true }],
    options: [{ flags: '--dry-run', description: 'print the transaction and send nothing' }, RPC],
    examples: ['pm redeem-onchain eth-5k-2025', 'pm --json redeem-onchain eth-5k-2025 --yes | jq .payout'],
    load: () => import('../commands/chain/redeem.js'),
  },
];
