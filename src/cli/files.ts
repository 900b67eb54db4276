// Reading what the user names on the command line (a key, secret or passphrase file, a batch
// file, or - for stdin): the one place commands get file contents from, a failure being exit 2
// with the file named.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { secretFileProblem } from '../core/fsutil.js';
import type { Context } from './context.js';

/** A file's text; a missing or unreadable file is a usage error naming it. */
export function readTextFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** A file holding a secret: refused when others can read or replace it (secretFileProblem). */
export function readSecretFile(file: string, what: string): string {
  try {
    statSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const problem = secretFileProblem(file);
  if (problem) throw new UsageError(`${what} ${file} ${problem.why}`, { hint: problem.hint });
  return readTextFile(file);
}

/** A file's text, or stdin's for `-`. */
export async function readInput(ctx: Context, file: string): Promise<string> {
  if (file !== '-') return readTextFile(file);
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}
