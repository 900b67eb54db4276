import { NetworkError } from '../../core/errors.js';
import { clearStoredState, findSandbox, resetSandbox } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['sandbox', 'reset'],
  effect: 'destructive',
  describe: async (ctx) => {
    const info = await findSandbox(ctx.home);
    return `Reset the sandbox${info?.baseUrl ? ` at ${info.baseUrl}` : ` stored in ${ctx.home}`} to its seed: orders, balances and tokens made since are lost`;
  },
  summary: 'Restore the sandbox to its seed (running or stored state)',
  examples: ['pm sandbox reset --yes'],
  run: async (ctx) => {
    const info = await findSandbox(ctx.home);
    if (info && !info.baseUrl)
      throw new NetworkError(`the sandbox (pid ${info.pid}) is still starting: its state cannot be reset now`, {
        hint: 'Run pm sandbox reset again once pm sandbox status says running.',
      });
    if (info) {
      await resetSandbox(await ctx.api(undefined, { baseUrl: info.baseUrl }));
      ctx.out.data({ reset: true, running: true, baseUrl: info.baseUrl }, () =>
        ctx.out.info(`reset the running sandbox at ${info.baseUrl}`),
      );
      return;
    }
    clearStoredState(ctx.home);
    ctx.out.data({ reset: true, running: false }, () => ctx.out.info('reset the stored sandbox state; the next start is seeded afresh'));
    return;
  },
});
