import type { Handler } from '../../cli/command.js';
import { CONFIG_KEYS } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';

const run: Handler = async (ctx, { args }) => {
  const [key = '', value = ''] = args;
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
};
export default run;
