import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'markets'],
  effect: 'read',
  longRunning: true,
  summary: 'Markets being created and resolved',
  description: `Streams market lifecycle events (marketCreated / marketResolved).${RECONNECT_HELP}`,
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
  },
  examples: ['pm watch markets', 'pm watch markets --json'],
  run: (ctx, { opts }) => watch(ctx, 'markets', opts),
});
