import type { Handler } from '../../cli/command.js';
import { optNum } from '../../cli/command.js';
import { feedEvents, slugFrom } from '../../core/markets.js';
import type { Json } from '../../core/markets.js';

const field = (o: unknown, k: string): string => {
  if (typeof o !== 'object' || o === null) return '';
  const v = (o as Json)[k];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
};

const run: Handler = async (ctx, { args, opts }) => {
  const slug = slugFrom(args[0] ?? '');
  const res = await feedEvents(await ctx.api(), slug, { page: optNum(opts, 'page'), limit: optNum(opts, 'limit') });
  ctx.out.data(res.events, () => {
    ctx.out.table(
      [{ header: 'TIME' }, { header: 'EVENT' }, { header: 'USER' }, { header: 'ACTION' }, { header: 'OUTCOME' }, { header: 'CONTRACTS', align: 'right' }, { header: 'USD', align: 'right' }],
      res.events.map((e) => [
        field(e, 'timestamp').replace('T', ' ').slice(0, 19),
        field(e, 'eventType'),
        field(e['user'], 'name') || field(e['user'], 'account').slice(0, 10),
        field(e['data'], 'strategy'),
        field(e['data'], 'outcome'),
        field(e['data'], 'contracts'),
        field(e['data'], 'tradeAmountUSD') || field(e['data'], 'tradeAmount'),
      ]),
    );
  });
};
export default run;
