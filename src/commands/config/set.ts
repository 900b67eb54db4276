import { checkProfileName, configKey } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { DEFAULT_BASE_URL } from '../../core/endpoints.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'set'],
  effect: 'local',
  summary: 'Change one setting of the active profile',
  args: {
    key: { description: 'setting name (see pm config list)', required: true },
    value: { description: 'new value', required: true },
  },
  examples: ['pm config set base-url http://127.0.0.1:8787', 'pm --profile bot config set timeout 10s', 'pm config set output json'],
  run: async (ctx, { args }) => {
    const { key, value } = args;
    const spec = configKey(key);
    const parsed = spec.parse(value);
    // Setting a value on a profile that does not exist yet creates it (under a valid name only).
    const name = checkProfileName(ctx.flags.profile ?? ctx.env.PM_PROFILE ?? ctx.config().activeProfile ?? 'default');
    if (spec.field === 'wallet' && !(await ctx.keystore()).hasWallet(String(parsed))) {
      throw new UsageError(`there is no keystore wallet named "${String(parsed)}"`, {
        hint: 'List wallets with pm wallet list, or create one with pm wallet create.',
      });
    }
    let created = false;
    await ctx.editConfig((cfg) => {
      created = cfg.profiles[name] === undefined;
      cfg.profiles[name] = { ...(cfg.profiles[name] ?? {}), [spec.field]: parsed };
      cfg.activeProfile ??= name;
    });
    // Said, so that a misspelt --profile is seen (and which exchange the new profile points at).
    if (created) {
      const exchange = spec.field === 'baseUrl' ? String(parsed) : DEFAULT_BASE_URL;
      ctx.out.info(`created profile ${name} (no profile had that name); its exchange: ${exchange}`);
    }
    ctx.out.data({ profile: name, key, value: parsed }, () => ctx.out.info(`${key} = ${String(parsed)} (profile ${name})`));
  },
});
