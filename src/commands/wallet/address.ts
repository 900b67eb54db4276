import type { Handler } from '../../cli/command.js';
import { walletName } from './common.js';

const run: Handler = async (ctx, { args }) => {
  const name = walletName(args[0], ctx.profile().wallet ?? 'default');
  const address = (await ctx.keystore()).walletAddress(name);
  ctx.out.data({ name, address }, () => ctx.out.line(address));
};
export default run;
