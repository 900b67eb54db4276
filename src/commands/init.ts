// `pm init`: a wizard (or flags) that picks the exchange, sets up a wallet and an API token in
// the encrypted keystore, and writes a profile.
import { readTextFile } from '../cli/files.js';
import type { Context } from '../cli/context.js';
import { confirm, input, password, select, validating } from '../cli/prompt.js';
import { checkProfileName, checkUrl } from '../core/config.js';
import { DEFAULT_BASE_URL, isLoopbackUrl } from '../core/endpoints.js';
import type { ProfileConfig } from '../core/config.js';
import { ConflictError, InterruptedError, NetworkError, PmError, UsageError, ValidationError } from '../core/errors.js';
import { isBase64 } from '../core/hmac.js';
import { runningSandbox, seededAccounts } from '../core/sandboxctl.js';
import type { SeededAccount } from '../core/sandboxctl.js';
import { deriveToken } from '../core/tokens.js';
import { verifyToken } from './token/common.js';
import type { Profile } from '../core/tokens.js';
import { probeExchange } from '../core/probe.js';
import { generatePrivateKey } from 'viem/accounts';
import { parsePrivateKey } from '../keystore/index.js';
import { defineCommand } from '../cli/command.js';
import { describeReplace, replaceEffect } from './wallet/common.js';
/** The profile-name question says which characters a name may have (checkProfileName's rule). */
const PROFILE_NAME_PROMPT = 'Profile name (letters, digits, dot, dash, underscore)';

type SandboxAccount = SeededAccount;

/** What a seeded account is for, from what the sandbox says of it (new accounts need no change here). */
function accountLabel(a: SandboxAccount): string {
  const what =
    a.role === 'trader'
      ? a.serverWallet
        ? 'a trader who trades from a server wallet'
        : 'a trader'
      : a.role === 'market_maker'
        ? 'the market maker'
        : a.role === 'partner'
          ? 'partner scopes and sub-accounts'
          : (a.role ?? 'a seeded account');
  return `${a.name}: ${what}`;
}

function sandboxUrl(ctx: Context): string {
  const explicit = ctx.flags.baseUrl ?? ctx.env.PM_BASE_URL;
  if (explicit) {
    const where = ctx.flags.baseUrl !== undefined ? '--base-url' : 'PM_BASE_URL';
    const url = checkUrl(explicit, where);
    // A sandbox is on this machine (the rule every sandbox command keeps): nothing is asked elsewhere.
    if (!isLoopbackUrl(url))
      throw new UsageError(`--sandbox sets up a sandbox account, and ${url} (${where}) is not a sandbox: nothing was sent`, {
        hint: 'Point it at a sandbox on this machine (pm sandbox status shows its URL), or drop --sandbox to set up an exchange account.',
      });
    return url;
  }
  const running = runningSandbox(ctx.home);
  if (running) return running.baseUrl;
  throw new NetworkError('no sandbox is running for this PM_HOME', {
    hint: 'Start one with pm sandbox start --detach (or pass --base-url of a running sandbox).',
  });
}

async function sandboxAccounts(ctx: Context, baseUrl: string): Promise<SandboxAccount[]> {
  return seededAccounts(await ctx.api(undefined, { baseUrl }));
}

function guardProfile(ctx: Context, name: string, force: boolean, refresh: boolean): void {
  if (ctx.config().profiles[name] && !force && !refresh) {
    throw new ConflictError(`a profile named ${name} already exists`, {
      hint: 'Pick another with --profile-name, or pass --force to replace it.',
    });
  }
}

