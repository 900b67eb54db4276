// Prompts behind a wrapper: never hang without a TTY; name the flag to pass instead.
import { UsageError } from '../core/errors.js';

export interface PromptEnv {
  interactive: boolean;
}

/** Fails clearly when a prompt would be needed but pm is not interactive. */
export function requireInteractive(env: PromptEnv, what: string, flagHint: string): void {
  if (!env.interactive) {
    throw new UsageError(`${what} needs an answer, but pm is not running interactively (no TTY, CI or --non-interactive)`, { hint: flagHint });
  }
}

/** Asks yes/no; without a TTY it fails with a hint to pass --yes. Declining is exit 2. */
export async function confirm(env: PromptEnv, message: string, defaultValue = false): Promise<boolean> {
  requireInteractive(env, 'this confirmation', 'Pass --yes to confirm without a prompt.');
  const { confirm: ask } = await import('@inquirer/prompts');
  return ask({ message, default: defaultValue }, { output: process.stderr });
}

/** Asks for a secret without echo. */
export async function password(env: PromptEnv, message: string, flagHint: string): Promise<string> {
  requireInteractive(env, message, flagHint);
  const { password: ask } = await import('@inquirer/prompts');
  return ask({ message, mask: true }, { output: process.stderr });
}

/** Asks for a line of text. */
export async function input(env: PromptEnv, message: string, flagHint: string, defaultValue?: string): Promise<string> {
  requireInteractive(env, message, flagHint);
  const { input: ask } = await import('@inquirer/prompts');
  return ask(defaultValue === undefined ? { message } : { message, default: defaultValue }, { output: process.stderr });
}

/** Picks one of several choices. */
export async function select<T extends string>(env: PromptEnv, message: string, choices: { name: string; value: T; description?: string }[], flagHint: string): Promise<T> {
  requireInteractive(env, message, flagHint);
  const { select: ask } = await import('@inquirer/prompts');
  return ask({ message, choices }, { output: process.stderr });
}
