import { walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'address'],
  effect: 'read',
  summary: "Print a wallet's address (no name: the one pm signs with)",
  description:
    "With a name, that keystore wallet's address. With none, the wallet pm signs orders with, as pm whoami shows it: PM_PRIVATE_KEY's when it is set, else the profile's wallet (or the one named default). With --json: {name, address, source}, source PM_PRIVATE_KEY or keystore.",
  args: { name: { description: 'wallet name (default: the one pm signs with)' } },
  examples: ['pm wallet address', 'pm wallet address bot', 'pm --json wallet address | jq -r .address'],
  run: async (ctx, { args }) => {
    // No name: the signing wallet, in whoami's order (the environment's key first).
    if (args.name === undefined) {
      const creds = await ctx.credentials();
      if (creds.sources.wallet === 'env' && creds.address !== null) {
        const address = creds.address;
        ctx.out.data({ name: null, address, source: 'PM_PRIVATE_KEY' }, () => ctx.out.line(address));
        return;
      }
    }
    const name = walletName(args.name, ctx.profile().wallet ?? 'default');
    const address = (await ctx.keystore()).walletAddress(name);
    ctx.out.data({ name, address, source: 'keystore' }, () => ctx.out.line(address));
  },
});
