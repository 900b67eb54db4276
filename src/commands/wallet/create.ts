import { attachWallet, describeReplace, replaceEffect, walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'create'],
  effect: 'local',
  // (--force over a wallet of that name destroys its key: asked for as wallet remove is.)
  effectNote: 'With `--force` over a wallet that exists: **destructive** (its key is replaced)',
  effectOf: ({ args, opts }, ctx) => replaceEffect(ctx, walletName(args.name), opts.force),
  describe: (ctx, { args }) => describeReplace(ctx, walletName(args.name)),
  summary: 'Create a new wallet (random key, encrypted)',
  args: { name: { description: 'wallet name (default "default")' } },
  options: {
    force: { type: 'boolean', description: 'replace a wallet of the same name (its key is lost unless backed up: asks, or needs --yes)' },
  },
  examples: ['pm wallet create', 'pm wallet create bot --passphrase-file ~/.pm-pass'],
  run: async (ctx, { args, opts }) => {
    const name = walletName(args.name);
    const ks = await ctx.keystore();
    const pass = await ctx.newPassphrase();
    const w = await ks.createWallet(name, pass, { force: opts.force });
    const profile = await attachWallet(ctx, name, w.address);
    ctx.out.data({ name, address: w.address, path: w.path, profile }, () => {
      ctx.out.keyValue([
        ['wallet', name],
        ['address', w.address ?? '-'],
        ['file', w.path],
      ]);
      if (profile) ctx.out.info(`profile ${profile} now signs with this wallet`);
      ctx.out.info('The key is encrypted with your passphrase; back it up with pm wallet export --out FILE.');
    });
  },
});
