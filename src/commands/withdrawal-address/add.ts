import type { Handler } from '../../cli/command.js';
import { optStr } from '../../cli/command.js';
import { ConflictError, PmError } from '../../core/errors.js';
import { addWithdrawalAddress, parseAddress } from '../../core/funds.js';

const run: Handler = async (ctx, { args, opts }) => {
  const address = parseAddress(args[0] ?? '');
  const api = await ctx.authedApi('identity');
  let e;
  try {
    e = await addWithdrawalAddress(api, address, optStr(opts, 'label'));
  } catch (err) {
    if (err instanceof ConflictError) throw new ConflictError((err as PmError).shortMessage, { status: 409, hint: 'It is already allowed: pm withdrawal-address list' });
    throw err;
  }
  ctx.out.data(e, () => ctx.out.info(`added ${e.destinationAddress}${e.label ? ` (${e.label})` : ''} to the withdrawal allowlist (id ${e.id})`));
};
export default run;
