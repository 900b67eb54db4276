import { defineCommand } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { AuthError, ExchangeValidationError, PmError, UsageError } from '../core/errors.js';
import { USDC_ADDRESS, parseAddress, parseAmount, withdrawBody } from '../core/funds.js';
import { profileMe } from '../core/tokens.js';
import { WithdrawalJournal, settleWithdrawal } from '../core/withdrawal-journal.js';
import { notOwnAccount, withdrawOnce } from '../core/withdrawals.js';
import { withdrawJson } from '../core/funds-json.js';
import { subAccountRecordOf } from '../core/partner.js';
import { pmLine, sameCommand } from '../cli/rerun.js';
import { formatUnits } from '../core/money.js';

/**
 * Withdraw is for server wallets only. An account without one (an EOA, such as the sandbox's
 * alice) cannot get a token with the withdrawal scope either, so "derive one" is no way forward
 * for it: every hint says what withdraw is for and what such an account does instead.
 */
const FOR_EOA =
  'Without a server wallet (an EOA account) there is nothing to withdraw through the exchange: your USDC is in your own wallet (pm balance); move it on chain with that wallet.';

/** The exchange's refusal with a hint that says what to do. */
function explained(e: unknown, to: string | undefined, onBehalfOf: number | undefined): unknown {
  if (!(e instanceof PmError)) return e;
  const m = e.shortMessage;
  let hint: string | undefined;
  if (/not allowed/i.test(m))
    hint = `Add the address to your allowlist first: pm withdrawal-address add ${to ?? '<address>'} (needs an identity token, PM_IDENTITY_TOKEN)`;
  else if (/Insufficient balance/i.test(m))
    hint = 'Withdraw less (see pm portfolio positions for locked collateral), or cancel open orders to free it.';
  else if (/Legacy API keys/i.test(m))
    hint = `pm withdraw moves USDC out of a server wallet the exchange manages, and needs a scoped API token with the withdrawal scope (or an identity token), not a legacy key. ${FOR_EOA}`;
  else if (/scope: withdrawal/i.test(m))
    hint = `pm withdraw moves USDC out of a server wallet the exchange manages, and this API token lacks the withdrawal scope. ${FOR_EOA} With a server wallet, use a token that has the scope (a partner derives one: pm token derive --scopes trading,withdrawal).`;
  else if (/no managed server wallet/i.test(m))
    hint =
      onBehalfOf === undefined
        ? `pm withdraw moves USDC out of a server wallet the exchange manages; this account has none. ${FOR_EOA}`
        : `Sub-account ${onBehalfOf} is an EOA: its USDC is in its own wallet, so move it on chain with that wallet's key (pm withdraw is for server-wallet sub-accounts).`;
  if (!hint) return e;
  if (e instanceof AuthError) return new AuthError(m, { status: e.status, hint, cause: e });
  if (e instanceof ExchangeValidationError) return new ExchangeValidationError(m, { status: e.status, hint, cause: e });
  return e;
}

/** The source wallet's USDC balance, read from the chain when one is configured; else undefined. */
async function balanceReader(ctx: Context): Promise<((wallet: string) => Promise<bigint>) | undefined> {
  if (ctx.configSettings().rpcUrl().value === undefined && !ctx.sandbox) return undefined;
  try {
    const { connectChain } = await import('./chain/common.js');
    const chain = await connectChain(ctx, {});
    return (wallet) => chain.usdc(wallet as `0x${string}`);
  } catch {
    return undefined; // no chain after all (a sandbox without --chain): exit 7 says how to check
  }
}

