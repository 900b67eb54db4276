import { capabilities } from '../../core/tokens.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['token', 'capabilities'],
  effect: 'read',
  summary: 'Which scopes your identity may request (identity token)',
  examples: ['PM_IDENTITY_TOKEN=… pm token capabilities'],
  run: async (ctx) => {
    const c = await capabilities(await ctx.authedApi('identity'));
    ctx.out.data(c, () =>
      ctx.out.keyValue([
        ['profile id', String(c.partnerProfileId)],
        ['token derive can ask for', c.derivableScopes.join(', ') || '(nothing)'],
        ['self-serve scopes', `${c.selfServeScopes.join(', ')} (any profile, no partner record needed)`],
        [
          'partner token management',
          c.tokenManagementEnabled
            ? `enabled: ${c.allowedScopes.join(', ') || '(no scopes)'}`
            : 'not enabled for this profile (no partner capability record), so only the self-serve scopes',
        ],
      ]),
    );
  },
});
