// What the on-chain commands share: the chain (RPC, chain id and contracts checked), the wallet
// address, and the markets named on the command line.
import type { Context } from '../../cli/context.js';
import type { Opts } from '../../cli/command.js';
import { optBool, optStr } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import type { Chain } from '../../core/chain.js';
import type { Market } from '../../core/markets.js';
import type { Hex } from 'viem';
import { isSandbox } from '../order/deps.js';

/** The chain for this command, connected and checked (chain.ts is loaded here, lazily). */
export async function connectChain(ctx: Context, opts: Opts): Promise<Chain> {
  const { Chain: ChainClass, chainSetup, sandboxChainInfo } = await import('../../core/chain.js');
  const sandbox = isSandbox(ctx) ? await sandboxChainInfo(ctx.baseUrl, ctx.timeoutMs) : null;
  const setup = chainSetup({ flag: optStr(opts, 'rpcUrl'), env: ctx.env.PM_RPC_URL, profile: ctx.profile().rpcUrl, sandbox });
  return ChainClass.connect(setup, { timeoutMs: ctx.timeoutMs });
}

/** The active wallet's address (no passphrase needed). */
export async function walletAddress(ctx: Context): Promise<Hex> {
  const creds = await ctx.credentials();
  if (!creds.address) throw new UsageError('no wallet: on-chain commands need the EOA that trades', { hint: 'Import one with pm wallet import, or set PM_PRIVATE_KEY.' });
  return creds.address;
}

/** The markets of `<slug>` or `--all` (every active market). Exactly one of them is required. */
export async function marketsFor(ctx: Context, slug: string | undefined, opts: Opts): Promise<Market[]> {
  const all = optBool(opts, 'all');
  if ((slug === undefined) === !all) throw new UsageError('name a market, or pass --all for every active market', { hint: 'pm approve check btc-100k-2026, or pm approve check --all' });
  const { getMarket, listAllMarkets, slugFrom } = await import('../../core/markets.js');
  const api = await ctx.api();
  if (slug !== undefined) return [await getMarket(api, slugFrom(slug))];
  return listAllMarkets(api);
}
