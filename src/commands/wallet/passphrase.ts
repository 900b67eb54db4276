// `pm wallet passphrase`: one keystore, one passphrase — changes it for every wallet and token
// secret at once (everything decrypted and re-encrypted before any file is replaced).
import { readSecretFile } from '../../cli/files.js';
import { password } from '../../cli/prompt.js';
import { NotFoundError, UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';

function readNewPassphrase(file: string): string {
  return readSecretFile(file, 'the passphrase file', '--new-passphrase-file').replace(/\r?\n$/, '');
}

export default defineCommand({
  path: ['wallet', 'passphrase'],
  effect: 'local',
  summary: 'Change the keystore passphrase (every wallet and token secret, atomically)',
  description:
    'Re-encrypts every wallet and token secret under PM_HOME with a new passphrase. The current one comes from --passphrase-file, PM_PASSPHRASE or a prompt; the new one from --new-passphrase-file or a prompt (asked twice). Nothing is replaced unless every file was decrypted and re-encrypted.',
  options: {
    newPassphraseFile: { type: 'string', value: 'file', description: 'read the new passphrase from this file (mode 0600)' },
  },
  examples: ['pm wallet passphrase', 'pm wallet passphrase --passphrase-file old.txt --new-passphrase-file new.txt'],
  run: async (ctx, { opts }) => {
    const ks = await ctx.keystore();
    if (ks.encryptedFiles().length === 0)
      throw new NotFoundError(`the keystore in ${ctx.home} is empty: there is no passphrase to change`, {
        hint: 'Create a wallet with pm wallet create, or run pm init.',
      });
    const old = await ctx.passphrase('Current keystore passphrase');
    const check = await ks.checkPassphrase(old);
    if (check === false) {
      const { AuthError } = await import('../../core/errors.js');
      throw new AuthError('wrong passphrase for the keystore', { hint: 'Nothing was changed.' });
    }
    let next: string;
    if (opts.newPassphraseFile !== undefined) next = readNewPassphrase(opts.newPassphraseFile);
    else {
      const hint = 'Pass --new-passphrase-file FILE.';
      next = await password(ctx, 'New keystore passphrase', hint, (v) => v.length >= 8 || 'too short: use at least 8 characters');
      await password(ctx, 'Repeat the new passphrase', hint, (v) => v === next || 'the two passphrases differ: type the same one again');
    }
    if (next.length < 8) throw new UsageError('the new passphrase is too short: use at least 8 characters');
    const done = await ks.changePassphrase(old, next);
    ctx.forgetPassphrase();
    ctx.out.data({ wallets: done.wallets, secrets: done.secrets }, () => {
      ctx.out.info(`re-encrypted ${done.wallets.length} wallet(s) and ${done.secrets.length} secrets file(s) with the new passphrase`);
      ctx.out.info('Update PM_PASSPHRASE or your --passphrase-file where scripts use them.');
    });
  },
});
