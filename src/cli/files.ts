// Reading what the user names on the command line (a key, secret or passphrase file, a batch
// file, or - for stdin): the one place commands get file contents from, a failure being exit 2
// with the file named.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';

/** A file's text; a missing or unreadable file is a usage error naming it. */
export function readTextFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** A file holding a secret: refused when group or others can read it (`chmod 600`). */
export function readSecretFile(file: string, what: string): string {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    throw new UsageError(`${what} ${file} is readable by others`, { hint: `chmod 600 ${file}` });
  return readTextFile(file);
}

/** A file's text, or stdin's for `-`. */
export async function readInput(ctx: Context, file: string): Promise<string> {
  if (file !== '-') return readTextFile(file);
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}
