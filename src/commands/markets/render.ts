// Table rendering shared by the market commands.
import { cutFirst } from '../../cli/output.js';
import type { Context } from '../../cli/context.js';
import type { Output } from '../../cli/output.js';
import type { Market } from '../../core/market-wire.js';
import { formatUnits } from '../../core/money.js';
import { textTime } from '../../cli/text.js';

/** A price in micro-units to three decimals ('-' when there is none). */
export function formatPrice(micro: bigint | null): string {
  return micro === null ? '-' : formatUnits(micro, 6, 3).replace(/^(\d+\.\d{3})\d*$/, '$1');
}

/** A deadline in milliseconds in the one text form of a time ('-' when there is none). */
export function formatDeadline(ms: number | null): string {
  return textTime(ms);
}

/** Dollars from raw units, exact (two decimals at least), one format everywhere (thousands separators on a TTY only). */
export const usd = (out: Output, raw: bigint): string => out.usd(formatUnits(raw, 6, 2));

/** One row per market: slug, YES/NO price, volume, deadline, status. */
export function marketTable(out: Output, markets: Market[]): void {
  out.table(
    [
      { header: 'SLUG' },
      { header: 'TITLE', fit: cutFirst(1, 10) },
      { header: 'YES', align: 'right' },
      { header: 'NO', align: 'right' },
      { header: 'VOLUME', align: 'right' },
      { header: 'DEADLINE' },
      { header: 'TYPE' },
    ],
    markets.map((m) => [
      m.slug,
      m.title,
      formatPrice(m.prices?.[0] ?? null),
      formatPrice(m.prices?.[1] ?? null),
      usd(out, m.volume),
      formatDeadline(m.expirationTimestamp).slice(0, 10),
      m.negRisk ? 'negrisk' : m.tradeType,
    ]),
  );
}

/**
 * A group market has no book and no price of its own: `book <group>` and `markets history
 * <group>` list its child markets with their prices instead, and say which command to run next.
 */
export function groupChildren(ctx: Context, group: Market, command: string): void {
  const price = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : formatUnits(v));
  const children = group.children.map((c) => ({ slug: c.slug, title: c.title, yes: price(c.prices?.[0]), no: price(c.prices?.[1]) }));
  ctx.out.data(
    { slug: group.slug, title: group.title, group: true, markets: children },
    () => {
      ctx.out.info(`${group.slug} is a group of ${children.length} markets: ${command} takes one of them.`);
      ctx.out.table(
        [
          { header: 'CHILD MARKET' },
          { header: 'YES', align: 'right' },
          { header: 'NO', align: 'right' },
          { header: 'TITLE', fit: cutFirst(1, 10) },
        ],
        group.children.map((c) => [c.slug, formatPrice(c.prices?.[0] ?? null), formatPrice(c.prices?.[1] ?? null), c.title]),
      );
      const first = children[0]?.slug;
      if (first) ctx.out.info(`For example: pm ${command} ${first}`);
    },
    { records: children },
  );
  return;
}
