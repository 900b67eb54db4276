import { cutFirst, hideFirst } from '../../cli/output.js';
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
        [
          { header: '' },
          { header: 'TOKEN ID' },
          { header: 'LABEL', fit: cutFirst(1) },
          { header: 'SCOPES', fit: cutFirst(2, 10) },
          { header: 'CREATED', fit: hideFirst(4) },
          { header: 'LAST USED', fit: hideFirst(3) },
        ],
        tokens.map((t) => [
          t.inUse ? '*' : '',
          t.tokenId,
          t.label ?? '-',
          t.scopes.join(','),
          t.createdAt.slice(0, 19),
          t.lastUsedAt?.slice(0, 19) ?? '-',
        ]),
      ),
    );
  },
});
