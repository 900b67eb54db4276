import type { Handler } from '../../cli/command.js';
import { NetworkError } from '../../core/errors.js';
import { clearRunInfo, findSandbox, stopProcess } from '../../core/sandboxctl.js';

const run: Handler = async (ctx) => {
  const info = await findSandbox(ctx.home);
  if (!info) {
    ctx.out.data({ stopped: false, running: false }, () => ctx.out.info('no sandbox is running'));
    return 0;
  }
  const ok = await stopProcess(info.pid);
  if (!ok) throw new NetworkError(`the sandbox (pid ${info.pid}) did not stop within 5 s`, { hint: `kill ${info.pid}` });
  clearRunInfo(ctx.home, info.pid);
  ctx.out.data({ stopped: true, pid: info.pid }, () => ctx.out.info(`stopped the sandbox (pid ${info.pid})`));
  return 0;
};
export default run;