async function initSandbox(
  ctx: Context,
  accountName: string,
  profileName: string,
  force: boolean,
  knownUrl?: string,
): Promise<Record<string, unknown>> {
  const baseUrl = knownUrl ?? sandboxUrl(ctx).replace(/\/+$/, '');
  const accounts = await sandboxAccounts(ctx, baseUrl);
  const acct = accounts.find((a) => a.name === accountName);
  if (!acct)
    throw new ValidationError(`the sandbox has no account "${accountName}"`, {
      hint: `Accounts: ${accounts.map((a) => a.name).join(', ')}`,
    });
  // Re-running init --sandbox for the same sandbox profile refreshes it.
  guardProfile(ctx, profileName, force, isLoopbackUrl(ctx.config().profiles[profileName]?.baseUrl ?? DEFAULT_BASE_URL));
  const wallet = `sandbox-${acct.name}`;
  // Atomic: every check and request first, then the writes (keystore, then config).
  const ks = await ctx.keystore();
  // The seeded key is written over a wallet of that name only when it holds that same key (a
  // re-run): a wallet made by hand under the name keeps its key.
  const held = ks.hasWallet(wallet) ? ks.walletAddress(wallet) : undefined;
  if (held !== undefined && held.toLowerCase() !== acct.address.toLowerCase())
    throw new ConflictError(
      `a wallet named ${wallet} already exists with another key (${held}), not the sandbox's ${acct.name} (${acct.address})`,
      {
        hint: `Nothing was written. To keep that key, export it first (pm wallet export ${wallet}); then pm wallet remove ${wallet} and run pm init --sandbox again.`,
      },
    );
  const { feeRateBps } = await verifyToken(ctx, acct.token.tokenId, acct.token.secret, baseUrl);
  const pass = await ctx.newPassphrase();
  await ks.importWalletKey(wallet, acct.privateKey, pass, { force: true });
  await ks.saveSecrets(
    profileName,
    { tokenId: acct.token.tokenId, tokenSecret: acct.token.secret, apiKey: acct.apiKey, identityToken: acct.identityToken },
    pass,
    { force: true, label: `sandbox ${acct.name}` },
  );
  const profile: ProfileConfig = {
    baseUrl,
    wallet,
    secrets: profileName,
    address: acct.address,
    profileId: acct.profileId,
    tokenId: acct.token.tokenId,
    feeRateBps,
  };
  await writeProfile(ctx, profileName, profile);
  return {
    profile: profileName,
    baseUrl,
    account: acct.name,
    address: acct.address,
    profileId: acct.profileId,
    tokenId: acct.token.tokenId,
    wallet,
  };
}

function writeProfile(ctx: Context, name: string, profile: ProfileConfig): Promise<void> {
  return ctx.editConfig((cfg) => {
    // A re-run keeps the profile's own preferences (pm config set timeout / output), which init never asks.
    const old = cfg.profiles[name];
    cfg.profiles[name] = {
      ...(old?.timeout !== undefined && { timeout: old.timeout }),
      ...(old?.output !== undefined && { output: old.output }),
      ...profile,
    };
    cfg.activeProfile = name;
  });
}

