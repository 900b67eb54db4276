import type { Context } from '../../cli/context.js';
import { NetworkError, UsageError } from '../../core/errors.js';
import { isLoopbackUrl } from '../../core/endpoints.js';
import { clearStoredState, findSandbox, resetSandbox } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

/**
 * Which sandbox a reset is for: the one --base-url / PM_BASE_URL names (pm talks to it, whoever
 * started it), else PM_HOME's running one, else PM_HOME's stored state. A named base URL that is no
 * sandbox is refused before anything is sent.
 */
async function resetTarget(ctx: Context): Promise<{ running: string | undefined; starting?: number }> {
  const given = ctx.endpointsUnchecked();
  if (given.baseSource === 'flag' || given.baseSource === 'env') {
    if (!isLoopbackUrl(given.baseUrl))
      throw new UsageError(`pm sandbox reset works only on a sandbox, and ${given.baseUrl} is not one: nothing was sent`, {
        hint: 'Point pm at a sandbox: --base-url http://127.0.0.1:<port> (pm sandbox status shows it), or leave it out to reset the sandbox of PM_HOME.',
      });
    return { running: given.baseUrl };
  }
  const info = await findSandbox(ctx.home);
  return info ? (info.baseUrl ? { running: info.baseUrl } : { running: undefined, starting: info.pid }) : { running: undefined };
}

export default defineCommand({
  path: ['sandbox', 'reset'],
  effect: 'destructive',
  describe: async (ctx) => {
    const t = await resetTarget(ctx);
    return `Reset the sandbox${t.running ? ` at ${t.running}` : ` stored in ${ctx.home}`} to its seed: orders, balances and tokens made since are lost`;
  },
  summary: 'Restore the sandbox to its seed (running or stored state)',
  description:
    'Resets the sandbox --base-url or PM_BASE_URL names (running, whoever started it), else the one PM_HOME runs, else the state PM_HOME stores for the next start.',
  examples: ['pm sandbox reset --yes', 'pm --base-url http://127.0.0.1:8787 sandbox reset --yes'],
  run: async (ctx) => {
    const t = await resetTarget(ctx);
    if (t.starting !== undefined)
      throw new NetworkError(`the sandbox (pid ${t.starting}) is still starting: its state cannot be reset now`, {
        hint: 'Run pm sandbox reset again once pm sandbox status says running.',
      });
    if (t.running !== undefined) {
      const baseUrl = t.running;
      await resetSandbox(await ctx.api(undefined, { baseUrl }));
      ctx.out.data({ reset: true, running: true, baseUrl }, () => ctx.out.info(`reset the running sandbox at ${baseUrl}`));
      return;
    }
    clearStoredState(ctx.home);
    ctx.out.data({ reset: true, running: false }, () => ctx.out.info('reset the stored sandbox state; the next start is seeded afresh'));
    return;
  },
});
