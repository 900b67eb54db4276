import { CONFIG_KEYS } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'set'],
  summary: 'Change one setting of the active profile',
  args: {
    key: { description: 'setting name (see pm config list)', required: true },
    value: { description: 'new value', required: true },
  },
  examples: ['pm config set base-url http://127.0.0.1:8787', 'pm --profile bot config set timeout 10000', 'pm config set output json'],
  run: async (ctx, { args }) => {
    const { key, value } = args;
    const spec = CONFIG_KEYS[key];
    if (!spec) throw new UsageError(`unknown setting "${key}"`, { hint: `Settings: ${Object.keys(CONFIG_KEYS).join(', ')}` });
    const parsed = spec.parse(value);
    const cfg = structuredClone(ctx.config());
    // Setting a value on a profile that does not exist yet creates it.
    const name = ctx.flags.profile ?? ctx.env.PM_PROFILE ?? ctx.config().activeProfile ?? 'default';
    const profile = cfg.profiles[name] ?? {};
    Object.assign(profile, { [spec.field]: parsed });
    cfg.profiles[name] = profile;
    cfg.activeProfile ??= name;
    ctx.saveConfig(cfg);
    ctx.out.data({ profile: name, key, value: parsed }, () => ctx.out.info(`${key} = ${String(parsed)} (profile ${name})`));
  },
});
