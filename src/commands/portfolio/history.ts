import type { Handler } from '../../cli/command.js';
import { optBool, optNum, optStr } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { formatUnits, rawFromWire } from '../../core/money.js';
import { historyEntries } from '../../core/portfolio.js';
import { portfolioApi } from './common.js';

const run: Handler = async (ctx, { opts }) => {
  const all = optBool(opts, 'all');
  const limit = optNum(opts, 'limit') ?? 20;
  const sinceRaw = optStr(opts, 'since');
  let since: number | undefined;
  if (sinceRaw !== undefined) {
    since = Date.parse(sinceRaw);
    if (!Number.isFinite(since)) throw new UsageError(`--since "${sinceRaw}" is not a date`, { hint: 'use ISO 8601, e.g. --since 2026-01-31 or --since 2026-01-31T12:00:00Z' });
  }
  const api = await portfolioApi(ctx, opts);
  // --all follows every cursor in pages of 100; otherwise one page of --limit entries.
  const entries = historyEntries(api, all ? { limit: 100, since } : { limit: Math.min(limit, 100), max: limit, since });
  if (ctx.out.isJson && all) {
    // NDJSON: one entry per line as each page arrives, so it streams into jq or a file.
    for await (const e of entries) ctx.out.record(e);
    return;
  }
  const list: Record<string, unknown>[] = [];
  for await (const e of entries) list.push(e);
  ctx.out.data(list, () => {
    if (list.length === 0) return ctx.out.info('(no history)');
    ctx.out.table(
      [{ header: 'TIME' }, { header: 'WHAT' }, { header: 'MARKET' }, { header: 'OUTCOME' }, { header: 'SHARES', align: 'right' }, { header: 'USDC', align: 'right' }],
      list.map((e) => {
        const m = (e['market'] ?? {}) as Record<string, unknown>;
        const ts = typeof e['blockTimestamp'] === 'number' ? new Date(e['blockTimestamp'] * 1000).toISOString() : '';
        const shares = e['outcomeTokenAmount'] === undefined ? '' : formatUnits(rawFromWire(e['outcomeTokenAmount']));
        return [ts, String(e['strategy'] ?? ''), String(m['slug'] ?? ''), e['outcomeIndex'] === undefined ? '' : e['outcomeIndex'] === 0 ? 'YES' : 'NO', shares, formatUnits(rawFromWire(e['collateralAmount']))];
      }),
    );
  });
};
export default run;
