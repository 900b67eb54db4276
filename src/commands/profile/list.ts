import { cutFirst, hideFirst } from '../../cli/output.js';
import { DEFAULT_BASE_URL, isLoopbackUrl } from '../../core/endpoints.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['profile', 'list'],
  effect: 'read',
  summary: 'List profiles',
  examples: ['pm profile list', 'pm -o ndjson profile list | jq -r .name'],
  run: async (ctx) => {
    const cfg = ctx.config();
    const active = ctx.flags.profile ?? ctx.env.PM_PROFILE ?? cfg.activeProfile; // listed even when it is missing, to fix it
    const rows = Object.entries(cfg.profiles).map(([name, p]) => ({
      name,
      active: name === active,
      baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
      sandbox: isLoopbackUrl(p.baseUrl ?? DEFAULT_BASE_URL),
      wallet: p.wallet ?? null,
      address: p.address ?? null,
      profileId: p.profileId ?? null,
      // The partner's sub-account this profile acts for (--on-behalf-of), if any.
      onBehalfOf: p.onBehalfOf ?? null,
      tokenId: p.tokenId ?? null,
    }));
    ctx.out.data(rows, () =>
      ctx.out.table(
        [
          { header: '' },
          { header: 'PROFILE' },
          { header: 'EXCHANGE', fit: cutFirst(2, 12) },
          { header: 'WALLET', fit: cutFirst(3) },
          { header: 'ADDRESS' },
          { header: 'PROFILE ID', fit: hideFirst(1) },
          { header: 'ACTS FOR', fit: hideFirst(2) },
        ],
        rows.map((r) => [
          r.active ? '*' : '',
          r.name,
          r.sandbox ? `${r.baseUrl} (sandbox)` : r.baseUrl,
          r.wallet ?? '-',
          r.address ?? '-',
          r.profileId === null ? '-' : String(r.profileId),
          r.onBehalfOf === null ? '-' : String(r.onBehalfOf),
        ]),
      ),
    );
  },
});
