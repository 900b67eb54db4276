import type { Handler } from '../../cli/command.js';
import { optBool } from '../../cli/command.js';
import { attachWallet, walletName } from './common.js';

const run: Handler = async (ctx, { args, opts }) => {
  const name = walletName(args[0]);
  const ks = await ctx.keystore();
  const pass = await ctx.newPassphrase();
  const w = await ks.createWallet(name, pass, { force: optBool(opts, 'force') });
  const profile = attachWallet(ctx, name, w.address);
  ctx.out.data({ name, address: w.address, path: w.path, profile }, () => {
    ctx.out.keyValue([['wallet', name], ['address', w.address ?? '-'], ['file', w.path]]);
    if (profile) ctx.out.info(`profile ${profile} now signs with this wallet`);
    ctx.out.info('The key is encrypted with your passphrase; back it up with pm wallet export --out FILE.');
  });
};
export default run;
