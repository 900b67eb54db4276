// Shared by the token commands: where the profile keeps its token.
import type { Context } from '../../cli/context.js';

/** The secrets name of the active profile (its own name; "default" without profiles). */
export function secretsName(ctx: Context): string {
  return ctx.profile().secrets ?? ctx.profileName() ?? 'default';
}
