// Trading commands: order place / cancel / list / status.
import type { CommandDef } from '../cli/command.js';

export const ORDER_COMMANDS: CommandDef[] = [
  {
    path: ['order', 'place'],
    summary: 'Place a signed order (GTC, FOK, FAK), or a batch from NDJSON',
    description:
      'Place a signed order. Every order carries a client id (generated when absent, always shown) and is journaled under PM_HOME before it is sent; if an answer is lost, pm asks the exchange by client id before sending again, so re-running the same command with the same --client-id never creates a second order.\n\nBatch: --file orders.ndjson (or - for stdin), one JSON object per line with the fields market, side, outcome, type, price, size, amount, postOnly, clientId, onBehalfOf, delegated, each typed as its flag (postOnly and delegated JSON booleans). A line without clientId gets a deterministic one (pmb-…, from the line\'s order fields and --batch-id), so running the same batch again skips the lines the journal says were placed and places the rest: an interrupted batch is resumed by re-running it. Orders stream out as fast as the per-token limit allows; one result per line (NDJSON with --json); exit 8 when some failed, 2 when every line is invalid, 130 on Ctrl-C (placed and unsent lines are listed).\n\nExit codes: 0 placed (or already placed with the same parameters), 2 refused locally (nothing sent), 5 the client id holds a different order, 7 unknown outcome (re-run the same command), 9 refused by the exchange.',
    args: [
      { name: 'slug', description: 'market slug (a child market for NegRisk groups)' },
      { name: 'side', description: 'buy or sell', choices: ['buy', 'sell', 'BUY', 'SELL'] },
      { name: 'outcome', description: 'yes or no', choices: ['yes', 'no', 'YES', 'NO'] },
    ],
    options: [
      { flags: '--type <type>', description: 'gtc (rests), fok (all or nothing by amount), fak (fill what it can)', choices: ['gtc', 'fok', 'fak', 'GTC', 'FOK', 'FAK'], default: 'gtc' },
      { flags: '--price <p>', description: 'limit price, 0.001 to 1 on a 0.001 tick (GTC, FAK)' },
      { flags: '--size <shares>', description: 'shares, up to 3 decimals (GTC, FAK)' },
      { flags: '--amount <n>', description: 'FOK: USDC to spend (BUY) or shares to sell (SELL)' },
      { flags: '--post-only', description: 'GTC only: refuse if it would match immediately' },
      { flags: '--client-id <id>', description: 'your idempotency key (≤128 chars); generated when absent' },
      { flags: '--on-behalf-of <profileId>', description: 'trade for a partner sub-account', parse: 'positiveInt' },
      { flags: '--delegated', description: 'unsigned order; the server signs for the sub-account (needs --on-behalf-of)' },
      { flags: '--dry-run', description: 'print the exact signed request body and send nothing' },
      { flags: '--file <file>', description: 'NDJSON batch file, or - for stdin' },
      { flags: '--batch-id <id>', description: 'with --file: namespace for generated client ids (a new id places the same lines again as new orders)' },
    ],
    examples: [
      'pm order place btc-100k-2026 buy yes --price 0.42 --size 10',
      'pm order place btc-100k-2026 buy yes --type fok --amount 25',
      'pm order place btc-100k-2026 sell no --type fak --price 0.61 --size 5 --client-id bot-42',
      'pm order place btc-100k-2026 buy yes --price 0.40 --size 10 --post-only --dry-run',
      "pm --json order place --file orders.ndjson | jq -c 'select(.ok | not)'",
      'pm order place --file orders.ndjson   # again after Ctrl-C: places only the rest',
    ],
    load: () => import('../commands/order/place.js'),
  },
  {
    path: ['order', 'cancel'],
    summary: 'Cancel orders by id, by client id, or all in a market (batches of 50)',
    args: [{ name: 'ids', description: 'order ids', variadic: true }],
    options: [
      { flags: '--client-id <ids...>', description: 'cancel by client order ids' },
      { flags: '--all <slug>', description: 'cancel every open order in this market' },
      { flags: '--on-behalf-of <profileId>', description: 'cancel for a partner sub-account', parse: 'positiveInt' },
    ],
    examples: ['pm order cancel 7d0c…', 'pm order cancel --client-id bot-41 bot-42', 'pm order cancel --all btc-100k-2026'],
    load: () => import('../commands/order/cancel.js'),
  },
  {
    path: ['order', 'list'],
    summary: 'Your open orders in a market, with remaining size',
    options: [
      { flags: '--market <slug>', description: 'market slug (required)' },
      { flags: '--all', description: 'include matched, canceled and unmatched orders' },
      { flags: '--on-behalf-of <profileId>', description: 'orders of a partner sub-account', parse: 'positiveInt' },
    ],
    examples: ['pm order list --market btc-100k-2026', 'pm --json order list --market btc-100k-2026 | jq length'],
    load: () => import('../commands/order/list.js'),
  },
  {
    path: ['order', 'status'],
    summary: 'Status of orders by id or client id (settlement, fills)',
    args: [{ name: 'ids', description: 'order ids', variadic: true }],
    options: [
      { flags: '--client-id <ids...>', description: 'look up by client order ids' },
      { flags: '--on-behalf-of <profileId>', description: 'orders of a partner sub-account', parse: 'positiveInt' },
    ],
    examples: ['pm order status 7d0c…', 'pm order status --client-id bot-42', 'pm --json order status --client-id bot-42 | jq .[0].settlementStatus'],
    load: () => import('../commands/order/status.js'),
  },
];
