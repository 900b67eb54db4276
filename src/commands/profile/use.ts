import { NotFoundError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['profile', 'use'],
  effect: 'local',
  summary: 'Make a profile the active one',
  args: { name: { description: 'profile name', required: true } },
  examples: ['pm profile use sandbox'],
  run: async (ctx, { args }) => {
    const name = args.name;
    if (!ctx.config().profiles[name]) {
      const known = Object.keys(ctx.config().profiles);
      throw new NotFoundError(`no profile named "${name}"`, {
        hint: known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with pm init.',
      });
    }
    await ctx.editConfig((cfg) => {
      cfg.activeProfile = name;
    });
    ctx.out.data({ activeProfile: name }, () => ctx.out.info(`now using profile ${name}`));
  },
});
