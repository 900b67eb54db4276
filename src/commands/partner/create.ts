import type { Handler } from '../../cli/command.js';
import { optBool, optStr } from '../../cli/command.js';
import { checkDisplayName, createPartnerAccount } from '../../core/partner.js';
import { checkModeFlags, childSigner, dropChildKey, partnerApi } from './common.js';

const run: Handler = async (ctx, { opts }) => {
  const serverWallet = optBool(opts, 'serverWallet');
  const wallet = optStr(opts, 'wallet');
  const name = checkDisplayName(optStr(opts, 'name'));
  checkModeFlags(serverWallet, wallet);
  const api = await partnerApi(ctx);
  let child: Awaited<ReturnType<typeof childSigner>> | null = null;
  if (!serverWallet) child = await childSigner(ctx, wallet);
  let created;
  try {
    created = await createPartnerAccount(api, { serverWallet, displayName: name, signer: child?.signer, signal: ctx.signal });
  } catch (e) {
    if (child?.created) await dropChildKey(ctx, child.wallet);
    throw e;
  }
  const out = { profileId: created.profileId, account: created.account, mode: serverWallet ? 'server-wallet' : 'eoa', displayName: name ?? created.account, ...(child ? { wallet: child.wallet } : {}) };
  ctx.out.data(out, () => {
    ctx.out.keyValue([
      ['profile id', String(out.profileId)],
      ['address', out.account],
      ['mode', out.mode],
      ['name', out.displayName],
      ...(child ? ([['wallet', `${child.wallet} (keystore)`]] as [string, string][]) : []),
    ]);
    ctx.out.info(serverWallet ? `Next: pm partner allowances ${out.profileId} --retry --wait, then pm order place … --on-behalf-of ${out.profileId} --delegated` : `Next: pm order place … --on-behalf-of ${out.profileId} (signed by ${child?.wallet ?? 'the child wallet'})`);
  });
  return 0;
};
export default run;
