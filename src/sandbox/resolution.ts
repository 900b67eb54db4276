// Resolving a market, as the exchange allows it.
import type { MarketRecord, SandboxState } from './types.js';

/** A NegRisk group resolves exactly one of its markets YES: why `market` cannot be a second, or null. */
export function secondWinner(state: SandboxState, market: MarketRecord, index: 0 | 1): string | null {
  if (index !== 0 || market.groupSlug === null) return null;
  const winner = state.markets.find(
    (m) => m.groupSlug === market.groupSlug && m.slug !== market.slug && m.status === 'RESOLVED' && m.winningOutcomeIndex === 0,
  );
  return winner
    ? `Market ${market.slug} cannot resolve YES: ${winner.slug} already resolved YES, and one market of ${market.groupSlug} wins`
    : null;
}