/** The real exchange (or any URL), from flags or the wizard's answers. */
async function initExchange(
  ctx: Context,
  o: {
    baseUrl: string;
    profileName: string;
    /** Replace a profile of that name. */
    force: boolean;
    /** Write a new key over a keystore wallet of that name (--force, which the guard asked for; a yes in the wizard). */
    replaceWallet: boolean;
    wallet?: string | undefined;
    importKey?: string | undefined;
    createWallet: boolean;
    tokenId?: string | undefined;
    secret?: string | undefined;
    derive: boolean;
    scopes?: string | undefined;
    /** The token's profile, when the wizard verified it already. */
    verified?: Profile | undefined;
  },
): Promise<Record<string, unknown>> {
  // Atomic: everything is checked, asked and verified first; nothing is written until then.
  guardProfile(ctx, o.profileName, o.force, false);
  const baseUrl = checkUrl(o.baseUrl, 'the exchange URL');
  const ks = await ctx.keystore();
  let wallet = o.wallet;
  let key: `0x${string}` | undefined;
  if (o.importKey !== undefined) key = parsePrivateKey(o.importKey);
  else if (o.createWallet) key = generatePrivateKey();
  if (key !== undefined) {
    wallet ??= o.profileName;
    if (ks.hasWallet(wallet) && !o.replaceWallet)
      throw new ConflictError(`a wallet named "${wallet}" already exists`, {
        hint:
          o.wallet !== undefined
            ? `Drop ${o.createWallet ? '--create-wallet' : '--import-key-file'} to use it as it is, or pass --force to replace it.`
            : 'Use it with --wallet, or pass --force to replace it.',
      });
  }
  if (o.secret !== undefined && !isBase64(o.secret))
    throw new ValidationError('the token secret is not base64', {
      hint: 'The file given to --secret-file must hold the secret exactly as the exchange returned it when the token was derived (base64).',
    });
  // (Only the environment: init sets up a profile, so none holds an identity token yet.)
  if (o.derive && !ctx.env.PM_IDENTITY_TOKEN)
    throw new UsageError('--derive needs an identity token in PM_IDENTITY_TOKEN', {
      hint: 'Put your identity token in the environment: PM_IDENTITY_TOKEN=… pm init --derive. Or add a token you already have: --token-id ID --secret-file FILE.',
    });
  const { privateKeyToAccount } = await import('viem/accounts');
  const address: string | null =
    key !== undefined ? privateKeyToAccount(key).address : wallet !== undefined ? ks.walletAddress(wallet) : null;
  const pass = await ctx.newPassphrase();
  const profile: ProfileConfig = {
    baseUrl,
    ...(wallet ? { wallet } : {}),
    ...(address ? { address } : {}),
  };
  let secrets: { tokenId: string; tokenSecret: string; identityToken?: string } | undefined;
  if (o.derive) {
    const identity = ctx.env.PM_IDENTITY_TOKEN ?? '';
    const api = await ctx.api({ identity: { header: () => `Bearer ${identity}` } }, { baseUrl });
    try {
      const { parseScopes } = await import('../core/tokens.js');
      const t = await deriveToken(api, { label: `pm init ${o.profileName}`, scopes: o.scopes ? parseScopes(o.scopes) : undefined });
      secrets = { tokenId: t.tokenId, tokenSecret: t.secret, identityToken: identity };
    } finally {
      await api.close();
    }
  } else if (o.tokenId !== undefined && o.secret !== undefined) {
    secrets = { tokenId: o.tokenId, tokenSecret: o.secret };
  }
  if (secrets) {
    // Verify the token now, so a typo fails here (with nothing written) rather than at the first order.
    const me = o.verified ?? (await verifyToken(ctx, secrets.tokenId, secrets.tokenSecret, baseUrl));
    Object.assign(profile, { secrets: o.profileName, tokenId: secrets.tokenId, profileId: me.id, feeRateBps: me.feeRateBps });
    if (address && me.account && me.account.toLowerCase() !== address.toLowerCase()) {
      ctx.out.warn(`the token belongs to ${me.account}, not to the wallet ${address}: orders signed by this wallet will be refused`);
    }
  }
  // The writes.
  if (key !== undefined && wallet !== undefined) await ks.importWalletKey(wallet, key, pass, { force: o.replaceWallet });
  if (secrets) await ks.saveSecrets(o.profileName, secrets, pass, { force: true });
  await writeProfile(ctx, o.profileName, profile);
  return {
    profile: o.profileName,
    baseUrl,
    wallet: wallet ?? null,
    address,
    tokenId: profile.tokenId ?? null,
    profileId: profile.profileId ?? null,
  };
}

