import { defineCommand } from '../../cli/command.js';
import { NotFoundError, UsageError, withHint } from '../../core/errors.js';
import { parseAmount } from '../../core/funds.js';
import { formatUnits } from '../../core/money.js';
import { fundProfile } from '../../core/sandboxctl.js';
import { sandboxAdmin } from './admin.js';

export default defineCommand({
  path: ['sandbox', 'fund'],
  effect: 'money',
  sandboxOnly: true,
  describe: (ctx, { args, opts }) => `Credit ${args.amount} USDC to sandbox profile ${opts.to ?? ctx.profile().profileId ?? '?'}`,
  summary: 'Credit USDC to a sandbox profile (its server wallet when it has one)',
  args: { amount: { description: 'USDC amount, e.g. 250', required: true } },
  options: { to: { type: 'positiveInt', value: 'profileId', description: "profile id (default: the active profile's)" } },
  examples: ['pm sandbox fund 250 --to 1001'],
  run: async (ctx, { args, opts }) => {
    const amount = parseAmount(args.amount ?? '');
    const profileId = opts.to ?? ctx.profile().profileId;
    if (profileId === undefined) throw new UsageError('which profile? pass --to <profileId>', { hint: 'pm sandbox fund 250 --to 1001' });
    const api = await sandboxAdmin(ctx);
    try {
      const r = await fundProfile(api, profileId, amount).catch((e: unknown) => {
        if (e instanceof NotFoundError && !e.hint)
          throw withHint(e, `--to takes a profile id of this sandbox: pm whoami shows yours, pm partner list your sub-accounts.`);
        throw e;
      });
      const json = {
        profileId: r.profileId,
        wallet: r.wallet,
        amount: formatUnits(r.amount),
        amountRaw: r.amount.toString(),
        balance: formatUnits(r.balance),
        balanceRaw: r.balance.toString(),
        txHash: r.txHash,
      };
      // The result is data (stdout), in every format.
      ctx.out.data(json, () =>
        ctx.out.keyValue([
          ['profile', String(r.profileId)],
          ['wallet', r.wallet],
          ['funded', `${ctx.out.num(json.amount)} USDC`],
          ['balance', `${ctx.out.num(json.balance)} USDC`],
        ]),
      );
    } finally {
      await api.close();
    }
  },
});
