import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'prices'],
  effect: 'read',
  longRunning: true,
  summary: 'Best bid/ask and price moves of markets',
  description:
    'Streams orderbookUpdate (a snapshot per market first, then every change, coalesced) and newPriceData for the given markets.' +
    RECONNECT_HELP,
  args: { slugs: { description: 'market slugs', required: true, variadic: true } },
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
  },
  examples: ['pm watch prices btc-100k-2026 eth-flip-btc', 'pm watch prices btc-100k-2026 --json --count 1'],
  run: (ctx, { args, opts }) => watch(ctx, 'prices', opts, args.slugs),
});
