import { defineCommand } from '../../cli/command.js';
import { watch } from './run.js';

export default defineCommand({
  path: ['watch', 'markets'],
  summary: 'Markets being created and resolved',
  description:
    'Streams market lifecycle events (marketCreated / marketResolved).' +
    '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. Ctrl-C exits 130.',
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
  },
  examples: ['pm watch markets', 'pm watch markets --json'],
  run: (ctx, { opts }) => watch(ctx, 'markets', opts),
});
