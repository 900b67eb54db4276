import { defineCommand } from '../../cli/command.js';
import { checkDisplayName } from '../../core/partner.js';
import { checkModeFlags, createChild, partnerApi, underWhom } from './common.js';

export default defineCommand({
  path: ['partner', 'create'],
  effect: 'money',
  describe: (ctx, { opts }) =>
    `Create a sub-account (${opts.serverWallet ? 'a server wallet the exchange manages' : `an EOA signed by ${opts.wallet ? `keystore wallet ${opts.wallet}` : 'a new key stored in the keystore'}`})${opts.name ? ` named ${opts.name}` : ''} ${underWhom(ctx)}`,
  summary: 'Create a sub-account: an EOA (its key goes to the keystore) or a server wallet',
  description:
    "EOA mode generates the child's key into the encrypted keystore (or uses --wallet NAME from it), fetches the exchange's single-use signing message, signs it locally and sends the proof headers. --server-wallet asks the exchange for a managed wallet (needs the delegated_signing scope) that it signs delegated orders with. Needs a token with account_creation.\n\nAn answer pm cannot read is never a failure: an EOA child is looked up by its address, and --wallet with the key of one of your sub-accounts finds it rather than making another; a server wallet's unknown outcome says how to look (never to simply retry).\n\nExit codes: 0 created (or found), 2 bad input (nothing sent), 3 missing scope (named), 5 the address already has a profile (not one of your sub-accounts), 7 the outcome is unknown (the exact command to run is printed), 9 refused by the exchange.",
  options: {
    serverWallet: { type: 'boolean', description: 'a server-managed wallet instead of an EOA' },
    name: { type: 'string', value: 'displayName', description: 'display name (at most 44 characters; default: the address)' },
    wallet: { type: 'string', value: 'name', description: 'EOA mode: sign with this keystore wallet instead of a new key' },
  },
  examples: [
    'pm partner create --server-wallet --name alice-shop',
    'pm partner create --name bob',
    'pm --json partner create --server-wallet | jq .profileId',
  ],
  check: (_ctx, { opts }) => commandLine(opts),
  run: async (ctx, { opts }) => {
    const serverWallet = opts.serverWallet;
    const wallet = opts.wallet;
    commandLine(opts);
    const api = await partnerApi(ctx);
    const out = await createChild(ctx, api, { serverWallet, displayName: opts.name, wallet });
    ctx.out.data(out, () => {
      ctx.out.keyValue([
        ['profile id', String(out.profileId)],
        ['address', out.account],
        ['mode', out.mode],
        ['name', out.displayName],
        ...(out.wallet !== undefined ? ([['wallet', `${out.wallet} (keystore)`]] as [string, string][]) : []),
      ]);
      ctx.out.info(
        serverWallet
          ? `Next: pm partner allowances ${out.profileId} --retry --wait, then pm order place … --on-behalf-of ${out.profileId} --delegated`
          : `Next: pm order place … --on-behalf-of ${out.profileId} (signed by ${out.wallet ?? 'the child wallet'})`,
      );
    });
    return;
  },
});

/** The command line, read offline (a name too long, or two modes, is refused before the creation is confirmed). */
function commandLine(opts: { name: string | undefined; serverWallet: boolean; wallet: string | undefined }): void {
  checkDisplayName(opts.name);
  checkModeFlags(opts.serverWallet, opts.wallet);
}
