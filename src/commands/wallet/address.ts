import { walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'address'],
  effect: 'read',
  summary: "Print a wallet's address",
  args: { name: { description: "wallet name (default: the profile's)" } },
  examples: ['pm wallet address', 'pm wallet address bot'],
  run: async (ctx, { args }) => {
    const name = walletName(args.name, ctx.profile().wallet ?? 'default');
    const address = (await ctx.keystore()).walletAddress(name);
    ctx.out.data({ name, address }, () => ctx.out.line(address));
  },
});
