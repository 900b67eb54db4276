import { walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'remove'],
  effect: 'destructive',
  describe: async (ctx, { args }) => {
    const name = walletName(args.name);
    return `Delete wallet ${name} (${(await ctx.keystore()).walletAddress(name)}): without a backup its key is gone for good`;
  },
  summary: 'Delete a wallet from the keystore',
  args: { name: { description: 'wallet name', required: true } },
  examples: ['pm wallet remove old --yes'],
  check: (_ctx, { args }) => void walletName(args.name),
  run: async (ctx, { args }) => {
    const name = walletName(args.name);
    const ks = await ctx.keystore();
    const address = ks.walletAddress(name);
    ks.removeWallet(name);
    await ctx.editConfig((cfg) => {
      for (const p of Object.values(cfg.profiles)) if (p.wallet === name) delete p.wallet;
    });
    ctx.out.data({ removed: name, address }, () => ctx.out.info(`removed wallet ${name} (${address})`));
  },
});
