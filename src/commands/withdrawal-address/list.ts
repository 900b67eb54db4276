import type { Handler } from '../../cli/command.js';
import { optBool } from '../../cli/command.js';
import { listWithdrawalAddresses } from '../../core/funds.js';

const run: Handler = async (ctx, { opts }) => {
  const list = await listWithdrawalAddresses(await ctx.authedApi('identity'), optBool(opts, 'all'));
  ctx.out.data(list, () =>
    ctx.out.table(
      [{ header: 'ADDRESS' }, { header: 'LABEL' }, { header: 'ADDED' }, { header: 'REMOVED' }],
      list.map((e) => [e.destinationAddress, e.label || '-', e.createdAt, e.deletedAt ?? '-']),
    ),
  );
};
export default run;
