import { textTime } from '../../cli/text.js';
import { listTokens } from '../../core/tokens.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['token', 'list'],
  effect: 'read',
  summary: 'List your active API tokens (* marks the one in use)',
  examples: ['pm token list', 'pm --json token list', 'pm -o ndjson token list | jq -r .tokenId'],
  run: async (ctx) => {
    const api = await ctx.authedApi('auto');
    const inUse = api.auth.hmac?.tokenId;
    const tokens = (await listTokens(api)).map((t) => ({ ...t, inUse: t.tokenId === inUse }));
    ctx.out.data(tokens, () =>
      ctx.out.table(
        [{ header: '' }, { header: 'TOKEN ID' }, { header: 'LABEL' }, { header: 'SCOPES' }, { header: 'CREATED' }, { header: 'LAST USED' }],
        tokens.map((t) => [
          t.inUse ? '*' : '',
          t.tokenId,
          t.label ?? '-',
          t.scopes.join(','),
          textTime(t.createdAt),
          textTime(t.lastUsedAt),
        ]),
      ),
    );
  },
});
