import { defineCommand } from '../../cli/command.js';
import { watch } from './run.js';

export default defineCommand({
  path: ['watch', 'tx'],
  summary: 'Your on-chain transactions (settled trades)',
  description:
    'Streams tx events (needs an API token).' +
    '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. Ctrl-C exits 130.',
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    market: { type: 'string', value: 'slug', description: 'only events of this market' },
  },
  examples: ['pm watch tx', 'pm watch tx --json --count 1'],
  run: (ctx, { opts }) => watch(ctx, 'tx', opts),
});
