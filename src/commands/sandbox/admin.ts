// The sandbox's admin routes (fund, resolve) from the CLI: the running sandbox of PM_HOME, or
// the --base-url / PM_BASE_URL one. Only the sandbox has them; they need no credentials.
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/http.js';

export async function sandboxAdmin(ctx: Context): Promise<ApiClient> {
  return ctx.api(undefined, { baseUrl: await ctx.adminBaseUrl() });
}
