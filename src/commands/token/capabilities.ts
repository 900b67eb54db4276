import { capabilities } from '../../core/tokens.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['token', 'capabilities'],
  summary: 'Which scopes your identity may request (identity token)',
  examples: ['PM_IDENTITY_TOKEN=… pm token capabilities'],
  run: async (ctx) => {
    const c = await capabilities(await ctx.authedApi('identity'));
    ctx.out.data(c, () =>
      ctx.out.keyValue([
        ['partner profile', String(c.partnerProfileId)],
        ['token management', c.tokenManagementEnabled ? 'enabled' : 'disabled'],
        ['allowed scopes', c.allowedScopes.join(', ') || '(none)'],
      ]),
    );
  },
});
