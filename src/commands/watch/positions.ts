import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'positions'],
  effect: 'read',
  longRunning: true,
  summary: 'Your position changes after fills and redemptions',
  description: `Streams positions updates (needs an API token).${RECONNECT_HELP}`,
  options: {
    count: { type: 'positiveInt', value: 'n', description: 'stop after this many events' },
    until: { type: 'string', value: 'iso', description: 'stop at this time (ISO 8601)' },
    market: { type: 'string', value: 'slug', description: 'only events of this market' },
  },
  examples: ['pm watch positions', 'pm watch positions --market btc-100k-2026 --json'],
  run: (ctx, { opts }) => watch(ctx, 'positions', opts),
});
