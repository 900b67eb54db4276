// What the partner commands share: the partner's API client, the child's EOA key, and the
// allowance wait with a live progress display on stderr (ora on a terminal, plain lines else).
import { cutFirst } from '../../cli/output.js';
import type { Context } from '../../cli/context.js';
import { errorMessage, NotFoundError, UsageError } from '../../core/errors.js';
import type { ApiClient } from '../../core/http.js';
import { createSubAccount, recordSubAccountIn, waitForAllowances } from '../../core/partner.js';
import type { Allowances, MessageSigner, SubAccountCreated, WaitEvent } from '../../core/partner.js';
import { pmLine, rerunLine } from '../../cli/rerun.js';

/** The partner's own client (never acting for a sub-account). */
export async function partnerApi(ctx: Context): Promise<ApiClient> {
  return (await ctx.tradingApi()).withOnBehalfOf(undefined);
}

/** Refuses flag combinations that cannot work, before any request. */
/**
 * Whose sub-account a confirmation names: the profile in use, or (credentials from the
 * environment, no profile) the partner those credentials are, whose records PM_HOME keeps per exchange.
 */
export function underWhom(ctx: Context): string {
  const name = ctx.profileName();
  return name === undefined ? 'for the partner credentials in use (no profile)' : `under profile ${name}`;
}

export function checkModeFlags(serverWallet: boolean, wallet: string | undefined): void {
  if (serverWallet && wallet !== undefined)
    throw new UsageError('--wallet names the key of an EOA sub-account; a --server-wallet sub-account has no local key', {
      hint: 'Drop one of --server-wallet and --wallet.',
    });
}

/**
 * The EOA child's signer: the keystore wallet `wallet`, or a new key stored in the keystore as
 * child-<address prefix> (encrypted with the keystore passphrase) before anything is sent.
 */
async function childSigner(ctx: Context, wallet: string | undefined): Promise<{ signer: MessageSigner; wallet: string; created: boolean }> {
  const ks = await ctx.keystore();
  if (wallet !== undefined) {
    if (!ks.hasWallet(wallet))
      throw new NotFoundError(`no keystore wallet named ${wallet}`, {
        hint: 'See pm wallet list, or leave out --wallet to generate a new key.',
      });
    const account = await ks.openWallet(wallet, await ctx.passphrase());
    return { signer: account, wallet, created: false };
  }
  const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  const name = `child-${account.address.slice(2, 10).toLowerCase()}`;
  const pass = ks.listWallets().length > 0 ? await ctx.passphrase() : await ctx.newPassphrase();
  await ks.importWalletKey(name, key, pass);
  return { signer: account, wallet: name, created: true };
}

/**
 * Records a new sub-account at once (before anything else can fail): which keystore wallet signs
 * its orders, or that the exchange does (server wallet). On the partner's profile; with no
 * profile in use (script mode: credentials in the environment), in PM_HOME's records for this
 * exchange. An order --on-behalf-of reads it to pick how to sign.
 */
async function recordSubAccount(
  ctx: Context,
  profileId: number,
  rec: { address: string; wallet?: string | undefined; serverWallet: boolean },
): Promise<void> {
  const where = { profileName: ctx.profileName(), baseUrl: ctx.baseUrl };
  await ctx.editConfig((cfg) => recordSubAccountIn(cfg, where, profileId, rec));
}

/**
 * Creates a sub-account the way pm partner create and pm partner onboard do: an EOA child's key
 * (new, or `wallet`), recorded at once; an answer pm cannot read settled by createSubAccount, with
 * this command line's own re-run (`--wallet` of the child) and listing written into its message.
 */
