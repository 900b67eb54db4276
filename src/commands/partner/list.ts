import { cutFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { ValidationError } from '../../core/errors.js';
import { listPartnerAccounts } from '../../core/partner.js';
import type { PartnerAccountItem } from '../../core/partner.js';
import { partnerApi } from './common.js';

export default defineCommand({
  path: ['partner', 'list'],
  effect: 'read',
  summary: 'Your sub-accounts',
  options: {
    account: { type: 'string', value: 'address', description: 'only the sub-account with this address' },
    all: { type: 'boolean', description: 'follow every page' },
    page: { type: 'positiveInt', value: 'n', description: 'page number, from 1', default: 1 },
    limit: { type: 'positiveInt', value: 'n', description: 'sub-accounts per page (at most 25)', default: 25 },
  },
  examples: ['pm partner list', 'pm partner list --all', "pm --json partner list --all | jq -r '.[].profileId'"],
  run: async (ctx, { opts }) => {
    const account = opts.account;
    if (account !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(account))
      throw new ValidationError(`--account must be an address (0x + 40 hex), got "${account}"`);
    const limit = opts.limit ?? 25;
    if (limit > 25) throw new ValidationError(`--limit is at most 25 per page, got ${limit}`, { hint: 'Use --all to follow every page.' });
    let page = opts.page ?? 1;
    const all = opts.all;
    const api = await partnerApi(ctx);
    const items: PartnerAccountItem[] = [];
    let more = false;
    for (;;) {
      const p = await listPartnerAccounts(api, { account, page, limit });
      items.push(...p.data);
      more = p.hasMore;
      if (!all || !p.hasMore || p.data.length === 0) break;
      page += 1;
    }
    ctx.out.data(items, () => {
      if (items.length === 0) {
        ctx.out.info('No sub-accounts yet: create one with pm partner create (or pm partner onboard).');
        return;
      }
      ctx.out.table(
        [{ header: 'PROFILE ID', align: 'right' }, { header: 'ADDRESS' }, { header: 'NAME', fit: cutFirst(1) }, { header: 'MODE' }],
        items.map((i) => [
          String(i.profileId),
          i.account,
          i.displayName,
          i.serverWallet === undefined ? '-' : i.serverWallet ? 'server wallet' : 'eoa',
        ]),
      );
      if (more) ctx.out.info(`more on page ${page + 1} (or pass --all)`);
    });
    return;
  },
});
