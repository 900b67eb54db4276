// Table rendering shared by the market commands.
import type { Output } from '../../cli/output.js';
import { formatDeadline, formatPrice, formatUsd } from '../../core/markets.js';
import type { Market } from '../../core/markets.js';

/** One row per market: slug, YES/NO price, volume, deadline, status. */
export function marketTable(out: Output, markets: Market[]): void {
  out.table(
    [{ header: 'SLUG' }, { header: 'TITLE' }, { header: 'YES', align: 'right' }, { header: 'NO', align: 'right' }, { header: 'VOLUME', align: 'right' }, { header: 'DEADLINE' }, { header: 'TYPE' }],
    markets.map((m) => [
      m.slug,
      m.title,
      formatPrice(m.prices?.[0] ?? null),
      formatPrice(m.prices?.[1] ?? null),
      formatUsd(m.volume),
      formatDeadline(m.expirationTimestamp).slice(0, 10),
      m.negRisk ? 'negrisk' : m.tradeType,
    ]),
  );
}