export async function createChild(
  ctx: Context,
  api: ApiClient,
  o: { serverWallet: boolean; displayName?: string | undefined; wallet?: string | undefined },
): Promise<SubAccountCreated & { wallet?: string }> {
  const child = o.serverWallet ? null : await childSigner(ctx, o.wallet);
  const made = await createSubAccount(api, {
    serverWallet: o.serverWallet,
    displayName: o.displayName,
    child: child ? { signer: child.signer, drop: child.created ? () => dropChildKey(ctx, child.wallet) : undefined } : undefined,
    record: (m) => recordSubAccount(ctx, m.profileId, { address: m.account, wallet: child?.wallet, serverWallet: o.serverWallet }),
    signal: ctx.signal,
    hints: {
      again: child ? rerunLine(ctx.app.argv ?? [], '--wallet', child.wallet) : undefined,
      check: pmLine(ctx, ['partner', 'list', '--all'], { yes: false }),
    },
  });
  if (made.via === 'lookup') ctx.out.info(`The exchange's answer was lost; pm found the sub-account by its address (${made.account}).`);
  if (made.via === 'existing') ctx.out.info(`${made.account} already is sub-account ${made.profileId} of this partner: recorded.`);
  return { ...made, ...(child ? { wallet: child.wallet } : {}) };
}

/** Forgets a generated child key whose sub-account was not created. */
async function dropChildKey(ctx: Context, wallet: string): Promise<void> {
  try {
    (await ctx.keystore()).removeWallet(wallet);
  } catch {
    // best effort
  }
}

const summaryText = (a: Allowances): string => {
  const s = a.summary;
  const extra = [
    s.submitted ? `${s.submitted} submitted` : '',
    s.missing ? `${s.missing} missing` : '',
    s.failed ? `${s.failed} failed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `allowances ${s.confirmed}/${s.total} confirmed${extra ? ` (${extra})` : ''}`;
};

/** Waits for a child's allowances with live progress on stderr. */
export async function waitWithProgress(
  ctx: Context,
  api: ApiClient,
  profileId: number,
  o: { retry: boolean; timeoutMs: number },
): Promise<Allowances> {
  const tty = ctx.io.stderr.isTTY === true && process.stderr.isTTY === true && !ctx.flags.quiet;
  let spinner: { text: string; succeed(t?: string): unknown; fail(t?: string): unknown; stop(): unknown } | null = null;
  if (tty) {
    const { ora } = await import('../../cli/ora.js');
    spinner = ora({
      text: `checking the allowances of profile ${profileId}`,
      stream: process.stderr,
      discardStdin: false,
      isEnabled: true,
    }).start();
  }
  let last = '';
  const say = (text: string): void => {
    if (spinner) spinner.text = text;
    else if (text !== last) ctx.out.info(text);
    last = text;
  };
  const onEvent = (e: WaitEvent): void => {
    if (e.kind === 'status') say(summaryText(e.allowances));
    else if (e.kind === 'retried') say(`retry submitted: ${summaryText(e.allowances)}`);
    else if (e.kind === 'locked') say(`409: another retry is running for this wallet; backing off ${e.waitMs} ms`);
    else say(`429: allowance retry rate limited; waiting ${e.retryAfterSeconds} s as the exchange asked`);
  };
  try {
    const a = await waitForAllowances(api, profileId, { retry: o.retry, timeoutMs: o.timeoutMs, signal: ctx.signal, onEvent });
    if (spinner) spinner.succeed(`ready: ${summaryText(a)}`);
    else ctx.out.info(`ready: ${summaryText(a)}`);
    return a;
  } catch (e) {
    if (spinner) spinner.fail(errorMessage(e));
    throw e;
  }
}

/** The table of targets. */
export function renderAllowances(ctx: Context, a: Allowances): void {
  ctx.out.keyValue([
    ['profile', String(a.profileId)],
    ['wallet', a.walletAddress],
    ['ready', a.ready ? 'yes' : 'no'],
    ['summary', summaryText(a)],
  ]);
  ctx.out.line();
  ctx.out.table(
    [{ header: 'TARGET' }, { header: 'TYPE' }, { header: 'FOR' }, { header: 'STATUS' }, { header: 'DETAIL', fit: cutFirst(1, 12) }],
    a.targets.map((t) => [
      t.label,
      t.type,
      t.requiredFor,
      t.status,
      t.errorCode ? `${t.errorCode}${t.retryable ? ' (retryable)' : ''}` : (t.txHash ?? t.transactionId ?? ''),
    ]),
  );
}
