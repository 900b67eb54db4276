import { NetworkError } from '../../core/errors.js';
import { clearRunInfo, findSandbox, stopProcess } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['sandbox', 'stop'],
  effect: 'local',
  summary: 'Stop a detached sandbox',
  examples: ['pm sandbox stop'],
  run: async (ctx) => {
    const info = await findSandbox(ctx.home);
    if (!info) {
      ctx.out.data({ stopped: false, running: false }, () => ctx.out.info('no sandbox is running'));
      return;
    }
    const ok = await stopProcess(info.pid);
    if (!ok) throw new NetworkError(`the sandbox (pid ${info.pid}) did not stop within 5 s`, { hint: `kill ${info.pid}` });
    clearRunInfo(ctx.home, info.pid);
    ctx.out.data({ stopped: true, pid: info.pid }, () => ctx.out.info(`stopped the sandbox (pid ${info.pid})`));
    return;
  },
});
