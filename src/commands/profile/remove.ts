import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';

export default defineCommand({
  path: ['profile', 'remove'],
  effect: 'destructive',
  describe: (_ctx, { args }) => `Remove profile ${args.name} (its wallet and secrets stay in the keystore)`,
  summary: 'Remove a profile (its wallet and secrets stay in the keystore)',
  args: { name: { description: 'profile name', required: true } },
  examples: ['pm profile remove old-bot --yes'],
  check: (ctx, { args }) => void existing(ctx, args.name),
  run: async (ctx, { args }) => {
    const name = existing(ctx, args.name);
    await ctx.editConfig((cfg) => {
      delete cfg.profiles[name];
      if (cfg.activeProfile === name) delete cfg.activeProfile;
    });
    ctx.out.data({ removed: name }, () => ctx.out.info(`removed profile ${name}`));
  },
});

/** The profile named, which must exist (read from PM_HOME's config: refused before the removal is confirmed). */
function existing(ctx: Context, name: string): string {
  if (!ctx.config().profiles[name]) throw ctx.profileNotFound(name);
  return name;
}
