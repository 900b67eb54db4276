import { confirm } from '../../cli/prompt.js';
import { UsageError } from '../../core/errors.js';
import { revokeToken } from '../../core/tokens.js';
import { secretsName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['token', 'revoke'],
  summary: 'Revoke an API token',
  args: { id: { description: 'token id', required: true } },
  examples: ['pm token revoke tok_abc --yes'],
  run: async (ctx, { args }) => {
    const id = args.id;
    const own = ctx.profile().tokenId === id;
    if (!ctx.flags.yes && !(await confirm(ctx, `Revoke token ${id}${own ? ' (the one this profile uses)' : ''}? Programs using it stop working.`))) {
      throw new UsageError('not revoked: declined');
    }
    const api = await ctx.authedApi('auto');
    const message = await revokeToken(api, id);
    if (own) {
      // The stored secret is useless now: drop it, keep the other stored credentials.
      const ks = await ctx.keystore();
      const name = secretsName(ctx);
      const pass = await ctx.passphrase();
      const { tokenId: _t, tokenSecret: _s, ...rest } = await ks.loadSecrets(name, pass);
      await ks.saveSecrets(name, rest, pass, { force: true });
      const cfg = structuredClone(ctx.config());
      const p = cfg.profiles[ctx.profileName() ?? 'default'];
      if (p) delete p.tokenId;
      ctx.saveConfig(cfg);
    }
    ctx.out.data({ revoked: id, message, removedFromProfile: own }, () => ctx.out.info(`${message || 'revoked'}: ${id}${own ? ' (removed from this profile)' : ''}`));
  },
});
