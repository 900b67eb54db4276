import { defineCommand } from '../../cli/command.js';
import { RECONNECT_HELP, watch } from './run.js';

export default defineCommand({
  path: ['watch', 'orders'],
  effect: 'read',
  longRunning: true,
  summary: 'Your order events as they happen (placement, fills, cancels, settlement)',
  description:
    "Streams orderEvent: OME events (PLACEMENT, UPDATE, CANCELLATION, EXECUTION with FILLED, PARTIALLY_FILLED or KILLED) and SETTLEMENT events (MATCHED, MINED, FAILED) of every order of yours (a partner also gets its sub-accounts'), in all markets. Needs an API token." +
    RECONNECT_HELP +
    '\n\nAfter every reconnect, the gap is filled from REST: pm compares where your orders stand now (open orders in every market, orders in the markets that traded since the drop and in those of orders it has seen, the status of every order seen before the drop) with what it wrote, and writes the difference as orderEvent records marked "replayed":true (fills during the gap collapse into the latest state; replayed events carry no eventId), then {"event":"lifecycle","type":"caught-up","replayed":N}. No event is written twice: one equal in order id, type, status and size (the remaining size; a settlement\'s trade and amount) to one already written, live or replayed, is dropped, as are a second PLACEMENT of an order and an OME event behind what was written (a larger remaining size, or after the order\'s EXECUTION or CANCELLATION): fills during a gap collapse into their latest state, while a PLACEMENT or settlement step that was missed is written whenever it comes. Limits: an order placed during the gap that ended without a fill (cancelled, or a killed FOK/FAK) in a market where pm knows none of your orders and nothing traded since the drop cannot be found, nor can the orders of a partner\'s sub-accounts.',
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