export default defineCommand({
  path: ['withdraw'],
  effect: 'money',
  // (--settle records what the user found in the journal: nothing is sent.)
  effectNote: 'With `--dry-run`: **read**; with `--settle … --as …`: **local** (it records what you found, and sends nothing)',
  effectOf: ({ opts }) => (opts.dryRun ? 'read' : opts.settle !== undefined || opts.as !== undefined ? 'local' : 'money'),
  actsFor: true,
  // Amount, token, source wallet and destination address, read from the exchange before asking.
  describe: async (ctx, { args, opts }) => {
    const amount = parseAmount(args.amount ?? '');
    const token = opts.token === undefined ? undefined : parseAddress(opts.token, '--token');
    const tokenName = token === undefined || token.toLowerCase() === USDC_ADDRESS.toLowerCase() ? `USDC (${USDC_ADDRESS})` : token;
    const onBehalfOf = ctx.onBehalfOf;
    const me = await profileMe(await ctx.tradingApi()).catch(() => null);
    const wallet =
      onBehalfOf !== undefined
        ? subAccountRecordOf(ctx.config(), ctx.profile(), ctx.baseUrl, onBehalfOf)?.address
        : (me?.embeddedAccount ?? undefined);
    const source =
      onBehalfOf === undefined
        ? `your server wallet ${wallet ?? '(the exchange names none: an EOA account holds its own USDC)'}`
        : `the server wallet of sub-account ${onBehalfOf}${wallet ? ` (${wallet})` : ''}`;
    const to = opts.to === undefined ? undefined : parseAddress(opts.to, '--to');
    if (to !== undefined) sourceIsNotADestination(to, wallet, onBehalfOf, me?.account ?? undefined);
    const dest = to ?? `${me?.account ?? 'your account address'} (default${onBehalfOf === undefined ? '' : ": the partner's account"})`;
    return `Withdraw ${formatUnits(amount)} (${amount} raw units) of ${tokenName}\n  from ${source}\n  to   ${dest}`;
  },
  summary: 'Withdraw USDC from a server wallet to your account, smart wallet or an allowlisted address',
  description:
    "Moves USDC out of a server wallet the exchange manages (yours, or a sub-account's with --on-behalf-of). An account without one (an EOA) holds its own USDC in its wallet: move it on chain with that wallet instead.\n\nThe amount is a decimal of whole tokens (12.5 USDC), sent as the exact raw integer string (\"12500000\"); more than 6 decimals, zero, negatives, 1e3 and commas are refused before anything is sent (exit 2). A confirmation shows amount, token, source wallet and destination; --yes skips it, and without a TTY --yes is required (exit 2, nothing sent). --dry-run prints the exact body.\n\nWithdrawals have no idempotency key, so pm journals each one (PM_HOME/journal/withdrawals.ndjson) before sending it. If pm cannot read the answer (lost, cut short, garbled, a 5xx), the outcome is unknown: pm settles it from the source wallet's USDC balance where it can read the chain (an RPC URL, or a sandbox started with --chain), withdrawn when it fell by at least the amount. Otherwise it exits 7 with the withdrawal's id and the wallet whose transfers to check, never advising a re-run, and refuses an identical withdrawal (same amount, token, source and destination, on the same account of the same exchange however its URL is spelled) until you settle it: pm withdraw --settle <id> --as sent (it went through) or --as not-sent (it did not; then send it again). pm doctor lists the unsettled ones.\n\nExit codes: 0 sent (or settled from the balance, or --settle recorded), 2 bad input or declined, 3 destination not allowed or wrong credential, 4 --settle: no such withdrawal, 5 an identical withdrawal has an unknown outcome (check, then --settle) or --settle of one already settled, 7 outcome unknown (check the wallet's transfers, then --settle), 9 refused by the exchange (e.g. insufficient balance).",
  args: { amount: { description: 'USDC amount, e.g. 12.5 (not with --settle)' } },
  options: {
    to: { type: 'string', value: 'address', description: "destination (default: your account address; with --on-behalf-of the partner's)" },
    token: { type: 'string', value: 'address', description: 'ERC-20 token (default USDC)' },
    dryRun: { type: 'boolean', description: 'print the exact request body and send nothing' },
    settle: {
      type: 'string',
      value: 'id',
      description: 'record the outcome of a withdrawal pm could not tell (wd-…, from its exit 7 or pm doctor), with --as',
    },
    as: { type: 'string', value: 'outcome', choices: ['sent', 'not-sent'], description: "with --settle: what the wallet's transfers show" },
  },
  examples: [
    'pm withdraw 12.5 --to 0x…',
    'pm --yes withdraw 100 --on-behalf-of 2001',
    'pm withdraw 0.000001 --dry-run',
    'pm withdraw --settle wd-5c0ffee0d15ea5e1 --as not-sent',
  ],
  check: (_ctx, { args, opts }) => {
    if (opts.settle === undefined && opts.as === undefined) withdrawal(args.amount, opts);
  },
  run: async (ctx, { args, opts }) => {
    if (opts.settle !== undefined || opts.as !== undefined) return settle(ctx, args.amount, opts);
    const { amount, to, token } = withdrawal(args.amount, opts);
    const onBehalfOf = ctx.onBehalfOf;
    const body = withdrawBody(amount, { token, destination: to });
    if (opts.dryRun) {
      const wire = onBehalfOf === undefined ? body : { ...body, onBehalfOf };
      ctx.out.data({ method: 'POST', path: '/portfolio/withdraw', body: wire }, () => ctx.out.line(JSON.stringify(wire)));
      return;
    }
    const api = await ctx.tradingApi();
    const usdc = token === undefined || token.toLowerCase() === USDC_ADDRESS.toLowerCase();
    const balance = usdc ? await balanceReader(ctx) : undefined;
    // The source wallet: a sub-account's as partner create recorded it; the caller's own server
    // wallet as its profile names it. Journaled with the intent, and named by a lost answer's
    // exit 7 (whose transfers to check) even where no chain can be read.
    const me = await profileMe(api).catch(() => null);
    notOwnAccount(onBehalfOf, me?.id, 'flags');
    const wallet =
      onBehalfOf !== undefined
        ? subAccountRecordOf(ctx.config(), ctx.profile(), ctx.baseUrl, onBehalfOf)?.address
        : (me?.embeddedAccount ?? undefined);
    if (to !== undefined) {
      // (A sub-account pm has no record of: its address from the partner's list, if it is there.)
      const source =
        onBehalfOf === undefined
          ? wallet
          : (wallet ?? (await ctx.core.subAccount(api.withOnBehalfOf(undefined), onBehalfOf).catch(() => undefined))?.address);
      sourceIsNotADestination(to, source, onBehalfOf, me?.account);
    }
    let r;
    try {
      r = await withdrawOnce(api, body, {
        journal: new WithdrawalJournal(ctx.home),
        profileId: me?.id,
        wallet,
        // (Without --to, the money goes to the caller's account address: the partner's with --on-behalf-of.)
        defaultDestination: me?.account,
        // Where a chain can be read (an RPC URL, or the sandbox's chain), a lost answer is settled
        // from the source wallet's USDC balance.
        balance,
        // The commands a hint writes out: this withdrawal again, word for word, and the settlement.
        commands: { settle: (id, as) => pmLine(ctx, ['withdraw', '--settle', id, '--as', as]), again: sameCommand(ctx) },
      });
    } catch (e) {
      throw explained(e, to, onBehalfOf);
    }
    if (r.via === 'balance')
      ctx.out.warn(
        `the exchange's answer was lost, but the USDC balance of ${r.walletAddress} fell by at least ${formatUnits(amount)}: counted as withdrawn`,
      );
    // As the library's funds.withdraw: the amount as a decimal with amountRaw beside it.
    const json = withdrawJson(r);
    ctx.out.data(json, () =>
      ctx.out.keyValue([
        ['amount', `${json.amount} (${json.amountRaw} raw)`],
        // (Settled from the balance after a lost answer, only what was asked is known.)
        ['token', r.token || 'USDC'],
        ['from', r.walletAddress || '-'],
        ['to', r.destination || 'the default destination (your account)'],
        ['user operation', r.userOperationHash || '-'],
        ['transaction id', r.transactionId || '-'],
      ]),
    );
  },
});

