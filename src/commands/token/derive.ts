import { noIdentityError } from '../../core/http.js';
import { deriveToken, parseScopes } from '../../core/tokens.js';
import { agentNote, replacingToken, secretsName } from './common.js';
import { defineCommand } from '../../cli/command.js';
import { pmLine } from '../../cli/rerun.js';

export default defineCommand({
  path: ['token', 'derive'],
  effect: 'money',
  describe: (ctx, { opts }) =>
    `Derive a new API token${opts.scopes ? ` with scopes ${opts.scopes}` : ''} and make it profile ${ctx.profileName() ?? 'default'}'s token${ctx.profile().tokenId ? ` (replacing ${ctx.profile().tokenId}; pm token add or pm token use switches back)` : ''}`,
  summary: 'Derive a scoped token with an identity token; the secret is stored encrypted at once',
  options: {
    scopes: { type: 'string', value: 'list', description: 'comma-separated: trading, account_creation, delegated_signing, withdrawal' },
    label: { type: 'string', value: 'label', description: 'label shown in token list' },
  },
  examples: ['PM_IDENTITY_TOKEN=… pm token derive', 'pm token derive --scopes trading,delegated_signing --label bot'],
  check: (_ctx, { opts }) => void scopesOf(opts.scopes),
  run: async (ctx, { opts }) => {
    const scopes = scopesOf(opts.scopes);
    const api = await ctx.authedApi('identity');
    // No identity token: said first, before the passphrase is asked for (as token capabilities says it).
    if (!api.auth.identity) throw noIdentityError(api.words);
    const ks = await ctx.keystore();
    const pass = await ctx.newPassphrase(); // asked before the call: the secret is shown only once
    const name = secretsName(ctx);
    // What it replaces is read before the call too: nothing may fail between the call and the save.
    const keep = await replacingToken(ks, name, pass, '', '');
    const t = await deriveToken(api, { label: opts.label, scopes }, { check: pmLine(ctx, ['token', 'list'], { yes: false }) });
    // Store the secret before printing anything: the exchange never shows it again (the token it
    // replaces is kept beside it: pm token use switches back).
    await ks.saveSecrets(name, { ...keep, tokenId: t.tokenId, tokenSecret: t.secret }, pass, {
      label: opts.label ?? `derived ${t.createdAt}`,
    });
    const profile = await ctx.updateProfile({
      secrets: name,
      tokenId: t.tokenId,
      ...(t.profileId ? { profileId: t.profileId } : {}),
      ...(t.account ? { address: t.account } : {}),
    });
    ctx.out.data(
      { tokenId: t.tokenId, scopes: t.scopes, createdAt: t.createdAt, profileId: t.profileId, profile, stored: ks.secretsPath(name) },
      () => {
        ctx.out.keyValue([
          ['token id', t.tokenId],
          ['scopes', t.scopes.join(', ')],
          ['profile id', String(t.profileId)],
          ['stored', `${ks.secretsPath(name)} (encrypted)`],
        ]);
        ctx.out.info(`profile ${profile} now uses this token; the secret is stored encrypted and never printed`);
      },
    );
    await agentNote(ctx);
  },
});

/** --scopes, read offline (an unknown scope is refused before the derive is confirmed). */
const scopesOf = (flag: string | undefined) => (flag === undefined ? undefined : parseScopes(flag));
