import type { Handler } from '../../cli/command.js';
import { NotFoundError } from '../../core/errors.js';

const run: Handler = async (ctx, { args }) => {
  const name = args[0] ?? '';
  const cfg = structuredClone(ctx.config());
  if (!cfg.profiles[name]) {
    const known = Object.keys(cfg.profiles);
    throw new NotFoundError(`no profile named "${name}"`, { hint: known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with pm init.' });
  }
  cfg.activeProfile = name;
  ctx.saveConfig(cfg);
  ctx.out.data({ activeProfile: name }, () => ctx.out.info(`now using profile ${name}`));
};
export default run;
