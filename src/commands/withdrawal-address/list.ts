import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { listWithdrawalAddresses } from '../../core/funds.js';

export default defineCommand({
  path: ['withdrawal-address', 'list'],
  effect: 'read',
  summary: 'The withdrawal allowlist',
  options: { all: { type: 'boolean', description: 'include removed entries' } },
  examples: ['pm withdrawal-address list', 'pm --json withdrawal-address list'],
  run: async (ctx, { opts }) => {
    const list = await listWithdrawalAddresses(await ctx.authedApi('identity'), opts.all);
    ctx.out.data(list, () =>
      ctx.out.table(
        [{ header: 'ADDRESS' }, { header: 'LABEL', fit: cutFirst(1) }, { header: 'ADDED' }, { header: 'REMOVED', fit: hideFirst(2) }],
        list.map((e) => [e.destinationAddress, e.label || '-', e.createdAt, e.deletedAt ?? '-']),
      ),
    );
  },
});
