import { checkTokenId, credentialAfterRevoke, revokeToken } from '../../core/tokens.js';
import type { CredentialInUse } from '../../core/tokens.js';
import { secretsName } from './common.js';
import { defineCommand } from '../../cli/command.js';
import { pmLine, sameCommand } from '../../cli/rerun.js';
import { AuthError, NotFoundError, UnknownStateError, withHint } from '../../core/errors.js';

const describe = (c: CredentialInUse): string =>
  c.kind === 'token'
    ? `the token ${c.tokenId ?? ''} from ${c.source === 'env' ? 'PM_TOKEN_ID / PM_TOKEN_SECRET' : 'the keystore'}`
    : c.kind === 'apiKey'
      ? `the legacy API key (X-API-Key) from ${c.source === 'env' ? 'PM_API_KEY' : 'the keystore'}; routes that need a scoped token refuse it`
      : 'no API credential: authenticated commands fail';

export default defineCommand({
  path: ['token', 'revoke'],
  effect: 'destructive',
  describe: async (ctx, { args }) => {
    const id = checkTokenId(args.id);
    const name = secretsName(ctx);
    const ks = await ctx.keystore();
    const own = ctx.profile().tokenId === id || (ks.hasSecrets(name) && ks.secretsInfo(name).tokenId === id);
    return `Revoke token ${id} on ${new URL(ctx.baseUrl).host}${own ? ` (the one profile ${ctx.profileName() ?? 'default'} uses)` : ''}: programs using it stop working`;
  },
  summary: 'Revoke an API token',
  args: { id: { description: 'token id', required: true } },
  examples: ['pm token revoke tok_abc --yes'],
  check: (_ctx, { args }) => void checkTokenId(args.id),
  run: async (ctx, { args }) => {
    const id = checkTokenId(args.id);
    const name = secretsName(ctx);
    const ks = await ctx.keystore();
    const storedInfo = ks.hasSecrets(name) ? ks.secretsInfo(name) : undefined;
    const own = ctx.profile().tokenId === id || storedInfo?.tokenId === id;
    const api = await ctx.authedApi('auto');
    const inUse = api.auth.hmac?.tokenId === id;
    let message: string;
    let alreadyRevoked = false;
    try {
      message = await revokeToken(api, id);
    } catch (e) {
      if (e instanceof UnknownStateError)
        throw withHint(
          e,
          `Revoke it again (a token revoked already is said so, and dropped from the profile): ${sameCommand(ctx)}\nOr look first: ${pmLine(ctx, ['token', 'list'], { yes: false })}`,
          'replace',
        );
      // The token authenticating its own revoke is refused: revoked already, or a wrong secret.
      if (e instanceof AuthError && inUse)
        throw withHint(
          e,
          `Token ${id} authenticates this revoke and the exchange refuses it: it is revoked already (an earlier revoke whose answer was lost did it), or its secret is wrong. Ask with another credential: PM_IDENTITY_TOKEN=… pm token list shows the active tokens.`,
          'replace',
        );
      // The profile's own token is not found: an earlier revoke (whose answer was lost) did it.
      if (!(e instanceof NotFoundError) || !own) throw e;
      alreadyRevoked = true;
      message = 'already revoked';
    }
    if (own) {
      // The stored secret is useless now: drop it, keep the other stored credentials.
      const pass = await ctx.passphrase();
      const { tokenId: _t, tokenSecret: _s, ...rest } = await ks.loadSecrets(name, pass);
      await ks.saveSecrets(name, rest, pass, { force: true });
      const profileName = ctx.profileName() ?? 'default';
      await ctx.editConfig((cfg) => {
        const p = cfg.profiles[profileName];
        if (p) delete p.tokenId;
      });
    }
    const after = ks.hasSecrets(name) ? ks.secretsInfo(name) : undefined;
    const now = credentialAfterRevoke({
      revoked: id,
      env: { tokenId: ctx.env.PM_TOKEN_ID, apiKey: ctx.env.PM_API_KEY },
      stored: {
        tokenId: after?.fields.includes('tokenSecret') ? after.tokenId : undefined,
        apiKey: after?.fields.includes('apiKey') === true,
      },
    });
    const changed = own || inUse;
    const profile = ctx.profileName() ?? 'default';
    const deriveHint =
      after?.fields.includes('identityToken') || ctx.env.PM_IDENTITY_TOKEN
        ? 'pm token derive'
        : 'PM_IDENTITY_TOKEN=… pm token derive (or pm token add)';
    const next = !changed
      ? null
      : now.revokedStillSet
        ? `unset PM_TOKEN_ID and PM_TOKEN_SECRET (they name the revoked token), then derive a new one: ${deriveHint}`
        : now.kind === 'token'
          ? null
          : `derive a new token for profile ${profile}: ${deriveHint}`;
    const { revokedStillSet, ...nowUsing } = now;
    ctx.out.data(
      { revoked: id, message, alreadyRevoked, wasInUse: changed, removedFromProfile: own, profile, nowUsing, revokedStillSet, next },
      () => {
        ctx.out.info(`${message || 'revoked'}: ${id}`);
        if (!changed) return;
        if (own) ctx.out.info(`removed token ${id} from profile ${profile} (its stored secret is deleted)`);
        const text = `from now on profile ${profile} uses ${revokedStillSet ? 'the revoked token from PM_TOKEN_ID, so every authenticated call fails' : describe(now)}`;
        // A fallback (legacy key, nothing, a revoked token still set) is a warning: never silent, even with --quiet.
        if (next) ctx.out.warn(`${text}\n  next: ${next}`);
        else ctx.out.info(text);
      },
    );
  },
});
