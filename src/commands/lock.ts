// pm lock: end the session agent pm unlock started (commands ask for the passphrase again).
import { defineCommand } from '../cli/command.js';
import { printAgentStatus, stopAgent } from './agentctl.js';

export default defineCommand({
  path: ['lock'],
  effect: 'local',
  summary: 'End the session agent started by pm unlock',
  options: {
    status: { type: 'boolean', description: 'only say whether an agent runs, and until when' },
  },
  examples: ['pm lock', 'pm lock --status', 'pm --json lock --status'],
  run: async (ctx, { opts }) => {
    if (opts.status) return printAgentStatus(ctx);
    const stopped = await stopAgent(ctx);
    ctx.out.data({ locked: true, stopped: stopped !== null, ...(stopped ? { pid: stopped.pid } : {}) }, () =>
      ctx.out.info(stopped ? `locked: the session agent (pid ${stopped.pid}) ended` : 'locked: no session agent was running'),
    );
    return;
  },
});