async function wizard(ctx: Context, force: boolean): Promise<Record<string, unknown>> {
  const hint = 'Run pm init with flags instead (see pm init --help).';
  const freeName = (v: string): void => {
    checkProfileName(v);
    if (ctx.config().profiles[v] && !force)
      throw new ConflictError(`a profile named ${v} already exists (pick another, or run pm init --force)`);
  };
  // Each answer is checked in place and asked again (a sandbox that is not running, a bad URL…).
  for (;;) {
    const running = runningSandbox(ctx.home);
    const where = await select(
      ctx,
      'Which exchange?',
      [
        {
          name: `Local sandbox${running ? ` (running at ${running.baseUrl})` : ' (start it with pm sandbox start --detach)'}`,
          value: 'sandbox' as const,
        },
        { name: 'The real exchange (api.limitless.exchange)', value: 'real' as const },
        { name: 'Another URL', value: 'url' as const },
      ],
      hint,
    );
    if (where !== 'sandbox') return wizardExchange(ctx, force, hint, freeName, where);
    let accounts: SandboxAccount[];
    let baseUrl: string;
    try {
      baseUrl = sandboxUrl(ctx).replace(/\/+$/, '');
      accounts = await sandboxAccounts(ctx, baseUrl);
    } catch (e) {
      ctx.io.stderr.write(
        `${ctx.out.c.red('✗')} ${(e as { shortMessage?: string }).shortMessage ?? (e as Error).message}. Start one with pm sandbox start --detach in another terminal, or pick another exchange.\n`,
      );
      continue;
    }
    const account = await select(
      ctx,
      'Which seeded account?',
      accounts.map((a) => ({ name: accountLabel(a), value: a.name })),
      hint,
    );
    const sandboxName = (v: string): void => {
      checkProfileName(v);
      if (ctx.config().profiles[v] && !force && !isLoopbackUrl(ctx.config().profiles[v]?.baseUrl ?? DEFAULT_BASE_URL))
        throw new ConflictError(`a profile named ${v} already exists (pick another, or run pm init --force)`);
    };
    const name = await input(ctx, PROFILE_NAME_PROMPT, hint, 'sandbox', validating(sandboxName));
    return initSandbox(ctx, account, name, force, baseUrl);
  }
}

/** The wizard's "is this an exchange?" check of a typed URL: a reason to ask again, or true. */
async function exchangeAnswers(ctx: Context, v: string): Promise<true | string> {
  let url: string;
  try {
    url = checkUrl(v.trim(), 'the URL');
  } catch (e) {
    return (e as UsageError).shortMessage;
  }
  const api = await ctx.api(undefined, { baseUrl: url });
  try {
    await probeExchange(api, { timeoutMs: Math.min(ctx.timeoutMs, 10_000) });
    return true;
  } catch (e) {
    if (e instanceof InterruptedError) throw e;
    const running = runningSandbox(ctx.home);
    const why = e instanceof PmError ? e.shortMessage : String(e);
    return running && running.baseUrl !== url ? `${why}; the sandbox of this PM_HOME runs at ${running.baseUrl}` : why;
  } finally {
    await api.close();
  }
}

