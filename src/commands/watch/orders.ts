import { defineCommand } from '../../cli/command.js';
import { watch } from './run.js';

export default defineCommand({
  path: ['watch', 'orders'],
  summary: 'Your order events as they happen (placement, fills, cancels, settlement)',
  description:
    "Streams orderEvent: OME events (PLACEMENT, UPDATE, CANCELLATION, EXECUTION with FILLED, PARTIALLY_FILLED or KILLED) and SETTLEMENT events (MATCHED, MINED, FAILED) of every order of yours (a partner also gets its sub-accounts'), in all markets. Needs an API token." +
    '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. Ctrl-C exits 130.',
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    market: { type: 'string', value: 'slug', description: 'only events of this market' },
    clientId: { type: 'string', value: 'id', description: 'only events of the order with this client id' },
  },
  examples: [
    'pm watch orders',
    'pm watch orders --json | jq -c \'select(.type=="PLACEMENT")\'',
    'pm watch orders --client-id bot-42 --count 3',
  ],
  run: (ctx, { opts }) => watch(ctx, 'orders', opts),
});
