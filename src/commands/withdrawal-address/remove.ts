import { defineCommand } from '../../cli/command.js';
import { parseAddress, removeWithdrawalAddress } from '../../core/funds.js';

export default defineCommand({
  path: ['withdrawal-address', 'remove'],
  effect: 'money',
  describe: (_ctx, { args }) => `Remove ${parseAddress(args.address ?? '')} from the withdrawal allowlist`,
  summary: 'Remove an address from the withdrawal allowlist',
  args: { address: { description: 'the address', required: true } },
  examples: ['pm withdrawal-address remove 0x…'],
  check: (_ctx, { args }) => void parseAddress(args.address ?? ''),
  run: async (ctx, { args }) => {
    const address = parseAddress(args.address ?? '');
    await removeWithdrawalAddress(await ctx.authedApi('identity'), address);
    ctx.out.data({ removed: address }, () => ctx.out.info(`removed ${address} from the withdrawal allowlist`));
  },
});
