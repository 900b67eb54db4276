// The withdrawal rules, beside the engine and like it pure: who may withdraw what from which
// wallet to where. They answer a refusal reason (the route turns it into an HTTP status) or
// the wallets the transfer goes between; the route then moves the USDC (on the local chain,
// with --chain) and applies funds.withdrawn.
import { formatRaw } from './orders/amounts.js';
import { tradingWallet } from './portfolio.js';
import type { Hex, Profile, SandboxState, WithdrawalAddress } from './types.js';

export type WithdrawalRefusal =
  | { ok: false; reason: 'NO_SERVER_WALLET' | 'SAME_WALLET' | 'INSUFFICIENT_BALANCE'; message: string }
  | { ok: false; reason: 'DESTINATION_NOT_ALLOWED'; message: string };

export interface Withdrawal {
  ok: true;
  /** The server wallet the USDC leaves. */
  from: Hex;
  /** Where it goes: as asked, or by default the caller's own wallet. */
  destination: Hex;
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** A profile's active withdrawal-address allowlist entries. */
export function activeAllowlist(state: SandboxState, profileId: number): WithdrawalAddress[] {
  return (state.withdrawalAddresses ?? []).filter((e) => e.profileId === profileId && e.deletedAt === null);
}

/**
 * Withdrawing `amount` raw USDC from `source`'s server wallet, asked by `caller` (the
 * authenticated profile: the source itself, or its partner with onBehalfOf), to `destination`
 * (null: the caller's own wallet; else the caller's address, smart wallet or an active address
 * on the caller's allowlist).
 */
export function decideWithdrawal(
  state: SandboxState,
  o: { caller: Profile; source: Profile; amount: bigint; destination: Hex | null },
): Withdrawal | WithdrawalRefusal {
  const { caller, source, amount } = o;
  if (!source.serverWallet)
    return {
      ok: false,
      reason: 'NO_SERVER_WALLET',
      message:
        source.id === caller.id
          ? `Profile ${source.id} has no managed server wallet: its funds are in its own wallet (${source.address}); move them on chain`
          : `Profile ${source.id} has no managed server wallet to withdraw from`,
    };
  const from = tradingWallet(source);
  let destination = o.destination;
  if (destination === null) {
    destination = caller.serverWallet && caller.id !== source.id ? tradingWallet(caller) : caller.address;
  } else {
    const to = destination;
    const own = same(to, caller.address) || (caller.serverWalletAddress !== undefined && same(to, caller.serverWalletAddress));
    if (!own && !activeAllowlist(state, caller.id).some((e) => same(e.destinationAddress, to)))
      return {
        ok: false,
        reason: 'DESTINATION_NOT_ALLOWED',
        message: `Destination ${to} is not allowed: a withdrawal may go only to your account address (${caller.address})${caller.serverWalletAddress ? `, your smart wallet (${caller.serverWalletAddress})` : ''} or an active address on ${caller.id === source.id ? 'your' : `the partner's (profile ${caller.id})`} withdrawal allowlist; add it with POST /portfolio/withdrawal-addresses (identity token)`,
      };
  }
  if (same(destination, from))
    return { ok: false, reason: 'SAME_WALLET', message: `Destination ${destination} is the wallet being withdrawn from` };
  const acct = state.accounts[String(source.id)];
  const available = acct ? acct.usdc - acct.lockedUsdc : 0n;
  if (available < amount)
    return {
      ok: false,
      reason: 'INSUFFICIENT_BALANCE',
      message: `Insufficient balance: wallet ${from} has ${formatRaw(available)} USDC available (${available} raw${acct && acct.lockedUsdc > 0n ? `, ${formatRaw(acct.lockedUsdc)} more locked by open orders` : ''}), asked ${formatRaw(amount)} (${amount} raw)`,
    };
  return { ok: true, from, destination };
}
