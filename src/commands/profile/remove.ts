import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['profile', 'remove'],
  effect: 'destructive',
  describe: (_ctx, { args }) => `Remove profile ${args.name} (its wallet and secrets stay in the keystore)`,
  summary: 'Remove a profile (its wallet and secrets stay in the keystore)',
  args: { name: { description: 'profile name', required: true } },
  examples: ['pm profile remove old-bot --yes'],
  run: async (ctx, { args }) => {
    const name = args.name;
    if (!ctx.config().profiles[name]) throw ctx.profileNotFound(name);
    await ctx.editConfig((cfg) => {
      delete cfg.profiles[name];
      if (cfg.activeProfile === name) delete cfg.activeProfile;
    });
    ctx.out.data({ removed: name }, () => ctx.out.info(`removed profile ${name}`));
  },
});
