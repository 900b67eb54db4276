// Account commands: init, wallet, token.
import type { CommandDef } from '../cli/command.js';

export const ACCOUNT_GROUPS: Record<string, string> = {
  wallet: 'EOA keys in an encrypted keystore (Web3 Secret Storage v3)',
  token: 'Scoped API tokens (HMAC); secrets are stored encrypted',
};

export const ACCOUNT_COMMANDS: CommandDef[] = [
  {
    path: ['init'],
    summary: 'Set up a profile: exchange, wallet and API token (a wizard, or flags)',
    description:
      'Set up a profile. On a terminal it asks (exchange, wallet, token, profile name); with --yes or without a TTY it takes flags. --sandbox loads a seeded sandbox account (alice by default) from a running sandbox, so a newcomer can trade in one step. Keys and token secrets are stored encrypted under PM_HOME with the passphrase from a prompt, PM_PASSPHRASE or --passphrase-file.',
    options: [
      { flags: '--sandbox', description: 'use the local sandbox and one of its seeded accounts' },
      { flags: '--account <name>', description: 'sandbox account: alice, bob or partner', choices: ['alice', 'bob', 'partner'] },
      { flags: '--profile-name <name>', description: 'profile to write (default "sandbox" or "default")' },
      { flags: '--wallet <name>', description: 'use an existing keystore wallet' },
      { flags: '--create-wallet', description: 'create a new wallet' },
      { flags: '--import-key-file <file>', description: 'import the private key in this file' },
      { flags: '--token-id <id>', description: 'an existing API token id (with --secret-file)' },
      { flags: '--secret-file <file>', description: 'file holding the token secret (base64)' },
      { flags: '--derive', description: 'derive a new token with PM_IDENTITY_TOKEN' },
      { flags: '--scopes <list>', description: 'scopes for --derive, e.g. trading,delegated_signing' },
      { flags: '--force', description: 'replace an existing profile or wallet of the same name' },
    ],
    examples: [
      'pm init',
      'pm sandbox start --detach && pm init --sandbox --yes',
      'pm init --sandbox --account partner --profile-name partner --yes --passphrase-file ~/.pm-pass',
      'pm init --yes --create-wallet --token-id tok_… --secret-file secret.txt --passphrase-file ~/.pm-pass',
    ],
    load: () => import('../commands/init.js'),
  },
  {
    path: ['wallet', 'create'],
    summary: 'Create a new wallet (random key, encrypted)',
    args: [{ name: 'name', description: 'wallet name (default "default")' }],
    options: [{ flags: '--force', description: 'replace a wallet of the same name' }],
    examples: ['pm wallet create', 'pm wallet create bot --passphrase-file ~/.pm-pass'],
    load: () => import('../commands/wallet/create.js'),
  },
  {
    path: ['wallet', 'import'],
    summary: 'Import a key (hidden prompt, file or stdin) or a geth/cast/ethers keystore; never from argv',
    args: [{ name: 'name', description: 'wallet name (default "default")' }],
    options: [
      { flags: '--file <file>', description: 'read the hex key from a file' },
      { flags: '--stdin', description: 'read the hex key from stdin' },
      { flags: '--keystore <file>', description: 'import a V3 keystore file (re-encrypted with your passphrase)' },
      { flags: '--keystore-passphrase-file <file>', description: 'passphrase of that keystore file' },
      { flags: '--force', description: 'replace a wallet of the same name' },
    ],
    examples: ['pm wallet import trading', 'pm wallet import bot --file key.txt', 'pm wallet import old --keystore ~/.foundry/keystores/old'],
    load: () => import('../commands/wallet/import.js'),
  },
  {
    path: ['wallet', 'list'],
    summary: 'List wallets and their addresses (no passphrase needed)',
    examples: ['pm wallet list', 'pm --json wallet list'],
    load: () => import('../commands/wallet/list.js'),
  },
  {
    path: ['wallet', 'address'],
    summary: "Print a wallet's address",
    args: [{ name: 'name', description: "wallet name (default: the profile's)" }],
    examples: ['pm wallet address', 'pm wallet address bot'],
    load: () => import('../commands/wallet/address.js'),
  },
  {
    path: ['wallet', 'export'],
    summary: 'Export a wallet as its keystore file or plain key, to a file (or stdout with --out -)',
    args: [{ name: 'name', description: "wallet name (default: the profile's)" }],
    options: [
      { flags: '--format <format>', description: 'keystore (encrypted JSON) or key (plain hex)', choices: ['keystore', 'key'], default: 'keystore' },
      { flags: '--out <file>', description: 'where to write (mode 0600); - for stdout' },
    ],
    examples: ['pm wallet export --out backup.json', 'pm wallet export bot --format key --out - --yes'],
    load: () => import('../commands/wallet/export.js'),
  },
  {
    path: ['wallet', 'remove'],
    summary: 'Delete a wallet from the keystore',
    args: [{ name: 'name', description: 'wallet name', required: true }],
    examples: ['pm wallet remove old --yes'],
    load: () => import('../commands/wallet/remove.js'),
  },
  {
    path: ['token', 'add'],
    summary: 'Store an existing API token (secret from a prompt, file or stdin) for this profile',
    options: [
      { flags: '--token-id <id>', description: 'the token id' },
      { flags: '--secret-file <file>', description: 'file holding the secret (base64)' },
      { flags: '--secret-stdin', description: 'read the secret from stdin' },
      { flags: '--label <label>', description: 'a note for yourself' },
    ],
    examples: ['pm token add', 'pm token add --token-id tok_abc --secret-file secret.txt'],
    load: () => import('../commands/token/add.js'),
  },
  {
    path: ['token', 'derive'],
    summary: 'Derive a scoped token with an identity token; the secret is stored encrypted at once',
    options: [
      { flags: '--scopes <list>', description: 'comma-separated: trading, account_creation, delegated_signing, withdrawal' },
      { flags: '--label <label>', description: 'label shown in token list' },
    ],
    examples: ['PM_IDENTITY_TOKEN=… pm token derive', 'pm token derive --scopes trading,delegated_signing --label bot'],
    load: () => import('../commands/token/derive.js'),
  },
  {
    path: ['token', 'list'],
    summary: 'List your active API tokens (* marks the one in use)',
    examples: ['pm token list', 'pm --json token list'],
    load: () => import('../commands/token/list.js'),
  },
  {
    path: ['token', 'revoke'],
    summary: 'Revoke an API token',
    args: [{ name: 'id', description: 'token id', required: true }],
    examples: ['pm token revoke tok_abc --yes'],
    load: () => import('../commands/token/revoke.js'),
  },
  {
    path: ['token', 'capabilities'],
    summary: 'Which scopes your identity may request (identity token)',
    examples: ['PM_IDENTITY_TOKEN=… pm token capabilities'],
    load: () => import('../commands/token/capabilities.js'),
  },
];
