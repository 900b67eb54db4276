// pm approve set [<slug>|--all] [--side buy|sell|both] [--amount <usdc>|--unlimited] [--dry-run]:
// sends only the missing approvals, after a gas estimate and a confirmation (--yes in scripts);
// progress on stderr, transaction hashes on stdout.
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { PmError, UsageError } from '../../core/errors.js';
import { parseUnits } from '../../core/money.js';
import { approvalTargets, formatEther, MAX_UINT, UNLIMITED_FLOOR, type Side } from '../../core/chain.js';
import { stateJson, stateText } from './approve-check.js';
import { RPC_URL, checkMarketChoice, connectChain, marketsFor, rpcTarget, walletAddress } from './common.js';

export default defineCommand({
  path: ['approve', 'set'],
  effect: 'money',
  effectNote: 'With `--dry-run`: **read**',
  effectOf: ({ opts }) => (opts.dryRun ? 'read' : 'money'),
  target: rpcTarget,
  describe: async (ctx, { args, opts }) => {
    const { owner, chain, missing, amount } = await approvalState(ctx, args.slug, opts);
    const txs = chain.plan(missing, amount);
    return `Send ${txs.length} approval transaction(s) from wallet ${owner} on chain ${chain.setup.chainId} (${chain.setup.rpcUrl}):${txs.map((t) => `\n  ${t.what}`).join('')}`;
  },
  summary: 'Send the missing approvals only (gas estimate, confirmation, receipts)',
  description:
    'Sends only what approve check reports missing: a second run sends nothing. Shows the gas estimate and asks first (--yes in scripts) when its RPC is not on this machine, beside a sandbox exchange too (that chain is real); progress on stderr, transaction hashes on stdout.\n\nExit codes: 0 done (or nothing to do), 1 reverted or not enough ETH for gas, 2 bad input / no RPC / wrong chain, 7 RPC lost (run approve check to see the truth).',
  args: { slug: { description: 'market slug' } },
  options: {
    all: { type: 'boolean', description: 'every venue of the active markets' },
    side: { type: 'string', value: 'side', description: 'which approvals', choices: ['buy', 'sell', 'both'], default: 'both' },
    amount: { type: 'string', value: 'usdc', description: 'USDC allowance to set (default unlimited)' },
    unlimited: { type: 'boolean', description: 'unlimited USDC allowance (the default)' },
    dryRun: { type: 'boolean', description: 'print the transactions and send nothing' },
    rpcUrl: RPC_URL,
  },
  examples: [
    'pm approve set btc-100k-2026',
    'pm approve set --all --side buy --amount 500 --yes',
    'pm approve set us-election-2028-democrat --dry-run',
  ],
  check: (_ctx, { args, opts }) => {
    checkMarketChoice('approve set', args.slug, opts);
    allowance(opts);
  },
  run: async (ctx, { args, opts }) => {
    const { owner, chain, states, missing, amount } = await approvalState(ctx, args.slug, opts);
    if (missing.length === 0) {
      ctx.out.data({ wallet: owner, sent: [], approvals: states.map(stateJson) }, () =>
        ctx.out.line('all approvals in place: nothing to send'),
      );
      return;
    }
    const txs = chain.plan(missing, amount);
    const est = await chain.estimate(owner, txs);
    const dry = opts.dryRun;
    const planJson = txs.map((t) => ({ to: t.to, data: t.data, what: t.what, gas: t.gas?.toString() ?? null }));
    if (!ctx.out.isJson || !dry) {
      ctx.out.info(`wallet ${owner} on chain ${chain.setup.chainId}: ${txs.length} transaction(s) to send`);
      for (const t of txs) ctx.out.info(`  ${t.what}  (gas ~${t.gas ?? '?'})`);
      ctx.out.info(
        `estimated cost ${formatEther(est.total)} ETH at ${formatEther(est.gasPrice, 'gwei')} gwei; balance ${formatEther(est.balance)} ETH`,
      );
    }
    if (dry) {
      ctx.out.data(
        {
          wallet: owner,
          dryRun: true,
          transactions: planJson,
          estimatedCost: formatEther(est.total),
          estimatedCostWei: est.total.toString(),
        },
        () => {
          for (const t of txs) ctx.out.line(`${t.to} ${t.data}  # ${t.what}`);
        },
      );
      return;
    }
    if (est.balance < est.total) {
      throw new PmError(
        `the wallet ${owner} has ${formatEther(est.balance)} ETH, not enough for the estimated ${formatEther(est.total)} ETH of gas`,
        { hint: 'Fund it with ETH on this chain and run the same command again; nothing was sent.' },
      );
    }
    const creds = await ctx.credentials();
    const account = await creds.account();
    if (!account) throw new UsageError('no signing wallet', { hint: 'Import one with pm wallet import, or set PM_PRIVATE_KEY.' });
    const sent = await chain.send(account, txs, (l) => ctx.out.info(l));
    ctx.out.data(
      {
        wallet: owner,
        sent: sent.map((s) => ({
          what: s.what,
          hash: s.hash,
          status: s.status,
          blockNumber: s.blockNumber.toString(),
          gasUsed: s.gasUsed.toString(),
        })),
      },
      () => {
        for (const s of sent) ctx.out.line(`${s.hash}  ${s.what}`);
      },
    );
    void stateText;
    return;
  },
});

/** The USDC allowance to set, read offline: --amount, else unlimited. */
function allowance(opts: { amount?: string | undefined; unlimited: boolean }): bigint {
  const amountRaw = opts.amount;
  if (amountRaw !== undefined && opts.unlimited)
    throw new UsageError('pass --amount or --unlimited, not both', {
      hint: '--amount 250 sets an allowance of 250 USDC; --unlimited (what leaving out --amount does) sets the largest.',
    });
  const amount = amountRaw === undefined ? MAX_UINT : parseUnits(amountRaw, 6, 'amount');
  if (amount === 0n) throw new UsageError('--amount must be more than 0 (to revoke, use your wallet)');
  return amount;
}

/** The approvals the markets need for the sides asked, as the chain holds them now (reads only). */
async function approvalState(
  ctx: Context,
  slug: string | undefined,
  opts: { side?: string | undefined; amount?: string | undefined; unlimited: boolean; all: boolean; rpcUrl?: string | undefined },
) {
  const side = (opts.side ?? 'both').toLowerCase();
  const sides: Side[] = side === 'buy' ? ['BUY'] : side === 'sell' ? ['SELL'] : ['BUY', 'SELL'];
  const amount = allowance(opts);
  const markets = await marketsFor(ctx, 'approve set', slug, opts);
  const owner = await walletAddress(ctx);
  const chain = await connectChain(ctx, opts);
  const states = await chain.approvals(owner, approvalTargets(markets, sides), amount === MAX_UINT ? UNLIMITED_FLOOR : amount);
  return { owner, chain, states, missing: states.filter((s) => !s.ok), amount };
}
