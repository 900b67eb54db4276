import { defineCommand } from '../../cli/command.js';
import { watch } from './run.js';

export default defineCommand({
  path: ['watch', 'book'],
  summary: 'The live order book of one market (full screen on a terminal)',
  description:
    'Redraws the book in place on a terminal (alternate screen, restored on exit); NDJSON snapshots otherwise or with --json. Same as pm book <slug> --watch.' +
    '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. Ctrl-C exits 130.',
  args: { slug: { description: 'market slug', required: true } },
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    depth: { type: 'positiveInt', value: 'n', description: 'price levels per side to show', default: 10 },
  },
  examples: ['pm watch book btc-100k-2026', "pm watch book btc-100k-2026 --json | jq -c '.orderbook.bids[0]'"],
  run: (ctx, { args, opts }) => watch(ctx, 'book', opts, [args.slug]),
});
