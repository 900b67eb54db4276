import type { Handler } from '../../cli/command.js';
import { DEFAULT_BASE_URL } from '../../core/config.js';

const run: Handler = async (ctx) => {
  const cfg = ctx.config();
  const active = ctx.profileName();
  const rows = Object.entries(cfg.profiles).map(([name, p]) => ({
    name,
    active: name === active,
    baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
    sandbox: p.sandbox === true,
    wallet: p.wallet ?? null,
    address: p.address ?? null,
    profileId: p.profileId ?? null,
    tokenId: p.tokenId ?? null,
  }));
  ctx.out.data(rows, () =>
    ctx.out.table(
      [{ header: '' }, { header: 'PROFILE' }, { header: 'EXCHANGE' }, { header: 'WALLET' }, { header: 'ADDRESS' }, { header: 'PROFILE ID' }],
      rows.map((r) => [r.active ? '*' : '', r.name, r.sandbox ? `${r.baseUrl} (sandbox)` : r.baseUrl, r.wallet ?? '-', r.address ?? '-', r.profileId === null ? '-' : String(r.profileId)]),
    ),
  );
};
export default run;
