// What the portfolio and money commands share: money formatting.
import type { Output } from '../../cli/output.js';
import { formatUnits } from '../../core/money.js';

/**
 * Amounts for tables and lines of text, as `out` writes numbers (thousands grouped on a terminal,
 * plain when piped): USDC with 2+ decimals (-1.5 → "-1.50"), shares exactly.
 */
export const amounts = (out: Output) => ({
  usd: (raw: bigint): string => out.num(formatUnits(raw, 6, 2)),
  shares: (raw: bigint): string => out.num(formatUnits(raw)),
});
