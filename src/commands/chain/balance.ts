// pm balance [<slug>...]: the wallet's ETH (gas), USDC and, for the named markets, YES/NO
// position tokens on chain; beside them the exchange's view when it has a portfolio route.
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { formatUnits } from '../../core/money.js';
import { tokenBalances } from '../../core/portfolio.js';
import { formatEther } from '../../core/chain.js';
import { RPC_URL, connectChain, walletAddress } from './common.js';

/** The exchange's position balances by token id, or null (no portfolio route, or no credentials). */
async function exchangeView(ctx: Context): Promise<Map<string, bigint> | null> {
  try {
    const creds = await ctx.credentials();
    const auth = await creds.unlock('auto');
    if (!auth.hmac && !auth.apiKey) return null;
    return await tokenBalances(await ctx.api(auth));
  } catch {
    return null; // on-chain view only
  }
}

export default defineCommand({
  path: ['balance'],
  effect: 'read',
  summary: 'On-chain balances of your wallet: ETH for gas, USDC, and position tokens of markets',
  args: { slugs: { description: 'markets whose YES/NO tokens to show', variadic: true } },
  options: { rpcUrl: RPC_URL },
  examples: ['pm balance', 'pm balance btc-100k-2026 eth-5k-2025', 'pm --json balance | jq .usdc'],
  run: async (ctx, { args, opts }) => {
    const slugs = args.slugs.filter((s) => s !== '');
    const owner = await walletAddress(ctx);
    const chain = await connectChain(ctx, opts);
    const [eth, usdc] = await Promise.all([chain.eth(owner), chain.usdc(owner)]);
    const rows: { market: string; outcome: string; tokenId: string; onChain: bigint; exchange: bigint | null }[] = [];
    if (slugs.length) {
      const { slugFrom } = await import('../../core/market-input.js');
      const { getMarket } = await import('../../core/markets.js');
      const api = await ctx.api();
      const view = await exchangeView(ctx);
      for (const s of slugs) {
        const m = await getMarket(api, slugFrom(s));
        if (!m.positionIds) continue;
        const bal = await chain.positions(owner, m.positionIds);
        m.positionIds.forEach((id, i) =>
          rows.push({
            market: m.slug,
            outcome: i === 0 ? 'YES' : 'NO',
            tokenId: id,
            onChain: bal[i] ?? 0n,
            exchange: view ? (view.get(id) ?? 0n) : null,
          }),
        );
      }
    }
    ctx.out.data(
      {
        wallet: owner,
        chainId: chain.setup.chainId,
        eth: eth.toString(),
        usdc: usdc.toString(),
        positions: rows.map((r) => ({
          market: r.market,
          outcome: r.outcome,
          tokenId: r.tokenId,
          onChain: r.onChain.toString(),
          exchange: r.exchange === null ? null : r.exchange.toString(),
        })),
      },
      () => {
        ctx.out.keyValue([
          ['wallet', owner],
          ['chain', String(chain.setup.chainId)],
          ['ETH (gas)', formatEther(eth)],
          ['USDC', formatUnits(usdc)],
        ]);
        if (rows.length) {
          const differ = rows.some((r) => r.exchange !== null && r.exchange !== r.onChain);
          ctx.out.table(
            [
              { header: 'MARKET' },
              { header: 'OUTCOME' },
              { header: 'ON CHAIN', align: 'right' },
              ...(differ ? [{ header: 'EXCHANGE', align: 'right' as const }] : []),
            ],
            rows.map((r) => [
              r.market,
              r.outcome,
              formatUnits(r.onChain),
              ...(differ ? [r.exchange === null ? '?' : formatUnits(r.exchange)] : []),
            ]),
          );
        }
      },
    );
    return;
  },
});
