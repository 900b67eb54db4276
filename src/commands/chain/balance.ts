// pm balance [<slug>...]: USDC held, locked by open orders and free to trade; shares held per
// position and locked by open SELLs. From the chain against the real exchange, from the
// exchange's own figures against a sandbox (--chain: from the sandbox's chain).
import { defineCommand } from '../../cli/command.js';
import { accountBalance, balanceJson } from '../../core/balance.js';
import { formatUnits } from '../../core/money.js';
import { RPC_URL } from './common.js';

export default defineCommand({
  path: ['balance'],
  effect: 'read',
  actsFor: true,
  summary: 'Your USDC (held, locked by open orders, free to trade) and shares (held, locked by open SELLs)',
  description:
    "USDC held, the part locked by open orders (each BUY locks ceil(remaining × price)), and what is free to trade: held = locked + free. Shares held per position, and the part open SELL orders lock.\n\nAgainst the real exchange USDC is read on chain (Base), from the account's trading wallet: --rpc-url, else PM_RPC_URL, else the profile's rpc-url, else Base's public RPC (https://mainnet.base.org). Against a sandbox the figures are the exchange's own; --chain reads them from the sandbox's chain (pm sandbox start --chain) instead. Locked amounts are always summed from the open orders.\n\n--on-behalf-of shows a sub-account's balance. --json gives each amount as a decimal string and its raw integer (`heldRaw`, `lockedRaw`, `freeRaw`).",
  args: { slugs: { description: 'only these markets (their YES and NO, held or not)', variadic: true } },
  options: {
    byMarket: { type: 'boolean', description: 'the USDC each market locks, and its open orders' },
    chain: { type: 'boolean', description: 'read USDC and shares on chain (a sandbox started with --chain, or --rpc-url)' },
    rpcUrl: RPC_URL,
  },
  examples: ['pm balance', 'pm balance --by-market', 'pm balance btc-100k-2026', 'pm --json balance | jq -r .usdc.free'],
  run: async (ctx, { args, opts }) => {
    const markets = args.slugs.filter((s) => s !== '');
    const b = await accountBalance(ctx.core, { chain: opts.chain, rpcUrl: opts.rpcUrl, markets });
    ctx.out.data(balanceJson(b, { byMarket: opts.byMarket }), () => {
      const usd = (raw: bigint): string => ctx.out.usd(formatUnits(raw, 6, 2));
      ctx.out.keyValue([
        ['account', `${b.onBehalfOf !== null ? 'sub-account ' : ''}${b.profileId}${b.wallet ? ` (${b.wallet})` : ''}`],
        [
          'source',
          b.chain ? `chain ${b.chain.chainId} via ${b.chain.rpcUrl}` : "the exchange's own figures (sandbox; --chain reads its chain)",
        ],
        ...(b.chain ? ([['ETH (gas)', formatUnits(b.chain.eth, 18)]] as [string, string][]) : []),
        ['USDC held', usd(b.usdc.held)],
        ['USDC locked', `${usd(b.usdc.locked)} (open BUY orders)`],
        ['USDC free', usd(b.usdc.free)],
      ]);
      if (opts.byMarket && b.markets.length) {
        ctx.out.line();
        ctx.out.table(
          [{ header: 'MARKET' }, { header: 'ORDERS', align: 'right' }, { header: 'USDC LOCKED', align: 'right' }],
          b.markets.map((m) => [m.market, String(m.orders), usd(m.locked)]),
        );
      }
      if (b.positions.length) {
        ctx.out.line();
        ctx.out.table(
          [
            { header: 'MARKET' },
            { header: 'OUTCOME' },
            { header: 'HELD', align: 'right' },
            { header: 'LOCKED', align: 'right' },
            { header: 'FREE', align: 'right' },
          ],
          b.positions.map((p) => [
            p.market,
            p.outcome,
            ctx.out.num(formatUnits(p.held)),
            ctx.out.num(formatUnits(p.locked)),
            ctx.out.num(formatUnits(p.free)),
          ]),
        );
      }
    });
  },
});
