// The sandbox's admin routes (fund, resolve) from the CLI: the running sandbox of PM_HOME, or
// the --base-url / PM_BASE_URL one. Only the sandbox has them; they need no credentials.
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/http.js';
import { findSandbox } from '../../core/sandboxctl.js';

export async function sandboxAdmin(ctx: Context): Promise<ApiClient> {
  // (A sandbox still starting has no base URL yet: || skips the empty one.)
  const base = ctx.flags.baseUrl ?? ctx.env.PM_BASE_URL ?? ((await findSandbox(ctx.home))?.baseUrl || ctx.baseUrl);
  return ctx.api(undefined, { baseUrl: base });
}
