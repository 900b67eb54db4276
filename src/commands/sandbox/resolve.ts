import type { Handler } from '../../cli/command.js';
import { optBool } from '../../cli/command.js';
import { slugFrom } from '../../core/markets.js';
import { sandboxAdmin } from './admin.js';

const run: Handler = async (ctx, { args, opts }) => {
  const slug = slugFrom(args[0] ?? '');
  const winningOutcome = (args[1] ?? '').toUpperCase();
  const api = await sandboxAdmin(ctx);
  try {
    const r = (await api.request<Record<string, unknown>>({ method: 'POST', path: '/__sandbox/resolve', body: { slug, winningOutcome, payout: !optBool(opts, 'payoutPending') }, retry: 'never' })).data;
    ctx.out.data(r, () => ctx.out.info(`resolved ${slug}: ${winningOutcome} won${r['payoutPosted'] === false ? ' (payout not posted yet: not redeemable until you resolve again without --payout-pending)' : '; winning shares are redeemable'}${Number(r['canceledOrders'] ?? 0) > 0 ? `; ${String(r['canceledOrders'])} open orders cancelled` : ''}`));
  } finally {
    await api.close();
  }
};
export default run;
