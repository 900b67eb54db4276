import { textTime } from '../../cli/text.js';
import { cutFirst, hideFirst } from '../../cli/output.js';
import { join } from 'node:path';
import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { parseIsoTime } from '../../core/market-input.js';
import { formatUnits, priceText, rawFromWire } from '../../core/money.js';
import { checkClientOrderId, Journal } from '../../core/trade/index.js';
import type { JournalEntry } from '../../core/trade/index.js';

/** `--since`: an ISO 8601 time, or a duration back from now (30m, 12h, 7d). */
function sinceMs(v: string, now = Date.now()): number {
  const m = /^(\d{1,6})(m|h|d)$/.exec(v.trim());
  if (m) return now - Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'];
  try {
    return parseIsoTime(v, '--since');
  } catch {
    throw new UsageError(
      `--since must be a time (2026-01-31, 2026-01-31T12:00:00Z) or a duration back from now (30m, 12h, 7d), got "${v}"`,
      { hint: 'for example --since 12h, or --since 2026-01-31' },
    );
  }
}

/**
 * The request of a pending entry in words, as `order place` echoes an order: "GTC BUY 5 @ 0.100
 * (0.5 USDC)", "FOK BUY 1.5 USDC", "FOK SELL 2 shares", and "for sub-account N" when a partner
 * placed it for one (the outcome is the token's, which the journal does not name; --json keeps the
 * exact request).
 */
const sent = (e: JournalEntry): string => {
  const r = e.request as
    | { orderType?: string; onBehalfOf?: unknown; order?: { side?: number; makerAmount?: unknown; takerAmount?: unknown; price?: unknown } }
    | undefined;
  const o = r?.order;
  if (!o) return '';
  const buy = o.side === 0;
  const side = buy ? 'BUY' : o.side === 1 ? 'SELL' : '?';
  const amount = (v: unknown): string => formatUnits(rawFromWire(v));
  const [usdc, shares] = buy ? [o.makerAmount, o.takerAmount] : [o.takerAmount, o.makerAmount];
  const what =
    o.price === undefined || o.price === null
      ? buy
        ? `${amount(usdc)} USDC`
        : `${amount(shares)} shares`
      : `${amount(shares)} @ ${priceText(String(o.price))} (${amount(usdc)} USDC)`;
  // A partner's order for a sub-account says whose it is.
  const forWhom = typeof r?.onBehalfOf === 'number' ? ` for sub-account ${r.onBehalfOf}` : '';
  return `${r?.orderType ?? ''} ${side} ${what}${forWhom}`.trim();
};

export default defineCommand({
  path: ['order', 'journal'],
  effect: 'read',
  summary: 'What pm sent and what came back: the local order journal',
  description:
    'Every order is written to the journal under PM_HOME/journal before it is sent (state pending, with the exact request), and again when the answer comes (placed with the order id, failed with the reason, unknown when the answer was lost). The journal is rotated as it grows; lookups never read it whole.',
  options: {
    since: { type: 'string', value: 'when', description: 'entries since a time (ISO 8601) or a duration back from now (30m, 12h, 7d)' },
    clientId: { type: 'string', value: 'id', description: 'every entry of one client order id' },
    limit: {
      type: 'positiveInt',
      value: 'n',
      description: 'at most the last n entries (a note on stderr says when there are more)',
      default: 50,
    },
  },
  examples: [
    'pm order journal',
    'pm order journal --since 2h',
    'pm order journal --client-id bot-42',
    "pm --json order journal --client-id bot-42 | jq '.[0].request'",
  ],
  run: async (ctx, { opts }) => {
    const since = opts.since !== undefined ? sinceMs(opts.since) : undefined;
    const clientId = opts.clientId !== undefined ? checkClientOrderId(opts.clientId) : undefined;
    const journal = new Journal(join(ctx.home, 'journal'));
    // Filtered, every match is read anyway (so the total is known); else one more than the limit
    // says whether older entries exist.
    const filtered = since !== undefined || clientId !== undefined;
    const found = journal.entries({ since, clientId, limit: filtered ? undefined : opts.limit + 1 });
    const entries = found.slice(-opts.limit);
    ctx.out.data(
      entries,
      () => {
        ctx.out.table(
          [
            { header: 'TIME' },
            { header: 'CLIENT ID', fit: cutFirst(3, 10) },
            { header: 'STATE' },
            { header: 'MARKET', fit: hideFirst(1) },
            // An order id (36 characters) stays whole: it is what order status and cancel take.
            { header: 'SENT / CAME BACK', fit: cutFirst(2, 36) },
          ],
          entries.map((e) => [
            textTime(e.ts),
            e.clientOrderId,
            e.state,
            e.marketSlug ?? '',
            e.state === 'pending' ? sent(e) : (e.orderId ?? e.error ?? ''),
          ]),
        );
        if (clientId !== undefined && entries.length === 0) ctx.out.info(`no journal entry for client id ${clientId}`);
        if (found.length > entries.length)
          ctx.out.info(
            filtered
              ? `${entries.length} of ${found.length} entries (the newest): --limit ${found.length} shows them all`
              : `the last ${entries.length} entries; older ones exist: --limit n or --since shows them`,
          );
      },
      { records: entries },
    );
    return;
  },
});
