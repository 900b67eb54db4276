import { readInput, readTextFile } from '../../cli/files.js';
import { input, password } from '../../cli/prompt.js';
import { AuthError, PmError, ValidationError, withHint } from '../../core/errors.js';
import { isBase64 } from '../../core/hmac.js';
import { replacingToken, secretsName, verifyToken } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['token', 'add'],
  effect: 'local',
  summary: 'Store an existing API token (secret from a prompt, file or stdin) for this profile',
  options: {
    tokenId: { type: 'string', value: 'id', description: 'the token id' },
    secretFile: { type: 'string', value: 'file', description: 'file holding the secret (base64)' },
    stdin: { type: 'boolean', description: 'read the secret from stdin (as wallet import --stdin reads a key)' },
    secretStdin: { type: 'boolean', description: 'the older spelling of --stdin', hidden: true },
    label: { type: 'string', value: 'label', description: 'a note for yourself' },
    skipCheck: { type: 'boolean', description: 'store it without asking the exchange whether it works (offline)' },
  },
  examples: [
    'pm token add',
    'pm token add --token-id tok_abc --secret-file secret.txt',
    'pass show pm/token | pm token add --token-id tok_abc --stdin',
  ],
  run: async (ctx, { opts }) => {
    const hint = 'Pass --token-id ID with --secret-file FILE or --stdin.';
    const tokenId = opts.tokenId ?? (await input(ctx, 'Token id', hint));
    let secret: string;
    const file = opts.secretFile;
    if (file !== undefined) {
      secret = readTextFile(file, '--secret-file');
    } else if (opts.stdin || opts.secretStdin) {
      secret = await readInput(ctx, '-');
    } else secret = await password(ctx, 'Token secret (base64)', hint);
    secret = secret.trim();
    if (!isBase64(secret))
      throw new ValidationError('the token secret is not base64', {
        hint: 'Paste it exactly as the exchange returned it when the token was derived.',
      });
    if (!tokenId.trim()) throw new ValidationError('the token id is empty');
    // A token that does not work must not replace one that does: one signed request first.
    if (!opts.skipCheck) {
      try {
        await verifyToken(ctx, tokenId.trim(), secret);
      } catch (e) {
        const skip =
          'Check the id and the secret (as the exchange returned them when the token was derived); --skip-check stores it without asking.';
        if (e instanceof AuthError)
          throw new AuthError(`the exchange refused token ${tokenId.trim()} (${e.shortMessage}): not stored`, { hint: skip });
        throw e instanceof PmError ? withHint(e, `The token was not stored. ${skip}`) : e;
      }
    }
    const ks = await ctx.keystore();
    const name = secretsName(ctx);
    const label = opts.label;
    const pass = await ctx.newPassphrase();
    // The token it replaces is kept beside it (pm token use switches back).
    await ks.saveSecrets(name, await replacingToken(ks, name, pass, tokenId.trim(), secret), pass, label === undefined ? {} : { label });
    const profile = await ctx.updateProfile({ secrets: name, tokenId: tokenId.trim() });
    ctx.out.data({ tokenId: tokenId.trim(), profile, stored: ks.secretsPath(name) }, () =>
      ctx.out.info(`stored token ${tokenId.trim()} (encrypted) for profile ${profile}; check it with pm whoami`),
    );
  },
});