/**
 * --to naming the wallet the USDC would leave: found before anything is sent (exit 2). The
 * exchange refuses it even on the allowlist, so its own refusal (not allowed: add it to the
 * allowlist) would lead nowhere.
 */
function sourceIsNotADestination(
  to: string,
  source: string | undefined,
  onBehalfOf: number | undefined,
  account: string | undefined,
): void {
  if (source === undefined || to.toLowerCase() !== source.toLowerCase()) return;
  const whose = onBehalfOf === undefined ? 'your server wallet' : `sub-account ${onBehalfOf}'s own wallet`;
  throw new UsageError(`--to ${to} is ${whose}, the one the USDC would leave: nothing was sent`, {
    hint: `Leave out --to (it goes to ${account ?? 'your account address'}${onBehalfOf === undefined ? '' : ", the partner's"}), or name an address on your allowlist (pm withdrawal-address list).`,
  });
}

/** The withdrawal the command line asks for, read offline: the amount, --to and --token. */
function withdrawal(
  amountRaw: string | undefined,
  opts: { to?: string | undefined; token?: string | undefined },
): { amount: bigint; to: string | undefined; token: string | undefined } {
  if (amountRaw === undefined)
    throw new UsageError('missing the amount to withdraw', {
      hint: 'pm withdraw 12.5 (or pm withdraw --settle <id> --as sent|not-sent)',
    });
  return {
    amount: parseAmount(amountRaw),
    to: opts.to === undefined ? undefined : parseAddress(opts.to, '--to'),
    token: opts.token === undefined ? undefined : parseAddress(opts.token, '--token'),
  };
}

/** --settle <id> --as sent|not-sent: the user's finding, journaled; nothing is sent. */
function settle(ctx: Context, amount: string | undefined, opts: { settle?: string | undefined; as?: string | undefined }): void {
  const id = opts.settle;
  const as = opts.as;
  if (id === undefined || (as !== 'sent' && as !== 'not-sent') || amount !== undefined)
    throw new UsageError('--settle <id> goes with --as sent|not-sent, and no amount', {
      hint: 'pm withdraw --settle wd-… --as sent (it went through) | pm withdraw --settle wd-… --as not-sent (it did not)',
    });
  const e = settleWithdrawal(new WithdrawalJournal(ctx.home), id, as);
  const what = `withdrawal ${e.id} of ${formatUnits(BigInt(e.amount))} settled as ${as === 'sent' ? 'sent' : 'not sent'}`;
  ctx.out.data({ id: e.id, settled: as, amount: formatUnits(BigInt(e.amount)), amountRaw: e.amount, destination: e.destination }, () =>
    ctx.out.line(as === 'sent' ? what : `${what}: an identical withdrawal may be sent again`),
  );
}
