import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'tx'],
  effect: 'read',
  longRunning: true,
  summary: 'Your on-chain transactions (settled trades)',
  description: `Streams tx events (needs an API token).${RECONNECT_HELP}`,
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    market: { type: 'string', value: 'slug', description: 'only events of this market' },
  },
  examples: ['pm watch tx', 'pm watch tx --json --count 1'],
  run: (ctx, { opts }) => watch(ctx, 'tx', opts),
});
