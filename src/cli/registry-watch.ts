// Live streams: pm watch orders / positions / prices / book / markets / tx.
import type { CommandDef, OptionDef } from './command.js';

const COMMON: OptionDef[] = [
  { flags: '--count <n>', description: 'stop after this many events', parse: 'positiveInt' },
  { flags: '--until <iso>', description: 'stop at this time (ISO 8601)' },
];
const MARKET: OptionDef = { flags: '--market <slug>', description: 'only events of this market' };
const NOTE = '\n\nThe global --timeout says how long to keep trying while there is no connection before giving up (exit 7). Reconnects (backoff with jitter, fresh signature, every subscription sent again) are reported on stderr, and with --json as {"event":"lifecycle","type":"disconnected|reconnected|resubscribed|…"} records. Ctrl-C exits 130.';

export const WATCH_GROUPS: Record<string, string> = {
  watch: 'Live streams from the exchange: order events, positions, prices, the book, markets, transactions',
};

export const WATCH_COMMANDS: CommandDef[] = [
  {
    path: ['watch', 'orders'],
    summary: 'Your order events as they happen (placement, fills, cancels, settlement)',
    description: `Streams orderEvent: OME events (PLACEMENT, UPDATE, CANCELLATION, EXECUTION with FILLED, PARTIALLY_FILLED or KILLED) and SETTLEMENT events (MATCHED, MINED, FAILED) of every order of yours (a partner also gets its sub-accounts'), in all markets. Needs an API token.${NOTE}`,
    options: [...COMMON, MARKET, { flags: '--client-id <id>', description: 'only events of the order with this client id' }],
    examples: ['pm watch orders', "pm watch orders --json | jq -c 'select(.type==\"PLACEMENT\")'", 'pm watch orders --client-id bot-42 --count 3'],
    load: () => import('../commands/watch/orders.js'),
  },
  {
    path: ['watch', 'positions'],
    summary: 'Your position changes after fills and redemptions',
    description: `Streams positions updates (needs an API token).${NOTE}`,
    options: [...COMMON, MARKET],
    examples: ['pm watch positions', 'pm watch positions --market btc-100k-2026 --json'],
    load: () => import('../commands/watch/positions.js'),
  },
  {
    path: ['watch', 'prices'],
    summary: 'Best bid/ask and price moves of markets',
    description: `Streams orderbookUpdate (a snapshot per market first, then every change, coalesced) and newPriceData for the given markets.${NOTE}`,
    args: [{ name: 'slugs', description: 'market slugs', required: true, variadic: true }],
    options: [...COMMON],
    examples: ['pm watch prices btc-100k-2026 eth-flip-btc', 'pm watch prices btc-100k-2026 --json --count 1'],
    load: () => import('../commands/watch/prices.js'),
  },
  {
    path: ['watch', 'book'],
    summary: 'The live order book of one market (full screen on a terminal)',
    description: `Redraws the book in place on a terminal (alternate screen, restored on exit); NDJSON snapshots otherwise or with --json. Same as pm book <slug> --watch.${NOTE}`,
    args: [{ name: 'slug', description: 'market slug', required: true }],
    options: [...COMMON, { flags: '--depth <n>', description: 'price levels per side to show', parse: 'positiveInt', default: '10' }],
    examples: ['pm watch book btc-100k-2026', 'pm watch book btc-100k-2026 --json | jq -c .orderbook.bids[0]'],
    load: () => import('../commands/watch/book.js'),
  },
  {
    path: ['watch', 'markets'],
    summary: 'Markets being created and resolved',
    description: `Streams market lifecycle events (marketCreated / marketResolved).${NOTE}`,
    options: [...COMMON],
    examples: ['pm watch markets', 'pm watch markets --json'],
    load: () => import('../commands/watch/markets.js'),
  },
  {
    path: ['watch', 'tx'],
    summary: 'Your on-chain transactions (settled trades)',
    description: `Streams tx events (needs an API token).${NOTE}`,
    options: [...COMMON, MARKET],
    examples: ['pm watch tx', 'pm watch tx --json --count 1'],
    load: () => import('../commands/watch/tx.js'),
  },
];
