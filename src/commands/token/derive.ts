import type { Handler } from '../../cli/command.js';
import { optStr } from '../../cli/command.js';
import { deriveToken, parseScopes } from '../../core/tokens.js';
import { secretsName } from './common.js';

const run: Handler = async (ctx, { opts }) => {
  const scopesFlag = optStr(opts, 'scopes');
  const scopes = scopesFlag === undefined ? undefined : parseScopes(scopesFlag);
  const api = await ctx.authedApi('identity');
  const ks = await ctx.keystore();
  const pass = await ctx.newPassphrase(); // asked before the call: the secret is shown only once
  const t = await deriveToken(api, { label: optStr(opts, 'label'), scopes });
  // Store the secret before printing anything: the exchange never shows it again.
  const name = secretsName(ctx);
  await ks.saveSecrets(name, { tokenId: t.tokenId, tokenSecret: t.secret }, pass, { label: optStr(opts, 'label') ?? `derived ${t.createdAt}` });
  const profile = ctx.updateProfile({ secrets: name, tokenId: t.tokenId, ...(t.profileId ? { profileId: t.profileId } : {}), ...(t.account ? { address: t.account } : {}) });
  ctx.out.data({ tokenId: t.tokenId, scopes: t.scopes, createdAt: t.createdAt, profileId: t.profileId, profile, stored: ks.secretsPath(name) }, () => {
    ctx.out.keyValue([['token id', t.tokenId], ['scopes', t.scopes.join(', ')], ['profile id', String(t.profileId)], ['stored', `${ks.secretsPath(name)} (encrypted)`]]);
    ctx.out.info(`profile ${profile} now uses this token; the secret is stored encrypted and never printed`);
  });
};
export default run;
