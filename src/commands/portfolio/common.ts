// What the portfolio and money commands share: money formatting.
import { formatUnits } from '../../core/money.js';

/** A signed USDC amount with 2+ decimals for tables: -1.5 → "-1.50". */
export const usd = (raw: bigint): string => formatUnits(raw, 6, 2);
