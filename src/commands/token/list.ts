import type { Handler } from '../../cli/command.js';
import { listTokens } from '../../core/tokens.js';

const run: Handler = async (ctx) => {
  const api = await ctx.authedApi('auto');
  const inUse = api.auth.hmac?.tokenId;
  const tokens = (await listTokens(api)).map((t) => ({ ...t, inUse: t.tokenId === inUse }));
  ctx.out.data(tokens, () =>
    ctx.out.table(
      [{ header: '' }, { header: 'TOKEN ID' }, { header: 'LABEL' }, { header: 'SCOPES' }, { header: 'CREATED' }, { header: 'LAST USED' }],
      tokens.map((t) => [t.inUse ? '*' : '', t.tokenId, t.label ?? '-', t.scopes.join(','), t.createdAt.slice(0, 19), t.lastUsedAt?.slice(0, 19) ?? '-']),
    ),
  );
};
export default run;