async function wizardExchange(
  ctx: Context,
  force: boolean,
  hint: string,
  freeName: (v: string) => void,
  where: 'real' | 'url',
): Promise<Record<string, unknown>> {
  // Each answer is checked when it is given: the URL answers as an exchange, the key is a key,
  // the token is verified with the exchange. A wrong one is asked again in place.
  const baseUrl =
    where === 'real'
      ? DEFAULT_BASE_URL
      : checkUrl((await input(ctx, 'Exchange base URL', hint, ctx.flags.baseUrl, (v) => exchangeAnswers(ctx, v))).trim(), 'the URL');
  const name = await input(ctx, PROFILE_NAME_PROMPT, hint, 'default', validating(freeName));
  const ks = await ctx.keystore();
  // A wallet of the profile's name is offered as it is, first (the default), with --force too:
  // --force there replaced it unasked once "Create" or "Import" was picked (its key lost).
  const taken = ks.hasWallet(name);
  const walletChoice = await select(
    ctx,
    'Signing wallet',
    [
      ...(taken ? [{ name: `Use the keystore wallet ${name} (${ks.walletAddress(name)})`, value: 'existing' as const }] : []),
      { name: 'Create a new wallet', value: 'create' as const },
      { name: 'Import a private key (hidden prompt)', value: 'import' as const },
      { name: 'Skip (read-only, or set PM_PRIVATE_KEY later)', value: 'skip' as const },
    ],
    hint,
  );
  let wallet: string | undefined;
  let replaceWallet = false;
  if (walletChoice === 'existing') wallet = name;
  else if (walletChoice !== 'skip' && taken) {
    // Only --force writes over it, and only after a yes that names it and its address (the
    // guard's words for init --force --create-wallet; the wizard knows the name only now).
    if (force) {
      ctx.io.stderr.write(`${await describeReplace(ctx, name)}\n`);
      replaceWallet = await confirm(ctx, `Replace wallet ${name}? (No keeps it: the new wallet gets another name)`, false);
    }
    if (!replaceWallet)
      wallet = await input(
        ctx,
        'Name of the new keystore wallet',
        hint,
        undefined,
        validating((v) => {
          checkProfileName(v, 'wallet name');
          if (ks.hasWallet(v)) throw new ConflictError(`a wallet named ${v} already exists: pick another name`);
        }),
      );
  }
  let importKey: string | undefined;
  if (walletChoice === 'import')
    importKey = await password(
      ctx,
      'Private key (hex)',
      hint,
      validating((v) => parsePrivateKey(v)),
    );
  const tokenChoice = await select(
    ctx,
    'API token',
    [
      { name: 'Add an existing token (id and secret)', value: 'add' as const },
      ...(ctx.env.PM_IDENTITY_TOKEN
        ? [{ name: 'Derive a new token with the identity token in PM_IDENTITY_TOKEN', value: 'derive' as const }]
        : []),
      { name: 'Skip', value: 'skip' as const },
    ],
    hint,
  );
  let token: { tokenId: string; secret: string; me: Profile } | undefined;
  let lastId: string | undefined;
  while (tokenChoice === 'add' && token === undefined) {
    // Asked again after a refusal, the id offers the last answer (Enter keeps it).
    const tokenId = (await input(ctx, 'Token id', hint, lastId, (v) => v.trim() !== '' || 'the token id is required')).trim();
    lastId = tokenId;
    const secret = (
      await password(
        ctx,
        'Token secret (base64)',
        hint,
        (v) => isBase64(v.trim()) || 'that is not base64: paste the secret exactly as the exchange returned it',
      )
    ).trim();
    // Verified now, so a typo is asked again here rather than found after the passphrase.
    try {
      token = { tokenId, secret, me: await verifyToken(ctx, tokenId, secret, baseUrl) };
    } catch (e) {
      if (e instanceof InterruptedError) throw e;
      const why = e instanceof PmError ? e.shortMessage : String(e);
      const what =
        e instanceof NetworkError
          ? `could not verify token ${tokenId} with the exchange (${why})`
          : `the exchange did not accept token ${tokenId} (${why}): check the id and the secret`;
      ctx.io.stderr.write(`${ctx.out.c.red('✗')} ${what}; type them again (Ctrl-C stops).\n`);
    }
  }
  return initExchange(ctx, {
    baseUrl,
    profileName: name,
    force,
    replaceWallet,
    wallet,
    createWallet: walletChoice === 'create',
    importKey,
    derive: tokenChoice === 'derive',
    tokenId: token?.tokenId,
    secret: token?.secret,
    verified: token?.me,
  });
}

/**
 * Without the wizard the flags are the answers: a profile with neither a wallet nor a token would
 * say "ready" and then fail at the first command that needs one, so that is refused (nothing written).
 */
function checkAnswerFlags(
  ctx: Context,
  o: {
    wallet?: string | undefined;
    createWallet: boolean;
    importKeyFile?: string | undefined;
    tokenId?: string | undefined;
    secretFile?: string | undefined;
    derive: boolean;
    scopes?: string | undefined;
  },
): void {
  const why = ctx.interactive ? 'with --yes' : 'without a terminal (no TTY, CI or --non-interactive)';
  const flags =
    'a wallet (--create-wallet, --import-key-file FILE or --wallet NAME) and a token (--token-id ID with --secret-file FILE, or --derive with PM_IDENTITY_TOKEN)';
  if (
    o.wallet === undefined &&
    !o.createWallet &&
    o.importKeyFile === undefined &&
    o.tokenId === undefined &&
    o.secretFile === undefined &&
    !o.derive
  )
    throw new UsageError(`pm init ${why} takes its answers from flags, and none were given: nothing was written`, {
      hint: `For the local sandbox: pm init --sandbox [--account NAME] --yes. For an exchange, pass ${flags}; or run pm init in a terminal for the wizard.`,
    });
  if ((o.tokenId === undefined) !== (o.secretFile === undefined))
    throw new UsageError(o.tokenId === undefined ? '--secret-file needs --token-id' : '--token-id needs --secret-file (the token secret)', {
      hint: 'Pass both: --token-id ID --secret-file FILE.',
    });
  if (o.derive && o.tokenId !== undefined)
    throw new UsageError('--derive makes a new token: drop --token-id and --secret-file, or --derive');
  if (o.createWallet && o.importKeyFile !== undefined)
    throw new UsageError('--create-wallet and --import-key-file are two wallets: give one of them', {
      hint: 'A new key: --create-wallet. Your key: --import-key-file FILE.',
    });
  if (o.scopes !== undefined && !o.derive)
    throw new UsageError('--scopes are the scopes of a token --derive makes: it needs --derive', {
      hint: 'A token added with --token-id has the scopes it was made with.',
    });
}

