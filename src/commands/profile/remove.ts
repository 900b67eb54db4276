import type { Handler } from '../../cli/command.js';
import { confirm } from '../../cli/prompt.js';
import { NotFoundError, UsageError } from '../../core/errors.js';

const run: Handler = async (ctx, { args }) => {
  const name = args[0] ?? '';
  const cfg = structuredClone(ctx.config());
  if (!cfg.profiles[name]) throw new NotFoundError(`no profile named "${name}"`);
  if (!ctx.flags.yes && !(await confirm(ctx, `Remove profile ${name}? Its wallet and secrets stay in the keystore.`))) {
    throw new UsageError('not removed: declined');
  }
  delete cfg.profiles[name];
  if (cfg.activeProfile === name) delete cfg.activeProfile;
  ctx.saveConfig(cfg);
  ctx.out.data({ removed: name }, () => ctx.out.info(`removed profile ${name}`));
};
export default run;
