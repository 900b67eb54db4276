// GET /__sandbox/report?profileId=N: what one profile's trading came to (report.ts), money as raw
// decimal strings. `pm sandbox report` prints it. Loopback only, like every admin route.
import type { Route } from '../handlers.js';
import { queriedProfile } from './http.js';
import { profileReport, type ReportFigures } from '../report.js';

const figures = (f: ReportFigures): Record<string, unknown> => ({
  placed: f.placed,
  filled: f.filled,
  cancelled: f.cancelled,
  fills: f.fills,
  volume: f.volume.toString(),
  fees: f.fees.toString(),
  realisedPnl: f.realisedPnl.toString(),
  unrealisedPnl: f.unrealisedPnl.toString(),
  pnl: f.pnl.toString(),
  maxDrawdown: f.maxDrawdown.toString(),
});

export const reportAdminRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/__sandbox/report',
    auth: { kind: 'public' },
    handler: (req, ctx) => {
      const profile = queriedProfile(req, ctx);
      if (!('id' in profile)) return profile;
      const r = profileReport(ctx.state, profile, ctx.now());
      return {
        status: 200,
        body: {
          profileId: r.profileId,
          name: r.name,
          markets: r.markets.map((m) => ({
            slug: m.slug,
            title: m.title,
            resolved: m.resolved,
            yesPrice: m.yesPrice.toString(),
            ...figures(m),
          })),
          total: figures(r.total),
          curve: r.curve.map((p) => ({ t: p.t, pnl: p.pnl.toString() })),
        },
      };
    },
  },
];
