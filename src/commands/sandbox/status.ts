import type { Handler } from '../../cli/command.js';
import { findSandbox } from '../../core/sandboxctl.js';

const run: Handler = async (ctx) => {
  const info = await findSandbox(ctx.home);
  if (!info) {
    ctx.out.data({ running: false }, () => ctx.out.line('not running'));
    ctx.out.info('Start one with: pm sandbox start --detach');
    return 7;
  }
  let healthy = false;
  try {
    const { ApiClient } = await import('../../core/http.js');
    const api = new ApiClient({ baseUrl: info.baseUrl, timeoutMs: 2000 });
    try {
      await api.request({ method: 'GET', path: '/maintenance/status', retry: 'never' });
      healthy = true;
    } finally {
      await api.close();
    }
  } catch {
    healthy = false;
  }
  ctx.out.data({ running: true, healthy, ...info }, () =>
    ctx.out.keyValue([
      ['status', healthy ? 'running' : 'running (not answering)'],
      ['pid', String(info.pid)],
      ['base url', info.baseUrl],
      ['ws url', info.wsUrl],
      ['since', info.startedAt],
      ['state', info.ephemeral ? 'in memory (ephemeral)' : 'persisted under PM_HOME/sandbox'],
    ]),
  );
  return healthy ? 0 : 7;
};
export default run;
