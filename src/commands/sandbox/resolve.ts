import { defineCommand } from '../../cli/command.js';
import { ConflictError, withHint } from '../../core/errors.js';
import { slugFrom } from '../../core/market-input.js';
import { resolveMarket } from '../../core/sandboxctl.js';
import { sandboxAdmin } from './admin.js';

export default defineCommand({
  path: ['sandbox', 'resolve'],
  effect: 'money',
  sandboxOnly: true,
  describe: (_ctx, { args, opts }) =>
    `Resolve sandbox market ${args.slug}: ${args.outcome.toUpperCase()} wins${opts.payoutPending ? ' (payout not posted yet)' : ''}`,
  summary: 'Resolve a sandbox market and post its payout',
  args: {
    slug: { description: 'market slug', required: true },
    outcome: { description: 'the winner', required: true, choices: ['yes', 'no', 'YES', 'NO'] },
  },
  options: { payoutPending: { type: 'boolean', description: 'resolve without posting the payout yet (redeem says "not redeemable yet")' } },
  examples: ['pm sandbox resolve btc-100k-2026 yes', 'pm sandbox resolve fed-cut-december no --payout-pending'],
  run: async (ctx, { args, opts }) => {
    const slug = slugFrom(args.slug ?? '');
    const winningOutcome = (args.outcome ?? '').toUpperCase();
    const api = await sandboxAdmin(ctx);
    try {
      const r = await resolveMarket(api, slug, winningOutcome === 'NO' ? 'NO' : 'YES', !opts.payoutPending).catch((e: unknown) => {
        // Resolved already: it stays so (a market resolves once), until the sandbox starts over.
        if (e instanceof ConflictError && !e.hint)
          throw withHint(e, `pm redeem ${slug} claims its winning shares; pm sandbox reset puts every market back as seeded.`);
        throw e;
      });
      ctx.out.data(r, () =>
        ctx.out.info(
          `resolved ${slug}: ${winningOutcome} won${r['payoutPosted'] === false ? ' (payout not posted yet: not redeemable until you resolve again without --payout-pending)' : '; winning shares are redeemable'}${Number(r['canceledOrders'] ?? 0) > 0 ? `; ${String(r['canceledOrders'])} open orders cancelled` : ''}`,
        ),
      );
    } finally {
      await api.close();
    }
  },
});
