// The passphrase dialogue: which passphrase opens an existing keystore (three tries on a
// terminal, each checked against the keystore), and the one a new keystore gets (asked twice,
// at least 8 characters). One keystore, one passphrase: a keystore that holds encrypted files
// already keeps theirs. The prompt itself is the caller's (the CLI asks on its terminal).
import { AuthError, UsageError } from '../core/errors.js';
import { resolvePassphrase } from './passphrase.js';
import type { Keystore } from './store.js';

/** Asks for a secret without echo; `validate` re-asks in place on a bad answer. */
export type AskSecret = (message: string, flagHint: string, validate: (v: string) => boolean | string) => Promise<string>;

export interface DialogueInput {
  keystore: Keystore;
  /** PM_PASSPHRASE. */
  env: string | undefined;
  /** --passphrase-file. */
  file: string | undefined;
  /** Whether pm may prompt (a terminal, no CI, no --non-interactive). */
  interactive: boolean;
  ask: AskSecret;
  /** Where a "try again" line goes (the terminal's stderr). */
  say: (line: string) => void;
}

const HINT = 'Pass --passphrase-file FILE or set PM_PASSPHRASE.';

/** Three tries at the passphrase of an existing keystore. */
async function askExisting(i: DialogueInput, message: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const p = await i.ask(message, HINT, (v) => v !== '' || 'type the passphrase (Ctrl-C cancels)');
    if ((await i.keystore.checkPassphrase(p)) !== false) return p;
    if (attempt >= 3)
      throw new AuthError('wrong passphrase (3 tries)', {
        hint: 'Forgot it? Secrets cannot be recovered without it: re-import the wallet and re-add the token (pm init --force).',
      });
    i.say(`wrong passphrase, try again (${3 - attempt} left)`);
  }
}

/** The keystore passphrase: --passphrase-file > PM_PASSPHRASE > a prompt (three tries, checked). */
export function existingPassphrase(i: DialogueInput, message = 'Keystore passphrase'): Promise<string> {
  return resolvePassphrase({ env: i.env, file: i.file, interactive: i.interactive, prompt: () => askExisting(i, message) });
}

/**
 * A passphrase for writing encrypted files: the keystore's own when it holds encrypted files
 * (checked; a different one is refused), a new one (asked twice, at least 8 characters) only for
 * an empty keystore.
 */
export async function writingPassphrase(i: DialogueInput): Promise<string> {
  const existing = i.keystore.encryptedFiles().length > 0;
  const pass = await resolvePassphrase({
    env: i.env,
    file: i.file,
    interactive: i.interactive,
    prompt: async () => {
      if (existing) return askExisting(i, 'Keystore passphrase');
      // A repeat that differs asks both again: the typo may be in the first one.
      for (;;) {
        const a = await i.ask('New keystore passphrase', HINT, (v) => v.length >= 8 || 'too short: use at least 8 characters');
        if ((await i.ask('Repeat the passphrase', HINT, () => true)) === a) return a;
        i.say('the two passphrases differ: type both again');
      }
    },
  });
  // (The prompt and pm wallet passphrase ask as much; PM_PASSPHRASE and a file too, for a new keystore.)
  if (!existing && pass.length < 8)
    throw new UsageError('a new keystore passphrase needs at least 8 characters', {
      hint: 'Choose a longer one (PM_PASSPHRASE or --passphrase-file): it is all that protects the keys at rest.',
    });
  if (existing && (await i.keystore.checkPassphrase(pass)) === false)
    throw new AuthError(
      `the keystore in ${i.keystore.home} is encrypted with another passphrase; pm keeps one passphrase for every wallet and token secret`,
      { hint: "Use the keystore's passphrase, or change it for every secret with pm wallet passphrase." },
    );
  return pass;
}
