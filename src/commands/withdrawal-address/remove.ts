import type { Handler } from '../../cli/command.js';
import { parseAddress, removeWithdrawalAddress } from '../../core/funds.js';

const run: Handler = async (ctx, { args }) => {
  const address = parseAddress(args[0] ?? '');
  await removeWithdrawalAddress(await ctx.authedApi('identity'), address);
  ctx.out.data({ removed: address }, () => ctx.out.info(`removed ${address} from the withdrawal allowlist`));
};
export default run;
