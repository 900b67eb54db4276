// Where the keystore passphrase comes from: --passphrase-file > PM_PASSPHRASE > a prompt (the
// flag is the most specific, as everywhere in pm). Without a TTY there is no prompt, so this
// fails at once (exit 3) instead of hanging. A passphrase file others can read is refused.
import { readFile } from 'node:fs/promises';
import { AuthError, UsageError } from '../core/errors.js';
import { secretFileProblem } from '../core/fsutil.js';

export interface PassphraseInput {
  /** The PM_PASSPHRASE value; an empty string counts as unset. */
  env?: string | undefined;
  /** The --passphrase-file path. */
  file?: string | undefined;
  /** True when pm may prompt (TTY, not CI, no --non-interactive). */
  interactive: boolean;
  /** Asks the user (only called when interactive and nothing else gave a passphrase). */
  prompt: () => Promise<string>;
}

/**
 * Resolves the passphrase: the file (one trailing newline stripped), then env, then the prompt.
 * @example await resolvePassphrase({ env: io.env.PM_PASSPHRASE, interactive: false, prompt })
 */
export async function resolvePassphrase(input: PassphraseInput): Promise<string> {
  if (input.file !== undefined) {
    await refuseOpenMode(input.file);
    let text: string;
    try {
      text = await readFile(input.file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read the passphrase file ${input.file}${code ? ` (${code})` : ''}`, {
        hint: 'Check the path given to --passphrase-file.',
        cause: e,
      });
    }
    // Editors and `echo` add one newline; anything else (spaces included) is part of the passphrase.
    const pass = text.replace(/\r?\n$/, '');
    if (pass === '') throw new UsageError(`the passphrase file ${input.file} is empty`);
    return pass;
  }
  if (input.env !== undefined && input.env !== '') return input.env;
  if (input.interactive) return input.prompt();
  throw new AuthError(
    'the keystore needs a passphrase and no TTY was found to prompt for it: set PM_PASSPHRASE or pass --passphrase-file',
    {
      hint: 'e.g. pm --passphrase-file ~/.pm-pass … (file mode 0600), or export PM_PASSPHRASE in the script.',
      details: 'pm does not prompt without a TTY, in CI, or with --non-interactive.',
    },
  );
}

/** As ssh does with keys: a passphrase file others may read or replace is refused. */
async function refuseOpenMode(file: string): Promise<void> {
  const problem = secretFileProblem(file);
  if (problem) throw new UsageError(`the passphrase file ${file} ${problem.why}`, { hint: problem.hint });
}
