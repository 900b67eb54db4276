import { CONFIG_KEYS, checkProfileName, configKey } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { DEFAULT_BASE_URL, isLoopbackUrl } from '../../core/endpoints.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['config', 'set'],
  effect: 'local',
  summary: 'Change one setting of the active profile',
  args: {
    key: { description: 'setting name (see pm config list)', required: true, suggestions: Object.keys(CONFIG_KEYS) },
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
    if (spec.field === 'baseUrl' || spec.field === 'wsUrl') {
      // The profile's two URLs after this: pm refuses every command of a profile mixing a local
      // and a remote exchange, so such a pair is not written.
      const p = { ...(ctx.config().profiles[name] ?? {}), [spec.field]: parsed } as { baseUrl?: string; wsUrl?: string };
      const base = p.baseUrl ?? DEFAULT_BASE_URL;
      if (p.wsUrl !== undefined && isLoopbackUrl(base) !== isLoopbackUrl(p.wsUrl))
        throw new UsageError(
          `ws-url ${p.wsUrl} is ${isLoopbackUrl(p.wsUrl) ? 'on this machine' : 'remote'} but profile ${name}'s base URL ${base} is ${isLoopbackUrl(base) ? 'on this machine' : 'remote'}: pm would refuse every command of it (nothing was written)`,
          {
            hint:
              spec.field === 'wsUrl'
                ? `Set the base URL of the same exchange first (pm config set base-url …), or leave ws-url unset: the stream URL follows the base URL.`
                : `Drop its ws-url first (pm config unset ws-url): the stream URL then follows the base URL.`,
          },
        );
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
