// pm record <slug…>: follows markets on the exchange (the real one or a sandbox) and writes a
// recording (core/record.ts; format in docs/recording.md) that `pm sandbox start --replay FILE`
// plays back. Thin: the flags, the file name, a progress line on a terminal, the summary.
import { existsSync } from 'node:fs';
import { defineCommand } from '../cli/command.js';
import { VERSION } from '../cli/version.js';
import { parseDuration } from '../core/duration.js';
import { ConflictError, InterruptedError, UsageError } from '../core/errors.js';
import { slugFrom } from '../core/market-input.js';
import { recordMarkets } from '../core/record.js';
import type { RecordSummary } from '../core/record.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const line = (s: RecordSummary): string =>
  `${s.events} events (${s.byType.book} book, ${s.byType.price} price, ${s.byType.trade} trades, ${s.byType.resolved} resolved), ${s.gaps} gaps, ${seconds(s.spanMs)}`;

export default defineCommand({
  path: ['record'],
  effect: 'local',
  longRunning: true,
  summary: 'Record markets (book, prices, trades, resolution) to a file that the sandbox can replay',
  description:
    "Follows the markets on the exchange in use and writes one NDJSON file: a header with each market in full, then every book snapshot and update, price move, trade (from the market's public feed, polled every 2 s), connection change, gap and resolution, each with the time it was received. Every line is synced as it is written, so the file is valid after a crash at any moment (a reader ignores a last line cut short). Ctrl-C ends it cleanly with a summary on stderr; --json prints the summary on stdout. Replay it with pm sandbox start --replay FILE.\n\nExit codes: 0 recorded until --until/--for, 2 bad input, 4 no such market, 5 the file exists, 7 the exchange could not be reached, 130 Ctrl-C (the file is complete up to then).",
  examples: [
    'pm record btc-100k-2026 --for 10m',
    'pm record btc-100k-2026 sol-500-2026 --out yesterday.ndjson --until 2026-12-01T00:00:00Z',
    'pm --json record btc-100k-2026 --for 60s | jq .events',
  ],
  args: { slugs: { description: 'markets to record', variadic: true, required: true } },
  options: {
    out: { type: 'string', value: 'file', description: 'the file to write (default: <first slug>-<time>.pmrec.ndjson); never overwritten' },
    // (One of the two, or Ctrl-C.)
    until: { type: 'string', value: 'time', description: 'stop at this ISO 8601 time' },
    for: { type: 'string', value: 'duration', description: 'stop after this long: 90s, 10m, 2h' },
  },
  run: async (ctx, { args, opts }) => {
    const slugs = [...new Set(args.slugs.map(slugFrom))];
    if (slugs.length === 0) throw new UsageError('name at least one market to record', { hint: 'pm record btc-100k-2026 --for 10m' });
    if (opts.until !== undefined && opts.for !== undefined) throw new UsageError('give --until or --for, not both');
    let until: number | undefined;
    if (opts.until !== undefined) {
      until = Date.parse(opts.until);
      if (!/^\d{4}-\d\d-\d\d/.test(opts.until) || !Number.isFinite(until))
        throw new UsageError(`--until must be an ISO 8601 time such as 2026-12-31T18:00:00Z, got "${opts.until}"`, {
          hint: 'A time with its zone (2026-12-31T18:00:00Z), or --for 10m for a length of time.',
        });
    }
    if (opts.for !== undefined) until = Date.now() + parseDuration(opts.for, '--for', { max: 7 * 24 * 3_600_000 });
    const file = opts.out ?? `${slugs[0]}-${new Date().toISOString().replace(/[:.]/g, '-')}.pmrec.ndjson`;
    if (existsSync(file))
      throw new ConflictError(`${file} exists: pm never overwrites a recording`, { hint: 'Name another file with --out.' });
    const tty = ctx.io.stderr.isTTY === true && !ctx.out.isJson;
    let last = 0;
    const s = await recordMarkets({
      api: await ctx.api(),
      wsUrl: ctx.wsUrl,
      slugs,
      file,
      until,
      signal: ctx.signal,
      proxy: ctx.proxy,
      userAgent: 'pm-cli',
      pmVersion: VERSION,
      onProgress: (p) => {
        // A progress line on a terminal, at most every 200 ms.
        if (!tty || Date.now() - last < 200) return;
        last = Date.now();
        const rate = p.spanMs > 0 ? (p.events / (p.spanMs / 1000)).toFixed(1) : '0.0';
        ctx.io.stderr.write(`\r\x1b[2Krecording ${p.markets.join(', ')}: ${line(p)}, ${rate}/s`);
      },
    });
    if (tty) ctx.io.stderr.write('\r\x1b[2K');
    const summary = `recorded ${s.markets.join(', ')} to ${s.file}: ${line(s)}`;
    // Stopped by Ctrl-C, the summary is written once, below (with --json it goes into the error's details).
    ctx.out.data(s, () => {
      if (!ctx.signal?.aborted) ctx.out.info(summary);
    });
    if (ctx.signal?.aborted) {
      ctx.io.stderr.write(`${summary}\n`);
      throw new InterruptedError(`recording stopped; ${s.file} is complete up to now`, { quiet: true });
    }
  },
});
