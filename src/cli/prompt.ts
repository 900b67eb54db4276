// Prompts behind a wrapper: never hang without a TTY; name the flag to pass instead.
import { InterruptedError, UsageError } from '../core/errors.js';

export interface PromptEnv {
  interactive: boolean;
  /** Ctrl-C of the whole command (a prompt is cancelled with it). */
  signal?: AbortSignal | undefined;
}

/** Ctrl-C (or Ctrl-D) at a prompt is a quiet cancel, exit 130 — not a bug report. */
async function asking<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
      throw new InterruptedError('cancelled', { cause: e });
    throw e;
  }
}

const ctxOf = (env: PromptEnv): { output: NodeJS.WritableStream; signal?: AbortSignal } =>
  env.signal ? { output: process.stderr, signal: env.signal } : { output: process.stderr };

/** Fails clearly when a prompt would be needed but pm is not interactive. */
function requireInteractive(env: PromptEnv, what: string, flagHint: string): void {
  if (!env.interactive) {
    throw new UsageError(`${what} needs an answer, but pm is not running interactively (no TTY, CI or --non-interactive)`, {
      hint: flagHint,
    });
  }
}

/** Asks yes/no; without a TTY it fails with a hint to pass --yes. Declining is exit 2. */
export async function confirm(env: PromptEnv, message: string, defaultValue = false): Promise<boolean> {
  requireInteractive(env, 'this confirmation', 'Pass --yes to confirm without a prompt.');
  const { confirm: ask } = await import('@inquirer/prompts');
  return asking(() => ask({ message, default: defaultValue }, ctxOf(env)));
}

/** Checks an answer in place: true accepts it, a string is shown and the question asked again. */
export type Validate = (value: string) => boolean | string | Promise<boolean | string>;

/** Asks for a secret without echo; `validate` re-asks on a bad answer. */
export async function password(env: PromptEnv, message: string, flagHint: string, validate?: Validate): Promise<string> {
  requireInteractive(env, message, flagHint);
  const { password: ask } = await import('@inquirer/prompts');
  return asking(() => ask({ message, mask: true, ...(validate ? { validate } : {}) }, ctxOf(env)));
}

/** Asks for a line of text; `validate` re-asks on a bad answer. */
export async function input(
  env: PromptEnv,
  message: string,
  flagHint: string,
  defaultValue?: string,
  validate?: Validate,
): Promise<string> {
  requireInteractive(env, message, flagHint);
  const { input: ask } = await import('@inquirer/prompts');
  return asking(() =>
    ask({ message, ...(defaultValue === undefined ? {} : { default: defaultValue }), ...(validate ? { validate } : {}) }, ctxOf(env)),
  );
}

/** A validate function from a checker that throws (its message is shown, and the question asked again). */
export function validating(check: (v: string) => unknown): Validate {
  return async (v) => {
    try {
      await check(v);
      return true;
    } catch (e) {
      return e instanceof Error ? ((e as { shortMessage?: string }).shortMessage ?? e.message) : String(e);
    }
  };
}

/** Picks one of several choices. */
export async function select<T extends string>(
  env: PromptEnv,
  message: string,
  choices: { name: string; value: T; description?: string }[],
  flagHint: string,
): Promise<T> {
  requireInteractive(env, message, flagHint);
  const { select: ask } = await import('@inquirer/prompts');
  return asking(() => ask({ message, choices }, ctxOf(env)));
}
