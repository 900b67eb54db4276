import { textTime } from '../../cli/text.js';
import { cutFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import type { Progress } from '../../cli/output.js';
import { UsageError } from '../../core/errors.js';
import { rawFromWire } from '../../core/money.js';
import { historyEntries } from '../../core/portfolio.js';
import { amounts } from './common.js';

export default defineCommand({
  path: ['portfolio', 'history'],
  effect: 'read',
  actsFor: true,
  summary: 'Account history (trades, deposits, withdrawals, claims), newest first, with cursor paging',
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'entries to show (one page up to 100)', default: 20 },
    all: { type: 'boolean', description: 'follow every cursor to the end (-o ndjson streams it, one entry a line)' },
    since: { type: 'string', value: 'date', description: 'stop at entries older than this (ISO 8601)' },
  },
  examples: ['pm portfolio history', 'pm portfolio history --since 2026-01-01', 'pm -o ndjson portfolio history --all > history.ndjson'],
  run: async (ctx, { opts }) => {
    const all = opts.all;
    const limit = opts.limit ?? 20;
    const sinceRaw = opts.since;
    let since: number | undefined;
    if (sinceRaw !== undefined) {
      since = Date.parse(sinceRaw);
      if (!Number.isFinite(since))
        throw new UsageError(`--since "${sinceRaw}" is not a date`, {
          hint: 'use ISO 8601, e.g. --since 2026-01-31 or --since 2026-01-31T12:00:00Z',
        });
    }
    const api = await ctx.tradingApi();
    // --all follows every cursor in pages of 100; otherwise one page of --limit entries.
    const entries = historyEntries(api, all ? { limit: 100, since } : { limit: Math.min(limit, 100), max: limit, since });
    if (ctx.out.format === 'ndjson') {
      // One entry per line as each page arrives, so it streams into jq or a file (--json, like
      // every list, is one array: docs/output.md).
      for await (const e of entries) ctx.out.record(e);
      return;
    }
    const list: Record<string, unknown>[] = [];
    // With --all on a terminal, a live count once it takes more than a moment (no total is known:
    // the history is cursor-paged).
    let bar = null as Progress | null; // set by the timer below
    const timer = all
      ? setTimeout(() => {
          bar = ctx.out.progress(0, 'history {value} entries | {pages} pages', { pages: 0 });
          bar?.update(list.length, { pages: Math.ceil(list.length / 100) });
        }, 700)
      : undefined;
    timer?.unref();
    try {
      for await (const e of entries) {
        list.push(e);
        bar?.update(list.length, { pages: Math.ceil(list.length / 100) });
      }
    } finally {
      clearTimeout(timer);
      bar?.stop();
    }
    ctx.out.data(list, () => {
      const { usd, shares: sharesText } = amounts(ctx.out);
      if (list.length === 0) return ctx.out.info('(no history)');
      ctx.out.table(
        [
          { header: 'TIME' },
          { header: 'WHAT', fit: cutFirst(1, 10) },
          { header: 'MARKET' },
          { header: 'OUTCOME' },
          { header: 'SHARES', align: 'right' },
          { header: 'USDC', align: 'right' },
        ],
        list.map((e) => {
          const m = (e['market'] ?? {}) as Record<string, unknown>;
          const ts = typeof e['blockTimestamp'] === 'number' ? textTime(e['blockTimestamp'] * 1000) : '';
          const shares = e['outcomeTokenAmount'] === undefined ? '' : sharesText(rawFromWire(e['outcomeTokenAmount']));
          return [
            ts,
            String(e['strategy'] ?? ''),
            String(m['slug'] ?? ''),
            e['outcomeIndex'] === undefined ? '' : e['outcomeIndex'] === 0 ? 'YES' : 'NO',
            shares,
            usd(rawFromWire(e['collateralAmount'])),
          ];
        }),
      );
    });
  },
});
