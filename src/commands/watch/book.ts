import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'book'],
  effect: 'read',
  longRunning: true,
  summary: 'The live order book of one market (full screen on a terminal)',
  description:
    'Redraws the book in place on a terminal (alternate screen, restored on exit); NDJSON snapshots otherwise or with --json. Same as pm book <slug> --watch.' +
    RECONNECT_HELP,
  args: { slug: { description: 'market slug', required: true } },
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    depth: { type: 'positiveInt', value: 'n', description: 'price levels per side to show', default: 10 },
  },
  examples: ['pm watch book btc-100k-2026', "pm watch book btc-100k-2026 --json | jq -c '.orderbook.bids[0]'"],
  run: (ctx, { args, opts }) => watch(ctx, 'book', opts, [args.slug]),
});
