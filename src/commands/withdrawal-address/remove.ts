import { defineCommand } from '../../cli/command.js';
import { sameCommand } from '../../cli/rerun.js';
import { textTime } from '../../cli/text.js';
import { parseAddress, removeWithdrawalAddress } from '../../core/funds.js';

export default defineCommand({
  path: ['withdrawal-address', 'remove'],
  effect: 'money',
  describe: (_ctx, { args }) => `Remove ${parseAddress(args.address ?? '')} from the withdrawal allowlist`,
  summary: 'Remove an address from the withdrawal allowlist',
  description:
    'Soft-deletes the entry. An address removed already (by an earlier remove, perhaps one whose answer pm could not read: exit 7, run the same command) is reported as such, with when it went (from the removed entries, list --all), exit 0; an address never on the allowlist exits 4.',
  args: { address: { description: 'the address', required: true } },
  examples: ['pm withdrawal-address remove 0x…'],
  check: (_ctx, { args }) => void parseAddress(args.address ?? ''),
  run: async (ctx, { args }) => {
    const address = parseAddress(args.address ?? '');
    const r = await removeWithdrawalAddress(await ctx.authedApi('identity'), address, { again: sameCommand(ctx) });
    ctx.out.data(r, () =>
      ctx.out.info(
        r.alreadyRemoved
          ? `${address} was already removed from the withdrawal allowlist at ${textTime(r.removedAt)} (pm withdrawal-address list --all)`
          : `removed ${address} from the withdrawal allowlist`,
      ),
    );
  },
});
