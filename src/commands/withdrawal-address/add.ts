import { defineCommand } from '../../cli/command.js';
import { sameCommand } from '../../cli/rerun.js';
import { addWithdrawalAddress, parseAddress } from '../../core/funds.js';

export default defineCommand({
  path: ['withdrawal-address', 'add'],
  effect: 'money',
  describe: (_ctx, { args, opts }) =>
    `Allow withdrawals to ${parseAddress(args.address ?? '')}${opts.label ? ` (${opts.label})` : ''}: money may then be sent there`,
  summary: 'Allow withdrawals to an address (identity token: keystore or PM_IDENTITY_TOKEN)',
  args: { address: { description: 'destination address (EIP-55 or lowercase)', required: true } },
  options: { label: { type: 'string', value: 'text', description: 'a name for it' } },
  examples: ['pm withdrawal-address add 0x… --label cold'],
  check: (_ctx, { args }) => void parseAddress(args.address ?? ''),
  run: async (ctx, { args, opts }) => {
    const address = parseAddress(args.address ?? '');
    const api = await ctx.authedApi('identity');
    const e = await addWithdrawalAddress(api, address, opts.label, { again: sameCommand(ctx) });
    ctx.out.data(e, () =>
      ctx.out.info(`added ${e.destinationAddress}${e.label ? ` (${e.label})` : ''} to the withdrawal allowlist (id ${e.id})`),
    );
  },
});
