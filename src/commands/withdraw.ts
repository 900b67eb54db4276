import type { Handler } from '../cli/command.js';
import { optBool, optNum, optStr } from '../cli/command.js';
import { confirm } from '../cli/prompt.js';
import { AuthError, ExchangeValidationError, PmError, UsageError } from '../core/errors.js';
import { USDC_ADDRESS, parseAddress, parseAmount, withdraw, withdrawBody } from '../core/funds.js';
import { formatUnits } from '../core/money.js';
import { portfolioApi } from './portfolio/common.js';

/** The exchange's refusal with a hint that says what to do. */
function explained(e: unknown, to: string | undefined): unknown {
  if (!(e instanceof PmError)) return e;
  const m = e.shortMessage;
  let hint: string | undefined;
  if (/not allowed/i.test(m)) hint = `Add the address to your allowlist first: pm withdrawal-address add ${to ?? '<address>'} (needs an identity token, PM_IDENTITY_TOKEN)`;
  else if (/Insufficient balance/i.test(m)) hint = 'Withdraw less (see pm portfolio positions for locked collateral), or cancel open orders to free it.';
  else if (/Legacy API keys/i.test(m)) hint = 'Withdrawals need a scoped API token with the withdrawal scope (or an identity token): pm token derive --scopes trading,withdrawal';
  else if (/scope: withdrawal/i.test(m)) hint = 'This API token lacks the withdrawal scope: derive one with pm token derive --scopes trading,withdrawal';
  else if (/no managed server wallet/i.test(m)) hint = 'Only server wallets withdraw through the exchange; an EOA wallet holds its own funds.';
  if (!hint) return e;
  if (e instanceof AuthError) return new AuthError(m, { status: e.status, hint, cause: e });
  if (e instanceof ExchangeValidationError) return new ExchangeValidationError(m, { status: e.status, hint, cause: e });
  return e;
}

const run: Handler = async (ctx, { args, opts }) => {
  const amount = parseAmount(args[0] ?? '');
  const toRaw = optStr(opts, 'to');
  const tokenRaw = optStr(opts, 'token');
  const to = toRaw === undefined ? undefined : parseAddress(toRaw, '--to');
  const token = tokenRaw === undefined ? undefined : parseAddress(tokenRaw, '--token');
  const onBehalfOf = optNum(opts, 'onBehalfOf') ?? ctx.profile().onBehalfOf;
  const body = withdrawBody(amount, { token, destination: to });
  if (optBool(opts, 'dryRun')) {
    const wire = onBehalfOf === undefined ? body : { ...body, onBehalfOf };
    ctx.out.data({ method: 'POST', path: '/portfolio/withdraw', body: wire }, () => ctx.out.line(JSON.stringify(wire)));
    return;
  }
  const tokenName = token === undefined || token.toLowerCase() === USDC_ADDRESS.toLowerCase() ? `USDC (${USDC_ADDRESS})` : token;
  const source = onBehalfOf === undefined ? 'your server wallet' : `the server wallet of sub-account ${onBehalfOf}`;
  const dest = to ?? (onBehalfOf === undefined ? 'your account address (default)' : "the partner's default destination");
  if (!ctx.flags.yes) {
    ctx.io.stderr.write(`Withdraw ${formatUnits(amount)} (${amount} raw units) of ${tokenName}\n  from ${source}\n  to   ${dest}\n`);
    if (!(await confirm(ctx, 'Send this withdrawal?'))) throw new UsageError('not sent: declined');
  }
  const api = await portfolioApi(ctx, opts);
  let r;
  try {
    r = await withdraw(api, body);
  } catch (e) {
    throw explained(e, to);
  }
  ctx.out.data(r, () =>
    ctx.out.keyValue([
      ['amount', `${formatUnits(BigInt(r.amount))} (${r.amount} raw)`],
      ['token', r.token],
      ['from', r.walletAddress],
      ['to', r.destination],
      ['user operation', r.userOperationHash || '-'],
      ['transaction id', r.transactionId],
    ]),
  );
};
export default run;
