import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { formatUnits } from '../../core/money.js';
import { reportJson, reportProfileId, sandboxReport } from '../../core/sandbox-report.js';
import type { ReportFigures } from '../../core/sandbox-report.js';
import { drawChart } from '../portfolio/chart.js';
import { amounts } from '../portfolio/common.js';
import { sandboxAdmin } from './admin.js';

export default defineCommand({
  path: ['sandbox', 'report'],
  effect: 'read',
  sandboxOnly: true,
  summary: "What an account's trading came to in the sandbox: orders, volume, fees, PnL, drawdown, the PnL curve",
  description:
    "Per market and in total, for one sandbox account: orders placed, filled (at least one fill) and cancelled, fills, volume (USDC traded, before fees), fees, realised and unrealised PnL (marked at the market's last trade price, 1 or 0 once resolved; the same figures as pm positions and pm pnl), and the maximum drawdown of the PnL curve. The sandbox sums them from its ledger, exact to the raw unit. On a terminal the total PnL curve follows as a chart. --json prints {account, markets, total, curve}, every amount also as a *Raw integer string. The account: --account (a seeded name such as alice, or a profile id), else the one pm's credentials act as (the --profile in use).",
  options: {
    account: { type: 'string', value: 'name', description: 'a seeded account (alice, bob, carol, partner) or a profile id' },
  },
  examples: ['pm sandbox report', 'pm sandbox report --account alice', "pm --json sandbox report --account bob | jq '.total.pnl'"],
  run: async (ctx, { opts }) => {
    if (opts.account !== undefined && ctx.flags.profile !== undefined)
      throw new UsageError('pass --account or --profile, not both', { hint: 'pm sandbox report --account alice' });
    const admin = await sandboxAdmin(ctx);
    try {
      const id = await reportProfileId(ctx.core, admin, { account: opts.account, storedProfileId: ctx.profile().profileId });
      const r = await sandboxReport(admin, id);
      const json = reportJson(r);
      if (ctx.out.isJson) return ctx.out.data(json, () => undefined, { records: json.markets });
      const { usd } = amounts(ctx.out);
      const pnl = (v: bigint): string => (v > 0n ? ctx.out.c.green(`+${usd(v)}`) : v < 0n ? ctx.out.c.red(usd(v)) : usd(v));
      const cells = (f: ReportFigures): string[] => [
        String(f.placed),
        String(f.filled),
        String(f.cancelled),
        usd(f.volume),
        usd(f.fees),
        pnl(f.realisedPnl),
        pnl(f.unrealisedPnl),
        pnl(f.pnl),
        usd(f.maxDrawdown),
      ];
      ctx.out.info(`account ${r.account.name} (profile ${r.account.profileId})`);
      if (r.markets.length === 0) return ctx.out.info('(no trading)');
      ctx.out.table(
        [
          // On a narrow terminal the counts and the split of PnL give way before the market's
          // name is cut; PNL, volume and fees always stay (--json and --wide have every column).
          { header: 'MARKET', fit: cutFirst(7, 12) },
          { header: 'PRICE', align: 'right' },
          { header: 'PLACED', align: 'right', fit: hideFirst(2) },
          { header: 'FILLED', align: 'right', fit: hideFirst(6) },
          { header: 'CANCELLED', align: 'right', fit: hideFirst(1) },
          { header: 'VOLUME', align: 'right' },
          { header: 'FEES', align: 'right' },
          { header: 'REALISED', align: 'right', fit: hideFirst(4) },
          { header: 'UNREALISED', align: 'right', fit: hideFirst(5) },
          { header: 'PNL', align: 'right' },
          { header: 'MAX DD', align: 'right', fit: hideFirst(3) },
        ],
        [
          ...r.markets.map((m) => [m.slug, `${formatUnits(m.yesPrice, 6, 3)}${m.resolved ? ' (resolved)' : ''}`, ...cells(m)]),
          ['TOTAL', '', ...cells(r.total)],
        ],
      );
      // The chart on a terminal only (its y axis is for drawing; the figures above are exact).
      if (ctx.io.stdout.isTTY !== true || r.curve.length < 2) return;
      const values = r.curve.map((p) => Number(formatUnits(p.pnl)));
      ctx.out.line(await drawChart(values, ctx.io.stdout.columns, { label: (v) => v.toFixed(2) }));
    } finally {
      await admin.close();
    }
  },
});
