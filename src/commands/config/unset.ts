import { CONFIG_KEYS, configKey } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'unset'],
  effect: 'local',
  summary: 'Remove one setting from the active profile (it falls back to its default)',
  description:
    'The setting goes back to its default, or to what it is derived from (ws-url from base-url), as pm config list then shows. base-url cannot be unset: without it the profile would point at the real exchange; set another, or remove the profile (pm profile remove).',
  args: { key: { description: 'setting name (see pm config list)', required: true, suggestions: Object.keys(CONFIG_KEYS) } },
  examples: ['pm config unset on-behalf-of', 'pm config unset rpc-url', 'pm --profile bot config unset timeout'],
  run: async (ctx, { args }) => {
    const { key } = args;
    const spec = configKey(key);
    if (spec.field === 'baseUrl')
      throw new UsageError('base-url cannot be unset: without it the profile would point at the real exchange', {
        hint: 'Set another with pm config set base-url <url>, or remove the profile with pm profile remove <name>.',
      });
    const name = ctx.profileName();
    if (name === undefined)
      throw new UsageError('there is no active profile', { hint: 'Create one with pm init, or pass --profile <name>.' });
    const removed = await ctx.editConfig((cfg) => {
      const profile = cfg.profiles[name] ?? {};
      const had = profile[spec.field] !== undefined;
      delete profile[spec.field];
      return had;
    });
    ctx.out.data({ profile: name, key, removed }, () =>
      ctx.out.info(removed ? `${key} unset (profile ${name})` : `${key} was not set (profile ${name}): nothing changed`),
    );
  },
});
