// What the on-chain commands share: the chain (RPC, chain id and contracts checked), the wallet
// address, and the markets named on the command line.
import type { Target } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import type { Chain } from '../../core/chain.js';
import type { Market } from '../../core/market-wire.js';
import type { Hex } from 'viem';

/** --rpc-url, as every on-chain command takes it. */
export const RPC_URL = {
  type: 'string',
  value: 'url',
  description: 'JSON-RPC URL (else PM_RPC_URL, a sandbox chain, or the profile rpc-url)',
} as const;

/**
 * Where an on-chain command acts, for the guard: the exchange (its markets and contracts) and its
 * RPC (flag > PM_RPC_URL > a sandbox's own chain > the profile). A sandbox exchange with a remote
 * RPC sends real transactions, and asks first like a real exchange with a local node does.
 */
export async function rpcTarget(ctx: Context, input: { opts: { rpcUrl?: string | undefined } }): Promise<Target[]> {
  return [
    { url: ctx.baseUrl, what: 'exchange' },
    { url: (await ctx.core.rpcUrl(input.opts.rpcUrl)).url, what: 'RPC' },
  ];
}

/** The chain for this command, connected and checked (chain.ts is loaded here, lazily). */
export async function connectChain(ctx: Context, opts: { rpcUrl?: string | undefined }): Promise<Chain> {
  const { Chain: ChainClass, chainSetup } = await import('../../core/chain.js');
  const { url, sandboxChain, proxy } = await ctx.core.rpcUrl(opts.rpcUrl);
  const setup = chainSetup({ rpcUrl: url, sandbox: sandboxChain, proxy });
  return ChainClass.connect(setup, { timeoutMs: ctx.timeoutMs });
}

/** The active wallet's address (no passphrase needed). */
export async function walletAddress(ctx: Context): Promise<Hex> {
  const creds = await ctx.credentials();
  if (!creds.address)
    throw new UsageError('no wallet: on-chain commands need the EOA that trades', {
      hint: 'Import one with pm wallet import, or set PM_PRIVATE_KEY.',
    });
  return creds.address;
}

/** Exactly one of `<slug>` and `--all`, read offline; `command` (approve check, approve set) for the hint. */
export function checkMarketChoice(command: string, slug: string | undefined, opts: { all: boolean }): void {
  if ((slug === undefined) === !opts.all)
    throw new UsageError('name a market, or pass --all for every active market', {
      hint: `pm ${command} btc-100k-2026, or pm ${command} --all`,
    });
}

/** The markets of `<slug>` or `--all` (every active market). Exactly one of them is required. */
export async function marketsFor(ctx: Context, command: string, slug: string | undefined, opts: { all: boolean }): Promise<Market[]> {
  checkMarketChoice(command, slug, opts);
  const { slugFrom } = await import('../../core/market-input.js');
  const { getMarket, listAllMarkets } = await import('../../core/markets.js');
  const api = await ctx.api();
  if (slug !== undefined) return [await getMarket(api, slugFrom(slug))];
  return listAllMarkets(api);
}
