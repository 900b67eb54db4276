// Reading what the user names on the command line (a key, secret or passphrase file, a batch
// file, or - for stdin): the one place commands get file contents from, a failure being exit 2
// with the file named.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { secretFileProblem } from '../core/fsutil.js';
import { looksLikeSecret } from '../core/secret-shape.js';
import type { Context } from './context.js';

/**
 * Why `file` cannot be read, from the error's `code` (never its message text, which Node may
 * word differently), and what to do about it; `flag` names the option that gave the path.
 */
function unreadable(file: string, e: unknown, flag?: string): UsageError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const given = flag ? ` given to ${flag}` : '';
  // A key or a secret where its file's path goes: not repeated (stderr lands in logs and CI output).
  if (looksLikeSecret(file))
    return new UsageError(`cannot read the file${given || ' named'}: what was given looks like a private key or token secret, not a path`, {
      hint: `pm never takes a key or a secret on the command line (it stays in shell history and process lists): put it in a file only you can read (chmod 600) and give that file's path${flag ? ` to ${flag}` : ''}.`,
      cause: e,
    });
  const [why, hint] =
    code === 'ENOENT'
      ? ['no such file', `Check the path${given}: it names no file.`]
      : code === 'EACCES' || code === 'EPERM'
        ? ['permission denied', `Make it readable by you (chmod u+r ${file}), or check the path${given}.`]
        : code === 'EISDIR'
          ? ['it is a directory', `${flag ? `Give ${flag} a file` : 'Name a file'}, not a directory.`]
          : code === 'ENOTDIR'
            ? ['a part of the path is not a directory', `Check the path${given}.`]
            : [code ?? 'unreadable', `Check the path${given} and that you can read the file.`];
  return new UsageError(`cannot read ${file}: ${why}${code && code !== why ? ` (${code})` : ''}`, { hint, cause: e });
}

/** A file's text; a missing or unreadable file is a usage error naming it (and `flag`, the option that named it). */
export function readTextFile(file: string, flag?: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw unreadable(file, e, flag);
  }
}

/** A file holding a secret: refused when others can read or replace it (secretFileProblem). */
export function readSecretFile(file: string, what: string, flag?: string): string {
  try {
    statSync(file);
  } catch (e) {
    throw unreadable(file, e, flag);
  }
  const problem = secretFileProblem(file);
  if (problem) throw new UsageError(`${what} ${file} ${problem.why}`, { hint: problem.hint });
  return readTextFile(file, flag);
}

/** A file's text, or stdin's for `-`. */
export async function readInput(ctx: Context, file: string, flag = '--file'): Promise<string> {
  if (file !== '-') return readTextFile(file, flag);
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

/**
 * A batch to be confirmed on a terminal cannot come from stdin: stdin is that terminal, and once the
 * lines are ended (Ctrl-D) it cannot answer "Go ahead?" (the prompt was closed, exit 130).
 */
export function batchFromTerminal(command: string, what: string): UsageError {
  return new UsageError(
    `pm ${command} --file - would read the ${what} from this terminal, which then could not confirm them: nothing was read or sent`,
    {
      hint: `Pass --yes to send the lines you type (end them with Ctrl-D), or save them to a file and pass --file <file>.`,
    },
  );
}

const fromFile = new WeakMap<Context, Map<string, unknown>>();

/**
 * What a command makes of the file it is given (`make` from its text), read and made once per
 * command: its check, its question and its run see the same lines, so the lines confirmed are the
 * lines sent (and a large batch is not read and parsed again for each).
 */
export function fileOnce<T>(ctx: Context, file: string, make: (text: string) => T): T {
  let made = fromFile.get(ctx);
  if (made === undefined) fromFile.set(ctx, (made = new Map()));
  if (!made.has(file)) made.set(file, make(readTextFile(file)));
  return made.get(file) as T;
}