/** --sandbox takes the seeded account's wallet and token: the flags that would choose them are refused, not dropped. */
function checkSandboxFlags(o: Record<string, unknown>): void {
  const given = (
    [
      ['createWallet', '--create-wallet'],
      ['importKeyFile', '--import-key-file'],
      ['wallet', '--wallet'],
      ['tokenId', '--token-id'],
      ['secretFile', '--secret-file'],
      ['derive', '--derive'],
      ['scopes', '--scopes'],
    ] as const
  )
    .filter(([k]) => o[k] !== undefined && o[k] !== false)
    .map(([, f]) => f);
  if (given.length > 0)
    throw new UsageError(`--sandbox sets up a seeded account's wallet and token: ${given.join(', ')} would be ignored`, {
      hint: 'Drop them (pick the account with --account NAME), or drop --sandbox to set up your own.',
    });
}

/**
 * The keystore wallet the flags write a new key to (--create-wallet, --import-key-file): --wallet,
 * else the profile's name, as initExchange names it; undefined when they write none.
 */
function walletWritten(
  ctx: Context,
  opts: {
    sandbox: boolean;
    createWallet: boolean;
    importKeyFile?: string | undefined;
    wallet?: string | undefined;
    profileName?: string | undefined;
  },
): string | undefined {
  if (opts.sandbox || (!opts.createWallet && opts.importKeyFile === undefined)) return undefined;
  return opts.wallet ?? opts.profileName ?? ctx.flags.profile ?? 'default';
}

