import { textTime } from '../../cli/text.js';
import { cutFirst } from '../../cli/output.js';
import { slugFrom } from '../../core/market-input.js';
import type { Json } from '../../core/market-wire.js';
import { feedEvents } from '../../core/markets.js';
import { formatUnits, parseUnits } from '../../core/money.js';
import { defineCommand } from '../../cli/command.js';

const field = (o: unknown, k: string): string => {
  if (typeof o !== 'object' || o === null) return '';
  const v = (o as Json)[k];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
};

/** A dollar figure of the wire (a decimal) as the tables print dollars, 6.30; anything else as it came. */
const dollars = (v: string): string => (/^\d+(\.\d{1,6})?$/.test(v) ? formatUnits(parseUnits(v), 6, 2) : v);

export default defineCommand({
  path: ['markets', 'feed'],
  effect: 'read',
  summary: 'Recent trades and events of a market',
  args: { slug: { description: 'market slug', required: true } },
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'events per page', default: 10 },
    page: { type: 'positiveInt', value: 'n', description: 'page number, from 1', default: 1 },
  },
  examples: ['pm markets feed btc-100k-2026', 'pm --json markets feed btc-100k-2026 --limit 50'],
  run: async (ctx, { args, opts }) => {
    const slug = slugFrom(args.slug);
    const res = await feedEvents(await ctx.api(), slug, { page: opts.page, limit: opts.limit });
    ctx.out.data(res.events, () => {
      ctx.out.table(
        [
          { header: 'TIME' },
          { header: 'EVENT', fit: cutFirst(2) },
          { header: 'USER', fit: cutFirst(1) },
          { header: 'ACTION' },
          { header: 'OUTCOME' },
          { header: 'CONTRACTS', align: 'right' },
          { header: 'USD', align: 'right' },
        ],
        res.events.map((e) => [
          textTime(field(e, 'timestamp')),
          field(e, 'eventType'),
          field(e['user'], 'name') || field(e['user'], 'account').slice(0, 10),
          field(e['data'], 'strategy'),
          field(e['data'], 'outcome'),
          field(e['data'], 'contracts'),
          dollars(field(e['data'], 'tradeAmountUSD') || field(e['data'], 'tradeAmount')),
        ]),
      );
    });
  },
});
