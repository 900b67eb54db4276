import type { Handler } from '../../cli/command.js';
import { optNum } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { parseAmount } from '../../core/funds.js';
import { formatUnits } from '../../core/money.js';
import { sandboxAdmin } from './admin.js';

const run: Handler = async (ctx, { args, opts }) => {
  const amount = parseAmount(args[0] ?? '');
  const profileId = optNum(opts, 'to') ?? ctx.profile().profileId;
  if (profileId === undefined) throw new UsageError('which profile? pass --to <profileId>', { hint: 'pm sandbox fund 250 --to 1001' });
  const api = await sandboxAdmin(ctx);
  try {
    const r = (await api.request<{ profileId: number; wallet: string; amount: string; balance: string }>({ method: 'POST', path: '/__sandbox/fund', body: { profileId, amount: amount.toString() }, retry: 'never' })).data;
    ctx.out.data(r, () => ctx.out.info(`funded profile ${r.profileId} (${r.wallet}) with ${formatUnits(BigInt(r.amount))} USDC; balance ${formatUnits(BigInt(r.balance))}`));
  } finally {
    await api.close();
  }
};
export default run;