export default defineCommand({
  path: ['init'],
  effect: 'local',
  // (--derive mints an API token on the exchange: money, as pm token derive is. --force over an
  // existing wallet destroys its key: destructive, as wallet remove is.)
  effectNote:
    'With `--derive`: **money** (it mints an API token on the exchange); with `--force` over a wallet that exists: **destructive** (its key is replaced)',
  effectOf: async ({ opts }, ctx) => {
    const otherwise = opts.derive ? 'money' : 'local';
    const wallet = walletWritten(ctx, opts);
    return wallet === undefined ? otherwise : replaceEffect(ctx, wallet, opts.force, otherwise);
  },
  describe: async (ctx, { opts }) => {
    const wallet = walletWritten(ctx, opts);
    const lines: string[] = [];
    if (wallet !== undefined && (await replaceEffect(ctx, wallet, opts.force)) !== 'local') lines.push(await describeReplace(ctx, wallet));
    if (opts.derive) lines.push('Mint a new API token on the exchange (--derive)');
    return lines.length ? lines.join('\n') : 'Run pm init';
  },
  // (The exchange init sets up, not the active profile's: --base-url, PM_BASE_URL, else the real one.)
  target: (ctx) => [{ url: ctx.flags.baseUrl ?? ctx.env.PM_BASE_URL ?? DEFAULT_BASE_URL, what: 'exchange' }],
  longRunning: true,
  summary: 'Set up a profile: exchange, wallet and API token (a wizard, or flags)',
  description:
    'Set up a profile. On a terminal it asks (exchange, wallet, token, profile name); with --yes or without a TTY it takes flags. --derive mints a new API token on the exchange: on one that is not a sandbox a script needs --yes, as pm token derive does. --sandbox loads a seeded sandbox account (alice by default) from a running sandbox, so a newcomer can trade in one step. Keys and token secrets are stored encrypted under PM_HOME with the passphrase from a prompt, PM_PASSPHRASE or --passphrase-file.',
  options: {
    sandbox: { type: 'boolean', description: 'use the local sandbox and one of its seeded accounts' },
    account: {
      type: 'string',
      value: 'name',
      description: 'with --sandbox: a seeded account the sandbox lists (alice, bob, carol, partner; GET /__sandbox/accounts)',
      // Checked against the running sandbox's own list, so these only feed completion.
      suggestions: ['alice', 'bob', 'carol', 'partner'],
    },
    profileName: { type: 'string', value: 'name', description: 'profile to write (default "sandbox" or "default")' },
    wallet: { type: 'string', value: 'name', description: 'use an existing keystore wallet' },
    createWallet: { type: 'boolean', description: 'create a new wallet' },
    importKeyFile: { type: 'string', value: 'file', description: 'import the private key in this file' },
    tokenId: { type: 'string', value: 'id', description: 'an existing API token id (with --secret-file)' },
    secretFile: { type: 'string', value: 'file', description: 'file holding the token secret (base64)' },
    derive: { type: 'boolean', description: 'derive a new token with PM_IDENTITY_TOKEN' },
    scopes: { type: 'string', value: 'list', description: 'scopes for --derive, e.g. trading,delegated_signing' },
    force: {
      type: 'boolean',
      description: "replace an existing profile or wallet of the same name (a wallet's key is lost unless backed up: asks, or needs --yes)",
    },
  },
  examples: [
    'pm init',
    'pm sandbox start --detach && pm init --sandbox --yes',
    'pm init --sandbox --account partner --profile-name partner --yes --passphrase-file ~/.pm-pass',
    'pm init --yes --create-wallet --token-id tok_… --secret-file secret.txt --passphrase-file ~/.pm-pass',
  ],
  run: async (ctx, { opts }) => {
    const force = opts.force;
    // pm --profile NAME init makes profile NAME, as --profile-name NAME does.
    const named = ctx.flags.profile;
    if (named !== undefined && opts.profileName !== undefined && named !== opts.profileName)
      throw new UsageError(`--profile ${named} and --profile-name ${opts.profileName} name two profiles to write`, {
        hint: 'Give one of them.',
      });
    const profileName = checkProfileName(opts.profileName ?? named ?? (opts.sandbox ? 'sandbox' : 'default'));
    ctx.createsProfile(profileName);
    let result: Record<string, unknown>;
    if (opts.account !== undefined && !opts.sandbox)
      throw new UsageError('--account picks a seeded sandbox account: it needs --sandbox', {
        hint: `pm init --sandbox --account ${opts.account}`,
      });
    if (opts.sandbox) {
      checkSandboxFlags(opts);
      result = await initSandbox(ctx, opts.account ?? 'alice', profileName, force);
    } else if (!ctx.asks) {
      const secretFile = opts.secretFile;
      const baseUrl = checkUrl(
        ctx.flags.baseUrl ?? ctx.env.PM_BASE_URL ?? DEFAULT_BASE_URL,
        ctx.flags.baseUrl !== undefined ? '--base-url' : 'PM_BASE_URL',
      );
      checkAnswerFlags(ctx, opts);
      result = await initExchange(ctx, {
        baseUrl,
        profileName,
        force,
        // (Asked for by the guard: effectOf makes it destructive over a wallet that exists.)
        replaceWallet: force,
        wallet: opts.wallet,
        importKey: opts.importKeyFile === undefined ? undefined : readTextFile(opts.importKeyFile, '--import-key-file').trim(),
        createWallet: opts.createWallet,
        tokenId: opts.tokenId,
        secret: secretFile === undefined ? undefined : readTextFile(secretFile, '--secret-file').trim(),
        derive: opts.derive,
        scopes: opts.scopes,
      });
    } else {
      result = await wizard(ctx, force);
    }
    ctx.out.data(result, () => {
      ctx.out.keyValue(Object.entries(result).map(([k, v]) => [k, v === null || v === undefined ? '-' : String(v)]));
      ctx.out.info(`profile ${String(result['profile'])} is ready and active. Next: pm whoami`);
    });
  },
});
