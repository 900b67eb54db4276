import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['profile', 'use'],
  effect: 'local',
  summary: 'Make a profile the active one',
  args: { name: { description: 'profile name', required: true } },
  examples: ['pm profile use sandbox'],
  run: async (ctx, { args }) => {
    const name = args.name;
    if (!ctx.config().profiles[name]) throw ctx.profileNotFound(name);
    await ctx.editConfig((cfg) => {
      cfg.activeProfile = name;
    });
    ctx.out.data({ activeProfile: name }, () => ctx.out.info(`now using profile ${name}`));
  },
});
