import { cutFirst, hideFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'list'],
  effect: 'read',
  summary: 'List wallets and their addresses (no passphrase needed)',
  examples: ['pm wallet list', 'pm --json wallet list', 'pm -o ndjson wallet list | jq -r .address'],
  run: async (ctx) => {
    const ks = await ctx.keystore();
    const active = ctx.profile().wallet;
    const list = ks.listWallets().map((w) => ({
      name: w.name,
      address: w.address,
      path: w.path,
      createdAt: w.createdAt,
      active: w.name === active,
      ...(w.error ? { error: w.error } : {}),
    }));
    ctx.out.data(list, () =>
      ctx.out.table(
        [
          { header: '' },
          { header: 'WALLET' },
          { header: 'ADDRESS' },
          { header: 'CREATED', fit: hideFirst(2) },
          { header: 'FILE', fit: cutFirst(1) },
        ],
        list.map((w) => [w.active ? '*' : '', w.name, w.address ?? `(unreadable: ${w.error ?? '?'})`, w.createdAt.slice(0, 19), w.path]),
      ),
    );
  },
});
