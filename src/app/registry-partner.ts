// Partner platform commands: partner create / list / allowances / onboard.
import type { CommandDef } from '../cli/command.js';

export const PARTNER_GROUPS: Record<string, string> = {
  partner: 'Sub-accounts for your users: create, list, allowance readiness, onboarding wizard',
};

export const PARTNER_COMMANDS: CommandDef[] = [
  {
    path: ['partner', 'create'],
    summary: 'Create a sub-account: an EOA (its key goes to the keystore) or a server wallet',
    description:
      'EOA mode generates the child\'s key into the encrypted keystore (or uses --wallet NAME from it), fetches the exchange\'s single-use signing message, signs it locally and sends the proof headers. --server-wallet asks the exchange for a managed wallet (needs the delegated_signing scope) that it signs delegated orders with. Needs a token with account_creation.\n\nExit codes: 0 created, 2 bad input (nothing sent), 3 missing scope (named), 5 the address already has a profile, 9 refused by the exchange.',
    options: [
      { flags: '--server-wallet', description: 'a server-managed wallet instead of an EOA' },
      { flags: '--name <displayName>', description: 'display name (at most 44 characters; default: the address)' },
      { flags: '--wallet <name>', description: 'EOA mode: sign with this keystore wallet instead of a new key' },
    ],
    examples: ['pm partner create --server-wallet --name alice-shop', 'pm partner create --name bob', 'pm --json partner create --server-wallet | jq .profileId'],
    load: () => import('../commands/partner/create.js'),
  },
  {
    path: ['partner', 'list'],
    summary: 'Your sub-accounts',
    options: [
      { flags: '--account <address>', description: 'only the sub-account with this address' },
      { flags: '--all', description: 'follow every page' },
      { flags: '--page <n>', description: 'page number, from 1', parse: 'positiveInt', default: '1' },
      { flags: '--limit <n>', description: 'sub-accounts per page (at most 25)', parse: 'positiveInt', default: '25' },
    ],
    examples: ['pm partner list', 'pm partner list --all', "pm --json partner list --all | jq -r '.[].profileId'"],
    load: () => import('../commands/partner/list.js'),
  },
  {
    path: ['partner', 'allowances'],
    summary: "A server-wallet sub-account's approvals; --retry --wait until it can trade",
    description:
      "Shows each allowance target (USDC allowance and CTF approval per venue) with its state. --retry asks the exchange to submit the targets still missing or failed-and-retryable. --wait runs the contract's loop (poll, retry when needed, wait out a 429's retryAfterSeconds, back off on a 409 while another retry runs) with live progress on stderr until every target is confirmed. --wait-timeout bounds it (the global --timeout is the per-request timeout in ms).\n\nExit codes: 0 ready (or shown), 2 bad profile id, 3 missing scope, 4 not your sub-account, 6 the rate limit never let it finish (the seconds asked are shown), 7 not ready in time.",
    args: [{ name: 'profileId', description: 'sub-account profile id', required: true }],
    options: [
      { flags: '--retry', description: 'submit the missing or retryable targets' },
      { flags: '--wait', description: 'keep going until every target is confirmed' },
      { flags: '--wait-timeout <duration>', description: 'give up after this long (e.g. 120s, 2m)', default: '120s' },
    ],
    examples: ['pm partner allowances 2001', 'pm partner allowances 2001 --retry --wait', 'pm --json partner allowances 2001 --retry --wait --wait-timeout 3m | jq .ready'],
    load: () => import('../commands/partner/allowances.js'),
  },
  {
    path: ['partner', 'onboard'],
    summary: 'Wizard: create a sub-account, wait until it can trade, fund it, first order, save a profile',
    description:
      "Interactive on a terminal (EOA or server wallet, name, create, wait for allowances with progress, fund or show how, an optional first delegated order, a profile for the child so that pm --profile <child> … acts for it). Without a terminal the flags answer instead: pm partner onboard --server-wallet --name X --yes --wait.\n\nExit codes: 0 done, 2 bad input or a question without a TTY, 3 missing scope, 5 the child profile name is taken, 6 rate limited past the timeout, 7 allowances not ready in time.",
    options: [
      { flags: '--server-wallet', description: 'a server-managed wallet (else an EOA whose key goes to the keystore)' },
      { flags: '--name <displayName>', description: 'display name (at most 44 characters)' },
      { flags: '--wallet <name>', description: 'EOA mode: use this keystore wallet' },
      { flags: '--profile-name <name>', description: 'name of the profile saved for the child (default from the name, else child-<id>)' },
      { flags: '--wait', description: 'wait for the allowances (server wallet)' },
      { flags: '--wait-timeout <duration>', description: 'give up waiting after this long', default: '120s' },
      { flags: '--fund <usdc>', description: 'sandbox: credit the child this many USDC' },
      { flags: '--first-order <slug>', description: 'server wallet: place a first delegated FOK BUY YES in this market' },
      { flags: '--first-amount <usdc>', description: 'USDC to spend on the first order', default: '1' },
    ],
    examples: ['pm partner onboard', 'pm partner onboard --server-wallet --name alice-shop --yes --wait', 'pm --json partner onboard --server-wallet --name bot-7 --yes --wait --fund 100'],
    load: () => import('../commands/partner/onboard.js'),
  },
];
