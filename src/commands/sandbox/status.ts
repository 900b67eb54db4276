import { NetworkError } from '../../core/errors.js';
import { answers, findSandbox, sandboxReplay, type SandboxReplayInfo } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

/** "rec.ndjson: 120/400 lines, at 2026-11-28T09:03:31.020Z, 0.2 s behind" (or "done"). */
function replayLine(r: SandboxReplayInfo): string {
  const where = `${r.file}: ${r.applied}/${r.total} lines, at ${r.recordedTime}`;
  return r.done ? `${where}, done` : `${where}, ${r.behindMs > 0 ? `${(r.behindMs / 1000).toFixed(1)} s behind` : 'on time'}`;
}

export default defineCommand({
  path: ['sandbox', 'status'],
  effect: 'read',
  summary: 'Show whether a detached sandbox is running, its URLs, and where its replay stands',
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
    const api = await ctx.api(undefined, { baseUrl: info.baseUrl, timeoutMs: 2000 });
    const healthy = await answers(api);
    const replay = healthy ? await sandboxReplay(api) : null;
    ctx.out.data({ running: true, healthy, ...info, ...(replay ? { replay } : {}) }, () =>
      ctx.out.keyValue([
        ['status', healthy ? 'running' : 'running (not answering)'],
        ['pid', String(info.pid)],
        ['base url', info.baseUrl],
        ['ws url', info.wsUrl],
        ['since', info.startedAt],
        ['state', info.ephemeral ? 'in memory (ephemeral)' : 'persisted under PM_HOME/sandbox'],
        ...(replay ? [['replay', replayLine(replay)] as [string, string]] : []),
      ]),
    );
    if (!healthy)
      throw new NetworkError(`the sandbox (pid ${info.pid}) at ${info.baseUrl} is not answering`, {
        hint: 'Stop it with pm sandbox stop and start it again.',
      });
    return;
  },
});
