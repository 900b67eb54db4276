import type { Handler } from '../../cli/command.js';
import { capabilities } from '../../core/tokens.js';

const run: Handler = async (ctx) => {
  const c = await capabilities(await ctx.authedApi('identity'));
  ctx.out.data(c, () =>
    ctx.out.keyValue([
      ['partner profile', String(c.partnerProfileId)],
      ['token management', c.tokenManagementEnabled ? 'enabled' : 'disabled'],
      ['allowed scopes', c.allowedScopes.join(', ') || '(none)'],
    ]),
  );
};
export default run;
