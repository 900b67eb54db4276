import { cutFirst } from '../../cli/output.js';
import { slugFrom } from '../../core/market-input.js';
import { getMarket } from '../../core/markets.js';
import { formatDeadline, formatPrice, usd } from './render.js';
import type { Market } from '../../core/market-wire.js';
import { defineCommand } from '../../cli/command.js';

function outcomeRows(m: Market): string[][] {
  if (!m.positionIds) return [];
  return [
    ['YES', formatPrice(m.prices?.[0] ?? null), m.positionIds[0]],
    ['NO', formatPrice(m.prices?.[1] ?? null), m.positionIds[1]],
  ];
}

export default defineCommand({
  path: ['markets', 'show'],
  effect: 'read',
  summary: 'Show one market: outcomes, position ids, prices, volume, deadline, venue',
  args: { slug: { description: 'market slug (any case) or its limitless.exchange URL', required: true } },
  examples: ['pm markets show btc-100k-2026', 'pm --json markets show btc-100k-2026 | jq .venue'],
  run: async (ctx, { args }) => {
    const m = await getMarket(await ctx.api(), slugFrom(args.slug));
    ctx.out.data(m.raw, () => {
      const status =
        m.winningOutcomeIndex !== null
          ? `${m.status} (winner: ${m.winningOutcomeIndex === 0 ? 'YES' : 'NO'})`
          : m.expired
            ? `${m.status} (expired)`
            : m.status;
      const pairs: [string, string][] = [
        ['title', m.title],
        ['slug', m.slug],
        ['status', status],
        ['type', m.negRisk ? `${m.tradeType} (NegRisk)` : m.tradeType],
        ['deadline', formatDeadline(m.expirationTimestamp)],
        ['categories', m.categories.join(', ') || '-'],
        ['volume', usd(ctx.out, m.volume)],
        ['liquidity', usd(ctx.out, m.liquidity)],
        ['open interest', usd(ctx.out, m.openInterest)],
      ];
      if (m.venue) pairs.push(['exchange', m.venue.exchange], ['adapter', m.venue.adapter ?? '-']);
      const desc = m.raw['description'];
      ctx.out.keyValue(pairs);
      if (m.positionIds) {
        ctx.out.line();
        ctx.out.table(
          [{ header: 'OUTCOME' }, { header: 'PRICE', align: 'right' }, { header: 'POSITION ID', fit: cutFirst(1, 12) }],
          outcomeRows(m),
        );
      }
      if (m.children.length) {
        ctx.out.line();
        ctx.out.table(
          [{ header: 'CHILD MARKET' }, { header: 'YES', align: 'right' }, { header: 'TITLE', fit: cutFirst(1, 10) }],
          m.children.map((c) => [c.slug, formatPrice(c.prices?.[0] ?? null), c.title]),
        );
        ctx.out.info('Orders on a NegRisk group use the child market slug.');
      }
      if (typeof desc === 'string' && desc) {
        ctx.out.line();
        ctx.out.line(desc);
      }
    });
  },
});
