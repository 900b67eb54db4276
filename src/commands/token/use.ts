import { defineCommand } from '../../cli/command.js';
import { AuthError, NotFoundError, errorMessage } from '../../core/errors.js';
import { agentNote, secretsName, verifyToken } from './common.js';

export default defineCommand({
  path: ['token', 'use'],
  effect: 'local',
  summary: "Make a stored token the profile's token again (the one pm token derive or pm token add replaced)",
  description:
    'pm token derive and pm token add keep the token they replace, encrypted beside the new one: pm token use <id> switches the profile back to it (and keeps the one it replaces the same way, so the same command switches again). A token whose secret is not stored here is added with pm token add.\n\nExit codes: 0 switched (or already in use), 3 the exchange does not accept that token (revoked): nothing switched, 4 no stored secret for that token id.',
  args: { tokenId: { description: 'the token id (see pm token list)', required: true } },
  examples: ['pm token use c2FuZGJveC1hbGljZQ', 'pm --json token use tok_abc'],
  run: async (ctx, { args }) => {
    const ks = await ctx.keystore();
    const name = secretsName(ctx);
    const pass = await ctx.newPassphrase();
    const stored = ks.hasSecrets(name) ? await ks.loadSecrets(name, pass) : {};
    const id = args.tokenId.trim();
    if (stored.tokenId !== id) {
      if (stored.previousTokenId !== id || stored.previousTokenSecret === undefined)
        throw new NotFoundError(`no stored secret for token ${id} in profile ${ctx.profileName() ?? 'default'}`, {
          hint: `Stored here: ${[stored.tokenId, stored.previousTokenId].filter(Boolean).join(', ') || 'none'}. Add it with pm token add --token-id ${id} --secret-file FILE.`,
        });
      // A token the exchange no longer takes (revoked) is not switched to; one that cannot be
      // asked about now (no network) is, with a warning.
      await verifyToken(ctx, id, stored.previousTokenSecret).catch((e: unknown) => {
        if (e instanceof AuthError)
          throw new AuthError(
            `the exchange does not accept token ${id} (revoked?): profile ${ctx.profileName() ?? 'default'} keeps token ${stored.tokenId ?? '(none)'}`,
            {
              status: e.status,
              hint: 'pm token list shows the tokens the exchange takes; pm token derive makes a new one.',
            },
          );
        ctx.out.warn(`could not check token ${id} with the exchange (${errorMessage(e)}): switched to it anyway`);
      });
      await ks.saveSecrets(
        name,
        {
          tokenId: id,
          tokenSecret: stored.previousTokenSecret,
          ...(stored.tokenId !== undefined && stored.tokenSecret !== undefined
            ? { previousTokenId: stored.tokenId, previousTokenSecret: stored.tokenSecret }
            : {}),
        },
        pass,
      );
    }
    const profile = await ctx.updateProfile({ secrets: name, tokenId: id });
    ctx.out.data(
      { tokenId: id, profile, previousTokenId: stored.tokenId === id ? (stored.previousTokenId ?? null) : (stored.tokenId ?? null) },
      () =>
        ctx.out.info(
          stored.tokenId === id
            ? `profile ${profile} already uses token ${id}`
            : `profile ${profile} now uses token ${id} (pm token use ${stored.tokenId ?? ''} switches back)`,
        ),
    );
    if (stored.tokenId !== id) await agentNote(ctx);
  },
});
