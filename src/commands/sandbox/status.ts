import { textTime } from '../../cli/text.js';
import { NetworkError } from '../../core/errors.js';
import { answers, findSandbox } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['sandbox', 'status'],
  effect: 'read',
  summary: 'Show whether a detached sandbox is running, and its URLs',
  examples: ['pm sandbox status', 'pm --json sandbox status'],
  run: async (ctx) => {
    const info = await findSandbox(ctx.home);
    if (!info) {
      ctx.out.data({ running: false }, () => ctx.out.line('not running'));
      throw new NetworkError('no sandbox is running for this PM_HOME', { hint: 'Start one with: pm sandbox start --detach' });
    }
    if (!info.baseUrl) {
      // It holds the state lock but does not listen yet (loading its state, or its chain).
      ctx.out.data({ running: true, starting: true, healthy: false, pid: info.pid }, () =>
        ctx.out.keyValue([
          ['status', 'starting'],
          ['pid', String(info.pid)],
        ]),
      );
      throw new NetworkError(`the sandbox (pid ${info.pid}) is still starting`, { hint: 'Run pm sandbox status again in a moment.' });
    }
    const healthy = await answers(await ctx.api(undefined, { baseUrl: info.baseUrl, timeoutMs: 2000 }));
    ctx.out.data({ running: true, healthy, ...info }, () =>
      ctx.out.keyValue([
        ['status', healthy ? 'running' : 'running (not answering)'],
        ['pid', String(info.pid)],
        ['base url', info.baseUrl],
        ['ws url', info.wsUrl],
        ...(info.rpcUrl !== undefined ? [['rpc url', info.rpcUrl] as [string, string]] : []),
        ['since', textTime(info.startedAt)],
        ['state', info.ephemeral ? 'in memory (ephemeral)' : 'persisted under PM_HOME/sandbox'],
      ]),
    );
    if (!healthy)
      throw new NetworkError(`the sandbox (pid ${info.pid}) at ${info.baseUrl} is not answering`, {
        hint: 'Stop it with pm sandbox stop and start it again.',
      });
    return;
  },
});
