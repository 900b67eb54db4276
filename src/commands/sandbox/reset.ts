import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { confirm } from '../../cli/prompt.js';
import { UsageError } from '../../core/errors.js';
import { findSandbox, sandboxDir } from '../../core/sandboxctl.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['sandbox', 'reset'],
  summary: 'Restore the sandbox to its seed (running or stored state)',
  examples: ['pm sandbox reset --yes'],
  run: async (ctx) => {
    const info = await findSandbox(ctx.home);
    if (!ctx.flags.yes && !(await confirm(ctx, 'Reset the sandbox to its seed? Orders, balances and tokens made since are lost.'))) {
      throw new UsageError('not reset: declined');
    }
    if (info) {
      const { ApiClient } = await import('../../core/http.js');
      const api = new ApiClient({ baseUrl: info.baseUrl, timeoutMs: 5000 });
      try {
        await api.request({ method: 'POST', path: '/__sandbox/reset', body: {} });
      } finally {
        await api.close();
      }
      ctx.out.data({ reset: true, running: true, baseUrl: info.baseUrl }, () =>
        ctx.out.info(`reset the running sandbox at ${info.baseUrl}`),
      );
      return 0;
    }
    const dir = sandboxDir(ctx.home);
    // The snapshot, the event log and its rotated segments, and temp files a kill left.
    if (existsSync(dir))
      for (const f of readdirSync(dir))
        if (/^(state\.json|events(\.\d+)?\.ndjson|\.(state|snapshot)\..*\.tmp)$/.test(f)) rmSync(join(dir, f), { force: true });
    ctx.out.data({ reset: true, running: false }, () => ctx.out.info('reset the stored sandbox state; the next start is seeded afresh'));
    return 0;
  },
});
