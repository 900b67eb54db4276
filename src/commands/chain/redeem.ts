// pm redeem-onchain <slug>: an EOA redeems a resolved market's positions on chain (CTF
// redeemPositions), after checking that the payout is posted. Server-wallet accounts use the
// exchange's redeem route instead.
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { PmError, UsageError } from '../../core/errors.js';
import { formatUnits } from '../../core/money.js';
import { formatEther } from '../../core/chain.js';
import { RPC_URL, connectChain, rpcTarget, walletAddress } from './common.js';

export default defineCommand({
  path: ['redeem-onchain'],
  effect: 'money',
  effectNote: 'With `--dry-run`: **read**',
  effectOf: ({ opts }) => (opts.dryRun ? 'read' : 'money'),
  target: rpcTarget,
  describe: async (ctx, { args, opts }) => {
    const { market, owner, chain, plan } = await redeemState(ctx, args.slug, opts);
    return `Redeem ${market.slug} on chain ${chain.setup.chainId}: YES ${formatUnits(plan.yes)}, NO ${formatUnits(plan.no)} of wallet ${owner} → ${formatUnits(plan.payout)} USDC`;
  },
  summary: "Redeem a resolved market's positions on chain from your EOA (after checking the payout is posted)",
  description:
    'Calls the conditional-token contract (redeemPositions) for a resolved market once its payout is posted on chain; the winning tokens become USDC in your wallet. Server-wallet accounts use the exchange route instead. It asks first (--yes in scripts) when its RPC is not on this machine, beside a sandbox exchange too (that chain is real).\n\nExit codes: 0 redeemed, 1 reverted or not enough ETH, 2 nothing to redeem on chain / payout not posted / no RPC / wrong chain (nothing was sent), 7 RPC lost.',
  args: { slug: { description: 'market slug', required: true } },
  options: { dryRun: { type: 'boolean', description: 'print the transaction and send nothing' }, rpcUrl: RPC_URL },
  examples: ['pm redeem-onchain eth-5k-2025', 'pm --json redeem-onchain eth-5k-2025 --yes | jq .payout'],
  run: async (ctx, { args, opts }) => {
    const { market, owner, chain, plan } = await redeemState(ctx, args.slug, opts);
    if (!plan.tx) return; // (redeemState refuses that)
    ctx.out.info(
      `${market.slug}: YES ${formatUnits(plan.yes)}, NO ${formatUnits(plan.no)} on chain → payout ${formatUnits(plan.payout)} USDC`,
    );
    const est = await chain.estimate(owner, [plan.tx]);
    ctx.out.info(`estimated gas cost ${formatEther(est.total)} ETH; balance ${formatEther(est.balance)} ETH`);
    if (opts.dryRun) {
      ctx.out.data(
        {
          wallet: owner,
          market: market.slug,
          dryRun: true,
          transaction: { to: plan.tx.to, data: plan.tx.data },
          payout: formatUnits(plan.payout),
          payoutRaw: plan.payout.toString(),
        },
        () => ctx.out.line(`${plan.tx?.to} ${plan.tx?.data}  # ${plan.tx?.what}`),
      );
      return;
    }
    if (est.balance < est.total)
      throw new PmError(`the wallet ${owner} has not enough ETH for gas (${formatEther(est.total)} ETH estimated)`, {
        hint: 'Fund it with ETH on this chain; nothing was sent.',
      });
    const account = await (await ctx.credentials()).account();
    if (!account) throw new UsageError('no signing wallet', { hint: 'Import one with pm wallet import, or set PM_PRIVATE_KEY.' });
    const before = await chain.usdc(owner);
    const [sent] = await chain.send(account, [plan.tx], (l) => ctx.out.info(l));
    const after = await chain.usdc(owner);
    ctx.out.data(
      {
        wallet: owner,
        market: market.slug,
        redeemed: true,
        hash: sent?.hash,
        payout: formatUnits(after - before),
        payoutRaw: (after - before).toString(),
        usdc: formatUnits(after),
        usdcRaw: after.toString(),
      },
      () => {
        ctx.out.line(`${sent?.hash}  redeemed ${market.slug}: +${formatUnits(after - before)} USDC (now ${formatUnits(after)})`);
      },
    );
    return;
  },
});

/** The market, the wallet and what redeeming it on chain would do (reads only; nothing to redeem is exit 2). */
async function redeemState(ctx: Context, slug: string | undefined, opts: { rpcUrl?: string | undefined }) {
  if (!slug) throw new UsageError('name the resolved market to redeem');
  const { slugFrom } = await import('../../core/market-input.js');
  const { getMarket } = await import('../../core/markets.js');
  const market = await getMarket(await ctx.api(), slugFrom(slug));
  const owner = await walletAddress(ctx);
  const chain = await connectChain(ctx, opts);
  const plan = await chain.redeemPlan(owner, market);
  // Read from the chain before anything is sent: a local finding, exit 2.
  if (!plan.tx) {
    // A server-wallet account's shares are in the wallet the exchange manages, which this key cannot move.
    const { profileMe } = await import('../../core/tokens.js');
    const server = await profileMe(await ctx.tradingApi()).then(
      (me) => me.embeddedAccount ?? undefined,
      () => undefined,
    );
    throw new UsageError(`nothing to redeem: ${owner} holds no ${market.slug} position tokens on chain; nothing was sent`, {
      hint:
        server && server.toLowerCase() !== owner.toLowerCase()
          ? `Your positions are in your server wallet ${server}, which the exchange manages: pm redeem ${market.slug} claims them.`
          : `pm balance ${market.slug} shows the wallet's tokens on chain and on the exchange.`,
    });
  }
  return { market, owner, chain, plan };
}
