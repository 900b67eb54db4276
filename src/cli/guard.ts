// The one guard between argv and a command's handler. A command declares what it does (its
// `effect`, `sandboxOnly`); this decides, before the handler runs and so before any lookup or
// request, whether it may go ahead:
// - `order` and `money` against a target that is not a sandbox (judged from the URL alone: the
//   exchange in use, or what the command declares as its `target`, such as an RPC), and
//   `destructive` against any target, need a yes: a confirmation on a terminal, whose text the
//   command's `describe` writes (what will be sent, to whom, how much), or --yes in a script;
//   else exit 2 with nothing sent;
// - a sandbox admin command refuses a target that is not a sandbox (exit 2, nothing sent).
// The effect is the invocation's (`effectOf`, where it differs from the command's: a dry run
// reads; --force over a wallet that exists destroys its key).
// Commands never read --yes themselves.
import type { DefinedCommand, Effect, ManifestCommand, Target } from './command.js';
import { GUARDED_EFFECTS } from './command.js';
import type { Context } from './context.js';
import { isLoopbackUrl } from '../core/endpoints.js';
import { UsageError } from '../core/errors.js';

const WHAT: Record<Effect, string> = {
  read: 'reading',
  local: 'a local change',
  order: 'changing orders',
  money: 'moving money',
  destructive: 'a change that cannot be undone',
};

/** Whether this invocation needs a yes, and why (undefined: it may go ahead as it is). */
function needsYes(effect: Effect, targets: readonly Target[]): string | undefined {
  if (effect === 'destructive') return WHAT.destructive;
  const remote = targets.find((t) => t.url !== undefined && !isLoopbackUrl(t.url));
  return remote?.url === undefined ? undefined : `${WHAT[effect]} on ${new URL(remote.url).host}, which is not a sandbox`;
}

/**
 * Checks one invocation against its declaration; asks on a terminal when it must. Throws a
 * UsageError (exit 2) when the command may not run; else returns the invocation's effect.
 */
export async function guard(
  ctx: Context,
  meta: Pick<ManifestCommand, 'path' | 'effect' | 'sandboxOnly'>,
  def: Pick<DefinedCommand, 'effectOf' | 'describe' | 'target'>,
  input: { args: Record<string, unknown>; opts: Record<string, unknown> },
): Promise<Effect> {
  const name = `pm ${meta.path.join(' ')}`;
  if (meta.sandboxOnly && !isLoopbackUrl(await ctx.adminBaseUrl()))
    throw new UsageError(`${name} works only on a sandbox, and ${await ctx.adminBaseUrl()} is not one: nothing was sent`, {
      hint: 'Point pm at a sandbox: --profile sandbox, or --base-url http://127.0.0.1:<port> (pm sandbox status shows it).',
    });
  const declared = def.effectOf ? await def.effectOf(input as never, ctx) : meta.effect;
  const effect = typeof declared === 'string' ? declared : declared.effect;
  // (A sandbox admin command's target is a sandbox by now: only a destructive one asks.)
  const guarded = GUARDED_EFFECTS.includes(effect) && !(meta.sandboxOnly && effect !== 'destructive');
  // (Asked for only when it matters: an on-chain command's targets read the local sandbox's chain.)
  const targets: readonly Target[] = !guarded
    ? []
    : def.target
      ? await def.target(ctx, input as never)
      : [{ url: ctx.baseUrl, what: 'exchange' }];
  const needed = guarded ? needsYes(effect, targets) : undefined;
  const why = needed !== undefined && typeof declared !== 'string' ? declared.why : needed;
  if (why === undefined || ctx.flags.yes) return effect;
  if (!ctx.interactive)
    throw new UsageError(`${name} needs a confirmation (${why}), and pm is not running in a terminal: nothing was sent`, {
      hint: 'Pass --yes to confirm without a prompt (scripts), or run it in a terminal.',
    });
  const text = def.describe ? await def.describe(ctx, input as never) : `Run ${name}`;
  const profile = ctx.profileName();
  const where =
    effect === 'destructive' ? '' : targets.map((t) => (t.url === undefined ? '' : `${t.what}: ${new URL(t.url).host}   `)).join('');
  ctx.io.stderr.write(`${text}\n  ${where}profile: ${profile ?? '(none)'}\n`);
  const { confirm } = await import('./prompt.js');
  if (!(await confirm(ctx, 'Go ahead?'))) throw new UsageError('declined: nothing was sent');
  return effect;
}
